"""fleet ingest/size: the DuckDB engine, and Spark local mode giving identical results."""

from __future__ import annotations

import math
import shutil
from pathlib import Path
from typing import Any, Iterator

import duckdb
import pytest

from lparscope.store import fleet

from .conftest import ESTATE


@pytest.fixture(scope="module")
def fleet_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two collections and three small nmon recordings (aix5 on two days, aix6 on one)."""
    root = tmp_path_factory.mktemp("fleet") / "in"
    for host in ("aix1", "vios1"):
        shutil.copytree(ESTATE / host, root / host)
    text = (ESTATE / "aix5" / "aix5_day.nmon").read_text(encoding="utf-8")
    nmon = root / "nmon"
    nmon.mkdir()
    (nmon / "aix5_day1.nmon").write_text(text, encoding="utf-8")
    (nmon / "aix5_day2.nmon").write_text(text.replace("02-NOV-2026", "03-NOV-2026"), encoding="utf-8")
    (nmon / "aix6_day1.nmon").write_text(text.replace("aix5", "aix6"), encoding="utf-8")
    return root


def _series(out: Path) -> list[tuple]:
    con = duckdb.connect()
    glob = fleet.series_glob(out)
    return con.execute(f"""SELECT frame, host, month, * EXCLUDE (frame, host, month)
                           FROM read_parquet('{glob}', hive_partitioning = true, hive_types_autocast = false)
                           ORDER BY host, time""").fetchall()


def _layout(out: Path) -> set[str]:
    return {str(p.parent.relative_to(out)) for p in (out / "series").rglob("*.parquet")}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


@pytest.fixture(scope="module")
def duckdb_out(fleet_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fleet-duckdb")
    stats = fleet.ingest_duckdb(fleet_folder, out)
    # aix5's two days are one host-month: compacted into one file
    assert (stats["recordings"], stats["collections"], stats["series_files"]) == (3, 2, 2)
    fleet.size_duckdb(out)
    return out


def test_duckdb_engine_layout_and_sizing(duckdb_out: Path) -> None:
    assert _layout(duckdb_out) == {"series/frame=9009-42A_784C1D0/host=aix5/month=2026-11",
                                   "series/frame=9009-42A_784C1D0/host=aix6/month=2026-11"}
    assert sorted(p.parent.name for p in (duckdb_out / "series").rglob("*")
                  if p.is_file()) == ["month=2026-11"] * 2  # one file per host-month, no leftovers
    rows = _series(duckdb_out)
    assert len(rows) == 3 * 288
    import pyarrow.parquet as pq

    aix5 = next((duckdb_out / "series").rglob("host=aix5/*/*.parquet"))
    times = pq.read_table(aix5).column("time").to_pylist()
    assert len(times) == 576 and times == sorted(times)  # the compacted file is in time order
    import pyarrow.parquet as pq

    sizing = {r["host"]: r for r in pq.read_table(duckdb_out / "sizing.parquet").to_pylist()}
    assert sorted(sizing) == ["aix5", "aix6"]
    assert sizing["aix5"]["n_samples"] == 576 and sizing["aix6"]["n_samples"] == 288
    assert sizing["aix5"]["recommended_ec"] is not None
    found = pq.read_table(duckdb_out / "findings.parquet").to_pylist()
    assert {f["collection"] for f in found} == {"aix1", "vios1"}
    months = fleet.monthly_p95_duckdb(duckdb_out)
    assert [(h, m, n) for h, m, n, _ in months] == [("aix5", "2026-11", 576), ("aix6", "2026-11", 288)]
    usage = pq.read_table(duckdb_out / "usage_monthly.parquet").to_pylist()
    assert [(u["host"], u["month"], u["samples"], u["frame"]) for u in usage] == \
        [("aix5", "2026-11", 576, "9009-42A_784C1D0"), ("aix6", "2026-11", 288, "9009-42A_784C1D0")]
    assert [u["physc_p95"] for u in usage] == [p95 for _, _, _, p95 in months]
    # The Spark engine's per-host-month summariser (numpy) gives the SQL's values.
    by_item = [r for item in fleet.host_month_items(duckdb_out / "series") for r in fleet.summarise_item(item)]
    assert [r[:3] for r in by_item] == [(u["host"], u["month"], u["frame"]) for u in usage]
    for row, u in zip(by_item, usage):
        for name, value in zip(u, row):
            assert value == u[name] or value == pytest.approx(u[name], rel=1e-12), name


def test_fleet_reads_nmon_like_the_store(duckdb_out: Path, tmp_path: Path) -> None:
    """The same recording gives the same rows through fleet and through store ingest."""
    from lparscope.store.db import series_root
    from lparscope.store.ingest import ingest

    store = tmp_path / "s.duckdb"
    ingest([str(ESTATE / "aix5")], store)
    con = duckdb.connect()
    stored = con.execute(f"""SELECT * EXCLUDE (frame, host, date) FROM
                             read_parquet('{series_root(store)}/**/*.parquet', hive_partitioning = true)
                             ORDER BY time""").fetchall()
    fleet_rows = [r[3:] for r in _series(duckdb_out) if r[1] == "aix5" and r[3].day == 2]
    assert _same(stored, fleet_rows)


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install 'lparscope[spark]')")
    pytest.importorskip("pandas", reason="pyspark's Arrow functions need pandas (pip install 'lparscope[spark]')")
    if not shutil.which("java"):
        pytest.skip("no java on PATH: Spark needs Java 17")
    from lparscope.store.fleet_spark import session

    s = session("local[2]", shuffle_partitions=2)  # small data: few tasks
    yield s
    s.stop()


def test_spark_engine_gives_identical_results(spark: Any, fleet_folder: Path, duckdb_out: Path,
                                              tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from lparscope.store.fleet_spark import ingest_spark, monthly_p95_spark, monthly_p95_spark_sql, size_spark

    out = tmp_path / "spark"
    stats = ingest_spark(spark, fleet_folder, out)
    assert (stats["recordings"], stats["collections"], stats["rows"]) == (3, 2, 3 * 288)
    assert _layout(out) == _layout(duckdb_out)
    assert len(list((out / "series").rglob("*.parquet"))) == 2  # compacted: one file per host-month
    assert _same(_series(out), _series(duckdb_out))
    size_spark(spark, out)
    assert _same(pq.read_table(out / "sizing.parquet").to_pylist(),
                 pq.read_table(duckdb_out / "sizing.parquet").to_pylist())
    key = lambda r: tuple(str(v) for v in r.values())  # noqa: E731
    close = lambda a, b: all(x == y or (isinstance(x, float) and math.isclose(x, y, rel_tol=1e-12))  # noqa: E731
                             for x, y in zip(a.values(), b.values()))
    spark_usage = pq.read_table(out / "usage_monthly.parquet")
    duck_usage = pq.read_table(duckdb_out / "usage_monthly.parquet")
    assert spark_usage.schema == duck_usage.schema and spark_usage.num_rows == duck_usage.num_rows == 2
    assert all(close(a, b) for a, b in zip(spark_usage.to_pylist(), duck_usage.to_pylist()))
    assert sorted(pq.read_table(out / "findings.parquet").to_pylist(), key=key) == \
        sorted(pq.read_table(duckdb_out / "findings.parquet").to_pylist(), key=key)
    duck_months = fleet.monthly_p95_duckdb(duckdb_out)
    for spark_months in (monthly_p95_spark(spark, out), monthly_p95_spark_sql(spark, out)):
        assert [r[:3] for r in spark_months] == [r[:3] for r in duck_months]
        assert all(math.isclose(a[3], b[3], rel_tol=1e-12) for a, b in zip(spark_months, duck_months))
