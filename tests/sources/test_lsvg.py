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


# --- lsvg <vg>: the volume group summary (kind "lsvg", module lsvg_group) ---------------------------------

from lparscope.sources import lsvg_group  # noqa: E402

GROUP = Path(__file__).parent.parent / "fixtures" / "lsvg"


def test_summary_of_one_group_typed_with_stale_partitions():
    text = (GROUP / "aix72_lsvg_datavg_stale.txt").read_text()
    assert lsvg_group.detect(text) >= 90 and lsvg.detect(text) == 0
    r = lsvg_group.parse(text)
    assert r.warnings == [] and r.hostname == "aixora2" and len(r.records) == 1
    vg = r.records[0]
    assert (vg.name, vg.identifier, vg.state, vg.permission, vg.pp_size_mb) == (
        "oradatavg", "00c7d2e100004c00000001893b1e55a0", "active", "read/write", 256)
    assert (vg.total_pps, vg.free_pps, vg.used_pps, vg.stale_pvs, vg.stale_pps) == (2396, 118, 2278, 1, 41)
    assert (vg.quorum, vg.quorum_enabled, vg.total_pvs, vg.active_pvs, vg.vg_descriptors) == (1, False, 4, 3, 4)
    assert (vg.auto_on, vg.auto_sync, vg.hot_spare, vg.mirror_pool_strict, vg.critical_vg) == (True, False, "no", "super", True)
    assert (vg.max_pps_per_vg, vg.max_pps_per_pv, vg.max_pvs, vg.max_lvs, vg.lvs, vg.open_lvs) == (130048, 1016, 128, 512, 9, 8)
    assert vg.values["LTG size (Dynamic)"] == "1024 kilobyte(s)" and vg.values["BB POLICY"] == "relocatable"
    assert vg.values["PV RESTRICTION"] == "none" and vg.values["INFINITE RETRY"] == "no"
    assert (vg.line, vg.lines["stale_pps"], vg.lines["free_pps"], vg.lines["mirror_pool_strict"]) == (2, 9, 5, 15)


def test_several_groups_from_lsvg_o_piped_to_lsvg_i():
    r = lsvg_group.parse((GROUP / "aix73_lsvg_o_i_two_groups.txt").read_text())
    assert r.warnings == [] and [vg.name for vg in r.records] == ["appvg", "rootvg"]
    app, root = r.records
    assert (app.pp_size_mb, app.used_pps, app.auto_on, app.values["DISK BLOCK SIZE"]) == (1024, 0, False, "4096")
    assert (root.line, root.total_pvs, root.stale_pps, root.values["ENCRYPTION"]) == (19, 2, 0, "yes")


def test_the_prompt_routes_lsvg_vg_here_and_lsvg_l_stays_with_its_kind():
    summary = (GROUP / "aix72_lsvg_datavg_stale.txt").read_text()
    lvs = read("aix72_lsvg_l_two_groups.txt")
    assert [s.kind for s in split_and_classify(summary + "\n" + lvs)] == ["lsvg", "lsvg-l"]
    piped = "# lsvg -o | lsvg -il\nrootvg:\n" + lvs.split("\n", 2)[2]
    assert [s.kind for s in split_and_classify(piped)] == ["lsvg-l"]
    assert [s.kind for s in split_and_classify("# lsvg -p rootvg\nrootvg:\nPV_NAME  PV STATE\n")] == ["lsvg-p"]
    assert [s.kind for s in split_and_classify(summary.split("\n", 1)[1])] == ["lsvg"]  # no prompt: by content


def test_collapsed_padding_still_reads_the_known_labels():
    text = ("VOLUME GROUP: rootvg VG IDENTIFIER: 00f6a91300004c0000000190a9ff0e11\n"
            "VG STATE: active PP SIZE: 64 megabyte(s)\nSTALE PVs: 1 STALE PPs: 12\nOPEN LVs: 13 QUORUM: 2 (Enabled)\n")
    (vg,) = lsvg_group.parse(text).records
    assert (vg.name, vg.state, vg.pp_size_mb, vg.stale_pvs, vg.stale_pps, vg.open_lvs, vg.quorum) == (
        "rootvg", "active", 64, 1, 12, 13, 2)


def test_lsvg_o_lists_names_and_an_aix_message_is_one_warning():
    r = lsvg_group.parse((GROUP / "aix71_lsvg_o.txt").read_text())
    assert [(g.name, g.varied_on, g.line) for g in r.records] == [("nimvg", True, 2), ("rootvg", True, 3)]
    assert r.hostname == "aixnim1" and r.warnings == []
    r = lsvg_group.parse((GROUP / "aix71_lsvg_varied_off.txt").read_text())
    assert r.records == [] and [(w.line, w.message) for w in r.warnings] == [
        (2, "lsvg error 0516-010 Volume group must be varied on; use varyonvg command.")]


def test_bad_input_is_warned_never_raised():
    text = ("# lsvg datavg\nVOLUME GROUP:       datavg                   VG IDENTIFIER:  00c4\n"
            "VG STATE:           active                   PP SIZE:        lots\n"
            "TOTAL PPs:          x (y)                    FREE PPs:       9\n"
            "some stray words here\n\x00\x1b[31m\n")
    r = lsvg_group.parse(text)
    (vg,) = r.records
    assert (vg.pp_size_mb, vg.total_pps, vg.free_pps) == (None, None, 9)
    assert [w.line for w in r.warnings] == [3, 4, 5, 6]
    for junk in ("", "VOLUME GROUP:\n", "VOLUME GROUP: " + "x" * 5000, ":" * 3000, "A  " * 2000 + ":"):
        lsvg_group.parse(junk)
        lsvg_group.detect(junk)
