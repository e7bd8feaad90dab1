"""The Spark engine of ``lparscope fleet`` (optional: ``pip install lparscope[spark]``).

The driver lists the work items (fleet.work_items); executors run the very functions the DuckDB
engine runs (fleet.recording_batch, fleet.collection_findings, fleet.size_arrow) through Arrow
(``mapInArrow``), and Spark writes the series with ``partitionBy("frame", "host", "month")``: the
same Hive layout and columns; host-months written by several tasks are then compacted to one file
by fleet.compact, run on the executors. The usage summary (usage.py) is computed per
host-month (fleet.summarise_item): the same values as the DuckDB engine's SQL. Findings and sizing are small (one row per finding or host): they
are collected and written as single Parquet files, like the DuckDB engine writes them.
Spark binds its driver to 127.0.0.1 and runs without its web UI.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from . import fleet
from .series import METRICS


def available() -> str | None:
    """None when pyspark can be imported, else why not."""
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return "pyspark is not installed: pip install 'lparscope[spark]'"
    return None


def session(master: str = "local[*]", shuffle_partitions: int = 8) -> Any:
    import os
    import sys

    from pyspark.sql import SparkSession

    if master.startswith("local") and not os.environ.get("PYSPARK_PYTHON"):
        # Local workers run this very interpreter (the one lparscope and its dependencies are
        # installed in), not whatever "python3" is first on PATH (PySpark reads the variable).
        os.environ["PYSPARK_PYTHON"] = sys.executable
    return (SparkSession.builder.master(master).appName("lparscope-fleet")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.shuffle.partitions", str(shuffle_partitions))
            .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
            .config("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
            .getOrCreate())


def _series_schema() -> Any:
    from pyspark.sql.types import DoubleType, StringType, StructField, StructType, TimestampNTZType

    return StructType([StructField("time", TimestampNTZType()),
                       *(StructField(m, DoubleType()) for m in METRICS),
                       StructField("frame", StringType()), StructField("host", StringType()),
                       StructField("month", StringType())])


def _read_paths(batches: Iterator[Any]) -> Iterator[Any]:
    for batch in batches:
        for path in batch.column(0).to_pylist():
            table = fleet.recording_batch(path)
            if table is not None:
                yield from table.to_batches()


def ingest_spark(spark: Any, folder: Path, out: Path) -> dict[str, int]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    nmon, collections = fleet.work_items(folder)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = 0
    if nmon:
        slots = spark.sparkContext.defaultParallelism
        paths = spark.createDataFrame([(p,) for p in nmon], "path string").repartition(max(1, min(len(nmon), 4 * slots)))
        series = paths.mapInArrow(_read_paths, _series_schema())
        series = series.sortWithinPartitions("frame", "host", "month", "time")  # the writer's own sort, plus time
        series.write.partitionBy("frame", "host", "month").mode("overwrite").parquet(str(out / "series"))
        folders = fleet.folders_to_compact(out / "series")
        if folders:
            spark.sparkContext.parallelize(folders, max(1, min(len(folders), 4 * slots))).map(fleet.compact).collect()
        rows = spark.read.parquet(str(out / "series")).count()
        usage_spark(spark, out)
    else:
        (out / "usage_monthly.parquet").unlink(missing_ok=True)  # none left from an earlier run
    found = []
    if collections:
        slots = spark.sparkContext.defaultParallelism
        rdd = spark.sparkContext.parallelize(collections, max(1, min(len(collections), 4 * slots)))
        found = rdd.flatMap(fleet.collection_findings).collect()
    table = pa.Table.from_pylist([dict(zip(fleet.FINDING_COLUMNS, r)) for r in sorted(found, key=str)],
                                 schema=fleet.finding_schema())
    pq.write_table(table, out / "findings.parquet")
    files = len(list((out / "series").rglob("*.parquet"))) if nmon else 0
    return {"recordings": len(nmon), "collections": len(collections), "series_files": files, "rows": rows,
            "findings": len(found)}


def _size_partition(batches: Iterator[Any]) -> Iterator[Any]:
    import pyarrow as pa

    got = list(batches)
    if not got:
        return
    table = pa.Table.from_batches(got)
    if table.num_rows:
        yield from fleet.size_arrow(table).to_batches()


def _sizing_spark_schema() -> Any:
    from pyspark.sql.types import (BooleanType, DoubleType, LongType, StringType, StructField, StructType,
                                   TimestampNTZType)

    kinds = {"string": StringType(), "int64": LongType(), "double": DoubleType(), "bool": BooleanType(),
             "timestamp[us]": TimestampNTZType()}
    return StructType([StructField(f.name, kinds[str(f.type)]) for f in fleet.sizing_schema()])


def size_spark(spark: Any, out: Path) -> Any:
    """Sizing per host: each Spark partition holds whole hosts and sizes them with fleet.size_arrow."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    df = spark.read.parquet(str(Path(out) / "series"))
    cols = ["time", *METRICS, "frame", "host"]
    by_host = df.select(*cols).repartition("host").sortWithinPartitions("host", "time")
    rows = by_host.mapInArrow(_size_partition, _sizing_spark_schema()).collect()
    table = pa.Table.from_pylist(sorted((r.asDict() for r in rows), key=lambda r: r["host"]),
                                 schema=fleet.sizing_schema())
    pq.write_table(table, Path(out) / "sizing.parquet")
    return table


def _summary_rows(spark: Any, out: Path) -> list[tuple]:
    """usage.py rows of every host-month: each host-month is one work item, read whole by fleet.summarise_item.

    The layout holds one file per host-month (compacted), so a host-month is read by one task and
    its exact percentiles need no shuffle; Spark SQL's ``percentile`` (monthly_p95_spark_sql) gives
    the same values and is kept as the reference, but hashes every value through the JVM.
    """
    items = fleet.host_month_items(Path(out) / "series")
    if not items:
        return []
    slots = spark.sparkContext.defaultParallelism
    rows = spark.sparkContext.parallelize(items, max(1, min(len(items), 4 * slots))).flatMap(fleet.summarise_item)
    return sorted(rows.collect(), key=lambda r: (r[0], r[1]))


def usage_spark(spark: Any, out: Path) -> Any:
    """OUT/usage_monthly.parquet with Spark: the columns and values of usage.SUMMARY_SQL."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from . import usage

    rows = _summary_rows(spark, out)
    table = pa.Table.from_pylist([dict(zip(usage.NAMES, r)) for r in rows], schema=usage.arrow_schema())
    pq.write_table(table, Path(out) / "usage_monthly.parquet")
    return table


def monthly_p95_spark(spark: Any, out: Path) -> list[tuple]:
    """"P95 physc per partition per month" from the raw layout with Spark (a task per host-month)."""
    return [(r[0], r[1], r[6], r[9]) for r in _summary_rows(spark, out) if r[6]]


def monthly_p95_spark_sql(spark: Any, out: Path) -> list[tuple]:
    """The same with Spark SQL (exact ``percentile``, linear interpolation; slower: see _summary_rows)."""
    from pyspark.sql import functions as F

    df = spark.read.parquet(str(Path(out) / "series")).drop("month")
    got = (df.where(F.col("physc").isNotNull() & ~F.isnan("physc"))
             .groupBy("host", F.date_format("time", "yyyy-MM").alias("month"))
             .agg(F.count("*").alias("samples"), F.percentile("physc", 0.95).alias("p95"))
             .orderBy("host", "month").collect())
    return [(r["host"], r["month"], r["samples"], r["p95"]) for r in got]
