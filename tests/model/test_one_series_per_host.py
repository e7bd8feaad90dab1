"""A host measured twice (two nmon recordings, or a recording and an lparstat interval output) keeps
one processor series, the same whatever the order the files are read in, and the input whose
samples are set aside says so (it used to raise, or to be replaced without a word)."""

from __future__ import annotations

from pathlib import Path

from lparscope.pipeline import analyze

LPARSTAT = """root@aix9:/ # lparstat 5 3

System configuration: type=Shared mode=Uncapped smt=8 lcpu=8 mem=16384MB psize=16 ent=1.00

%user  %sys  %wait  %idle physc %entc  lbusy   app  vcsw phint
----- ----- ------ ------ ----- ----- ------ ----- ----- -----
 20.1   5.2    0.1   74.6  0.40  40.0   12.0 14.50  1200     3
 22.3   5.0    0.2   72.5  0.42  42.0   12.5 14.40  1250     2
 19.8   4.9    0.1   75.2  0.39  39.0   11.8 14.60  1180     4
"""


def _nmon(day: int, snapshots: int) -> str:
    lines = ["AAA,progname,topas_nmon", "AAA,host,aix9", f"AAA,date,{day:02d}-FEB-2024", "AAA,time,10:00:00",
             "LPAR,Logical Partition aix9,PhysicalCPU,virtualCPUs,logicalCPUs,poolCPUs,entitled"]
    for i in range(1, snapshots + 1):
        lines += [f"ZZZZ,T{i:04d},10:{(5 * i) % 60:02d}:00,{day:02d}-FEB-2024", f"LPAR,T{i:04d},0.{50 + i},2,8,16,1.00"]
    return "\n".join(lines) + "\n"


def _run(tmp_path: Path, files: dict[str, str]):  # type: ignore[no-untyped-def]
    d = tmp_path / "aix9"
    d.mkdir()
    for name, text in files.items():
        (d / name).write_text(text)
    a = analyze([str(tmp_path)], workers=1)
    assert not a.internal
    return a, {Path(i.path).name: i for i in a.estate.inputs}


def test_lparstat_after_a_recording_is_not_mixed_in(tmp_path: Path) -> None:
    a, st = _run(tmp_path, {"a.nmon": _nmon(10, 4), "b_lparstat.txt": LPARSTAT})
    host = a.estate.hosts["aix9"]
    assert host.cpu.origin == "nmon" and len(host.cpu.samples) == 4
    assert st["b_lparstat.txt"].status == "partly"
    assert "not added to aix9's series" in st["b_lparstat.txt"].warnings[0][1]


def test_a_recording_after_lparstat_replaces_its_series_and_says_so(tmp_path: Path) -> None:
    a, st = _run(tmp_path, {"a_lparstat.txt": LPARSTAT, "b.nmon": _nmon(10, 4)})
    assert len(a.estate.hosts["aix9"].cpu.samples) == 4
    assert "lparstat output (3 samples) is replaced" in st["b.nmon"].warnings[0][1]


def _nmon_at(day: int, start_minute: int, snapshots: int) -> str:
    """Like _nmon, the snapshots five minutes apart from 10:00 + ``start_minute``."""
    lines = ["AAA,progname,topas_nmon", "AAA,host,aix9", f"AAA,date,{day:02d}-FEB-2024",
             "LPAR,Logical Partition aix9,PhysicalCPU,virtualCPUs,logicalCPUs,poolCPUs,entitled"]
    for i in range(1, snapshots + 1):
        m = start_minute + 5 * i
        lines += [f"ZZZZ,T{i:04d},{10 + m // 60}:{m % 60:02d}:00,{day:02d}-FEB-2024", f"LPAR,T{i:04d},0.{50 + i},2,8,16,1.00"]
    return "\n".join(lines) + "\n"


def test_of_two_overlapping_recordings_the_later_one_is_used_in_either_order(tmp_path: Path) -> None:
    for first, second in (("a.nmon", "b.nmon"), ("b.nmon", "a.nmon")):
        run = tmp_path / first[0]
        run.mkdir()
        later, earlier = _nmon_at(10, 20, 3), _nmon_at(10, 0, 5)  # 10:25-10:35 and 10:05-10:25: they overlap
        a, st = _run(run, {first: later, second: earlier})  # the later has fewer snapshots: the end decides
        host = a.estate.hosts["aix9"]
        assert Path(host.nmon_path).name == first and len(host.cpu.samples) == 3
        said = [m for name in (first, second) for _, m in st[name].warnings]
        assert len(said) == 1 and "ends later" in said[0] and "(they overlap in time" in said[0]
        assert st[first].status != "unrecognised" and st[second].status != "unrecognised"


def test_recordings_that_follow_one_another_are_joined_in_either_order(tmp_path: Path) -> None:
    for first, second in (("a.nmon", "b.nmon"), ("b.nmon", "a.nmon")):
        run = tmp_path / first[0]
        run.mkdir()
        a, st = _run(run, {first: _nmon(11, 3), second: _nmon(10, 5)})  # day 10, then day 11
        host = a.estate.hosts["aix9"]
        assert len(host.cpu.samples) == 8 and host.sizing is not None and host.sizing.n_samples == 8
        assert Path(host.nmon_path).name == first  # the latest part: its header is the joined one's
        assert [Path(host.cpu.evidence[i].path).name for i in (0, 4, 5, 7)] == [second, second, first, first]
        assert host.cpu.evidence[5].excerpt == "LPAR snapshot 1"  # counted within the file it names
        for name in (first, second):
            assert st[name].status == "parsed" and not st[name].warnings
            assert st[name].reason.startswith("one of 2 recordings of aix9 joined into one time series (8 snapshots")


def test_recordings_of_another_frame_or_partition_number_are_not_joined(tmp_path: Path) -> None:
    moved = _nmon(11, 3).replace("AAA,host,aix9", "AAA,host,aix9\nAAA,SerialNumber,0212345")
    a, st = _run(tmp_path, {"a.nmon": _nmon(10, 5).replace("AAA,host,aix9", "AAA,host,aix9\nAAA,SerialNumber,0267890"),
                            "b.nmon": moved})
    host = a.estate.hosts["aix9"]
    assert len(host.cpu.samples) == 3 and Path(host.nmon_path).name == "b.nmon"  # the later one, alone
    said = st["b.nmon"].warnings[0][1]
    assert "instead of its recording" in said and "another frame serial: 0212345, not 0267890" in said
    assert not st["a.nmon"].reason and not st["b.nmon"].reason


def test_the_charts_of_joined_recordings_span_every_part(tmp_path: Path) -> None:
    from lparscope.report.nmon_charts import host_charts

    a, _ = _run(tmp_path, {"a.nmon": _nmon(10, 5), "b.nmon": _nmon(11, 3)})
    physc = next(c for c in host_charts(a.estate.hosts["aix9"]) if c.get("kind") == "physc")
    assert physc["series"][0]["values"] == [0.51, 0.52, 0.53, 0.54, 0.55, 0.51, 0.52, 0.53]
    assert len(physc["x"]) == 8 and physc["x"] == sorted(physc["x"])  # day 10, then day 11
