"""Store ingest: idempotent, atomic under kill -9, schema migrations from an older version."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest

from lparscope.store.db import connect, schema_version, series_root
from lparscope.store.ingest import ingest
from lparscope.store.schema import LATEST, TABLES

from .conftest import ESTATE, ROOT, next_day_nmon


def counts(store: Path) -> dict[str, int]:
    con = duckdb.connect(str(store), read_only=True)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
    finally:
        con.close()


def series_files_on_disk(store: Path) -> set[str]:
    root = series_root(store)
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()} if root.exists() else set()


def test_ingest_keeps_everything(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    result = ingest([str(ESTATE)], store)
    assert result.added and result.hosts == 8 and result.findings > 0
    n = counts(store)
    assert n["collections"] == 1
    assert n["inputs"] == sum(1 for p in ESTATE.rglob("*") if p.is_file())
    assert n["findings"] == result.findings and n["hosts"] == 8
    # one nmon file (aix5); sized: aix5 from its nmon, six partitions from the HMC utilisation samples
    assert n["series_files"] == 1 and n["sizing"] == 7
    con = duckdb.connect(str(store), read_only=True)
    sections = {r[0] for r in con.execute("SELECT section FROM report_sections").fetchall()}
    assert {"hosts", "findings", "frames", "summary"} <= sections  # every report section, generically
    frame, pool = con.execute("SELECT frame, pool_id FROM hosts WHERE host = 'aix1'").fetchone()
    assert (frame, pool) == ("p9frame1", 0)
    # aix5 is not in the HMC data, but its nmon serial number is p9frame1's.
    assert con.execute("SELECT frame FROM hosts WHERE host = 'aix5'").fetchone()[0] == "p9frame1"
    rows = con.execute("SELECT rows FROM series_files").fetchone()[0]
    assert rows == 288
    con.close()


def test_same_bundle_twice_adds_nothing(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    first = ingest([str(ESTATE)], store)
    before, files = counts(store), series_files_on_disk(store)
    again = ingest([str(ESTATE)], store)
    assert not again.added and again.collection_id == first.collection_id
    # The same content under another folder name is the same collection.
    shutil.copytree(ESTATE, tmp_path / "renamed")
    assert not ingest([str(tmp_path / "renamed")], store).added
    assert counts(store) == before and series_files_on_disk(store) == files


DRIVER = """
import sys, time
sys.path.insert(0, {src!r})
import lparscope.store.ingest as ingest_module
real = ingest_module._insert_rows

def insert_then_wait(con, tables):
    real(con, tables)          # every row is in, the transaction is not committed
    print("READY", flush=True)
    time.sleep(120)            # killed here by the test

ingest_module._insert_rows = insert_then_wait
ingest_module.ingest([{collection!r}], ingest_module.Path({store!r}))
print("COMMITTED", flush=True)
"""


def test_kill_9_mid_ingest_leaves_store_as_it_was(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    ingest([str(ESTATE)], store)
    before, files_before = counts(store), series_files_on_disk(store)
    second = next_day_nmon(tmp_path / "nov3")
    script = DRIVER.format(src=str(ROOT / "src"), collection=str(second), store=str(store))
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line.strip() == "READY", proc.stderr.read()  # type: ignore[union-attr]
        assert len(series_files_on_disk(store)) > len(files_before)  # the new day's file was written
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert counts(store) == before  # nothing of the killed ingest is in the catalogue
    con = connect(store)  # opening for writing removes the unlisted Parquet file
    con.close()
    assert series_files_on_disk(store) == files_before
    # The store still works: the same collection goes in whole this time.
    result = ingest([str(second)], store)
    assert result.added and result.series_files == 1
    assert counts(store)["collections"] == 2


def test_migration_from_version_1(tmp_path: Path) -> None:
    store = tmp_path / "old.duckdb"
    con = connect(store, upto=1)  # a store as the first release made it
    assert schema_version(con) == 1
    assert not con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'sizing'").fetchone()[0]
    con.execute("INSERT INTO collections VALUES ('c0', now()::TIMESTAMP, TIMESTAMP '2026-01-01', '[]', '0.0.1', NULL)")
    con.close()
    ingest([str(ESTATE)], store)  # migrates, then ingests
    con = duckdb.connect(str(store), read_only=True)
    assert [r[0] for r in con.execute("SELECT version FROM schema_version ORDER BY 1").fetchall()] == [1, 2, 3]
    assert con.execute("SELECT count(*) FROM collections").fetchone()[0] == 2  # old rows kept
    assert con.execute("SELECT count(*) FROM sizing").fetchone()[0] == 7  # the sized hosts of the example
    assert con.execute("SELECT host, month, samples FROM usage_monthly").fetchall() == [("aix5", "2026-11", 288)]
    con.close()
    assert LATEST == 3


def test_store_newer_than_code_is_refused(tmp_path: Path) -> None:
    from lparscope.store.db import StoreError

    store = tmp_path / "new.duckdb"
    connect(store).close()
    con = duckdb.connect(str(store))
    con.execute("INSERT INTO schema_version VALUES (99, now()::TIMESTAMP)")
    con.close()
    with pytest.raises(StoreError, match="newer"):
        connect(store)


def test_daily_recordings_of_one_host_are_stored_as_one_series(tmp_path: Path) -> None:
    """Three daily nmon files of aix5 in one collection: every day is kept (it used to be the last one only)."""
    collection = shutil.copytree(ESTATE, tmp_path / "week")
    day = (collection / "aix5" / "aix5_day.nmon").read_text(encoding="utf-8")
    for d in ("03", "04"):
        (collection / "aix5" / f"aix5_{d}.nmon").write_text(day.replace("02-NOV-2026", f"{d}-NOV-2026"), encoding="utf-8")
    store = tmp_path / "s.duckdb"
    assert ingest([str(collection)], store).added
    con = duckdb.connect(str(store), read_only=True)
    rows = con.execute("SELECT day, rows FROM series_files WHERE host = 'aix5' ORDER BY day").fetchall()
    con.close()
    assert [(str(d), n) for d, n in rows] == [("2026-11-02", 288), ("2026-11-03", 288), ("2026-11-04", 288)]
