from pathlib import Path

from lparscope.sources import lswpar
from lparscope.sources.lswpar import Wpar, WparDevice

FIX = Path(__file__).parent.parent / "fixtures" / "lswpar"


def wpars(result):
    return {r.name: r for r in result.records if isinstance(r, Wpar)}


def devices(result):
    return [r for r in result.records if isinstance(r, WparDevice)]


def test_default_listing():
    text = (FIX / "list_aix72.txt").read_text()
    assert lswpar.detect(text) >= 90
    r = lswpar.parse(text)
    assert r.warnings == []
    w = wpars(r)
    assert list(w) == ["dbwpar1", "appwp52", "testwp"]
    assert (w["dbwpar1"].state, w["dbwpar1"].type, w["dbwpar1"].rootvg, w["dbwpar1"].line) == ("A", "S", True, 4)
    assert w["testwp"].state == "D" and w["testwp"].directory == "/wpars/testwp"
    assert w["appwp52"].hostname == "appwp52" and w["appwp52"].rootvg is False


def test_device_listing_with_pseudo_rows_and_hostname():
    r = lswpar.parse((FIX / "D_disks_aix72.txt").read_text())
    assert r.warnings == [] and r.hostname == "aixglb2"
    d = devices(r)
    assert (d[0].wpar, d[0].device, d[0].type, d[0].virtual_device, d[0].rootvg, d[0].status, d[0].line) == (
        "appwp52", "hdisk7", "disk", "hdisk1", False, "EXPORTED", 4)
    assert d[1].rootvg is True and d[1].virtual_device == "hdisk0"
    # a disk allocated but not yet seen by the WPAR has no virtual device yet
    assert (d[2].device, d[2].virtual_device, d[2].rootvg) == ("hdisk9", None, False)
    assert (d[3].device, d[3].type, d[3].virtual_device, d[3].rootvg) == ("fcs4", "adapter", None, None)
    assert (d[4].device, d[4].type, d[4].status) == ("/dev/null", "pseudo", "EXPORTED")
    assert len(d) == 6


def test_long_form_versioned_wpar():
    text = (FIX / "L_versioned_aix71.txt").read_text()
    assert lswpar.detect(text) >= 90
    r = lswpar.parse(text)
    assert r.warnings == []
    w = wpars(r)["appwp52"]
    assert (w.state, w.type, w.hostname, w.directory, w.rootvg) == ("Active", "S", "appwp52", "/wpars/appwp52", False)
    assert w.os_version == "1" and w.versioned is True and w.lines["OStype"] == 19
    assert w.general["Auto"] == "yes" and w.general["Virtual IP WPAR"] == ""
    assert w.sections["RESOURCE CONTROLS"]["CPU Limits"] == "0%-100%,100%"
    assert w.sections["SECURITY SETTINGS"]["Privileges"] == "PV_AU_,PV_AU_ADD,PV_AU_ADMIN,PV_DAC_,PV_DAC_GID"
    assert w.tables["NETWORK"] == [["en0", "10.40.2.52", "255.255.255.0", "10.40.2.255"]]
    d = devices(r)
    assert [(x.wpar, x.device, x.virtual_device, x.rootvg, x.line) for x in d] == [
        ("appwp52", "hdisk7", "hdisk1", False, 46), ("appwp52", "/dev/null", None, None, 47)]


def test_general_form_two_native_wpars():
    r = lswpar.parse((FIX / "G_two_wpars.txt").read_text())
    assert r.warnings == []
    w = wpars(r)
    assert w["dbwpar1"].rootvg is True and w["dbwpar1"].versioned is False and w["dbwpar1"].line == 3
    assert w["testwp"].state == "Defined" and w["testwp"].general["UUID"].startswith("1d9c3a70")


def test_collapsed_device_rows_as_pasted_from_a_blog():
    # layout of seed 004_39e9519fe8a18f63.txt: header on the command line,
    # rows run together with "<<<<" markers
    text = ("# lswpar -D vw53 | head -2 ; lswpar -D vw53 | grep hdisk Name Device Name Type Virtual Device RootVG Status\n"
            "---- vw53 hdisk9 disk hdisk1 no EXPORTED <<<<<< vw53 hdisk8 disk hdisk0 yes EXPORTED\n")
    d = devices(lswpar.parse(text))
    assert [(x.device, x.virtual_device, x.rootvg, x.line) for x in d] == [("hdisk9", "hdisk1", False, 2), ("hdisk8", "hdisk0", True, 2)]


def test_bad_input_warns():
    r = lswpar.parse("Name State Type Hostname Directory RootVG WPAR\n----\nonly two\n\x00\x01\x02\n")
    assert r.records == [] and [w.line for w in r.warnings] == [3, 4]
    r = lswpar.parse("random words here\n")
    assert r.records == [] and r.warnings[0].line == 1
    assert lswpar.detect("nothing to see") == 0
