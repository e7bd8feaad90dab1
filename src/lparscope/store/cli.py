"""The ``lparscope store``, ``serve`` and ``fleet`` commands (registered by cli.py).

Exit codes: 0 done; 2 usage error, unreadable store or nothing readable in the inputs.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from ..report.say import escape, tagged

EXIT_USAGE = 2
store_app = typer.Typer(help="History: keep every analysis, compare collections, export.", no_args_is_help=True)
STORE_HELP = "Store file (DuckDB); default: $XDG_DATA_HOME/lparscope/store.duckdb or ~/.local/share/lparscope/."


def _store(path: Optional[Path]) -> Path:
    from .db import default_store

    return path if path is not None else default_store()


def _fail(message: str) -> None:
    Console(stderr=True).print(tagged("error", str(message)), highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_USAGE)


def _open_read_only(path: Path) -> Any:
    """A read-only connection to the store, or exit 2 with the reason."""
    from .db import StoreError, connect

    try:
        return connect(path, read_only=True)
    except StoreError as exc:
        _fail(str(exc))
    return None


def _date(text: Optional[str], option: str) -> Optional[date]:
    if not text:
        return None
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        _fail(f"{option} {text}: expected a date like 2026-11-02")
    return None


@store_app.command("ingest")
def ingest_cmd(
    paths: list[str] = typer.Argument(..., help="Files, folders or bundles of one collection."),
    store: Optional[Path] = typer.Option(None, "--store", help=STORE_HELP),
    collected_at: Optional[str] = typer.Option(None, "--collected-at",
                                               help="When the data was collected (ISO date/time); default: newest nmon snapshot, else newest file time."),
    tz: Optional[str] = typer.Option(None, "--tz", help="Time zone the nmon recordings were taken in."),
) -> None:
    """Analyse a collection and keep it (inputs, hosts, configuration, findings, report, series)."""
    from ..input_items import text_name
    from .db import StoreError
    from .ingest import ingest

    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        _fail("no such file or folder: " + ", ".join(text_name(p) for p in missing))
    when = None
    if collected_at:
        try:
            when = datetime.fromisoformat(collected_at)
        except ValueError:
            _fail(f"--collected-at {collected_at}: expected an ISO date or date-time")
    target = _store(store)
    try:
        result = ingest(paths, target, collected_at=when, tz=tz)
    except StoreError as exc:
        _fail(str(exc))
        return
    out = Console()
    if not result.added:
        out.print(f"already in {target}: collection {result.collection_id[:12]} (nothing added)", highlight=False, markup=False)
        return
    if result.hosts == 0:
        _fail("no supported command output found in: " + " ".join(text_name(p) for p in paths))
    out.print(f"collection {result.collection_id[:12]} added to {target}: {result.hosts} host(s), "
              f"{result.findings} finding(s), {result.series_files} series file(s)", highlight=False, markup=False)


def _table(out: Console, title: str, rows: list[dict[str, Any]], columns: list[str]) -> None:
    if not rows:
        out.print(f"[bold]{escape(title)}[/]: none", highlight=False)
        return
    t = Table(title=title, title_justify="left")
    for c in columns:
        t.add_column(c)
    for r in rows:
        t.add_row(*("" if r.get(c) is None else str(r.get(c)) for c in columns))
    out.print(t, markup=False)


@store_app.command("diff")
def diff_cmd(
    target: Optional[str] = typer.Argument(None, help="A host or frame name (default: everything)."),
    since: Optional[str] = typer.Option(None, "--since", help="Only changes seen on or after this date (YYYY-MM-DD)."),
    store: Optional[Path] = typer.Option(None, "--store", help=STORE_HELP),
    horizon: int = typer.Option(30, "--horizon", help="Days ahead for the pool peak forecast."),
    json_out: Optional[str] = typer.Option(None, "--json", help="Write the result as JSON to FILE ('-' for stdout)."),
) -> None:
    """Configuration changes, findings opened and closed, usage trends and a pool peak forecast."""
    from .diff import diff

    day = _date(since, "--since")
    path = _store(store)
    con = _open_read_only(path)
    try:
        result = diff(con, path, target, day, horizon)
    finally:
        con.close()
    if target and not result["collections"]:
        _fail("the store is empty")
    if json_out and _emit_json(json.dumps(result, indent=2, ensure_ascii=False), json_out):
        return
    out = Console()
    out.print(f"{len(result['collections'])} collection(s) in {path}", highlight=False, markup=False)
    _table(out, "Configuration changes", result["config_changes"], ["seen", "scope", "name", "attribute", "old", "new"])
    _table(out, "Findings opened and closed", result["findings"], ["seen", "change", "host", "severity", "rule_id", "subject"])
    _table(out, "Daily physc per partition (cores)", result["partition_trends"], ["frame", "host", "date", "samples", "p95", "peak"])
    _table(out, "Daily use per shared pool (cores)", result["pool_trends"], ["frame", "pool", "date", "partitions", "p95", "peak"])
    rows = [{"frame": f["frame"], "pool": f["pool"], "days": f["days"],
             **({"peak in %d days" % f["forecast"]["horizon_days"]: f["forecast"]["predicted_peak"],
                 "95% interval": f"{f['forecast']['low']:.2f} .. {f['forecast']['high']:.2f}",
                 "trend/day": f["forecast"]["slope_per_day"]} if f["forecast"] else {"note": f["note"]})}
            for f in result["pool_forecasts"]]
    cols = sorted({k for r in rows for k in r}, key=lambda k: ["frame", "pool", "days"].index(k) if k in ("frame", "pool", "days") else 9)
    _table(out, "Pool peak forecast (linear trend, 95% prediction interval)", rows, cols)


def _emit_json(text: str, json_out: str) -> bool:
    """Write ``text`` to ``json_out``, a file or '-' (stdout); True when it went to stdout (nothing else to print)."""
    if json_out == "-":
        print(text)
        return True
    Path(json_out).write_text(text + "\n", encoding="utf-8")
    return False


@store_app.command("usage")
def usage_cmd(
    target: Optional[str] = typer.Argument(None, help="A host or frame name (default: every host)."),
    store: Optional[Path] = typer.Option(None, "--store", help=STORE_HELP),
    json_out: Optional[str] = typer.Option(None, "--json", help="Write every summary column as JSON to FILE ('-' for stdout)."),
) -> None:
    """Physical cores used per partition per month (P50/P95/P99/peak), from the summary kept at ingest."""
    from .query import hosts_matching
    from .usage import monthly

    path = _store(store)
    con = _open_read_only(path)
    try:
        rows = monthly(con, hosts_matching(con, target))
    finally:
        con.close()
    if json_out and _emit_json(json.dumps(rows, indent=1, default=str), json_out):
        return
    fmt = lambda v: "" if v is None else f"{v:.3f}"  # noqa: E731
    _table(Console(), "Physical cores per partition per month (physc)",
           [{**r, **{k: fmt(r[k]) for k in ("physc_p50", "physc_p95", "physc_p99", "physc_peak")}} for r in rows],
           ["frame", "host", "month", "samples", "physc_p50", "physc_p95", "physc_p99", "physc_peak"])


@store_app.command("export")
def export_cmd(
    fmt: str = typer.Option("openmetrics", "--format", help="openmetrics, csv or parquet"),
    table: Optional[str] = typer.Option(None, "--table", help="Table for csv/parquet: collections, inputs, report_sections, hosts, config, findings, series_files, sizing, usage_monthly, series."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Output file (openmetrics: default stdout)."),
    store: Optional[Path] = typer.Option(None, "--store", help=STORE_HELP),
) -> None:
    """OpenMetrics text of current findings and sizing, or one store table as CSV / Parquet."""
    from .export import export_table, openmetrics

    if fmt not in ("openmetrics", "csv", "parquet"):
        _fail("--format must be openmetrics, csv or parquet")
    if fmt != "openmetrics" and (not table or not output):
        _fail(f"--format {fmt} needs --table and --output")
    path = _store(store)
    con = _open_read_only(path)
    try:
        if fmt == "openmetrics":
            text = openmetrics(con)
            if output:
                output.write_text(text, encoding="utf-8")
            else:
                print(text, end="")
            return
        try:
            n = export_table(con, path, table or "", fmt, output)  # type: ignore[arg-type]
        except ValueError as exc:
            _fail(str(exc))
            return
        except Exception as exc:  # duckdb IO errors
            _fail(f"cannot write {output}: {exc}")
            return
        Console().print(f"{n} row(s) of {table} written to {output}", highlight=False, markup=False)
    finally:
        con.close()


def register(app: typer.Typer) -> None:
    """Add ``store``, ``serve`` and ``fleet`` to the main command."""
    app.add_typer(store_app, name="store")
    from .serve_cli import serve
    from .fleet_cli import fleet_app

    app.command("serve")(serve)
    app.add_typer(fleet_app, name="fleet")
