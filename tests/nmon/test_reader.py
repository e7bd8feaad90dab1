"""nmon reader: tables, times, header, and each tolerance case of issue 6 (fixtures in the real formats)."""

from __future__ import annotations

import gzip
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from lparscope.nmon import NmonRecording, export, is_nmon, read_nmon
from lparscope.nmon import fast

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "nmon"
AIX = FIX / "aix_small.nmon"
LINUX = FIX / "linux_small.nmon"


def aix_bytes() -> bytes:
    return AIX.read_bytes()


def messages(rec: NmonRecording) -> str:
    return "\n".join(f"{line}: {msg}" for line, msg in rec.warnings)


def line_of(data: bytes, prefix: bytes) -> int:
    return data.split(b"\n").index(next(ln for ln in data.split(b"\n") if ln.startswith(prefix))) + 1


# --- the normal case -------------------------------------------------------------------------


def test_aix_header_and_tables() -> None:
    rec = read_nmon(AIX)
    assert rec.host == "aixtest1"
    assert rec.header["interval"] == "300"
    assert rec.header["cpus"] == "8,4"
    assert rec.header["SerialNumber"] == "78A1B2C"
    assert rec.tz == "local naive"
    assert rec.snapshots == 3
    assert rec.times["T0002"] == datetime(2024, 3, 4, 0, 10, 1)
    assert rec.warnings == []
    assert rec.bytes_read == AIX.stat().st_size
    assert rec.lines == len(aix_bytes().splitlines())
    lpar = rec.tables["LPAR"]
    assert lpar.title == "Logical Partition aixtest1"
    assert lpar.columns[:3] == ["PhysicalCPU", "virtualCPUs", "logicalCPUs"]
    assert lpar.values.dtype == np.float64 and lpar.values.shape == (3, 21)
    np.testing.assert_allclose(lpar.column("PhysicalCPU"), [0.612, 0.955, 1.204])
    assert list(lpar.snapshots) == [1, 2, 3]
    assert lpar.times[0] == np.datetime64("2024-03-04T00:05:01")
    assert lpar.first_line == line_of(aix_bytes(), b"LPAR,Logical")
    assert list(lpar.lines) == [line_of(aix_bytes(), b"LPAR,T000%d" % i) for i in (1, 2, 3)]
    cpu_all = rec.tables["CPU_ALL"]
    assert np.isnan(cpu_all.column("Busy")).all()  # the empty field of topas_nmon's CPU_ALL
    np.testing.assert_allclose(cpu_all.column("PhysicalCPUs"), [4, 4, 4])
    np.testing.assert_allclose(rec.tables["MEMUSE"].column("lruable pages"), [4017568.0] * 3)  # " 4017568.0"
    assert rec.tables["DISKBUSY"].columns == ["hdisk0", "hdisk1"]
    assert {"CPU01", "CPU02", "MEM", "DISKREAD", "TOP", "UARG"} <= set(rec.tables)


def test_top_is_per_process() -> None:
    top = read_nmon(AIX).tables["TOP"]
    assert top.columns[:3] == ["PID", "%CPU", "%Usr"]
    assert len(top) == 4
    assert list(top.column("PID")) == [2555992, 2687140, 2555992, 3014838]
    assert list(top.snapshots) == [2, 2, 3, 3]
    assert list(top.text["Command"]) == ["j2pg", "syncd", "j2pg", "java"]
    assert list(top.column("WLMclass")) == ["Unclassified"] * 4
    uarg = read_nmon(AIX).tables["UARG"]
    assert list(uarg.column("PID")) == [2555992] and uarg.text["FullCommand"][0] == "j2pg"


def test_linux_nmon() -> None:
    rec = read_nmon(LINUX)
    assert rec.host == "lnx01" and rec.snapshots == 3 and rec.warnings == []
    assert rec.tables["CPU001"].columns == ["User%", "Sys%", "Wait%", "Idle%", "Steal%"]
    np.testing.assert_allclose(rec.tables["MEM"].column("memfree"), [66.2, 60.1, 58.0])
    top = rec.tables["TOP"]
    assert list(top.text["Command"]) == ["qemu-system-ppc"] * 2
    np.testing.assert_allclose(top.column("MajorFault"), [1, 0])
    assert rec.bbbp_outputs[0] == ("/etc/release", 18, 'NAME="Red Hat Enterprise Linux"\nVERSION="9.3 (Plow)"')


def test_time_zone() -> None:
    rec = read_nmon(AIX, tz="Europe/Paris")
    assert rec.tz == "Europe/Paris"
    assert rec.times["T0001"].utcoffset().total_seconds() == 3600
    assert rec.tables["LPAR"].times[0] == np.datetime64("2024-03-03T23:05:01")  # UTC
    with pytest.raises(ValueError):
        read_nmon(AIX, tz="Mars/Olympus")


def test_bytes_input_and_gzip(tmp_path: Path) -> None:
    plain = read_nmon(aix_bytes())
    gz = tmp_path / "aix.nmon.gz"
    gz.write_bytes(gzip.compress(aix_bytes()))
    for rec in (read_nmon(gz), read_nmon(gz.read_bytes())):
        assert rec.snapshots == 3 and rec.warnings == []
        np.testing.assert_array_equal(rec.tables["LPAR"].values, plain.tables["LPAR"].values)


def test_is_nmon() -> None:
    assert is_nmon(aix_bytes()[:200])
    assert is_nmon(gzip.compress(aix_bytes())[:512])
    assert is_nmon(b"ZZZZ,T0009,23:02:43,14-OCT-2014\nCPU01,T0009,58.9,27.9,6.6,6.6\n")
    assert not is_nmon(b"Node Name : aix1\n")
    assert not is_nmon(b"")


def test_pure_python_fallback_gives_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    fast_rec = read_nmon(AIX)
    monkeypatch.setattr(fast, "HAVE_ARROW", False)
    slow_rec = read_nmon(AIX)
    assert set(slow_rec.tables) == set(fast_rec.tables)
    for name, t in fast_rec.tables.items():
        s = slow_rec.tables[name]
        assert s.columns == t.columns, name
        np.testing.assert_array_equal(s.values, t.values)
        assert {k: list(v) for k, v in s.text.items()} == {k: list(v) for k, v in t.text.items()}


# --- tolerance --------------------------------------------------------------------------------


def test_truncated_last_line() -> None:
    data = aix_bytes().rstrip(b"\n")
    cut = data[: data.rfind(b",")] + b",1.0"  # "...,1.0" of "...,1.00,Unclassified": the last field is cut
    rec = read_nmon(cut)
    last = len(cut.split(b"\n"))
    assert any(line == last and "truncated" in msg for line, msg in rec.warnings)
    top = rec.tables["TOP"]
    assert len(top) == 4
    assert top.column("%CPU")[-1] == 1.2  # the complete fields of the cut line are kept
    assert rec.tables["LPAR"].values.shape == (3, 21)


@pytest.mark.parametrize("native", ["0", "1"])
def test_short_top_row_keeps_the_snapshot_out_of_the_values(native: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A TOP row cut after its snapshot field ("TOP,pid,Tnnnn" and nothing more) makes the section's
    # rows of unequal width: field 2 (the snapshot) must still not become a value column.
    from lparscope.nmon import native as core

    if native == "1" and not core.available():
        pytest.skip("the native nmon core was not built")
    monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", native)
    data = aix_bytes().replace(b"TOP,2555992,T0002,", b"TOP,2687140,T0002\nTOP,2555992,T0002,", 1)  # the first TOP row
    rec = read_nmon(data)
    top = rec.tables["TOP"]
    assert "Time" not in top.columns and top.columns[:3] == ["PID", "%CPU", "%Usr"]
    assert len(top) == 5 and np.isnan(top.column("%CPU")[0]) and top.column("PID")[0] == 2687140
    assert "not a number" not in messages(rec)


@pytest.mark.parametrize("native", ["0", "1"])
@pytest.mark.parametrize("tiny", [False, True])
def test_rows_with_the_same_text_share_one_str(native: str, tiny: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # a TOP table repeats a few command names over its rows: one object per distinct text (per
    # block of the pure path's CSV reader), as the native core gives them, not one per row
    from lparscope.nmon import native as core

    if native == "1" and not core.available():
        pytest.skip("the native nmon core was not built")
    monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", native)
    if tiny:  # many chunks, each its own CSV block
        from lparscope.nmon import purepath, source

        monkeypatch.setattr(purepath, "SMALL", 0)
        monkeypatch.setattr(source, "CHUNK", 700)
    top = read_nmon(AIX).tables["TOP"]
    command, wlm = top.text["Command"], top.text["WLMclass"]
    assert list(command) == ["j2pg", "syncd", "j2pg", "java"] and list(wlm) == ["Unclassified"] * 4
    if not tiny:
        assert command[0] is command[2] and wlm[0] is wlm[1] is wlm[2] is wlm[3]


def test_crlf() -> None:
    rec = read_nmon(aix_bytes().replace(b"\n", b"\r\n"))
    assert [m for _, m in rec.warnings] == ["CRLF (Windows) line ends: read as plain line ends"]
    assert rec.warnings[0][0] == 1
    np.testing.assert_allclose(rec.tables["LPAR"].column("PhysicalCPU"), [0.612, 0.955, 1.204])
    assert rec.bbbp_outputs[0][2].splitlines()[0].endswith(": aixtest1")


def test_duplicated_snapshot_keeps_the_last() -> None:
    data = aix_bytes() + b"ZZZZ,T0003,00:15:01,04-MAR-2024\nLPAR,T0003,9.999" + b",0" * 20 + b"\n"
    rec = read_nmon(data)
    lpar = rec.tables["LPAR"]
    assert list(lpar.snapshots) == [1, 2, 3]
    assert lpar.column("PhysicalCPU")[-1] == 9.999
    zz = len(data.split(b"\n")) - 2
    assert any(line == zz and "appears again" in msg for line, msg in rec.warnings), messages(rec)
    assert any(line == zz + 1 and "repeat a snapshot" in msg for line, msg in rec.warnings), messages(rec)


def test_out_of_order_snapshots_are_sorted() -> None:
    lines = aix_bytes().split(b"\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith(b"ZZZZ,T0002"))
    mid = next(i for i, ln in enumerate(lines) if ln.startswith(b"ZZZZ,T0003"))
    swapped = lines[:start] + lines[mid:-1] + lines[start:mid] + [b""]
    rec = read_nmon(b"\n".join(swapped))
    lpar = rec.tables["LPAR"]
    assert list(lpar.snapshots) == [1, 2, 3]
    np.testing.assert_allclose(lpar.column("PhysicalCPU"), [0.612, 0.955, 1.204])
    assert lpar.times[1] == np.datetime64("2024-03-04T00:10:01")
    assert any("out of order" in m for _, m in rec.warnings), messages(rec)
    assert any("out of snapshot order" in m for _, m in rec.warnings), messages(rec)


def test_device_appearing_mid_file() -> None:
    data = aix_bytes() + (b"DISKBUSY,Disk %Busy aixtest1,hdisk0,hdisk1,hdisk2\n"
                          b"ZZZZ,T0004,00:20:01,04-MAR-2024\nDISKBUSY,T0004,1.0,2.0,3.0\n")
    rec = read_nmon(data)
    busy = rec.tables["DISKBUSY"]
    assert busy.columns == ["hdisk0", "hdisk1", "hdisk2"]
    assert busy.values.shape == (4, 3)
    assert np.isnan(busy.column("hdisk2")[:3]).all()
    np.testing.assert_allclose(busy.values[3], [1.0, 2.0, 3.0])
    np.testing.assert_allclose(busy.column("hdisk1"), [12.5, 15.1, 9.9, 2.0])
    hdr = len(aix_bytes().split(b"\n"))
    assert any(line == hdr and "new header" in msg for line, msg in rec.warnings), messages(rec)


def test_device_reordered_mid_file_maps_by_name() -> None:
    data = aix_bytes() + (b"DISKBUSY,Disk %Busy aixtest1,hdisk1,hdisk0\n"
                          b"ZZZZ,T0004,00:20:01,04-MAR-2024\nDISKBUSY,T0004,7.0,3.0\n")
    busy = read_nmon(data).tables["DISKBUSY"]
    assert busy.columns == ["hdisk0", "hdisk1"]
    np.testing.assert_allclose(busy.values[3], [3.0, 7.0])


def test_error_lines() -> None:
    data = aix_bytes() + b"ERROR,T0003,Failed to open /dev/mem\n"
    rec = read_nmon(data)
    n = len(data.split(b"\n")) - 1
    assert (n, "nmon ERROR line: T0003,Failed to open /dev/mem") in rec.warnings
    assert rec.tables["LPAR"].values.shape == (3, 21)


def test_corrupt_values_are_nan_and_capped() -> None:
    data = aix_bytes().replace(b"DISKREAD,T0002,20.1,301.0", b"DISKREAD,T0002,20.1,3#1.0")
    rec = read_nmon(data)
    read = rec.tables["DISKREAD"]
    assert read.column("hdisk0")[1] == 20.1 and np.isnan(read.column("hdisk1")[1])
    line = line_of(data, b"DISKREAD,T0002")
    assert any(ln == line and "'3#1.0' is not a number" in m for ln, m in rec.warnings), messages(rec)
    # Thousands of bad values: a few warnings, then a count.
    bad = b"".join(b"ZZZZ,T%04d,01:00:00,04-MAR-2024\nDISKBUSY,T%04d,x,y\n" % (i, i) for i in range(10, 2010))
    rec = read_nmon(aix_bytes() + bad)
    assert len(rec.warnings) < 50
    assert any("more warnings like the above" in m or "more values" in m for _, m in rec.warnings), messages(rec)
    assert np.isnan(rec.tables["DISKBUSY"].values[3:]).all()
    assert len(rec.tables["DISKBUSY"]) == 2003


def test_garbage_lines_and_rows_without_header() -> None:
    data = b"ZZZZ,T0009,23:02:43,14-OCT-2014\nCPU01,T0009,58.9,27.9,6.6,6.6\n....\nKXFER,T0009,1.5,2\n"
    rec = read_nmon(data)
    assert rec.snapshots == 1
    np.testing.assert_allclose(rec.tables["CPU01"].values, [[58.9, 27.9, 6.6, 6.6]])
    assert rec.tables["KXFER"].columns == ["col1", "col2"]
    assert (3, "not an nmon record: '....'") in rec.warnings


def test_more_values_than_header_columns() -> None:
    data = aix_bytes().replace(b"DISKBUSY,T0001,0.0,12.5", b"DISKBUSY,T0001,0.0,12.5,99.0")
    rec = read_nmon(data)
    busy = rec.tables["DISKBUSY"]
    assert busy.columns == ["hdisk0", "hdisk1", "col3"]
    assert busy.column("col3")[0] == 99.0 and np.isnan(busy.column("col3")[1:]).all()
    assert any("more values" in m for _, m in rec.warnings), messages(rec)


def test_empty_file(tmp_path: Path) -> None:
    p = tmp_path / "empty.nmon"
    p.write_bytes(b"")
    rec = read_nmon(p)
    assert rec.tables == {} and rec.warnings == [(1, "empty file")]
    assert read_nmon(b"\n\n").warnings == [(1, "empty file")]


def test_not_nmon() -> None:
    rec = read_nmon(b"Node Name : aix1\nEntitled Capacity : 2.00\n")
    assert rec.tables == {} and rec.warnings[0] == (1, "not an nmon file (no AAA header line)")
    rec = read_nmon(b"\x00\x01binary\xff\xfe" * 100)
    assert rec.tables == {}


def test_damaged_gzip() -> None:
    gz = gzip.compress(aix_bytes())
    rec = read_nmon(gz[: len(gz) // 2])
    assert any("gzip" in m for _, m in rec.warnings)


# --- export ------------------------------------------------------------------------------------


def test_export_csv_and_parquet(tmp_path: Path) -> None:
    rec = read_nmon(AIX)
    paths = export(rec, "csv", tmp_path / "csv")
    lpar = (tmp_path / "csv" / "LPAR.csv").read_text().splitlines()
    assert lpar[0].startswith('"snapshot","time","PhysicalCPU"') or lpar[0].startswith("snapshot,time,PhysicalCPU")
    assert "0.612" in lpar[1] and "2024-03-04" in lpar[1]
    assert (tmp_path / "csv" / "_header.csv") in paths
    pq = pytest.importorskip("pyarrow.parquet")
    paths = export(rec, "parquet", tmp_path / "pq")
    t = pq.read_table(tmp_path / "pq" / "TOP.parquet")
    assert t.column("Command").to_pylist() == ["j2pg", "syncd", "j2pg", "java"]
    with pytest.raises(ValueError):
        export(rec, "xlsx", tmp_path)  # type: ignore[arg-type]


def test_parquet_dictionary_only_where_values_repeat(tmp_path: Path) -> None:
    """A column of values that hardly repeat stops growing its dictionary at export.DICTIONARY_PAGE
    (then plain values); one that repeats keeps a small one; the values read back as written."""
    from lparscope.nmon.export import DICTIONARY_PAGE

    pq = pytest.importorskip("pyarrow.parquet")
    rng = np.random.default_rng(5)
    n = 20_000  # 20,000 distinct values: a 160 KB dictionary, over 64 KiB and under the 1 MiB default
    measured = rng.random(n).round(9) + np.arange(n)
    lines = [b"AAA,host,aixtest1", b"AAA,date,04-MAR-2024", b"DISKBUSY,Disk %Busy aixtest1,hdisk0,hdisk1"]
    for i in range(n):
        lines.append(b"ZZZZ,T%05d,%02d:%02d:%02d,04-MAR-2024" % (i + 1, i // 3600 % 24, i // 60 % 60, i % 60))
        lines.append(b"DISKBUSY,T%05d,%r,%d" % (i + 1, float(measured[i]), i % 3))
    rec = read_nmon(b"\n".join(lines) + b"\n")
    export(rec, "parquet", tmp_path)
    meta = pq.ParquetFile(tmp_path / "DISKBUSY.parquet").metadata.row_group(0)
    chunks = {meta.column(i).path_in_schema: meta.column(i) for i in range(meta.num_columns)}

    def dictionary_bytes(name: str) -> int:  # the dictionary page: from its offset to the first data page
        c = chunks[name]
        return c.data_page_offset - c.dictionary_page_offset if c.has_dictionary_page else 0

    # Not every value in it (8 bytes each), no more than the cap (and the page's header)
    assert 0 < dictionary_bytes("hdisk0") < n * 8 and dictionary_bytes("hdisk0") <= DICTIONARY_PAGE + 64
    assert 0 < dictionary_bytes("hdisk1") < 100
    back = pq.read_table(tmp_path / "DISKBUSY.parquet")
    assert back.column("hdisk0").to_pylist() == measured.tolist()
    assert back.column("hdisk1").to_pylist() == [float(i % 3) for i in range(n)]


def test_nmon_rows_without_their_aaa_header_are_read_as_a_part_of_a_recording(tmp_path: Path) -> None:
    from lparscope.pipeline import analyze
    from lparscope.recording_head import is_nmon_or_njmon

    grep = ('BBBP,812,vmstat -v,"                   42 pending disk I/Os blocked with no pbuf"\n'
            'BBBP,813,vmstat -v,"                    0 paging space I/Os blocked with no psbuf"\n'
            'BBBP,814,vmstat -v,"                 1907 filesystem I/Os blocked with no fsbuf"\n')
    second_half = ("ZZZZ,T0301,10:05:00,06-MAR-2025\nCPU_ALL,T0301,12.1,3.2,0.4,84.3,,8\n"
                   "ZZZZ,T0302,10:10:00,06-MAR-2025\nCPU_ALL,T0302,15.0,2.9,0.1,82.0,,8\n")
    assert is_nmon_or_njmon(grep.encode()) and is_nmon_or_njmon(second_half.encode())
    assert not is_nmon_or_njmon(b"Node Name : aix1\nEntitled Capacity : 2.00\nMode : Capped\n")
    assert not is_nmon_or_njmon(b"NAME,STATE\nAB1,Running\nAB2,Running\n")  # upper-case CSV, no nmon tags
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "db7_grep_bbbp.txt").write_text(grep)
    a = analyze([str(folder)])
    [st] = a.estate.inputs
    assert st.kind == "nmon" and st.host == "db7_grep_bbbp"  # "logs" names no host
    assert "no AAA header lines" in st.warnings[0][1]
    assert a.estate.hosts["db7_grep_bbbp"].vmstat["pending_disk_ios_blocked_with_no_pbuf"].value == 42
