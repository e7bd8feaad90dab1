from pathlib import Path

from lparscope.sources import lsattr, lsdev, lsmap

FIX = Path(__file__).parent.parent / "fixtures" / "lsdev"


def by_name(result):
    return {d.name: d for d in result.records}


def test_aix_columns_with_absent_and_touching_locations():
    text = (FIX / "aix72_Cc_disk_mixed_locations.txt").read_text()
    assert lsdev.detect(text) >= 90
    r = lsdev.parse(text)
    d = by_name(r)
    assert r.warnings == [] and r.hostname == "aixdb01"
    assert d["hdisk0"].location == "00-08-00-2,0" and d["hdisk0"].description == "16 Bit LVD SCSI Disk Drive"
    assert d["hdisk1"].location is None and d["hdisk1"].description == "Virtual SCSI Disk Drive"
    assert d["hdisk3"].status == "Defined" and d["hdisk3"].line == 5


def test_physical_location_codes():
    d = by_name(lsdev.parse((FIX / "aix73_Cc_adapter_physloc.txt").read_text()))
    assert d["fcs0"].location == "U78D2.001.WZS0ABC-P1-C4-T1"
    assert d["fcs0"].description.startswith("PCIe3 2-Port 16Gb FC Adapter")
    assert d["ent0"].location == "02-00"
    assert d["ent4"].location is None and d["ent4"].description == "Virtual I/O Ethernet Adapter (l-lan)"


def test_vios_collapsed_spacing_as_in_redbook():
    r = lsdev.parse((FIX / "vios_type_disk_collapsed.txt").read_text())
    assert r.warnings == []
    assert [(x.name, x.status, x.location, x.description) for x in r.records][0] == (
        "hdisk0", "Available", None, "MPIO Other FC SCSI Disk Drive")
    assert by_name(r)["hdisk2"].status == "Defined"
    assert len(r.records) == 3


def test_vios_virtual_listing_without_prompt():
    text = (FIX / "vios_virtual.txt").read_text()
    assert lsdev.detect(text) >= 90
    assert lsmap.detect(text) == 0 and lsattr.detect(text) == 0
    d = by_name(lsdev.parse(text))
    assert d["lpar9_rootvg"].description == "Virtual Target Device - Disk"
    assert d["ent8"].description == "Shared Ethernet Adapter"


def test_colon_forms():
    text = (FIX / "aix61_F_name_type_description.txt").read_text()
    assert lsdev.detect(text) > 0 and lsattr.detect(text) == 0
    d = by_name(lsdev.parse(text))
    assert d["fcs1"].extra == {"type": "IBM,vfc-client"} and d["fcs1"].status is None
    assert d["fcs1"].description == "Virtual Fibre Channel Client Adapter"
    r = lsdev.parse((FIX / "aix71_F_with_command.txt").read_text())
    assert [(x.name, x.status, x.description, x.line) for x in r.records] == [
        ("hdisk0", "Available", "Virtual SCSI Disk Drive", 2), ("hdisk5", "Defined", "MPIO FC 2145", 3)]
    (x,) = lsdev.parse("hdisk7:Other FC SCSI Disk Drive\n").records
    assert (x.name, x.description) == ("hdisk7", "Other FC SCSI Disk Drive")


def test_lsattr_output_is_not_lsdev():
    text = "queue_depth  3  Queue DEPTH  True\nreserve_policy no_reserve Reserve Policy True\n"
    assert lsdev.detect(text) == 0


def test_bad_input_warns_and_never_raises():
    r = lsdev.parse("hdisk0 Available 00-08 SCSI Disk\nEnabled hdisk0 fscsi0\n\x00\x01\n")
    assert len(r.records) == 1
    assert [w.line for w in r.warnings] == [2, 3]


def test_H_header_names_any_F_columns():
    text = (FIX / "aix73_C_H_F_class_subclass.txt").read_text()
    r = lsdev.parse(text)
    assert r.warnings == []
    d = by_name(r)
    assert d["hdisk7"].status == "Defined" and d["hdisk7"].line == 7
    assert d["hdisk7"].extra == {"class": "disk", "subclass": "fcp", "type": "mpioosdisk"}
    assert d["ent0"].extra["type"] == "IBM,l-lan" and d["ent0"].description == ""
    body = text.split("\n", 1)[1]  # without the command line the header alone names the columns
    assert lsdev.detect(body) >= 85
    assert by_name(lsdev.parse(body))["fcs0"].extra["subclass"] == "pciex"


def test_aligned_header_keeps_blank_columns():
    r = lsdev.parse((FIX / "aix72_H_F_spaces_aligned.txt").read_text())
    d = by_name(r)
    assert (d["hdisk0"].status, d["hdisk0"].location, d["hdisk0"].extra) == (
        "Available", None, {"class": "disk", "parent": "vscsi0"})
    assert d["hdisk1"].location == "02-00-01" and d["fcs0"].extra["parent"] == "pci1"


def test_F_rows_without_names_are_unrecognised_with_the_reason():
    from lparscope.sources.detect import split_and_classify
    text = (FIX / "aix71_F_five_fields_no_names.txt").read_text()
    (seg,) = split_and_classify(text)
    assert seg.kind is None and "without their names" in seg.reason and "-F" in seg.reason
    named = "# lsdev -Cc disk -F name:class:subclass:type:status\n" + text
    (seg,) = split_and_classify(named)
    assert seg.kind == "lsdev"
    assert by_name(lsdev.parse(named))["hdisk1"].extra["type"] == "mpioosdisk"
    (x,) = lsdev.parse("hdisk3:Defined\n").records  # two fields, the second a state
    assert (x.status, x.description) == ("Defined", "")
