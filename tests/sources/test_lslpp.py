from pathlib import Path

from lparscope.sources import lslpp
from lparscope.sources.lslpp import Fileset, FilesetAbsent

FIX = Path(__file__).parent.parent / "fixtures" / "lslpp"


def test_lslpp_l_with_wrapped_name_and_two_paths():
    text = (FIX / "l_sddpcm_aix71.txt").read_text()
    assert lslpp.detect(text) >= 95
    r = lslpp.parse(text)
    assert r.warnings == [] and r.hostname == "aix71g"
    f = [x for x in r.records if isinstance(x, Fileset)]
    assert [(x.name, x.level, x.state, x.path, x.line) for x in f] == [
        ("devices.fcp.disk.ibm.mpio.rte", "1.0.0.24", "COMMITTED", "/usr/lib/objrepos", 6),
        ("devices.sddpcm.71.rte", "2.6.6.0", "COMMITTED", "/usr/lib/objrepos", 7),
        ("devices.sddpcm.71.rte", "2.6.6.0", "COMMITTED", "/etc/objrepos", 10),
    ]
    assert f[0].lines["name"] == 5 and f[0].description == "IBM MPIO FCP Disk Device"


def test_lslpp_big_l_state_codes():
    r = lslpp.parse((FIX / "L_aix72.txt").read_text())
    assert r.warnings == []
    assert [(x.name, x.level, x.state) for x in r.records] == [("bos.rte", "7.2.5.201", "C"), ("bos.wpars", "7.2.5.200", "C")]


def test_lslpp_colon_form():
    text = (FIX / "lc_aix72.txt").read_text()
    assert lslpp.detect(text) >= 90
    r = lslpp.parse(text)
    assert r.warnings == []
    assert [(x.name, x.state, x.path) for x in r.records][1] == ("devices.sddpcm.72.rte", "COMMITTED", "/usr/lib/objrepos")


def test_lslpp_big_l_colon_form_read_by_its_header():
    """lslpp -Lc: the columns its #Package Name:... header names (the state in State, else Fix State)."""
    text = (FIX / "Lc_aix72.txt").read_text()
    assert lslpp.detect(text) >= 90 and lslpp.detect(text.split("\n", 1)[1]) >= 90  # with and without the prompt
    r = lslpp.parse(text)
    assert r.warnings == []
    assert [(x.name, x.level, x.state, x.description, x.line) for x in r.records] == [
        ("bos.rte", "7.2.5.100", "C", "Base Operating System Runtime", 3),
        ("devices.sddpcm.72.rte", "2.7.1.1", "C", "IBM SDD PCM for AIX V72", 4),
        ("rpm.rte", "4.13.0.10", "C", "RPM Package Manager", 5)]
    bad = lslpp.parse(text + "garbage:row:without:a:level\n")
    assert [w.line for w in bad.warnings] == [6]


def test_not_installed():
    text = (FIX / "not_installed.txt").read_text()
    r = lslpp.parse(text)
    assert r.warnings == [] and r.records == [FilesetAbsent("*sddpcm*", 2)]
    assert lslpp.detect(text.split("\n", 1)[1]) >= 85  # without the prompt


def test_bad_input():
    r = lslpp.parse((FIX / "bad.txt").read_text())
    assert [x.name for x in r.records] == ["bos.rte"]
    assert [w.line for w in r.warnings] == [6, 7]
    assert lslpp.detect("nothing here") == 0
