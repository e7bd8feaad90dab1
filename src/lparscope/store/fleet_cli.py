"""The ``lparscope fleet`` commands: DuckDB (default) or Spark over a folder of collections and nmon files."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

import typer
from rich.console import Console

from ..report.say import tagged

fleet_app = typer.Typer(help="Fleet scale: read and size many hosts with DuckDB or Apache Spark.", no_args_is_help=True)


class Engine(str, Enum):
    duckdb = "duckdb"
    spark = "spark"


def _spark(master: str):  # type: ignore[no-untyped-def]
    from .fleet_spark import available, session

    why = available()
    if why:
        Console(stderr=True).print(tagged("error", str(why)), highlight=False)
        raise typer.Exit(2)
    return session(master)


@fleet_app.command("ingest")
def fleet_ingest(
    folder: Path = typer.Argument(..., help="Folder of collections (sub-folders, bundles) and nmon recordings."),
    out: Path = typer.Option(..., "--out", help="Output folder: series/frame=/host=/date=/*.parquet, findings.parquet."),
    engine: Engine = typer.Option(Engine.duckdb, "--engine", help="duckdb (this process) or spark."),
    master: str = typer.Option("local[*]", "--master", help="Spark master: local[*], local[2], spark://host:7077."),
) -> None:
    """Read every nmon recording into the Parquet series layout and analyse every collection."""
    if not folder.exists():
        Console(stderr=True).print(tagged("error", f"no such folder: {folder}"), highlight=False)
        raise typer.Exit(2)
    out.mkdir(parents=True, exist_ok=True)
    if engine == Engine.spark:
        from .fleet_spark import ingest_spark

        spark = _spark(master)
        try:
            stats = ingest_spark(spark, folder, out)
        finally:
            spark.stop()
    else:
        from .fleet import ingest_duckdb

        stats = ingest_duckdb(folder, out)
    Console().print(f"{engine.value}: {stats['recordings']} nmon recording(s) -> {stats['rows']} row(s) in "
                    f"{stats['series_files']} file(s); {stats['collections']} collection(s) -> "
                    f"{stats['findings']} finding(s); written to {out}", highlight=False, markup=False)


@fleet_app.command("size")
def fleet_size(
    out: Path = typer.Argument(..., help="The folder `fleet ingest --out` wrote."),
    engine: Engine = typer.Option(Engine.duckdb, "--engine", help="duckdb (this process) or spark."),
    master: str = typer.Option("local[*]", "--master", help="Spark master: local[*], local[2], spark://host:7077."),
) -> None:
    """Size every host (EC, VP) from its whole measured series; writes OUT/sizing.parquet."""
    if not (out / "series").exists():
        Console(stderr=True).print(tagged("error", f"{out}: no series/ folder (run lparscope fleet ingest first)"),
                                   highlight=False)
        raise typer.Exit(2)
    if engine == Engine.spark:
        from .fleet_spark import size_spark

        spark = _spark(master)
        try:
            table = size_spark(spark, out)
        finally:
            spark.stop()
    else:
        from .fleet import size_duckdb

        table = size_duckdb(out)
    con = Console()
    for row in table.to_pylist():
        con.print(f"{row['host']:<16} samples {row['n_samples']:>8}  peak P95 {row['peak_p95'] or 0:6.2f}  "
                  f"EC {row['current_ec']} -> {row['recommended_ec']}  VP {row['current_vp']} -> {row['recommended_vp']}",
                  highlight=False, markup=False)
    con.print(f"{table.num_rows} host(s) sized; {out / 'sizing.parquet'}", highlight=False, markup=False)
