"""Command line: ``lparscope analyze PATH...`` and ``lparscope rules``.

Exit codes
  0  analysis done, no finding at or above --fail-on (the default, never, always gives 0)
  1  analysis done, at least one finding at or above --fail-on
  2  usage error, unreadable configuration, nothing readable in the inputs, or a report not writable
  3  internal error in some input or stage (a bug: the rest was read and every report it could
     was written; the message names the file and line)
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from . import __version__, heap
from .input_items import text_name
from .report.fixscript import render_fix_scripts
from .report.json_report import build_report, write_json, write_json_to
from .pipeline_guard import describe, guarded_charts
from .report.terminal import View, render_terminal
from .report.say import escape, tagged
from .report.targets import check_targets, overwrites_input, write_report
from .rules.config import DEFAULTS, ConfigError, load
from .rules.engine import all_rules

app = typer.Typer(add_completion=False, no_args_is_help=True, context_settings={"help_option_names": ["-h", "--help"]},
                  help="Offline advisor for IBM PowerVM estates: reads AIX / VIOS command outputs and reports findings with fixes.\n\n"
                       "Exit codes: 0 done; 1 findings at or above --fail-on; 2 usage error, nothing readable or a report "
                       "not writable; 3 internal error in some input (the rest is still read and reported).")

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

from .collect import register as register_collector  # noqa: E402

register_collector(app)

from .store.cli import register as register_store  # noqa: E402

register_store(app)  # store, serve, fleet

from .whatif_cli import analysis_whatif, register as register_whatif  # noqa: E402

register_whatif(app)


def _print_version(value: bool) -> None:
    if value:
        print(f"lparscope {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _main(version: bool = typer.Option(False, "--version", "-V", callback=_print_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """Offline advisor for IBM PowerVM estates: reads AIX / VIOS command outputs and reports findings with fixes."""


class FailOn(str, Enum):
    never = "never"
    info = "info"
    warning = "warning"
    critical = "critical"


_RANK = {"critical": 3, "warning": 2, "info": 1}


class _progress:
    """A progress bar over input files on an interactive stderr; silent otherwise."""

    def __init__(self, err: Console) -> None:
        self.err = err
        self.progress = None

    def __enter__(self):  # type: ignore[no-untyped-def]
        if not self.err.is_terminal:
            return None
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                                 console=self.err, transient=True)
        self.progress.start()
        task = self.progress.add_task("reading")

        def step(name: str) -> None:
            self.progress.update(task, description=f"reading {escape(name)}", advance=1)  # type: ignore[union-attr]
        return step

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()


def _split(values: Optional[list[str]]) -> list[str]:
    """Repeated and comma-separated option values as one list."""
    return [v.strip() for x in values or [] for v in x.split(",") if v.strip()]


@app.command()
@heap.long_lived()  # the model lives to the end of the command: the collector stops re-scanning it
def analyze(
    paths: list[str] = typer.Argument(..., help="Files, folders or .tar/.tgz/.zip bundles of command outputs."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Write the JSON report (schema lparscope.report/1); - writes it to standard output (the terminal report then goes to standard error)."),
    html_out: Optional[Path] = typer.Option(None, "--html", help="Write a self-contained HTML report."),
    fix_script: Optional[Path] = typer.Option(None, "--fix-script", help="Write the plan's fix scripts: PATH (an index) and beside it <stem>-<host>.ksh per host and <stem>-hmc.sh, <stem> being PATH's name without its extension (out/fix.ksh: out/fix-aix1.ksh, out/fix-hmc.sh); never run (see docs/plan.md). A folder: fix.ksh, fix-<host>.ksh, fix-hmc.sh in it."),
    xlsx: Optional[Path] = typer.Option(None, "--xlsx", help="Write inventory, frames and findings as an Excel workbook."),
    peak: Optional[str] = typer.Option(None, "--peak", help="Peak window for sizing from nmon data, e.g. 08:00-18:30 (detected when absent)."),
    tz: Optional[str] = typer.Option(None, "--tz", help="Time zone the nmon recordings were taken in, e.g. Europe/Paris (they carry none)."),
    config: Optional[Path] = typer.Option(None, "--config", help="TOML file with thresholds and rule selection."),
    fail_on: FailOn = typer.Option(FailOn.never, "--fail-on", help="Exit 1 when a finding at or above this severity exists."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Terminal: summary, top actions and hosts only (no finding list)."),
    inputs: bool = typer.Option(False, "--inputs", help="Terminal: list every input with its status (default: counts only)."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Terminal: list the inputs and every finding."),
    severity: Optional[list[str]] = typer.Option(None, "--severity", help="Terminal: only these severities (critical, warning, info; repeat or comma-separate)."),
    host: Optional[list[str]] = typer.Option(None, "--host", help="Terminal: only findings of these hosts (repeat or comma-separate)."),
    area: Optional[list[str]] = typer.Option(None, "--area", help="Terminal: only these areas (processor, memory, ame, network, storage, vios, wpar ...)."),
    show: str = typer.Option("auto", "--show", help="Terminal: 'all' lists every finding; 'auto' rolls them up when they fill more than a screen."),
) -> None:
    """Read command outputs, build the estate, check it and report findings.

    Exit codes: 0 done; 1 findings at or above --fail-on; 2 usage error, nothing readable or a
    report not writable; 3 internal error in some input (the rest is still read and reported).
    """
    from .pipeline import analyze as run_analysis

    out, err = Console(), Console(stderr=True)
    clash = check_targets(paths, {"--json": json_out, "--html": html_out, "--xlsx": xlsx, "--fix-script": fix_script})
    if clash:
        err.print(tagged("error", str(clash)), highlight=False)
        raise typer.Exit(EXIT_USAGE)
    if json_out is not None and str(json_out) == "-":
        out = err  # the JSON report goes to standard output alone
    try:
        cfg = load(config)
    except ConfigError as exc:
        err.print(tagged("error", str(exc)))
        raise typer.Exit(EXIT_USAGE)
    unknown = (cfg.disabled | cfg.only | set(cfg.severities)) - set(all_rules())
    if unknown:
        err.print(tagged("error", f"{config}: unknown rule id(s): {', '.join(sorted(unknown))} (see: lparscope rules)"))
        raise typer.Exit(EXIT_USAGE)
    if show not in ("auto", "all"):
        err.print(tagged("error", f"--show must be auto or all, not {show!r}"))
        raise typer.Exit(EXIT_USAGE)
    sevs = _split(severity)
    bad = [x for x in sevs if x.lower() not in _RANK]
    if bad:
        err.print(tagged("error", f"--severity {', '.join(bad)}: use critical, warning or info"))
        raise typer.Exit(EXIT_USAGE)
    view = View(inputs=inputs or verbose, quiet=quiet and not verbose, show_all=show == "all" or verbose,
                severities=[x.lower() for x in sevs], hosts=_split(host), areas=[x.lower() for x in _split(area)])
    peak_window = None
    if peak:
        from .sizing.cpu import parse_peak
        try:
            peak_window = parse_peak(peak)
        except ValueError as exc:
            err.print(tagged("error", f"--peak {peak}: {exc}"))
            raise typer.Exit(EXIT_USAGE)
    try:
        with _progress(err) as step:
            analysis = run_analysis(paths, cfg, peak=peak_window, tz=tz, progress=step)
        report = build_report(analysis, views=True)  # long lists made when read (dict_views.py)
        heap.settle()
    except Exception as exc:  # a bug outside any one input: say so, no traceback
        err.print(tagged("internal error", str(describe(exc))), highlight=False)
        raise typer.Exit(EXIT_INTERNAL)
    internal = list(analysis.internal)
    whatif_runs: list = []
    try:  # the what-if replay (simulate/): a JSON section and HTML charts of its own
        section, whatif_runs = analysis_whatif(analysis, charts=html_out is not None)
        if section:
            report["whatif"] = section
    except Exception as exc:
        internal.append(f"what-if replay: {describe(exc)}")
    try:
        render_terminal(report, out, view=view)
    except Exception as exc:
        internal.append(f"terminal report: {describe(exc)}")
    if any(i.kind == "nmon" for i in analysis.estate.inputs):  # njmon recordings do not use the native core
        from .nmon.native import describe as nmon_path
        err.print(nmon_path(), highlight=False, markup=False)  # once per run: which nmon reader path was used
    written: list[tuple[str, Path]] = []
    failed = False

    def emit(label: str, target: Optional[Path], make) -> None:  # type: ignore[no-untyped-def]
        nonlocal failed
        if target is None:
            return
        why = overwrites_input(target, paths)
        if why:  # a fix script named after a host can meet an input's name only now
            err.print(tagged("error", f"not written: {target}: {why}"), highlight=False)
            failed = True
            return
        if write_report(target, make, err, internal):
            written.append((label, target))
        else:
            failed = True

    if json_out is not None and str(json_out) == "-":
        try:
            write_json_to(report, sys.stdout)
        except Exception as exc:
            internal.append(f"JSON report to standard output: {describe(exc)}")
    else:
        emit("JSON", json_out, lambda p: write_json(report, p))
    if html_out:
        from .report.html import write_html
        from .report.nmon_charts import estate_charts
        charts = guarded_charts(estate_charts, analysis.estate, internal)
        if whatif_runs:
            from .report.whatif_html import whatif_charts
            charts = list(charts or []) + (guarded_charts(whatif_charts, whatif_runs, internal) or [])
        emit("HTML", html_out, lambda p: write_html(report, charts, p))
    if xlsx:
        from .report.frame import export_xlsx
        emit("Excel", xlsx, lambda p: export_xlsx(report, p))
    if fix_script:
        try:
            scripts = render_fix_scripts(report.get("plan") or {}, fix_script)
        except Exception as exc:  # the other reports are written all the same
            internal.append(f"{fix_script}: internal error while writing it: {describe(exc)}")
            err.print(tagged("internal error", f"cannot write {fix_script}: {describe(exc)}"), highlight=False)
            scripts = {}
        for target, text in scripts.items():
            emit("fix script", target, lambda p, text=text: p.write_text(text, encoding="utf-8"))
    for label, target in written:
        out.print(f"{label} report: {target}", highlight=False, soft_wrap=True, markup=False)
    ok = not failed
    read = report["summary"]["files"]["parsed"] + report["summary"]["files"]["partly"]
    if internal:
        for line in internal[:20]:
            err.print(tagged("internal error", str(line)), highlight=False, soft_wrap=True)
        err.print(f"{len(internal)} internal error(s): the rest was read and reported (exit {EXIT_INTERNAL})", markup=False)
        raise typer.Exit(EXIT_INTERNAL)
    if read == 0:
        err.print(tagged("error", "no supported command output found in: " + " ".join(text_name(p) for p in paths)))
        raise typer.Exit(EXIT_USAGE)
    if not ok:
        raise typer.Exit(EXIT_USAGE)
    if fail_on != FailOn.never:
        if any(_RANK[f["severity"]] >= _RANK[fail_on.value] for f in report["findings"]):
            raise typer.Exit(EXIT_FINDINGS)
    raise typer.Exit(EXIT_OK)


@app.command("rules")
def list_rules() -> None:
    """List every rule (id, severity, source) by where it lives under rules/, and every threshold."""
    from .report.citations import cite

    out = Console()
    last = None
    for r in sorted(all_rules().values(), key=lambda r: (r.location, r.id)):
        if r.location != last:
            out.print(f"\n[bold]rules/{escape(r.location)}.py[/]", highlight=False)
            last = r.location
        out.print(f"  [bold]{escape(r.id)}[/] ({r.severity}, {r.category}) {escape(r.title)}\n      source: {escape(cite(r.source))}",
                  highlight=False, soft_wrap=True)
    out.print("\n[bold]Thresholds[/] (set them under \\[thresholds] in a --config TOML file)")
    for name, (value, why) in DEFAULTS.items():
        out.print(f"  {name} = {value:g}  - {why}", highlight=False, markup=False)


@app.command()
def explain(rule_id: str = typer.Argument(..., help="A rule id, as `lparscope rules` lists them."),
            on: Optional[list[str]] = typer.Option(None, "--on", help="Take the example fix from these outputs (default: the example estate of a source checkout).")) -> None:
    """Print one rule: what it checks, why, its sources by title, its thresholds, an example fix and rollback."""
    from .report.explain import explain as show

    rules = all_rules()
    r = rules.get(rule_id) or rules.get(rule_id.upper())
    if r is None:
        near = [rid for rid in rules if rule_id.upper().split("-")[0] in rid]
        Console(stderr=True).print(tagged("error", f"no rule {rule_id}" + (f"; related: {', '.join(sorted(near))}" if near else "")))
        raise typer.Exit(EXIT_USAGE)
    show(r, Console(), on)


nmon_app = typer.Typer(help="nmon recordings: export their tables for other tools.")
app.add_typer(nmon_app, name="nmon")


@nmon_app.command("export")
def nmon_export(
    file: Path = typer.Argument(..., help="An nmon or njmon recording (plain or gzip)."),
    to: str = typer.Option("csv", "--to", help="csv or parquet"),
    outdir: Path = typer.Argument(..., help="Folder for the tables (created when missing; required, so tables never land in the current folder by accident)."),
    tz: Optional[str] = typer.Option(None, "--tz", help="Time zone the recording was taken in."),
) -> None:
    """Write every table of an nmon recording as CSV or Parquet, one file per section."""
    err = Console(stderr=True)
    if to not in ("csv", "parquet"):
        err.print(tagged("error", "--to must be csv or parquet"))
        raise typer.Exit(EXIT_USAGE)
    from .nmon.state import ReadStopped

    try:
        from .nmon import export, read_nmon
        rec = read_nmon(file, tz=tz)
        from .nmon.native import describe
        err.print("njmon recording (JSON) read" if rec.kind == "njmon" else describe(), highlight=False, markup=False)
        if not rec.snapshots and not rec.tables:  # nothing of a recording in it: no folder, no header file
            why = "; ".join(w[1] for w in rec.warnings[:3]) or "no nmon or njmon data"
            err.print(tagged("error", f"{file}: nothing to export ({why})"), highlight=False)
            raise typer.Exit(EXIT_USAGE)
        outdir.mkdir(parents=True, exist_ok=True)
        written = export(rec, to, outdir)  # type: ignore[arg-type]
    except (OSError, ImportError, ValueError, ReadStopped) as exc:  # ReadStopped: e.g. too many sections
        err.print(tagged("error", f"{file}: {exc}"))
        raise typer.Exit(EXIT_USAGE)
    for w in rec.warnings[:20]:
        err.print(f"{file}:{w[0]}: {w[1]}", highlight=False, markup=False)
    Console().print(f"{len(written)} table(s) written to {outdir} ({rec.snapshots} snapshots, times: {rec.tz})", markup=False)


@app.command()
def version() -> None:
    """Print the lparscope version."""
    print(__version__)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
