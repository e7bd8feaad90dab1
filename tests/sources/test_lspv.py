from pathlib import Path

from lparscope.sources import lsattr, lsdev, lsmap, lspath, lspv
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "lspv"


def by_name(result):
    return {p.name: p for p in result.records}


def test_aix_padded_with_states_and_no_vg():
    text = (FIX / "aix72_lspv_padded.txt").read_text()
    assert lspv.detect(text) >= 90
    r = lspv.parse(text)
    d = by_name(r)
    assert r.warnings == [] and r.hostname == "aixdb01"
    assert (d["hdisk0"].pvid, d["hdisk0"].vg, d["hdisk0"].state, d["hdisk0"].line) == ("00c84c1d3e0a51b7", "rootvg", "active", 2)
    assert d["hdisk1"].vg == "caavg_private"
    assert d["hdisk2"].state == "concurrent"
    assert (d["hdisk3"].pvid, d["hdisk3"].vg, d["hdisk3"].state) == (None, None, None)
    assert (d["hdisk4"].vg, d["hdisk4"].state) == ("oravg", None)  # VG varied off


def test_vios_header_and_long_pvid():
    r = lspv.parse((FIX / "vios31_padmin_header.txt").read_text())
    d = by_name(r)
    assert r.warnings == [] and len(r.records) == 5
    assert d["hdisk0"].pvid == "00f84c1d0a51b70e" and d["hdisk1"].vg == "rootvg"
    assert d["hdisk2"].vg is None and d["hdisk4"].vg == "ssp_pool0"


def test_vios_free_sizes():
    r = lspv.parse((FIX / "vios31_free.txt").read_text())
    d = by_name(r)
    assert r.warnings == []
    assert (d["hdisk3"].size_mb, d["hdisk3"].free, d["hdisk3"].vg) == (51200, True, None)
    assert d["hdisk6"].pvid == "00f84c1d7a9b1122" and d["hdisk6"].size_mb == 102400


def test_u_form_collapsed_keeps_udid():
    r = lspv.parse((FIX / "aix73_lspv_u_collapsed.txt").read_text())
    d = by_name(r)
    assert r.warnings == []
    assert d["hdisk0"].state == "active" and d["hdisk0"].udid.endswith("IBMfcp")
    assert d["hdisk1"].vg is None and d["hdisk1"].udid.startswith("3321")


def test_detail_form():
    text = (FIX / "aix61_lspv_detail.txt").read_text()
    (p,) = lspv.parse(text).records
    assert (p.name, p.vg, p.pvid, p.state) == ("hdisk0", "rootvg", "00c84c1d3e0a51b7", "active")
    assert p.lines == {"vg": 2, "pvid": 3, "state": 4}


def test_bad_input_warns_with_line_numbers_and_never_raises():
    r = lspv.parse((FIX / "bad_input.txt").read_text())
    assert [p.name for p in r.records] == ["hdisk0"]
    assert [w.line for w in r.warnings] == [3]  # the wrapped AIX message is one warning
    for junk in ("", "\x00\x01", "hdisk0", "NAME PVID VG STATUS\n", "hdisk0 zz rootvg"):
        lspv.parse(junk)


def test_prompt_less_rows_are_not_other_kinds():
    text = "hdisk0 00c84c1d3e0a51b7 rootvg active\nhdisk1 none None\n"
    assert lspv.detect(text) >= 70
    assert lsdev.detect(text) == 0 and lsattr.detect(text) == 0 and lsmap.detect(text) == 0 and lspath.detect(text) == 0
    (seg,) = split_and_classify(text)
    assert seg.kind == "lspv"


def test_lspv_l_is_not_claimed():
    segs = split_and_classify("# lspv -l hdisk0\nhdisk0:\nLV NAME LPs PPs DISTRIBUTION MOUNT POINT\nhd5 1 1 01..00..00..00..00 N/A\n")
    assert all(s.kind != "lspv" for s in segs)
