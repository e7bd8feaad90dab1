"""The per-host, per-month usage summary: exact, recomputed per host-month, built by migration."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import duckdb
import numpy as np
import pytest
from typer.testing import CliRunner

from lparscope.cli import app
from lparscope.store.db import connect, schema_version
from lparscope.store.ingest import ingest

from .conftest import ESTATE

NMON = Path("aix5") / "aix5_day.nmon"


def physc_of(nmon: Path) -> np.ndarray:
    """PhysicalCPU of every LPAR snapshot line, read straight from the nmon text (not via lparscope)."""
    return np.array([float(line.split(",")[2]) for line in nmon.read_text(encoding="utf-8").splitlines()
                     if re.match(r"LPAR,T\d+,", line)])


def shifted_copy(target: Path, date: str, scale: float) -> Path:
    """examples/estate with aix5's recording moved to ``date`` (DD-MON-YYYY) and its physc scaled."""
    shutil.copytree(ESTATE, target)
    f = target / NMON

    def scaled(m: re.Match) -> str:
        return f"{m.group(1)}{float(m.group(2)) * scale:.3f},"

    text = f.read_text(encoding="utf-8").replace("02-NOV-2026", date)
    f.write_text(re.sub(r"^(LPAR,T\d+,)([0-9.]+),", scaled, text, flags=re.M), encoding="utf-8")
    return target


def usage(store: Path) -> dict[tuple[str, str], dict]:
    con = duckdb.connect(str(store), read_only=True)
    try:
        cur = con.execute("SELECT * FROM usage_monthly")
        names = [d[0] for d in cur.description]
        return {(r[0], r[1]): dict(zip(names, r)) for r in cur.fetchall()}
    finally:
        con.close()


def test_summary_is_exact_and_recomputed_for_each_host_month(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    ingest([str(ESTATE)], store)
    day1 = physc_of(ESTATE / NMON)
    row = usage(store)[("aix5", "2026-11")]
    assert row["samples"] == row["snapshots"] == len(day1) == 288
    for q, col in ((50, "physc_p50"), (95, "physc_p95"), (99, "physc_p99")):
        assert row[col] == pytest.approx(np.percentile(day1, q), rel=1e-12)
    assert row["physc_peak"] == day1.max() and row["physc_mean"] == pytest.approx(day1.mean())
    assert row["frame"] == "p9frame1" and row["entitled_max"] > 0
    assert row["busy_pct_p95"] is not None and row["mem_used_mb_peak"] is not None

    # A second collection in the same month: the month is summarised again from both days' snapshots.
    second = shifted_copy(tmp_path / "nov3", "03-NOV-2026", 1.5)
    ingest([str(second)], store)
    both = np.concatenate([day1, physc_of(second / NMON)])
    row = usage(store)[("aix5", "2026-11")]
    assert row["samples"] == 576
    assert row["physc_p95"] == pytest.approx(np.percentile(both, 95), rel=1e-12)
    assert row["physc_p99"] == pytest.approx(np.percentile(both, 99), rel=1e-12)
    assert str(row["last_time"]).startswith("2026-11-03")

    # Another month adds its own row and leaves November as it was; the same bundle again adds nothing.
    before = usage(store)[("aix5", "2026-11")]
    third = shifted_copy(tmp_path / "dec1", "01-DEC-2026", 0.5)
    ingest([str(third)], store)
    ingest([str(third)], store)
    rows = usage(store)
    assert sorted(rows) == [("aix5", "2026-11"), ("aix5", "2026-12")]
    assert rows[("aix5", "2026-11")] == before
    assert rows[("aix5", "2026-12")]["physc_p95"] == pytest.approx(np.percentile(physc_of(third / NMON), 95))


def test_migration_builds_the_summary_of_an_older_store(tmp_path: Path) -> None:
    """A version-2 store (series, no summary) gets the same summary ingest would have kept."""
    store = tmp_path / "s.duckdb"
    ingest([str(ESTATE)], store)
    ingest([str(shifted_copy(tmp_path / "nov3", "03-NOV-2026", 1.5))], store)
    kept = usage(store)
    con = duckdb.connect(str(store))  # back to what version 2 left: no summary table
    con.execute("DROP TABLE usage_monthly")
    con.execute("DELETE FROM schema_version WHERE version = 3")
    con.close()
    con = connect(store)
    assert schema_version(con) == 3
    con.close()
    # a mean is a parallel sum in DuckDB: equal up to the last bits, not bit for bit
    assert usage(store) == {k: {f: pytest.approx(v, rel=1e-12) if isinstance(v, float) else v for f, v in row.items()}
                            for k, row in kept.items()}
    assert kept[("aix5", "2026-11")]["samples"] == 576


def test_store_usage_command(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    ingest([str(ESTATE)], store)
    runner = CliRunner()
    done = runner.invoke(app, ["store", "usage", "--store", str(store), "--json", "-"])
    assert done.exit_code == 0, done.output
    got = json.loads(done.output)
    assert [(r["host"], r["month"], r["samples"]) for r in got] == [("aix5", "2026-11", 288)]
    assert got[0]["physc_p95"] == pytest.approx(np.percentile(physc_of(ESTATE / NMON), 95))
    done = runner.invoke(app, ["store", "usage", "p9frame1", "--store", str(store)])
    assert done.exit_code == 0 and "aix5" in done.output and "2026-11" in done.output
    done = runner.invoke(app, ["store", "usage", "nosuchhost", "--store", str(store)])
    assert done.exit_code == 0 and "none" in done.output
