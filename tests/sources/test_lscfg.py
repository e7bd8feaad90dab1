from pathlib import Path

from lparscope.model.build import apply
from lparscope.model.estate import Host
from lparscope.sources import lscfg, lsvpd, prtconf
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures"


def of(records, cls):
    return [r for r in records if isinstance(r, cls)]


def test_lscfg_vp_devices_platform_blocks_and_summary():
    text = (FIX / "lscfg" / "aix72_lscfg_vp.txt").read_text()
    assert lscfg.detect(text) == 95 and lscfg.detect(text.split("\n", 1)[1]) == 90
    r = lscfg.parse(text)
    assert r.warnings == []
    devs = {d.name: d for d in of(r.records, lscfg.VpdDevice)}
    assert list(devs) == ["sys0", "sysplanar0", "ent0", "fcs0", "hdisk0"]
    ent = devs["ent0"]
    assert (ent.location, ent.title) == ("U78D3.001.WZS0AB1-P1-C7-T1", "PCIe2 4-Port Adapter (10GbE SFP+)")
    assert ent.description == "PCIe2 4-Port Adapter (10GbE SFP+) (e4148a1614109304)"
    assert ent.fields["rom_level_alterable"] == "0400401800009" and ent.lines["rom_level_alterable"] == 19
    fcs = devs["fcs0"]
    assert (fcs.fields["network_address"], fcs.fields["device_specific_zm"], fcs.fields["part_number"]) == (
        "10000090FA9C21E4", "3", "01DH749")
    assert devs["hdisk0"].location == "U9009.42A.7812C4X-V5-C3-T1-L8100000000000000" and devs["hdisk0"].fields == {}
    blocks = of(r.records, lscfg.PlatformRecord)
    assert [b.title for b in blocks] == ["System VPD", "PROC MODULE", "Memory DIMM", "Memory DIMM", "System Firmware"]
    assert all(b.node == "IBM,9009-42A" for b in blocks)
    dimm = blocks[2]
    assert dimm.fields["size"] == "32768" and dimm.physical_location == "U78D3.001.WZS0AB1-P1-C33"
    assert dimm.fields["product_specific_b9"].endswith("D53501EDB5718194A4CD94D3132D2AC4EB5CD52B24D326053B0AEEE6B1A144D33")
    assert blocks[4].fields["code_level_2"] == "PFW 19092020050681CF0681"
    (s,) = of(r.records, lscfg.PlatformSummary)
    assert (s.type_model, s.machine_serial) == ("9009-42A", "7812C4X")
    assert (s.firmware_current, s.firmware_permanent, s.firmware_temporary) == ("VL950_087", "VL950_075", "VL950_087")
    assert (s.memory_dimms, s.memory_dimm_mb, s.processor_cards) == (2, 65536, 1)
    assert s.code_levels == ["Phyp_1 02922020061681A00701", "PFW 19092020050681CF0681"]
    assert (s.lines["type_model"], s.lines["machine_serial"], s.lines["firmware_current"]) == (50, 49, 80)


def test_plain_lscfg_marked_list_and_bad_line():
    text = (FIX / "lscfg" / "vios_lscfg_plain_and_bad.txt").read_text()
    assert [seg.kind for seg in split_and_classify(text)] == ["lscfg"]
    r = lscfg.parse(text)
    devs = of(r.records, lscfg.VpdDevice)
    assert [(d.name, d.marker) for d in devs][-2:] == [("vhost0", "*"), ("fcs4", "+")]
    assert devs[-1].description == "PCIe4 4-Port 32Gb FC Adapter (771089201410c606)"
    assert [w.line for w in r.warnings] == [15]
    assert of(r.records, lscfg.PlatformSummary) == []


def test_lsvpd_blocks_and_summary():
    text = (FIX / "lsvpd" / "aix72_lsvpd.txt").read_text()
    assert lsvpd.detect(text) == 90 and lscfg.detect(text) == 0
    assert [seg.kind for seg in split_and_classify(text)] == ["lsvpd"]
    r = lsvpd.parse(text)
    assert [w.line for w in r.warnings] == [32]
    blocks = of(r.records, lsvpd.VpdBlock)
    assert blocks[0].fields["type_model"] == "IBM,9009-42A" and blocks[0].description is None
    assert blocks[-1].fields["device_name"] == "hdisk0"
    (s,) = of(r.records, lsvpd.PlatformSummary)
    assert (s.type_model, s.machine_serial, s.firmware_permanent, s.memory_dimm_mb) == (
        "9009-42A", "7812C4X", "VL950_075", 65536)
    assert s.lines["machine_serial"] == 10


def test_platform_folds_into_the_host_only_where_absent():
    host = Host(name="aix1")
    text = (FIX / "lscfg" / "aix72_lscfg_vp.txt").read_text()
    apply(host, "lscfg", lscfg.parse(text), "aix1/lscfg.txt", 0)
    assert host.system.record.serial == "7812C4X" and host.system.ev("serial").line == 49
    assert host.firmware["system"].value == "VL950_087" and host.firmware["system_permanent"].value == "VL950_075"
    assert host.devices["fcs0"].description.startswith("PCIe3 2-Port 16Gb FC Adapter")
    other = Host(name="aix2")
    pre = "System Model: IBM,9009-42A\nMachine Serial Number: 7812C4X\nPlatform Firmware level: VL950_099\n"
    apply(other, "prtconf", prtconf.parse(pre), "aix2/prtconf.txt", 0)
    apply(other, "lsvpd", lsvpd.parse((FIX / "lsvpd" / "aix72_lsvpd.txt").read_text()), "aix2/lsvpd.txt", 0)
    assert other.system.path == "aix2/prtconf.txt" and other.firmware["system"].value == "VL950_099"
    assert other.firmware["system_temporary"].value == "VL950_087"  # prtconf did not say it
    assert "hdisk0" in other.devices


def test_junk_never_raises():
    for junk in ("", "PLATFORM SPECIFIC\nSize....12\n", "  sys0\n   Part Number......\n", "\x00" * 40, "*FC ????\n*DS\n"):
        lscfg.parse(junk), lsvpd.parse(junk), lscfg.detect(junk), lsvpd.detect(junk)


def test_device_line_with_collapsed_padding():
    from lparscope.sources import lscfg as lscfg_parser

    text = ("# lscfg -vl fcs1\n"
            "fcs1 U8286.42A.21A3C5V-P1-C6-T2 8Gb PCI Express Dual Port FC Adapter (df1000f114108a03)\n\n"
            "Part Number.................00E0807\n"
            "Network Address.............10000090FA5B7C21\n")
    r = lscfg_parser.parse(text)
    (dev,) = r.records
    assert (dev.name, dev.location, dev.fields["network_address"]) == ("fcs1", "U8286.42A.21A3C5V-P1-C6-T2", "10000090FA5B7C21")
    assert r.warnings == []
