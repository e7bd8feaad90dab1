"""njmon for AIX recordings read into nmon's tables (lparscope.nmon.njmon), and into the estate.

Fixtures written for these tests in njmon's layout (tests/fixtures/njmon): one snapshot per line
as njmon v50+ writes, and the older indented layout inside braces, its last snapshot cut short.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from lparscope.nmon import is_njmon, read_nmon
from lparscope.pipeline import analyze

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "njmon"
LINES = FIX / "aixdb7_240506_0855.json"
OLD = FIX / "aixdb7_v34_cut.json"


def test_detection() -> None:
    assert is_njmon(LINES.read_bytes()[:4096]) and is_njmon(OLD.read_bytes()[:4096])
    assert not is_njmon(b'{"name": "x", "values": [1, 2]}')
    assert not is_njmon(b"AAA,progname,topas_nmon\n")


def test_tables_header_and_units() -> None:
    rec = read_nmon(LINES)
    assert rec.host == "aixdb7" and rec.snapshots == 3 and not rec.warnings
    assert rec.header["SerialNumber"] == "78A4C21" and rec.header["LPARNumberName"] == "7,aixdb7"
    assert rec.header["MachineType"] == "IBM,9009-42A" and rec.header["cpus"] == "24" and rec.header["interval"] == "300"
    lpar = rec.tables["LPAR"]
    assert list(lpar.column("PhysicalCPU")) == [2.1, 3.4, 2.8]
    assert set(lpar.column("entitled")) == {1.5} and set(lpar.column("virtualCPUs")) == {6.0}
    assert list(lpar.lines) == [1, 2, 3]
    assert str(lpar.times[1]) == "2024-05-06T09:05:00"  # local time, as nmon keeps it
    mem = rec.tables["MEM"]  # 4 KB pages -> MB
    assert mem.column("Real total(MB)")[0] == 32768 and mem.column("Real free(MB)")[0] == 4096
    read = rec.tables["DISKREAD"]  # 512-byte blocks per second -> KB/s; hdisk2 appears in the last snapshot
    assert read.columns == ["hdisk0", "hdisk1", "hdisk2"]
    assert read.column("hdisk1")[0] == 20480 and np.isnan(read.column("hdisk2")[0]) and read.column("hdisk2")[2] == 40
    assert list(rec.tables["DISKBUSY"].column("hdisk1")) == [61, 71, 81]
    assert rec.tables["NET"].column("en0-read-KB/s")[0] == 500
    assert rec.tables["FCREAD"].column("fcs0")[0] == 10240
    assert rec.tables["PROC"].column("Runnable")[0] == 7
    assert rec.partition and rec.partition["config"]["entitled_proc_capacity"] == 1.5 and rec.partition["line"] == 3


def test_time_zone_gives_utc_instants() -> None:
    rec = read_nmon(LINES, tz="Europe/Paris")
    assert str(rec.tables["LPAR"].times[0]) == "2024-05-06T07:00:00"
    with pytest.raises(ValueError):
        read_nmon(LINES, tz="Not/AZone")


def test_old_layout_and_a_snapshot_cut_short() -> None:
    rec = read_nmon(OLD)
    assert rec.snapshots == 2 and list(rec.tables["LPAR"].column("PhysicalCPU")) == [2.1, 3.4]
    [(line, message)] = rec.warnings
    assert "cut short" in message and OLD.read_text().splitlines()[line - 1].strip() == "{"
    assert rec.tables["LPAR"].lines[0] == 2  # the line where the first snapshot opens


def test_samples_document_and_damage(tmp_path: Path) -> None:
    snaps = [json.loads(x) for x in LINES.read_text().splitlines()]
    (tmp_path / "doc.json").write_text(json.dumps({"samples": snaps}))
    assert read_nmon(tmp_path / "doc.json").snapshots == 3
    lines = LINES.read_text().splitlines()
    lines[1] = lines[1].replace('"kernel": {', '"kernel": {{', 1)  # no longer JSON
    (tmp_path / "bad.json").write_text("\n".join(lines) + "\n")
    rec = read_nmon(tmp_path / "bad.json")
    assert rec.snapshots == 2 and any(ln == 2 and "damaged snapshot" in m for ln, m in rec.warnings)


def test_an_estate_reads_njmon_as_a_host_with_its_partition(tmp_path: Path) -> None:
    shutil.copy(LINES, tmp_path)
    with gzip.open(tmp_path / "aixdb8_240506_0855.json.gz", "wt") as gz:  # compressed, another host
        gz.write(LINES.read_text().replace("aixdb7", "aixdb8"))
    a = analyze([str(tmp_path)])
    assert set(a.estate.hosts) == {"aixdb7", "aixdb8"}
    assert {i.kind for i in a.estate.inputs} == {"njmon"} and all(i.status == "parsed" for i in a.estate.inputs)
    h = a.estate.hosts["aixdb7"]
    p = h.partition
    assert (p.entitled_capacity, p.online_vps, p.max_vps, p.weight, p.online_memory_mb, p.mode, p.type) == (
        1.5, 6, 8, 64, 32768, "Uncapped", "Shared-SMT-4")
    assert p.shared_pool_id == 0 and p.pool_cores == 20 and p.evidence["entitled_capacity"].line == 3
    assert h.sizing is not None and h.cpu is not None and len(h.cpu.samples) == 3
    assert any(f.rule.id == "CPU-UNCAPPED-ABOVE-EC" and f.host == "aixdb7" for f in a.findings)


def test_consecutive_recordings_of_a_host_are_joined(tmp_path: Path) -> None:
    lines = LINES.read_text()
    (tmp_path / "aixdb7_0900.json").write_text(lines)
    (tmp_path / "aixdb7_1000.json").write_text(lines.replace("2024-05-06T09", "2024-05-06T10"))
    a = analyze([str(tmp_path)])
    assert len(a.estate.hosts["aixdb7"].cpu.samples) == 6
    assert all("one of 2 recordings of aixdb7 joined" in i.reason for i in a.estate.inputs)


def test_a_file_cut_inside_a_string_is_cut_short_not_damaged(tmp_path: Path) -> None:
    text = LINES.read_text()
    cut = text[: text.index("\n") + 1 + text.splitlines()[1].index('"njmon_version"') + 10]  # inside a string of snapshot 2
    (tmp_path / "cut.json").write_text(cut)
    rec = read_nmon(tmp_path / "cut.json")
    assert rec.snapshots == 1 and rec.warnings == [(2, "snapshot cut short (the file ends inside it): not read")]


def test_nmon_export_writes_an_njmon_recordings_tables(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lparscope.cli import app

    res = CliRunner().invoke(app, ["nmon", "export", str(LINES), str(tmp_path / "out"), "--to", "csv"])
    assert res.exit_code == 0, res.output
    assert "njmon recording (JSON) read" in res.output and "15 table(s) written" in res.output  # FCXFERIN / FCXFEROUT too
    header, first = (tmp_path / "out" / "LPAR.csv").read_text().splitlines()[:2]
    assert header.startswith('"snapshot","time","PhysicalCPU","entitled","virtualCPUs"')
    assert first.startswith("1,2024-05-06 09:00:00,2.1,1.5,6,")


def test_nmon_export_of_a_file_that_is_no_recording_writes_nothing(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lparscope.cli import app

    notes = tmp_path / "notes.txt"
    notes.write_text("hello\nthis is no recording\n")
    res = CliRunner().invoke(app, ["nmon", "export", str(notes), str(tmp_path / "out")])
    assert res.exit_code == 2 and "nothing to export" in res.output and not (tmp_path / "out").exists()
