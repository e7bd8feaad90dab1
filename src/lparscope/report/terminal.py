"""The terminal summary, in the order a reader needs it: summary, top actions, hosts, sizing, then
the findings per host, one line each (or a roll-up when they fill more than a screen).

Output is the same whatever the terminal width: lines are never wrapped or cut (a pipe or a file
gets them whole), and colour is used only on an interactive terminal. Lines are built as plain
strings and written in one go when not on a terminal, so 1,000 hosts cost milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from rich.console import Console
from rich.text import Text

from .plan_terminal import plan_lines
from .triage import (SEVERITIES, by_frame, by_rule, counts, host_frames, main_command, natural_key, plural, select,
                     short_label, top_actions, unrecognised_reasons)

SCREENFUL = 60  # lines: more findings lines than this and the list becomes a roll-up (unless --show all)
_STYLE = {"critical": "bold red", "warning": "yellow", "info": "cyan",
          "parsed": "green", "partly": "yellow", "unrecognised": "red", "head": "bold", "dim": "dim"}
_LETTER = {"critical": "C", "warning": "W", "info": "I"}


@dataclass
class View:
    """What the reader asked to see (the CLI flags)."""
    inputs: bool = False                      # list every input (--inputs / -v)
    quiet: bool = False                       # summary, top actions and hosts only (-q)
    show_all: bool = False                    # every finding even on a large estate (--show all)
    severities: list[str] = field(default_factory=list)
    hosts: list[str] = field(default_factory=list)
    areas: list[str] = field(default_factory=list)


class _Lines:
    """Lines as (text, style) segments; plain text when the console is not an interactive terminal."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.color = bool(console.is_terminal and not console.no_color)
        self.lines: list[list[tuple[str, str | None]]] = []

    def add(self, *parts: str | tuple[str, str | None]) -> None:
        self.lines.append([(p, None) if isinstance(p, str) else p for p in parts])

    def head(self, title: str) -> None:
        self.lines.append([])
        self.add((title, "head"))

    def flush(self) -> None:
        if not self.color:
            self.console.file.write("".join("".join(t for t, _ in line) + "\n" for line in self.lines))
            self.console.file.flush()
        else:
            for line in self.lines:
                self.console.print(Text.assemble(*((t, _STYLE.get(s, s) if s else "") for t, s in line)),
                                   soft_wrap=True, highlight=False)
        self.lines = []


def _table(rows: list[list[str]], out: _Lines, styles: list[str | None] | None = None, indent: str = "") -> None:
    """Columns padded to their widest cell (never to the terminal's width)."""
    if not rows:
        return
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for n, r in enumerate(rows):
        text = indent + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
        out.add((text, "head" if n == 0 else (styles[n - 1] if styles else None)))


def _fmt(v: Any) -> str:
    if v is None or v == "":
        return "-"
    return str(v)


def _summary(report: dict[str, Any], findings: list[dict[str, Any]], view: View, out: _Lines) -> None:
    summ = report.get("summary") or {}
    files = summ.get("files") or {}
    hosts = report.get("hosts") or []
    roles: dict[str, int] = {}
    for h in hosts:
        roles[h.get("role") or "unknown"] = roles.get(h.get("role") or "unknown", 0) + 1
    frames = report.get("frames") or []
    c = counts(findings)
    out.add((f"lparscope {report.get('lparscope_version') or ''}".rstrip(), "head"),
            f"  {len(hosts)} host(s)" + (" (" + ", ".join(f"{n} {r.upper() if r in ('aix', 'vios', 'hmc') else r.capitalize() if r == 'linux' else r}"
                                                          for r, n in sorted(roles.items())) + ")" if roles else "")
            + f", {len(frames)} frame(s)" + (": " + ", ".join(short_label(str(f.get("name"))) for f in frames[:5]) if frames else "")
            + (" ..." if len(frames) > 5 else ""))
    read = files.get("parsed", 0) + files.get("partly", 0)
    repeated = summ.get("repeated_inputs") or 0  # the same file given twice (overlapping paths, links): read once
    pairs = summ.get("repeated") or []
    out.add(f"inputs: {read} output(s) read ({files.get('partly', 0)} partly), "
            f"{files.get('unrecognised', 0)} unrecognised"
            + (f", {repeated} repeated input(s) skipped (the same file given again"
               + (f": {pairs[0]['path']} is {pairs[0]['same_as']}" + (" ..." if len(pairs) > 1 else "") if pairs else "")
               + ")" if repeated else "")
            + ("" if view.inputs else "  (list: --inputs)"))
    reasons = unrecognised_reasons(report)
    for reason, n in reasons[:5]:
        out.add(("  unrecognised ", "unrecognised"), f"{n} x {reason}")
    if len(reasons) > 5:
        out.add(f"  ... {len(reasons) - 5} other reason(s)")
    filt = [f"{k} {'/'.join(v)}" for k, v in (("severity", view.severities), ("host", view.hosts),
                                                ("area", view.areas)) if v]
    out.add("findings: ", (f"{c['critical']} critical", "critical"), ", ", (f"{c['warning']} warning", "warning"),
            ", ", (f"{c['info']} info", "info"), f" ({_concerned(len({f.get('host') for f in findings}))} concerned)"
            + (f"  (filtered: {'; '.join(filt)})" if filt else ""))
    _joins(report, out)
    plan = report.get("plan")
    headline = plan.get("headline") if isinstance(plan, dict) else None
    if headline:
        out.add(("plan: ", "head"), str(headline))


JOINS_SHOWN = 8  # refused or ambiguous joins listed in the summary (all of them: --inputs, HTML, JSON "joins")


def _joins(report: dict[str, Any], out: _Lines, every: bool = False) -> None:
    """Hosts joined to partitions of the HMC data, by basis; joins refused or ambiguous as warnings."""
    joins = [j for j in report.get("joins") or [] if isinstance(j, dict)]
    if not joins:
        return
    joined = [j for j in joins if j.get("status") == "joined"]
    bases: dict[str, int] = {}
    for j in joined:
        bases[str(j.get("basis"))] = bases.get(str(j.get("basis")), 0) + 1
    warn = [j for j in joins if j.get("status") in ("refused", "ambiguous")]
    rest = len(joins) - len(joined) - len(warn)
    out.add(f"joins: {len(joined)} host(s) joined to frame partitions"
            + (" (" + ", ".join(f"{n} by {b}" for b, n in sorted(bases.items())) + ")" if bases else "")
            + (f"; {len(warn)} refused or ambiguous" if warn else "")
            + (f"; {rest} with no partition in the HMC data" if rest else ""))
    shown = joins if every else warn[:JOINS_SHOWN]
    for j in shown:
        status = str(j.get("status"))
        where = f" -> {j.get('frame')}/{j.get('partition')} by {j.get('basis')}" if status == "joined" else ""
        cands = [str(c) for c in j.get("candidates") or []]
        cands = cands if every or len(cands) <= 3 else [*cands[:3], f"+{len(cands) - 3} more"]
        text = (f" {j.get('host')}{where}" + (f" ({'; '.join(map(str, cands))})" if cands and status != "joined" else "")
                + (f": {j.get('reason')}" if j.get("reason") else ""))
        out.add((f"  {status:<9}", "warning" if status in ("refused", "ambiguous") else None), text)
    if not every and len(warn) > JOINS_SHOWN:
        out.add(f"  ... {len(warn) - JOINS_SHOWN} more (every join: --inputs, or the HTML / JSON report)")


def _actions(report: dict[str, Any], findings: list[dict[str, Any]], out: _Lines) -> None:
    acts = top_actions(report, 10, findings)
    if not acts:
        return
    out.head("Top actions")
    for n, a in enumerate(acts, start=1):
        sev = a["severity"]
        more = f" (+{', '.join(a['rules'][1:])})" if len(a["rules"]) > 1 else ""
        needs = f"  [{', '.join(a['disruption'])}]" if a["disruption"] else ""
        hosts = a.get("hosts") or [a["host"]]
        if len(hosts) > 1:  # the same action on several hosts: one entry, the hosts named
            names = ", ".join(hosts[:ACTION_HOSTS]) + (f", ... +{len(hosts) - ACTION_HOSTS} more"
                                                        if len(hosts) > ACTION_HOSTS else "")
            out.add(f"{n:>2}. ", (f"{sev.upper():<8}", sev), f" {a['rules'][0]}{more} on {len(hosts)} hosts ({names}): "
                    f"{a['subject']}: {a['title']}{needs}")
        else:
            out.add(f"{n:>2}. ", (f"{sev.upper():<8}", sev), f" {a['host']} {a['subject']}: {a['title']}  "
                    f"{a['rules'][0]}{more}{needs}")
        if a["change"]:
            out.add(f"      {a['change']}")
        if a["command"]:
            example = f"on {a['command_host']}: " if len(hosts) > 1 and a.get("command_host") else ""
            out.add("      " + example, (a["command"], "green" if out.color else None))


HOSTS_SHOWN = 25  # hosts in the table before it is cut to those with the most findings
ACTION_HOSTS = 6  # hosts named on a top action taken on several (all of them: the HTML / JSON report)


def _concerned(n: int) -> str:
    return f"{n} host, partition or frame" if n == 1 else f"{n} hosts, partitions or frames"


def _rank(h: dict[str, Any]) -> tuple[Any, ...]:
    """Most critical findings first, then most warnings, then most info, then by name."""
    c = h.get("counts") or {}
    return (*(-(c.get(s) or 0) for s in SEVERITIES), natural_key(h.get("name") or ""))


def _hosts(report: dict[str, Any], out: _Lines, show_all: bool = False) -> None:
    hosts = report.get("hosts") or []
    if not hosts:
        return
    frames = host_frames(report)
    out.head("Hosts")
    hosts = sorted(hosts, key=_rank)  # so that the hosts a cut leaves out have fewer findings
    cut = 0
    if len(hosts) > HOSTS_SHOWN and not show_all:
        cut = len(hosts) - HOSTS_SHOWN
        hosts = hosts[:HOSTS_SHOWN]
    rows = [["host", "role", "frame", "mode", "EC", "VP", "weight", "mem MB", "level", "crit", "warn", "info"]]
    for h in hosts:
        s, c = h.get("summary") or {}, h.get("counts") or {}
        rows.append([str(h.get("name")), str(h.get("role") or ""), short_label(frames.get(h.get("name") or "", "-")), _mode(s),
                     _fmt(s.get("entitled_capacity")), _fmt(s.get("virtual_processors")), _fmt(s.get("weight")),
                     _fmt(s.get("online_memory_mb")), _fmt(s.get("ioslevel") or s.get("oslevel")),
                     *(str(c.get(k, 0)) if c.get(k) else "-" for k in SEVERITIES)])
    _table(rows, out, indent="  ")
    if cut:
        out.add(f"  ... {plural(cut, 'more host')} with fewer or less severe findings "
                "(every one: --show all, or the HTML / JSON report)")


def _sizing_gap(z: dict[str, Any]) -> float:
    """How far a host's settings are from its sizing (relative EC difference plus VPs apart)."""
    ec, rec = z.get("current_ec"), z.get("recommended_ec")
    vp, rvp = z.get("current_vp"), z.get("recommended_vp")
    gap = abs(rec - ec) / ec if ec and rec is not None else 0.0
    return gap + (abs(rvp - vp) / max(vp, 1) if vp and rvp is not None else 0.0)


def _sizing(report: dict[str, Any], out: _Lines, show_all: bool = False, quiet: bool = False) -> None:
    # (host name, sizing), each sizing read once: a report's host may be a view that makes it when read
    sized = [(h.get("name"), z) for h in report.get("hosts") or [] if (z := h.get("sizing"))]
    if not sized:
        return
    out.head("Sizing from measured use")
    if quiet:  # one line: how many, and the host furthest from its sizing
        name, s = max(sized, key=lambda hz: _sizing_gap(hz[1]))
        out.add(f"  {len(sized)} host(s) sized; furthest from its settings: {name} EC {s.get('current_ec')} -> "
                f"{s.get('recommended_ec')}, {s.get('current_vp')} -> {s.get('recommended_vp')} VP "
                f"(every host: without -q, the HTML or the XLSX Sizing sheet)")
        return
    limit = HOSTS_SHOWN
    more = ""
    if len(sized) > limit and not show_all:
        more = f"  ... {len(sized) - limit} more host(s) sized (every one: --show all, the HTML or the XLSX Sizing sheet)"
        order = sorted(range(len(sized)), key=lambda i: -_sizing_gap(sized[i][1]))[:limit]
        sized = [sized[i] for i in sorted(order)]  # the hosts furthest from their sizing, in report order
    f2 = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
    for name, z in sized:
        pk = z.get("peak") or {}
        window = "-".join(z["peak_window"]) if z.get("peak_window") else "whole recording"
        if z.get("recommended_ec") is None or z.get("recommended_vp") is None:  # measured, but not enough to size from
            why = (z.get("reasons") or ["not enough to size from"])[-1]  # the last reason is the one that stopped it
            advice = f"no recommendation ({why})"
        else:
            advice = (f"EC {f2(z.get('recommended_ec'))}, {z.get('recommended_vp')} VP"
                      f"{' uncapped' if z.get('recommended_uncapped') else ''}")
        out.add(f"  {name}: peak {window} ({z.get('peak_source')}), physc mean {f2(pk.get('mean'))} "
                f"P95 {f2(pk.get('p95'))} max {f2(pk.get('max'))} -> {advice} "
                f"(now EC {z.get('current_ec')}, {z.get('current_vp')} VP)")
    if more:
        out.add(more)


def _per_host(report: dict[str, Any], findings: list[dict[str, Any]], out: _Lines) -> None:
    out.head("Findings per host")
    roles = {h.get("name"): h.get("role") for h in report.get("hosts") or []}
    groups: dict[str, list[dict[str, Any]]] = {}
    for f in findings:
        groups.setdefault(str(f.get("host") or ""), []).append(f)
    rank = {s: n for n, s in enumerate(SEVERITIES)}
    for host, fs in groups.items():
        c = counts(fs)
        out.add((host or "(estate)", "head"), "  " + ", ".join(f"{c[s]} {s}" for s in SEVERITIES if c[s]))
        for f in sorted(fs, key=lambda f: rank.get(f.get("severity"), 9)):
            sev = f.get("severity") or "info"
            cmd = main_command(f, roles.get(host))
            out.add("  ", (_LETTER.get(sev, "?"), sev), f" {f.get('rule_id')}  {f.get('subject')}: {f.get('message')}"
                    + (f"  -> {cmd}" if cmd else ""))


FRAMES_SHOWN = 20  # frames in the "Findings by frame" roll-up


def _rollup(report: dict[str, Any], findings: list[dict[str, Any]], out: _Lines, rules_shown: int = 15) -> None:
    out.head("Findings by rule")
    rows = [["sev", "rule", "findings", "hosts", "title"]]
    styles: list[str | None] = []
    table = by_rule(findings)
    for r in table[:rules_shown]:
        rows.append([r["severity"][:4], r["rule_id"], str(r["findings"]), str(r["hosts"]), r["title"]])
        styles.append(r["severity"])
    _table(rows, out, styles, indent="  ")
    if len(table) > rules_shown:
        out.add(f"  ... {len(table) - rules_shown} more rule(s)")
    frames = by_frame(report, findings)
    if len(frames) > 1 or (frames and frames[0]["frame"] != "(no frame data)"):
        out.head("Findings by frame")
        rows = [["frame", "hosts", "crit", "warn", "info"]]
        for r in frames[:FRAMES_SHOWN]:  # most findings first (triage.by_frame)
            rows.append([short_label(r["frame"]), str(r["hosts"]), *(str(r[s]) for s in SEVERITIES)])
        _table(rows, out, indent="  ")
        if len(frames) > FRAMES_SHOWN:
            rest = frames[FRAMES_SHOWN:]
            none = sum(not any(r[s] for s in SEVERITIES) for r in rest)
            out.add(f"  ... {plural(len(rest), 'more frame')} with fewer or less severe findings"
                    + (f" ({none} with none)" if none else ""))


def _inputs(report: dict[str, Any], out: _Lines) -> None:
    out.head("Inputs")
    for i in report.get("inputs") or []:
        status = i.get("status") or ""
        w = i.get("warnings") or []
        note = i.get("reason") or (f"{len(w)} warning(s), first at line {w[0]['line']}: {w[0]['message']}" if w else "")
        out.add((f"  {status:<12}", status), f" {i.get('path')}:{i.get('line')}  {i.get('kind') or '-'}  "
                f"host={i.get('host') or '-'}" + (f"  {note}" if note else ""))
    for r in (report.get("summary") or {}).get("repeated") or []:
        out.add(("  repeated    ", "dim"), f" {r['path']}  the same file as {r['same_as']}: read once, under that name")


def _joins_listing(report: dict[str, Any], out: _Lines) -> None:
    if report.get("joins"):
        out.head("Joins (host -> partition of the HMC data)")
        _joins(report, out, every=True)


def listing_lines(findings: Iterable[dict[str, Any]]) -> int:
    """Lines the per-host listing would take (one per finding, one per host)."""
    fs = list(findings)
    return len(fs) + len({f.get("host") for f in fs}) + 1


def render_terminal(report: dict[str, Any], console: Console, show_inputs: bool = False,
                    view: View | None = None) -> None:
    """Print the report dict (docs/report-schema.md) for a person at a terminal."""
    view = view or View(inputs=show_inputs)
    out = _Lines(console)
    findings = select(report, view.severities, view.hosts, view.areas)
    if view.inputs:
        _inputs(report, out)
        _joins_listing(report, out)
        out.add("")
    _summary(report, findings, view, out)
    for i, line in enumerate(plan_lines(report.get("plan"), compact=view.quiet)):  # the plan leads (plan_terminal.py)
        out.lines.append([]) if i == 0 else None
        out.add(*line)
    _actions(report, findings, out)
    _hosts(report, out, view.show_all)
    _sizing(report, out, view.show_all, view.quiet)
    if not view.quiet and findings:
        if view.show_all or listing_lines(findings) <= SCREENFUL:
            _per_host(report, findings, out)
        else:
            _rollup(report, findings, out)
            out.add("")
            out.add((f"{len(findings)} findings are rolled up; every one: --show all, or the --html / --json report "
                     "(or narrow with --severity, --host, --area)", "dim"))
    for p in report.get("problems") or []:
        out.add(("problem: ", "critical"), str(p))
    out.flush()


def _mode(s: dict[str, Any]) -> str:
    kind = (s.get("partition_type") or "").split("-")[0].lower()
    mode = (s.get("mode") or "").lower()
    ame = " AME" if "expanded" in (s.get("memory_mode") or "").lower() else ""
    return (f"{kind} {mode}".strip() + ame) or "-"
