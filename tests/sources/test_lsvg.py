"""lsvg -l / lsvg -lv: the logical volumes of each volume group, with the group they are in."""

from pathlib import Path

from lparscope.sources import lsvg
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "lsvg-l"


def read(name: str) -> str:
    return (FIX / name).read_text()


def test_aix_rootvg_mirrored():
    text = read("aix73_lsvg_l_rootvg_mirrored.txt")
    assert lsvg.detect(text) == 95
    r = lsvg.parse(text)
    assert r.warnings == [] and r.hostname == "aix7db" and len(r.records) == 12
    hd6 = r.records[1]
    assert (hd6.name, hd6.vg, hd6.type, hd6.lps, hd6.pps, hd6.pvs, hd6.state, hd6.mount_point, hd6.line) == (
        "hd6", "rootvg", "paging", 32, 64, 2, "open/syncd", None, 5)
    assert hd6.copies == 2 and hd6.lines["vg"] == 2
    by = {lv.name: lv for lv in r.records}
    assert by["hd10opt"].state == "open/stale" and by["lg_dumplv"].copies == 1
    assert by["livedump"].mount_point == "/var/adm/ras/livedump"


def test_vios_padmin_lsvg_lv():
    r = lsvg.parse(read("vios33_lsvg_lv_rootvg.txt"))
    assert r.warnings == [] and {lv.vg for lv in r.records} == {"rootvg"}
    assert r.records[-1].name == "lv_aix9boot" and r.records[-1].type == "jfs" and r.records[-1].line == 17


def test_two_groups_each_row_in_its_group():
    r = lsvg.parse(read("aix72_lsvg_l_two_groups.txt"))
    assert r.warnings == []
    assert [(lv.name, lv.vg) for lv in r.records] == [
        ("hd6", "rootvg"), ("hd4", "rootvg"), ("loglv00", "datavg"), ("lv_oradata", "datavg"), ("lv_raw01", "datavg")]
    assert r.records[3].pvs == 4 and r.records[3].lines["vg"] == 6


def test_group_from_the_command_when_no_group_line_and_bad_lines_warned():
    r = lsvg.parse(read("bad_input.txt"))
    assert [lv.name for lv in r.records] == ["lv02"] and r.records[0].vg == "datavg"
    assert [w.line for w in r.warnings] == [2, 4]
    assert "0516-010" in r.warnings[0].message


def test_detected_without_a_prompt_and_other_lsvg_forms_are_not_this_kind():
    body = read("aix72_lsvg_l_two_groups.txt").split("\n", 1)[1]
    assert lsvg.detect(body) == 90
    assert lsvg.parse(body).records[0].vg == "rootvg"
    assert lsvg.detect("# lsvg -p rootvg\nrootvg:\nPV_NAME   PV STATE  TOTAL PPs  FREE PPs  FREE DISTRIBUTION\n") == 0
    assert lsvg.detect("# lsvg rootvg\nVOLUME GROUP:       rootvg                   VG IDENTIFIER:  00c8\n") == 0
    segs = split_and_classify(read("vios33_lsvg_lv_rootvg.txt"))
    assert [s.kind for s in segs] == ["lsvg-l"]


def test_group_from_the_command_is_the_one_it_names_before_a_pipe():
    rows = "hd6                 paging     16      32      2    open/syncd    N/A\n"
    assert [lv.vg for lv in lsvg.parse("# lsvg -l rootvg | grep paging\n" + rows).records] == ["rootvg"]
    assert [lv.vg for lv in lsvg.parse("$ lsvg -lv rootvg\n" + rows).records] == ["rootvg"]
    for command in ("lsvg -l rootvg datavg", "lsvg -o | lsvg -il", "lsvg -l"):
        assert [lv.vg for lv in lsvg.parse(f"# {command}\n" + rows).records] == [None], command
