"""``lparscope whatif ESTATE``: replay the shared pools on measured use, today vs changed settings.

Changes come from ``--change HOST.ATTR=VALUE`` (repeatable) and ``--changes FILE`` (JSON or a
small YAML mapping, see ``simulate/changes.py``); without either, from the measured sizing
(``--from sizing``) or, once the plan stage is available, the plan's partition changes
(``--from plan``).

Exit codes: 0 replayed; 2 usage error (unreadable or unknown change, nothing to replay, an output
that could not be written).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

EXIT_OK, EXIT_USAGE = 0, 2


def verdict(f: dict[str, Any], short: int) -> str:
    """One sentence: do the changes starve fewer intervals, and if not, why not."""
    b, a = f["starved_intervals_before"], f["starved_intervals_after"]
    if not f["changes"]:
        return "No change applies to this frame: both replays are the same."
    if a < b:
        return f"The changes reduce the intervals with a starved partition from {b} to {a}."
    why = []
    if short:
        why.append(f"in {short} interval(s) the partitions want more than the pool's cores: no setting can serve them all")
    if f["starved_by_change"]:
        why.append("the changes take capacity from " + ", ".join(f["starved_by_change"]))
    if f["problems_new"]:
        why.append("the changed settings are not valid as written")
    reason = "; ".join(why) or "the changes do not raise the ceilings where the demand was refused"
    return f"The changes do not reduce the starved intervals ({b} -> {a}): {reason}."


def run(paths: list[str], change: list[str], changes_file: Optional[Path], source: str,
        censored_extra: float, json_out: Optional[Path], html_out: Optional[Path], quiet: bool) -> int:
    from .pipeline import analyze as run_analysis
    from .simulate import changes as ch
    from .simulate.proposal import sizing_changes
    from .simulate.replay import compare, summary
    from .simulate.traces import describe, estate_traces

    out, err = Console(), Console(stderr=True)
    wanted: list[ch.Change] = []
    try:
        wanted += [ch.parse_option(c) for c in change]
        if changes_file is not None:
            try:
                text = changes_file.read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError) as exc:
                err.print(f"[red]error:[/] cannot read {changes_file}: {exc}")
                return EXIT_USAGE
            wanted += ch.parse_file(text, str(changes_file))
    except ch.ChangeError as exc:
        err.print(f"[red]error:[/] {exc}", highlight=False)
        return EXIT_USAGE
    if censored_extra < 0 or censored_extra > 10:
        err.print("[red]error:[/] --censored-extra must be between 0 and 10 (a fraction: 0.10 = 10 %)")
        return EXIT_USAGE
    analysis = run_analysis(paths)
    traces = estate_traces(analysis.estate)
    if not traces:
        err.print("[red]error:[/] no frame with measured processor use (HMC lslparutil samples or nmon "
                  "recordings of partitions the HMC data names) in: " + " ".join(paths))
        return EXIT_USAGE
    names = {lab for tr in traces for lab in tr.labels} | {f"pool{p.pool}" for tr in traces for p in tr.settings.partitions}
    if wanted:
        missing = ch.unmatched(wanted, names)
        if missing:
            err.print("[red]error:[/] no replayed partition or pool named: " + ", ".join(sorted({c.target for c in missing}))
                      + " (known: " + ", ".join(sorted(names)) + ")", highlight=False)
            return EXIT_USAGE
    origin = "your changes" if wanted else ("the plan" if source == "plan" else "the measured sizing (000 §3.1)")
    comparisons, frames = [], []
    for tr in traces:
        todo = wanted
        if not wanted:
            todo = _plan_changes(analysis, tr) if source == "plan" else sizing_changes(tr, censored_extra)
            if todo is None:
                err.print("[yellow]note:[/] no plan available in this build: replaying the measured sizing instead")
                todo, origin = sizing_changes(tr, censored_extra), "the measured sizing (000 §3.1)"
        new, used, notes = ch.apply(tr.settings, todo)
        c = compare(tr, new, used, notes, censored_extra)
        s = summary(c)
        shared = [i for i, p in enumerate(tr.settings.partitions) if not p.dedicated]
        short = int((c.demand[shared].sum(axis=0) > c.before.capacity + 1e-6).sum())
        s["intervals_short_of_cores"] = short
        s["verdict"] = verdict(s, short)
        s["trace"] = describe(tr)
        comparisons.append(c)
        frames.append(s)
    section = {"changes_from": origin, "censored_extra": censored_extra, "frames": frames}
    report = {"schema": "lparscope.whatif/1", "version": _version(), "whatif": section}
    _terminal(out, section, quiet)
    ok = True
    if json_out is not None:
        ok &= _write(json_out, json.dumps(report, indent=2, sort_keys=False) + "\n", err)
    if html_out is not None:
        from .report.whatif_html import render_whatif_html, whatif_charts
        ok &= _write(html_out, render_whatif_html(report, whatif_charts(comparisons)), err)
    for label, target in (("JSON", json_out), ("HTML", html_out)):
        if target is not None:
            out.print(f"{label} report: {target}")
    return EXIT_OK if ok else EXIT_USAGE


def _plan_changes(analysis: Any, tr: Any) -> Any:
    """The plan's partition changes for this frame, or None when no plan stage is available."""
    try:
        from .simulate.plan_bridge import plan_changes
    except ImportError:
        return None
    return plan_changes(analysis, tr)


def _version() -> str:
    from . import __version__
    return __version__


def _write(path: Path, text: str, err: Console) -> bool:
    try:
        path.write_text(text, encoding="utf-8")
        return True
    except OSError as exc:
        err.print(f"[red]error:[/] cannot write {path}: {exc.strerror or exc}")
        return False


def _terminal(out: Console, section: dict[str, Any], quiet: bool) -> None:
    out.print(f"[bold]What if[/]: today's settings against {section['changes_from']}", highlight=False)
    for f in section["frames"]:
        out.print(f"\n[bold]Frame {f['frame']}[/]: {f['intervals']} intervals of {f['step_s'] // 60} min "
                  f"({f['start']} to {f['end']})", highlight=False)
        t = Table(show_edge=False, pad_edge=False)
        for col in ("partition", "today", "changed", "starved", "unmet core-h", "worst unmet"):
            t.add_column(col)
        for p in f["partitions"]:
            if quiet and not p["changed"] and not p["before"]["starved_intervals"] and not p["after"]["starved_intervals"]:
                continue
            sb, sa = p["settings_before"], p["settings_after"]
            t.add_row(p["partition"], f"EC {sb['ec']:g} / {sb['vp']:g} VP {sb['mode']}",
                      f"EC {sa['ec']:g} / {sa['vp']:g} VP {sa['mode']}" if p["changed"] else "",
                      f"{p['before']['starved_intervals']} -> {p['after']['starved_intervals']}",
                      f"{p['before']['unmet_core_hours']:g} -> {p['after']['unmet_core_hours']:g}",
                      f"{p['after']['worst_unmet']:g}" + (f" at {p['after']['worst_at']}" if p['after']['worst_at'] else ""))
        out.print(t)
        out.print(f"entitled {f['entitled_before']:g} -> {f['entitled_after']:g} cores; "
                  f"intervals with a starved partition: {f['starved_intervals_before']} -> {f['starved_intervals_after']}",
                  highlight=False)
        out.print(f["verdict"], highlight=False)
        for v in f["starved_by_change"]:
            out.print(f"[yellow]warning:[/] the changes starve {v}, which they do not touch", highlight=False)
        for pr in f["problems_new"]:
            out.print(f"[yellow]warning:[/] the changed settings are not valid: {pr}", highlight=False)
        for n in f["notes"]:
            out.print(f"note: {n}", highlight=False)


def register(app: typer.Typer) -> None:
    @app.command("whatif")
    def whatif(
        paths: list[str] = typer.Argument(..., help="The estate: files, folders or bundles, as for analyze."),
        change: list[str] = typer.Option([], "--change", help="HOST.ATTR=VALUE, e.g. aix1.ec=1.2 or aix1.vp=3 (repeatable)."),
        changes_file: Optional[Path] = typer.Option(None, "--changes", help="JSON or YAML file: host: {ec: 1.2, vp: 3}."),
        source: str = typer.Option("sizing", "--from", help="Without changes: replay the measured 'sizing' or the 'plan'."),
        censored_extra: float = typer.Option(0.10, "--censored-extra", help="Demand assumed above a measured use that sat at a ceiling (fraction)."),
        json_out: Optional[Path] = typer.Option(None, "--json", help="Write the what-if report as JSON (section 'whatif')."),
        html_out: Optional[Path] = typer.Option(None, "--html", help="Write a self-contained HTML page with charts."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Only partitions changed or starved."),
    ) -> None:
        """Replay the shared processor pools on measured use: today's settings against changed ones."""
        if source not in ("sizing", "plan"):
            Console(stderr=True).print("[red]error:[/] --from must be sizing or plan")
            raise typer.Exit(EXIT_USAGE)
        raise typer.Exit(run(paths, change, changes_file, source, censored_extra, json_out, html_out, quiet))
