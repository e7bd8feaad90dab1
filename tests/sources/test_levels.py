from pathlib import Path

from lparscope.sources import levels

FIX = Path(__file__).parent.parent / "fixtures" / "oslevel"


def test_ioslevel_with_user_host_prompt():
    text = (FIX / "vios_ioslevel.txt").read_text()
    assert levels.detect(text) >= 90
    r = levels.parse(text)
    (lv,) = r.records
    assert r.hostname == "vios1"
    assert (lv.command, lv.value, lv.form, lv.release, lv.parts, lv.line) == ("ioslevel", "3.1.4.10", "ioslevel", "3.1", (3, 1, 4, 10), 2)


def test_oslevel_s_after_oem_setup_env():
    text = (FIX / "aix_oslevel_s_via_oem.txt").read_text()
    assert levels.detect(text) >= 90
    (lv,) = levels.parse(text).records
    assert (lv.command, lv.form, lv.release, lv.technology_level, lv.service_pack, lv.build, lv.line) == (
        "oslevel", "oslevel -s", "7.2", 5, 3, "2148", 3)


def test_known_levels_list():
    r = levels.parse((FIX / "aix_oslevel_rq_list.txt").read_text())
    assert r.warnings == []
    assert [(x.value, x.technology_level, x.listed) for x in r.records] == [
        ("7300-02", 2, True), ("7300-01", 1, True), ("7300-00", 0, True)]


def test_bare_values_decided_by_shape():
    (a,) = levels.parse("2.2.2.0\n").records
    assert a.command == "ioslevel"
    (b,) = levels.parse("7.2.0.0\n").records
    assert (b.command, b.form, b.release) == ("oslevel", "oslevel", "7.2")
    (c,) = levels.parse("6100-09-12-1838\n").records
    assert (c.form, c.technology_level, c.service_pack) == ("oslevel -s", 9, 12)
    (d,) = levels.parse("7100-03\n").records
    assert (d.form, d.technology_level) == ("oslevel -r", 3)
    (e,) = levels.parse("$ ioslevel\n4.1.1.00\n$\n").records
    assert e.parts == (4, 1, 1, 0)
    assert levels.detect("4.1.1.00\n") >= 70


def test_bad_input_warns_and_never_raises():
    r = levels.parse("# ioslevel\n7200-05-03-2148\nioslevel: not found\n")
    assert [w.line for w in r.warnings] == [2, 3]
    assert levels.detect("hello world\n") == 0
    assert levels.detect("hdisk0 Available 00-08 SCSI Disk\n") == 0
