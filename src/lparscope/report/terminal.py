"""The terminal summary: inputs, hosts, counts by severity, findings by severity."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

_STYLE = {"critical": "bold red", "warning": "yellow", "info": "cyan",
          "parsed": "green", "partly": "yellow", "unrecognised": "red"}


def render_terminal(report: dict[str, Any], console: Console, show_inputs: bool = True) -> None:
    """Print the report dict (docs/report-schema.md) for a person at a terminal."""
    if show_inputs:
        console.rule("Inputs")
        for i in report["inputs"]:
            status = i["status"]
            note = i["reason"] or (f"{len(i['warnings'])} warning(s), first at line {i['warnings'][0]['line']}: "
                                   f"{i['warnings'][0]['message']}" if i["warnings"] else "")
            console.print(f"[{_STYLE[status]}]{status:<12}[/] {escape(i['path'])}:{i['line']}  "
                          f"{escape(i['kind'] or '-')}  host={escape(i['host'] or '-')}"
                          + (f"  [dim]{escape(note)}[/]" if note else ""), highlight=False, soft_wrap=True)
    console.rule("Hosts")
    t = Table(show_edge=False, header_style="bold")
    for col in ("host", "role", "mode", "EC", "VP", "mem MB", "level", "c/w/i"):
        t.add_column(col, no_wrap=col not in ("mode", "level"))
    for h in report["hosts"]:
        s, c = h["summary"], h["counts"]
        level = s.get("ioslevel") or s.get("oslevel") or ""
        t.add_row(escape(h["name"]), h["role"], _mode(s), _fmt(s.get("entitled_capacity")),
                  _fmt(s.get("virtual_processors")), _fmt(s.get("online_memory_mb")), escape(str(level)),
                  f"{c['critical']}/{c['warning']}/{c['info']}")
    console.print(t)
    sized = [h for h in report["hosts"] if h.get("sizing")]
    if sized:
        console.rule("Sizing from measured use")
        for h in sized:
            z = h["sizing"]
            pk = z.get("peak") or {}
            window = "-".join(z["peak_window"]) if z.get("peak_window") else "whole recording"
            fmt = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
            console.print(f"{escape(h['name'])}: peak {window} ({z.get('peak_source')}), physc mean {fmt(pk.get('mean'))} "
                          f"max {fmt(pk.get('max'))} P95 {fmt(pk.get('p95'))} -> EC {fmt(z.get('recommended_ec'))}, "
                          f"{z.get('recommended_vp')} VP{' uncapped' if z.get('recommended_uncapped') else ''} "
                          f"(now EC {z.get('current_ec')}, {z.get('current_vp')} VP)", highlight=False, soft_wrap=True)
    summ = report["summary"]
    console.rule("Findings")
    fs = summ["findings"]
    console.print(f"[bold red]{fs['critical']} critical[/]  [yellow]{fs['warning']} warning[/]  [cyan]{fs['info']} info[/]"
                  f"   from {summ['files']['parsed'] + summ['files']['partly']} outputs read"
                  f" ({summ['files']['partly']} partly), {summ['files']['unrecognised']} unrecognised")
    for f in report["findings"]:
        sev = f["severity"]
        console.print(f"\n[{_STYLE[sev]}]{sev.upper():<8}[/] [bold]{escape(f['rule_id'])}[/] {escape(f['host'])} "
                      f"{escape(f['subject'])}: {escape(f['title'])}", highlight=False, soft_wrap=True)
        console.print(f"         {escape(f['message'])}", highlight=False, soft_wrap=True)
        for e in f["evidence"][:3]:
            console.print(f"         [dim]{escape(e['path'])}:{e['line']}  {escape(e['excerpt'])}[/]", highlight=False, soft_wrap=True)
        first = (f["fix"]["padmin"] or f["fix"]["root"] or f["fix"]["hmc"] or [""])[0]
        if first:
            console.print(f"         fix: [green]{escape(first)}[/]" + ("  (+more)" if sum(map(len, f['fix'].values())) > 1 else ""),
                          highlight=False, soft_wrap=True)
        if f["disruption"]:
            console.print(f"         needs: {', '.join(f['disruption'])}", highlight=False)
    for p in report.get("problems", []):
        console.print(f"[red]problem:[/] {escape(p)}", highlight=False, soft_wrap=True)


def _mode(s: dict[str, Any]) -> str:
    kind = (s.get("partition_type") or "").split("-")[0].lower()
    mode = (s.get("mode") or "").lower()
    ame = " AME" if "expanded" in (s.get("memory_mode") or "").lower() else ""
    return escape(f"{kind} {mode}".strip() + ame)


def _fmt(v: Any) -> str:
    return "" if v is None else str(v)
