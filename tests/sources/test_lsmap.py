from pathlib import Path

from lparscope.sources import lsdev, lsmap
from lparscope.sources.lsmap import NetMapping, NpivMapping, VscsiMapping

FIX = Path(__file__).parent.parent / "fixtures" / "lsmap"


def test_vscsi_blocks_with_empty_vhost():
    text = (FIX / "vios31_all_vscsi.txt").read_text()
    assert lsmap.detect(text) >= 90 and lsdev.detect(text) == 0
    r = lsmap.parse(text)
    assert r.warnings == []
    a, b, empty = r.records
    assert isinstance(a, VscsiMapping)
    assert (a.vhost, a.client_id, a.vtd, a.lun, a.backing_device, a.mirrored, a.line) == (
        "vhost0", 5, "lpar5_rootvg", "0x8100000000000000", "hdisk4", False, 6)
    assert a.backing_physloc.endswith("-L0") and a.physloc == "U9009.42A.13F2E8C-V1-C11"
    assert b.backing_device == "/var/vio/VMLibrary/aix73.iso" and b.backing_physloc is None and b.mirrored is None
    assert (empty.vhost, empty.client_id, empty.vtd, empty.line) == ("vhost1", 10, None, 22)


def test_collapsed_spacing_tabs_and_no_blank_lines():
    r = lsmap.parse((FIX / "vios22_collapsed_tabs.txt").read_text())
    assert r.warnings == []
    a, empty = r.records
    assert (a.vhost, a.client_id, a.vtd, a.status, a.backing_device) == ("vhost3", 4, "db01_data", "Available", "hdisk25")
    assert (empty.vhost, empty.physloc, empty.client_id, empty.vtd) == ("vhost4", "U8233.E8B.10F1A2P-V2-C9", 0, None)


def test_npiv_logged_in_and_not():
    r = lsmap.parse((FIX / "vios_npiv.txt").read_text())
    assert r.hostname == "vios2" and r.warnings == []
    a, b = r.records
    assert isinstance(a, NpivMapping)
    assert (a.vfchost, a.client_id, a.client_name, a.client_os, a.status) == ("vfchost0", 5, "appsrv05", "AIX", "LOGGED_IN")
    assert (a.fc_name, a.fc_loc, a.ports_logged_in) == ("fcs2", "U78D2.001.WZS0ABC-P1-C6-T1", 3)
    assert a.flags == "a<LOGGED_IN,STRIP_MERGE>" and a.vfc_client_name == "fcs0"
    assert a.vfc_client_drc == "U9009.42A.13F2E8C-V5-C31" and a.line == 4
    assert (b.client_id, b.client_name, b.status, b.fc_name, b.ports_logged_in, b.vfc_client_drc) == (
        12, None, "NOT_LOGGED_IN", None, 0, None)


def test_net_mappings():
    r = lsmap.parse((FIX / "vios_net.txt").read_text())
    assert r.warnings == []
    a, b = r.records
    assert isinstance(a, NetMapping)
    assert (a.svea, a.sea, a.backing_device, a.status, a.backing_physloc) == (
        "ent6", "ent8", "ent0", "Available", "U78D2.001.WZS0ABC-P1-C2-T1")
    assert (b.svea, b.sea, b.line) == ("ent7", None, 13)


def test_fmt_colon_rows():
    r = lsmap.parse((FIX / "vios_fmt_colon.txt").read_text())
    assert r.warnings == []
    v1, v2, empty, npiv = r.records
    assert (v1.vhost, v1.client_id, v1.vtd, v1.backing_device, v1.mirrored, v1.line) == ("vhost0", 5, "lpar5_rootvg", "hdisk4", False, 2)
    assert v2.vtd == "lpar5_data" and v2.lun == "0x8200000000000000"
    assert (empty.vhost, empty.client_id, empty.vtd) == ("vhost1", 10, None)
    assert (npiv.vfchost, npiv.client_id, npiv.fc_name, npiv.ports_logged_in, npiv.flags) == ("vfchost0", 5, "fcs2", 3, "a")


def test_dump_prefix_is_unwrapped():
    text = ("uname -n| |vios9\nlsmap -all| |SVSA            Physloc                 Client Partition ID\n"
            "lsmap -all| |--------------- ----------------------- ------------------\n"
            "lsmap -all| |vhost2          U8233.E8B.10F1A2P-V1-C5 0x00000007\nlsmap -all| |\n"
            "lsmap -all| |VTD                   c7_vt1\nlsmap -all| |Backing device        hdisk8\n")
    r = lsmap.parse(text)
    assert r.hostname == "vios9"
    (m,) = r.records
    assert (m.vhost, m.client_id, m.vtd, m.backing_device, m.line) == ("vhost2", 7, "c7_vt1", "hdisk8", 6)


def test_bad_input_warns_and_never_raises():
    text = ("SVSA            Physloc                 Client Partition ID\n---- ---- ----\n"
            "vhost0          U8233.E8B.10F1A2P-V1-C5 0x00000007\nStatus Available\nGarbage line here\n"
            "vfchost9:short:row\n")
    r = lsmap.parse(text)
    assert [w.line for w in r.warnings] == [4, 5, 6]
    assert [m.vtd for m in r.records] == [None]
    assert lsmap.parse("\x00\x01\n").warnings
