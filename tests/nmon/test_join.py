"""Recordings of one host that follow one another (a file a day) joined into one (nmon/join.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lparscope.nmon import read_nmon
from lparscope.nmon.join import join_recordings, other_partition, overlaps, time_span


def _day(day: int, disks: list[str], snapshots: int = 3, top: bool = True) -> str:
    """A small AIX recording: LPAR, CPU_ALL, DISKBUSY with ``disks``, and TOP (a text column)."""
    lines = ["AAA,progname,topas_nmon", "AAA,host,aix7", f"AAA,date,{day:02d}-MAR-2025", "AAA,SerialNumber,78AB12C",
             "CPU_ALL,CPU Total aix7,User%,Sys%,Wait%,Idle%",
             "LPAR,Logical Partition aix7,PhysicalCPU,virtualCPUs,entitled",
             "DISKBUSY,Disk %Busy aix7," + ",".join(disks)]
    if top:
        lines.append("TOP,+PID,Time,%CPU,%Usr,%Sys,Threads,Size,ResText,ResData,CharIO,%RAM,Paging,Command,WLMclass")
    for i in range(1, snapshots + 1):
        t = f"T{i:04d}"
        lines += [f"ZZZZ,{t},0{i}:00:00,{day:02d}-MAR-2025",
                  f"CPU_ALL,{t},{day}.0,2.0,0.5,{87.5 - day}",
                  f"LPAR,{t},{day / 10 + i / 100:.2f},4,1.00",
                  f"DISKBUSY,{t}," + ",".join(f"{k + day}.5" for k in range(len(disks)))]
        if top:
            lines.append(f"TOP,{1000 + i},{t},1.5,1.0,0.5,3,1024,10,20,300,0.1,0,db2sys{day},Unclassified")
    return "\n".join(lines) + "\n"


def _read(tmp_path: Path, name: str, text: str):  # type: ignore[no-untyped-def]
    p = tmp_path / name
    p.write_text(text)
    return read_nmon(str(p)), str(p)


def test_sections_are_put_one_after_the_other_in_time_order(tmp_path: Path) -> None:
    tue = _read(tmp_path, "tue.nmon", _day(11, ["hdisk0", "hdisk1"]))
    mon = _read(tmp_path, "mon.nmon", _day(10, ["hdisk0"]))
    joined = join_recordings([tue, mon])  # given out of order
    lpar = joined.tables["LPAR"]
    assert lpar.column("PhysicalCPU").tolist() == [1.01, 1.02, 1.03, 1.11, 1.12, 1.13]
    assert lpar.snapshots.tolist() == [1, 2, 3, 4, 5, 6]  # numbered on from Monday's last snapshot
    assert str(lpar.times[0]) == "2025-03-10T01:00:00" and str(lpar.times[-1]) == "2025-03-11T03:00:00"
    assert [lpar.source_of(i, "?") for i in (0, 2, 3, 5)] == [mon[1], mon[1], tue[1], tue[1]]
    assert [lpar.row_in_source(i) for i in range(6)] == [0, 1, 2, 0, 1, 2]
    assert lpar.lines.tolist()[:3] == mon[0].tables["LPAR"].lines.tolist()  # each row keeps its own file's line
    assert lpar.lines.tolist()[3:] == tue[0].tables["LPAR"].lines.tolist()
    assert joined.header["SerialNumber"] == "78AB12C" and joined.host == "aix7"
    assert len(joined.times) == 6 and joined.times["T0004"].day == 11


def test_a_column_one_part_lacks_is_nan_in_its_rows(tmp_path: Path) -> None:
    joined = join_recordings([_read(tmp_path, "a.nmon", _day(10, ["hdisk0"])),
                              _read(tmp_path, "b.nmon", _day(11, ["hdisk1", "hdisk0"]))])
    disk = joined.tables["DISKBUSY"]
    assert disk.columns == ["hdisk0", "hdisk1"]
    assert disk.column("hdisk0").tolist() == [10.5] * 3 + [12.5] * 3  # the second file has it second
    assert np.isnan(disk.column("hdisk1")[:3]).all() and disk.column("hdisk1")[3:].tolist() == [11.5] * 3


def test_text_columns_and_a_section_only_one_part_has(tmp_path: Path) -> None:
    joined = join_recordings([_read(tmp_path, "a.nmon", _day(10, ["hdisk0"], top=False)),
                              _read(tmp_path, "b.nmon", _day(11, ["hdisk0"]))])
    top = joined.tables["TOP"]
    assert len(top) == 3 and list(top.column("Command")) == ["db2sys11"] * 3
    assert top.source_of(0, "?").endswith("b.nmon") and top.snapshots.tolist() == [4, 5, 6]


def test_sections_that_shared_their_times_still_share_them(tmp_path: Path) -> None:
    joined = join_recordings([_read(tmp_path, "a.nmon", _day(10, ["hdisk0"])),
                              _read(tmp_path, "b.nmon", _day(11, ["hdisk0"]))])
    lpar, cpu = joined.tables["LPAR"], joined.tables["CPU_ALL"]
    a = read_nmon(str(tmp_path / "a.nmon"))
    assert a.tables["LPAR"].times is a.tables["CPU_ALL"].times  # the reader: one array per recording
    assert lpar.times is cpu.times and lpar.snapshots is cpu.snapshots  # a week of 100 sections: not 100 copies


def test_spans_and_overlaps(tmp_path: Path) -> None:
    mon, _ = _read(tmp_path, "a.nmon", _day(10, ["hdisk0"]))
    tue, _ = _read(tmp_path, "b.nmon", _day(11, ["hdisk0"]))
    sm, st = time_span(mon), time_span(tue)
    assert sm is not None and st is not None and sm[1] - sm[0] == 2 * 3600
    assert not overlaps(sm, st) and overlaps(sm, sm)
    assert overlaps(None, st)  # an undated recording cannot be placed: never joined
    with pytest.raises(ValueError):
        join_recordings([])


def test_another_frame_or_partition_number_is_said(tmp_path: Path) -> None:
    mon, _ = _read(tmp_path, "a.nmon", _day(10, ["hdisk0"]))
    tue, _ = _read(tmp_path, "b.nmon", _day(11, ["hdisk0"]))
    assert other_partition(mon, tue) == ""
    tue.header["LPARNumberName"], mon.header["LPARNumberName"] = "7,aix7", "5,aix7"
    assert other_partition(mon, tue) == "partition number: 7, not 5"
    tue.header["SerialNumber"] = "21C3D4E"
    assert other_partition(mon, tue) == "frame serial: 21C3D4E, not 78AB12C"
    del mon.header["SerialNumber"], mon.header["LPARNumberName"]
    assert other_partition(mon, tue) == ""  # nothing to tell them apart


def test_the_joined_recording_keeps_nothing_of_its_parts_but_their_times(tmp_path: Path) -> None:
    import gc
    import weakref

    a = _read(tmp_path, "a.nmon", _day(10, ["hdisk0"]))
    b = _read(tmp_path, "b.nmon", _day(11, ["hdisk0"]))
    gone = [weakref.ref(a[0].tables["DISKBUSY"]), weakref.ref(b[0].tables["LPAR"])]
    joined = join_recordings([a, b])
    del a, b
    gc.collect()
    assert all(ref() is None for ref in gone)  # the parts' sections are freed: only the joined copy lives
    assert len(joined.times) == 6 and sorted(joined.times)[:2] == ["T0001", "T0002"]


def test_parts_can_be_emptied_as_they_are_joined(tmp_path: Path) -> None:
    a = _read(tmp_path, "a.nmon", _day(10, ["hdisk0"]))
    b = _read(tmp_path, "b.nmon", _day(11, ["hdisk0"]))
    kept = join_recordings([a, b])
    dropped = join_recordings([_read(tmp_path, "a.nmon", _day(10, ["hdisk0"])), b], drop_parts=True)
    assert not b[0].tables and a[0].tables  # only the parts given with drop_parts are emptied
    for name, table in kept.tables.items():
        other = dropped.tables[name]
        assert table.columns == other.columns and np.array_equal(table.values, other.values, equal_nan=True)
        assert (table.times == other.times).all() and table.snapshots.tolist() == other.snapshots.tolist()
