"""Classic nmon v8 (``nmon64`` for AIX 5.3) and the header facts of a recording.

The fixture ``aix53_nmon64_v8.nmon`` is written in the form nmon v8 has: a bare ``lsattr`` BBBP
command holding sys0's attributes, a MEM header whose first field joins three names with spaces
(fewer names than values), a UARG header with ``ProgName``, ``AAA,date`` as dd/mm/yy, time-only
ZZZZ lines and a snapshot whose time goes back. ``njmon/vfcaix_210614_0900.json``: njmon with
virtual FC client adapters whose traffic is in ``disk_adapters``.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from lparscope.nmon import read_nmon
from lparscope.nmon.bbbp import bbbp_outputs

FIX = Path(__file__).resolve().parents[1] / "fixtures"
V8 = FIX / "nmon" / "aix53_nmon64_v8.nmon"
VFC = FIX / "njmon" / "vfcaix_210614_0900.json"


@pytest.fixture(params=["0", "1"], ids=["pure", "native"])
def path_kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", request.param)
    return request.param


def test_bare_lsattr_of_sys0_attributes_is_lsattr_el_sys0(path_kind: str) -> None:
    rec = read_nmon(V8)
    assert [c for c, _, _ in rec.bbbp_outputs] == ["emstat", "lsattr -El sys0", "ipcs"]
    # a bare lsattr whose lines are not sys0's attributes keeps its name
    other = bbbp_outputs([(1, "BBBP,001,lsattr"), (2, "BBBP,002,lsattr,queue_depth 8 Queue DEPTH True"),
                          (3, "BBBP,003,lsattr,pvid none Physical volume identifier False")])
    assert [c for c, _, _ in other] == ["lsattr"]


def test_bare_lsattr_feeds_sys0() -> None:
    from lparscope.pipeline import analyze

    a = analyze([str(V8)], workers=1)
    status = [i for i in a.estate.inputs if i.kind == "nmon"][0]
    assert not any("no parser reads" in m and "lsattr" in m for _, m in status.warnings), status.warnings
    sys0 = a.estate.hosts["v8host"].devices["sys0"].attrs
    assert sys0["ent_capacity"].value == "1.50" and sys0["realmem"].value == "8388608"
    lines = V8.read_text().splitlines()
    assert lines[sys0["realmem"].evidence.line - 1].startswith("BBBP,007,lsattr,realmem")


def test_joined_first_name_aligns_names_to_the_right(path_kind: str) -> None:
    rec = read_nmon(V8)
    mem = rec.tables["MEM"]
    assert mem.columns[-4:] == ["Real Free Virtual free Real free(MB)", "Virtual free(MB)", "Real total(MB)",
                                "Virtual total(MB)"]
    assert mem.column("Real total(MB)").tolist() == [8192.0] * 4
    assert mem.column("Virtual total(MB)").tolist() == [4096.0] * 4
    assert mem.column("Virtual free(MB)")[0] == 2457.6
    assert mem.values[0, :2].tolist() == [2.5, 60.0] and mem.columns[:2] == ["col1", "col2"]
    warned = [(ln, m) for ln, m in rec.warnings if m.startswith("MEM:")]
    assert len(warned) == 1 and warned[0][0] == 20
    assert "joins several names" in warned[0][1] and "read from the right" in warned[0][1]


def test_fewer_names_without_a_joined_name_still_shift_left(path_kind: str) -> None:
    text = ("AAA,progname,nmon\nAAA,host,h\nAAA,date,10-FEB-2016\nXX,Some section h,alpha,beta\n"
            "ZZZZ,T0001,10:00:00,10-FEB-2016\nXX,T0001,1,2,3\n")
    rec = read_nmon(text.encode())
    assert rec.tables["XX"].columns == ["alpha", "beta", "col3"]
    assert any("more values" in m for _, m in rec.warnings)


def test_uarg_progname_is_text(path_kind: str) -> None:
    u = read_nmon(V8).tables["UARG"]
    assert u.columns == ["PID"] and u.column("PID").tolist() == [401460, 299010]
    assert list(u.text["ProgName"]) == ["dbwriter", "java"]
    assert list(u.text["FullCommand"]) == ["dbwriterPROD01 (LOCAL=NO)", "java -Xmx512m -cp app.jar,more Main"]


def _ambiguous(date: str) -> bytes:
    return V8.read_bytes().replace(b"AAA,date,21/09/10", f"AAA,date,{date}".encode())


def test_ambiguous_header_date_is_named(path_kind: str) -> None:
    rec = read_nmon(_ambiguous("04/09/10"))
    assert rec.snapshots == 0
    msgs = [m for _, m in rec.warnings if "ZZZZ" in m]
    assert len(msgs) == 1 and "'04/09/10'" in msgs[0] and "ambiguous" in msgs[0] and "no AAA,date" not in msgs[0]


@pytest.mark.parametrize("name,expected", [("v8host_100904_2200.nmon", datetime(2010, 9, 4, 22, 0, 1)),
                                           ("v8host_100409_2200.nmon", datetime(2010, 4, 9, 22, 0, 1))])
def test_file_name_date_resolves_day_and_month(tmp_path: Path, path_kind: str, name: str, expected: datetime) -> None:
    p = tmp_path / name
    p.write_bytes(_ambiguous("04/09/10"))
    rec = read_nmon(p)
    assert rec.times["T0001"] == expected
    assert not any("ambiguous" in m or "unknown" in m for _, m in rec.warnings)


def test_file_name_date_that_agrees_with_neither_reading_is_not_used(tmp_path: Path, path_kind: str) -> None:
    p = tmp_path / "v8host_100512_2200.nmon"
    p.write_bytes(_ambiguous("04/09/10"))
    rec = read_nmon(p)
    assert rec.snapshots == 0 and any("ambiguous" in m for _, m in rec.warnings)


def test_time_going_back_is_warned_once(path_kind: str) -> None:
    rec = read_nmon(V8)
    back = [(ln, m) for ln, m in rec.warnings if "goes back" in m]
    assert back == [(48, "ZZZZ T0004: time 2010-09-21 22:02:01 goes back from T0003's 2010-09-21 22:10:01 "
                         "(snapshots kept in their order)")]
    assert list(rec.times) == ["T0001", "T0002", "T0003", "T0004"]
    # a dated recording whose times go back twice: one warning
    text = "AAA,progname,nmon\nAAA,host,h\n" + "".join(
        f"ZZZZ,T{i:04d},{t},10-FEB-2016\n" for i, t in enumerate(["10:00:00", "09:00:00", "10:10:00", "08:00:00"], 1))
    rec = read_nmon(text.encode())
    assert [ln for ln, m in rec.warnings if "goes back" in m] == [4]


def test_header_facts_of_a_classic_recording(path_kind: str) -> None:
    rec = read_nmon(V8)
    assert rec.oslevel == "5300-12" and rec.processor == "POWER6"
    assert rec.facts_lines["oslevel"] == 8 and rec.facts_lines["processor"] == 15
    assert read_nmon(_ambiguous("21/09/10").replace(b"AAA,TL,12\n", b"")).oslevel == "5300-12"
    no = read_nmon(V8.read_bytes().replace(b"Implementation POWER6", b"Implementation unknown"))
    assert no.processor is None


def test_njmon_virtual_fc_traffic_from_disk_adapters() -> None:
    rec = read_nmon(VFC)
    fr, fw = rec.tables["FCREAD"], rec.tables["FCWRITE"]
    assert fr.column("fcs1").tolist() == [12.5, 0.0] and fw.column("fcs1").tolist() == [300.0, 96.25]
    assert fr.column("fcs0").tolist() == [3.0, 3.0] and fw.column("fcs0").tolist() == [0.0, 0.0]
    assert fr.column("fcs4").tolist() == [2.0, 2.0]  # a physical port with traffic keeps its own
    assert "vscsi0" not in fr.columns
    xin, xout = rec.tables["FCXFERIN"], rec.tables["FCXFEROUT"]
    assert xin.column("fcs1").tolist() == [2.5, 2.5] and xout.column("fcs1").tolist() == [5.0, 5.0]
    assert xin.column("fcs4").tolist() == [10.0, 10.0]


def test_njmon_header_facts() -> None:
    rec = read_nmon(VFC)
    assert rec.oslevel == "7200-05-04" and rec.processor == "POWER9"
    assert rec.facts_lines["oslevel"] == 1


def test_header_facts_reach_the_host() -> None:
    from lparscope.pipeline import analyze

    host = analyze([str(V8)], workers=1).estate.hosts["v8host"]
    assert host.levels["oslevel"].value == "5300-12"
    assert host.levels["oslevel"].evidence.line == 8
    lv = host.of_kind("oslevel")[-1].record
    assert lv.release == "5.3" and lv.technology_level == 12
    njhost = analyze([str(VFC)], workers=1).estate.hosts["vfcaix"]
    assert njhost.levels["oslevel"].value == "7200-05-04"


def test_a_real_oslevel_wins_over_the_header(tmp_path: Path) -> None:
    from lparscope.pipeline import analyze

    text = V8.read_text().replace("BBBP,009,ipcs\n", 'BBBP,009,oslevel -s\nBBBP,010,oslevel -s,"5300-12-04-1119"\n'
                                  "BBBP,011,ipcs\n").replace("BBBP,010,ipcs,", "BBBP,012,ipcs,")
    p = tmp_path / "v8.nmon"
    p.write_text(text)
    host = analyze([str(p)], workers=1).estate.hosts["v8host"]
    assert host.levels["oslevel"].value == "5300-12-04-1119"


def test_both_paths_agree_on_a_named_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lparscope.nmon import native

    if not native.available():
        pytest.skip("the native nmon core was not built")
    from .test_native import both

    p = tmp_path / "v8host_100904_2200.nmon"
    p.write_bytes(_ambiguous("04/09/10"))
    pure, _ = both(p, monkeypatch)
    assert pure.snapshots == 4 and any("goes back" in m for _, m in pure.warnings)


def test_a_recording_in_an_archive_is_dated_by_its_member_name(tmp_path: Path) -> None:
    """analyze reads an archive's recording as bytes: the member's file name still settles the date."""
    import io
    import tarfile

    from lparscope.pipeline import analyze

    data = _ambiguous("04/09/10")
    bundle = tmp_path / "collected.tar.gz"
    with tarfile.open(bundle, "w:gz") as tar:
        member = tarfile.TarInfo("nmon/v8host_100904_2200.nmon")
        member.size = len(data)
        tar.addfile(member, io.BytesIO(data))
    est = analyze([str(bundle)]).estate
    (status,) = [s for s in est.inputs if s.path.endswith(".nmon")]
    assert not any("ambiguous" in m for _, m in status.warnings), status.warnings
    (host,) = est.hosts.values()
    assert str(host.nmon.times["T0001"])[:10] == "2010-09-04"
