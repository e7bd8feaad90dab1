"""Classic nmon (nmon for AIX 5.x/6.x, old Linux nmon): times without a date, full-path BBBP commands.

The fixture ``aix53_classic_time_only.nmon`` is written in the form of nmon 12e for AIX 5.3: its
ZZZZ lines carry the time alone (``ZZZZ,T0002,00:00:03``), the day is in ``AAA,date,11-FEB-09``,
the recording crosses midnight, and its BBBP commands are named with their full path.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from lparscope.nmon import read_nmon
from lparscope.nmon.snapshots import _day
from lparscope.sources import parsers
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "nmon"
CLASSIC = FIX / "aix53_classic_time_only.nmon"

HEAD = ("AAA,progname,nmon\nAAA,version,10\nAAA,host,old1\nAAA,time,{time}\n{date}"
        "CPU_ALL,CPU Total old1,User%,Sys%,Wait%,Idle%,Busy,CPUs\n")


def recording(times: list[str], time: str = "23:58:00", date: str = "AAA,date,31-DEC-08\n") -> bytes:
    body = "".join(f"ZZZZ,T{i:04d},{t}\nCPU_ALL,T{i:04d},10,5,0,85,,2\n" for i, t in enumerate(times, start=1))
    return (HEAD.format(time=time, date=date) + body).encode()


def test_classic_fixture_reads_every_snapshot_across_midnight() -> None:
    rec = read_nmon(CLASSIC)
    assert rec.snapshots == 4 and not rec.warnings
    assert rec.times["T0001"] == datetime(2009, 2, 11, 23, 50, 3)
    assert rec.times["T0002"] == datetime(2009, 2, 12, 0, 0, 3)
    assert rec.times["T0004"] == datetime(2009, 2, 12, 0, 20, 3)
    lpar = rec.tables["LPAR"]
    assert [str(t) for t in lpar.times] == ["2009-02-11T23:50:03", "2009-02-12T00:00:03",
                                            "2009-02-12T00:10:03", "2009-02-12T00:20:03"]
    assert lpar.column("PhysicalCPU").tolist() == [0.42, 0.61, 0.38, 0.55]
    assert rec.header["progname"] == "nmon" and rec.header["version"] == "12e" and rec.host == "aix53old"
    assert "BBBP" not in rec.tables  # configuration, not a section


def test_first_snapshot_after_midnight_is_the_next_day() -> None:
    rec = read_nmon(recording(["00:08:00", "00:18:00"], time="23:58:00"))
    assert rec.times["T0001"] == datetime(2009, 1, 1, 0, 8) and rec.times["T0002"] == datetime(2009, 1, 1, 0, 18)


def test_several_days_roll_over_each_midnight() -> None:
    times = ["12:00:00", "20:00:00", "04:00:00", "12:00:00", "20:00:00", "04:00:00"]
    rec = read_nmon(recording(times, time="11:59:59"))
    assert [rec.times[f"T{i:04d}"].day for i in range(1, 7)] == [31, 31, 1, 1, 1, 2]
    assert rec.times["T0006"] == datetime(2009, 1, 2, 4, 0)


def test_clock_put_back_an_hour_stays_on_the_same_day() -> None:
    rec = read_nmon(recording(["02:50:00", "02:55:00", "02:00:00", "02:05:00"], time="02:45:00"))
    assert {t.date() for t in rec.times.values()} == {datetime(2008, 12, 31).date()}
    assert rec.tables["CPU_ALL"].times.tolist()[2] == datetime(2008, 12, 31, 2, 0)


def test_time_only_without_a_header_date_is_one_clear_warning() -> None:
    rec = read_nmon(recording(["10:00:00", "10:05:00", "10:10:00"], date=""))
    assert rec.snapshots == 0
    msgs = [m for _, m in rec.warnings if "ZZZZ" in m]
    assert len(msgs) == 1 and "no AAA,date" in msgs[0]
    assert len(rec.tables["CPU_ALL"]) == 3  # the values are kept, their times are NaT


def test_dated_and_time_only_lines_mixed() -> None:
    data = recording(["23:59:00"]) + b"ZZZZ,T0002,00:04:00,01-JAN-2009\nZZZZ,T0003,00:09:00\n"
    rec = read_nmon(data)
    assert rec.times["T0003"] == datetime(2009, 1, 1, 0, 9) and not rec.warnings


@pytest.mark.parametrize("text,expected", [
    ("10-FEB-2016", (2016, 2, 10)), ("10-Feb-16", (2016, 2, 10)), ("01-JAN-99", (1999, 1, 1)),
    ("2016-02-10", (2016, 2, 10)), ("2016/02/10", (2016, 2, 10)), ("20160210", (2016, 2, 10)),
    ("10 FEB 2016", (2016, 2, 10)), ("Feb 10 2016", (2016, 2, 10)), ("February 10, 2016", (2016, 2, 10)),
    ("25/12/2009", (2009, 12, 25)), ("12/25/2009", (2009, 12, 25)), ("05/05/2009", (2009, 5, 5)),
])
def test_date_spellings(text: str, expected: tuple[int, int, int]) -> None:
    assert _day(text) == (datetime(*expected) - datetime(1970, 1, 1)).days


@pytest.mark.parametrize("text", ["03/04/2009", "31-FOO-2009", "2009-13-01", "", "yesterday"])
def test_dates_not_read(text: str) -> None:
    assert _day(text) is None


def test_full_path_commands_are_classified() -> None:
    segs = split_and_classify("# /usr/sbin/lsattr -El sys0\nmaxuproc 2048 Maximum number of PROCESSES True\n",
                              parsers())
    assert [s.kind for s in segs] == ["lsattr"]


def test_classic_bbbp_feeds_the_host_with_file_lines() -> None:
    from lparscope.pipeline import analyze

    a = analyze([str(CLASSIC)], workers=1)
    status = [i for i in a.estate.inputs if i.kind == "nmon"]
    assert [s.status for s in status] == ["parsed"], status
    host = a.estate.hosts["aix53old"]
    lines = CLASSIC.read_text().splitlines()
    sys0 = host.devices["sys0"].attrs
    assert sys0["realmem"].value == "4194304"
    assert lines[sys0["realmem"].evidence.line - 1].startswith('BBBP,008,/usr/sbin/lsattr -El sys0,"realmem ')
    assert sys0["ent_capacity"].value == "0.50"
    for name, cls in (("ent0", "physical"), ("fcs0", "fc"), ("hdisk1", "disk")):
        dev = host.devices[name]
        assert dev.cls == cls and dev.status == "Available"
    assert host.levels["oslevel"].value == "5300-09"
    assert lines[host.levels["oslevel"].evidence.line - 1] == 'BBBP,017,/usr/bin/oslevel -r,"5300-09"'
    assert len(host.cpu.samples) == 4 and host.sizing is not None


def test_bbbp_output_without_records_is_reported(tmp_path: Path) -> None:
    from lparscope.pipeline import analyze

    text = CLASSIC.read_text().replace('BBBP,016,/usr/bin/oslevel -r\n', 'BBBP,016,/usr/sbin/lsdev -Cc tape\n')
    text = text.replace('BBBP,017,/usr/bin/oslevel -r,"5300-09"', 'BBBP,017,/usr/sbin/lsdev -Cc tape,"name status location description"')
    p = tmp_path / "classic.nmon"
    p.write_text(text)
    status = [i for i in analyze([str(p)], workers=1).estate.inputs if i.kind == "nmon"][0]
    assert status.status == "partly"
    assert [m for _, m in status.warnings] == ["BBBP /usr/sbin/lsdev -Cc tape: read as lsdev, but no records found in it"]


def test_bbbp_output_no_parser_can_read_is_one_warning(tmp_path: Path) -> None:
    """Linux mount output under a full path (/bin/mount) goes to the mount parser, which reads AIX rows only."""
    from lparscope.pipeline import analyze

    rows = ["sysfs on /sys type sysfs (rw,nosuid)", "proc on /proc type proc (rw)", "tmpfs on /run type tmpfs (rw)"]
    text = CLASSIC.read_text().replace(
        'BBBP,016,/usr/bin/oslevel -r\nBBBP,017,/usr/bin/oslevel -r,"5300-09"\n',
        "BBBP,016,/bin/mount\n" + "".join(f'BBBP,{17 + i:03d},/bin/mount,"{r}"\n' for i, r in enumerate(rows)))
    p = tmp_path / "classic.nmon"
    p.write_text(text)
    status = [i for i in analyze([str(p)], workers=1).estate.inputs if i.kind == "nmon"][0]
    msgs = [(line, m) for line, m in status.warnings if "/bin/mount" in m]
    assert len(msgs) == 1 and "no records found in it (3 lines not read" in msgs[0][1], status.warnings
    assert p.read_text().splitlines()[msgs[0][0] - 1].startswith("BBBP,017,/bin/mount")
