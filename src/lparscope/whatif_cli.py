"""``lparscope whatif ESTATE``: replay the shared pools on measured use, today vs changed settings.

Changes come from ``--change HOST.ATTR=VALUE`` (repeatable) and ``--changes FILE`` (JSON or a
small YAML mapping, see ``simulate/changes.py``); without either, from the measured sizing
(``--from sizing``) or the plan's partition changes (``--from plan``); by default the plan
when it changes processors on the frame, else the sizing. Each plan step is also replayed on top
of the ones before it, and a step that starves a partition it does not touch is flagged.

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

from .report.say import escape, tagged

EXIT_OK, EXIT_USAGE = 0, 2


def parse_target(text: str) -> Any:
    """``NAME=CORES[:MEMORY_GB]`` -> a consolidation target (memory unbounded when not given)."""
    import re

    from .simulate.consolidate import Target

    m = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*=\s*([0-9.]+)\s*(?::\s*([0-9.]+)\s*)?", text)
    if not m:
        raise ValueError(f"--onto {text!r}: expected NAME=CORES or NAME=CORES:MEMORY_GB, e.g. p10a=24:1024")
    try:
        cores = float(m.group(2))
        mem = float(m.group(3)) * 1024 if m.group(3) else float("inf")
    except ValueError:
        raise ValueError(f"--onto {text!r}: cores and memory must be numbers") from None
    return Target(m.group(1), cores, mem, vios_pair=True)


def consolidation(traces: list[Any], onto: list[Any], wpar: list[str], headroom: float,
                  censored_extra: float = 0.10) -> dict[str, Any]:
    """The consolidation part of the report: measured client partitions onto targets, and
    named LPARs into WPARs on one global LPAR."""
    from .simulate.consolidate import Candidate, place, wpar_global

    out: dict[str, Any] = {}
    grid = traces[0].times
    same = [tr for tr in traces if tr.times.shape == grid.shape and (tr.times == grid).all()]
    cands = []
    for tr in same:
        demand = tr.demand(censored_extra)
        for i, lab in enumerate(tr.labels):
            p = tr.settings.partitions[i]
            if tr.vios[i] or tr.source[i].startswith("assumed") or p.dedicated:
                continue
            cands.append(Candidate(lab, demand[i], tr.memory_mb[i], tr.virtual_io[i], tr.frame))
    if onto:
        res = place(cands, onto, headroom=headroom)
        out.update(res.report)
        out["not_on_the_grid"] = [lab for tr in traces if tr not in same for lab in tr.labels]
        out["source"] = "measured traces (peak of the sum per target); 000_31a80e54567cd02b.txt §3.1"
    if wpar:
        by = {c.name: c for c in cands}
        missing = [n for n in wpar if n not in by]
        if missing:
            out["wpar_error"] = "no measured trace for: " + ", ".join(missing)
        else:
            mem = {n: by[n].memory_mb for n in wpar}
            g = wpar_global(grid, {n: by[n].demand for n in wpar}, None, traces[0].settings.cores)
            g["memory_allocated_mb"] = sum(mem.values())
            out["wpar"] = g
    return out


def run(paths: list[str], change: list[str], changes_file: Optional[Path], source: str,
        censored_extra: float, json_out: Optional[Path], html_out: Optional[Path], quiet: bool,
        onto: list[str] | None = None, wpar: str | None = None, headroom: float = 0.10) -> int:
    from .pipeline import analyze as run_analysis
    from .simulate import changes as ch
    from .simulate.scenario import replay_estate
    from .simulate.traces import estate_traces

    out, err = Console(), Console(stderr=True)
    from .report.targets import check_targets

    clash = check_targets(paths, {"--json": json_out, "--html": html_out})
    if clash:
        err.print(tagged("error", str(clash)), highlight=False)
        return EXIT_USAGE
    wanted: list[ch.Change] = []
    try:
        wanted += [ch.parse_option(c) for c in change]
        if changes_file is not None:
            try:
                text = changes_file.read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError) as exc:
                err.print(tagged("error", f"cannot read {changes_file}: {exc}"))
                return EXIT_USAGE
            wanted += ch.parse_file(text, str(changes_file))
    except ch.ChangeError as exc:
        err.print(tagged("error", str(exc)), highlight=False)
        return EXIT_USAGE
    try:
        targets = [parse_target(t) for t in onto or []]
    except ValueError as exc:
        err.print(tagged("error", str(exc)), highlight=False)
        return EXIT_USAGE
    if not 0 <= headroom < 1:
        err.print(tagged("error", "--headroom must be a fraction between 0 and 1, e.g. 0.10"))
        return EXIT_USAGE
    wpars = [w.strip() for w in (wpar or "").split(",") if w.strip()]
    if censored_extra < 0 or censored_extra > 10:
        err.print(tagged("error", "--censored-extra must be between 0 and 10 (a fraction: 0.10 = 10 %)"))
        return EXIT_USAGE
    analysis = run_analysis(paths)
    traces = estate_traces(analysis.estate)
    if not traces:
        err.print(tagged("error", "no frame with measured processor use (HMC lslparutil samples or nmon "
                  "recordings of partitions the HMC data names) in: " + " ".join(paths)))
        return EXIT_USAGE
    names = {lab for tr in traces for lab in tr.labels} | {f"pool{p.pool}" for tr in traces for p in tr.settings.partitions}
    if wanted:
        missing = ch.unmatched(wanted, names)
        if missing:
            err.print(tagged("error", "no replayed partition or pool named: " + ", ".join(sorted({c.target for c in missing}))
                      + " (known: " + ", ".join(sorted(names)) + ")"), highlight=False)
            return EXIT_USAGE
    def note(text: str) -> None:
        err.print(tagged("note", str(text)), highlight=False)

    frames, comparisons, origin = replay_estate(analysis.plan, traces, wanted, source, censored_extra, note)
    section: dict[str, Any] = {"changes_from": origin, "censored_extra": censored_extra, "frames": frames}
    from .simulate.ame import estate_ame

    ame = estate_ame(analysis.estate)
    if ame:
        section["ame"] = ame
    if targets or wpars:
        section["consolidation"] = consolidation(traces, targets, wpars, headroom, censored_extra)
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
            out.print(f"{label} report: {target}", markup=False)
    return EXIT_OK if ok else EXIT_USAGE


def analysis_whatif(analysis: Any, charts: bool = True) -> tuple[dict[str, Any] | None, list[Any]]:
    """The ``whatif`` section of an analysis report and its comparisons (for charts; none when not
    ``charts``: a thousand hosts' replays hold 12 MB): today's settings against the plan (or the
    measured sizing) on every frame with traces; None when none."""
    from .simulate.ame import estate_ame
    from .simulate.scenario import replay_estate
    from .simulate.traces import estate_traces

    traces = getattr(analysis, "traces", None) or estate_traces(analysis.estate)  # built once, by the plan's replay
    ame = estate_ame(analysis.estate)
    if not traces and not ame:
        return None, []
    frames, comparisons, origin = replay_estate(getattr(analysis, "plan", None), traces, [], "auto", keep=charts)
    section: dict[str, Any] = {"changes_from": origin, "censored_extra": 0.10, "frames": frames}
    if ame:
        section["ame"] = ame
    return section, comparisons


def _version() -> str:
    from . import __version__
    return __version__


def _write(path: Path, text: str, err: Console) -> bool:
    try:
        path.write_text(text, encoding="utf-8")
        return True
    except OSError as exc:
        err.print(tagged("error", f"cannot write {path}: {exc.strerror or exc}"))
        return False


def _terminal_consolidation(out: Console, con: dict[str, Any]) -> None:
    for t in con.get("targets", []):
        out.print(f"\n[bold]Onto {escape(t['name'])}[/] ({t['cores']:g} cores): {escape(', '.join(t['partitions'])) or 'nothing'}; "
                  f"peak of the sum {t['peak_sum']:g} cores (sum of peaks {t['sum_of_peaks']:g}), "
                  f"headroom {t['headroom_cores']:g} cores", highlight=False)
    for u in con.get("unplaced", []):
        out.print(tagged("did not fit", f"{u['partition']}: {u['reason']}"), highlight=False)
    if "wpar_error" in con:
        out.print(tagged("WPAR consolidation", f"{con['wpar_error']}"), highlight=False)
    g = con.get("wpar")
    if g:
        out.print(f"\n[bold]WPARs[/] {escape(', '.join(g['wpars']))} on one global LPAR: EC {g['recommended_ec']}, "
                  f"{g['recommended_vp']} VP (sum of averages {g['sum_of_averages']:g}, peak of the sum "
                  f"{g['peak_of_sum']:g}, sum of peaks {g['sum_of_peaks']:g}; {escape(str(g['source']))})", highlight=False)


def _terminal(out: Console, section: dict[str, Any], quiet: bool) -> None:
    out.print(f"[bold]What if[/]: today's settings against {escape(str(section['changes_from']))}", highlight=False)
    for f in section["frames"]:
        out.print(f"\n[bold]Frame {escape(f['frame'])}[/]: {f['intervals']} intervals of {f['step_s'] // 60} min "
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
        out.print(t, markup=False)
        out.print(f"entitled {f['entitled_before']:g} -> {f['entitled_after']:g} cores; "
                  f"intervals with a starved partition: {f['starved_intervals_before']} -> {f['starved_intervals_after']}",
                  highlight=False, markup=False)
        out.print(f["verdict"], highlight=False, markup=False)
        for st in f["plan_steps"]:
            for v in st["starves"]:
                out.print(tagged("warning", f"plan step {st['step']} starves {v['partition']} in "
                          f"{v['more_intervals']} more interval(s)"), highlight=False)
        for v in f["starved_by_change"]:
            out.print(tagged("warning", f"the changes starve {v}, which they do not touch"), highlight=False)
        for pr in f["problems_new"]:
            out.print(tagged("warning", f"the changed settings are not valid: {pr}"), highlight=False)
        for n in f["notes"]:
            out.print(f"note: {n}", highlight=False, markup=False)
    if section.get("consolidation"):
        _terminal_consolidation(out, section["consolidation"])
    for host, m in (section.get("ame") or {}).items():
        rec, runs = m.get("recommended"), m.get("across_runs") or {}
        line = f"\n[bold]AME {escape(host)}[/]: {m['runs']} amepat run(s)"
        if rec:
            line += (f"; recommended factor {rec['factor']} = {rec['true_memory_mb']:.0f} MB true memory, "
                     f"AME CPU {rec['ame_cpu'] if rec['ame_cpu'] is not None else '?'} cores")
        if m.get("knee"):
            k = m["knee"]
            line += f"; most memory saved per AME core at factor {k['factor']} ({k['true_memory_mb']:.0f} MB, {k['ame_cpu']} cores)"
        out.print(line, highlight=False)
        if runs.get("oscillating"):
            out.print(tagged("warning", f"{host}: {runs['verdict']} ({runs['source']})"), highlight=False)


def register(app: typer.Typer) -> None:
    @app.command("whatif")
    def whatif(
        paths: list[str] = typer.Argument(..., help="The estate: files, folders or bundles, as for analyze."),
        change: list[str] = typer.Option([], "--change", help="HOST.ATTR=VALUE, e.g. aix1.ec=1.2 or aix1.vp=3 (repeatable)."),
        changes_file: Optional[Path] = typer.Option(None, "--changes", help="JSON or YAML file: host: {ec: 1.2, vp: 3}."),
        source: str = typer.Option("auto", "--from", help="Without changes: the 'plan', the measured 'sizing', or 'auto' (the plan when it changes processors, else the sizing)."),
        censored_extra: float = typer.Option(0.10, "--censored-extra", help="Demand assumed above a measured use that sat at a ceiling (fraction)."),
        json_out: Optional[Path] = typer.Option(None, "--json", help="Write the what-if report as JSON (section 'whatif')."),
        html_out: Optional[Path] = typer.Option(None, "--html", help="Write a self-contained HTML page with charts."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Only partitions changed or starved."),
        onto: list[str] = typer.Option([], "--onto", help="Consolidate the measured partitions onto NAME=CORES[:MEMORY_GB] (repeatable)."),
        wpar: Optional[str] = typer.Option(None, "--wpar", help="Size one global LPAR for these LPARs as WPARs: host1,host2,..."),
        headroom: float = typer.Option(0.10, "--headroom", help="Share of each target's cores kept free when consolidating."),
    ) -> None:
        """Replay the shared processor pools on measured use: today's settings against changed ones."""
        if source not in ("auto", "sizing", "plan"):
            Console(stderr=True).print(tagged("error", "--from must be auto, plan or sizing"))
            raise typer.Exit(EXIT_USAGE)
        raise typer.Exit(run(paths, change, changes_file, source, censored_extra, json_out, html_out, quiet,
                             onto, wpar, headroom))
