"""HMC REST API XML (sources/hmc_rest.py): the objects the command line gives for the same data,
each attribute with its XML element's line, and the frame model built from them as from lssyscfg /
lshwres. Fixtures written here in the HMC's Atom/XML format (tests/fixtures/hmc-rest)."""

from __future__ import annotations

import shutil
from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.sources import hmc_rest, parsers
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "hmc-rest"
SYSTEM_UUID = "7c2b9d40-31aa-3f0e-8d52-0e6f1a2b3c4d"


def _read(name: str) -> str:
    return (FIX / name).read_text()


def _line_of(name: str, needle: str) -> int:
    return next(n for n, ln in enumerate(_read(name).splitlines(), 1) if needle in ln)


def test_managed_system_gives_sys_proc_and_mem_objects_named_by_the_system():
    r = hmc_rest.parse(_read("managed_system_feed.xml"))
    assert not r.warnings
    by = {o.resource: o for o in r.records}
    assert set(by) == {"sys", "proc-sys", "mem-sys"} and {o.system for o in r.records} == {"p10frame7"}
    assert by["sys"].attrs == {"name": "p10frame7", "type_model": "9080-M9S", "serial_num": "78AB123",
                               "state": "Operating", "uuid": SYSTEM_UUID}
    assert by["proc-sys"].attrs == {"installed_sys_proc_units": "40", "configurable_sys_proc_units": "32",
                                    "curr_avail_sys_proc_units": "4.5"}
    assert by["mem-sys"].attrs == {"installed_sys_mem": "1048576", "configurable_sys_mem": "1048576",
                                   "curr_avail_sys_mem": "131072", "sys_firmware_mem": "24576",
                                   "default_hpt_ratios": "1:64"}
    assert by["sys"].lines["serial_num"] == _line_of("managed_system_feed.xml", "<SerialNumber")
    assert by["mem-sys"].lines["sys_firmware_mem"] == _line_of("managed_system_feed.xml", "<MemoryUsedByHypervisor")


def test_partitions_give_lpar_proc_and_mem_objects_in_command_line_terms():
    r = hmc_rest.parse(_read("logical_partition_feed.xml"))
    assert not r.warnings
    objs = {(o.resource, o.name or o.attrs.get("lpar_name")): o for o in r.records}
    lpar = objs[("lpar", "dbprd5")].attrs
    assert lpar == {"name": "dbprd5", "lpar_id": "5", "lpar_env": "aixlinux", "state": "Running",
                    "os_version": "AIX 7.3 7300-02-02-2420", "curr_profile": "normal", "suspend_capable": "0",
                    "uuid": "1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F1", "managed_system_uuid": SYSTEM_UUID}
    proc = objs[("proc-lpar", "dbprd5")]
    assert {k: proc.attrs[k] for k in ("curr_proc_mode", "curr_sharing_mode", "curr_proc_units", "curr_procs",
                                        "curr_uncap_weight", "curr_shared_proc_pool_id", "curr_max_procs")} == {
        "curr_proc_mode": "shared", "curr_sharing_mode": "uncap", "curr_proc_units": "2.5", "curr_procs": "6",
        "curr_uncap_weight": "160", "curr_shared_proc_pool_id": "1", "curr_max_procs": "8"}
    assert proc.lines["curr_proc_units"] == _line_of("logical_partition_feed.xml", "<CurrentProcessingUnits")
    mem = objs[("mem-lpar", "dbprd5")].attrs
    assert (mem["curr_mem"], mem["curr_max_mem"], mem["mem_mode"], mem["curr_hpt_ratio"]) == ("65536", "98304", "ded", "1:128")
    ded = objs[("proc-lpar", "sapapp6")].attrs
    assert (ded["curr_proc_mode"], ded["curr_sharing_mode"], ded["curr_procs"]) == ("ded", "keep_idle_procs", "4")
    assert "curr_proc_units" not in ded and objs[("lpar", "sapapp6")].attrs["state"] == "Not Activated"


def test_vios_entry_after_header_lines_and_its_network_said_not_read():
    text = _read("vios_entry_after_dump_header.txt")
    segments = split_and_classify(text, parsers())
    assert [s.kind for s in segments] == ["hmc-rest"]
    r = hmc_rest.parse(text)
    lpar = next(o for o in r.records if o.resource == "lpar")
    assert (lpar.attrs["lpar_env"], lpar.attrs["managed_system_uuid"]) == ("vioserver", SYSTEM_UUID)
    assert [w.message for w in r.warnings] == ["2 line(s) before the XML not read",
                                               "not read: VIOS storage backing devices "
                                               "(its trunk adapters, SEAs and mappings are read)"]
    trunk = next(o for o in r.records if o.resource == "veth")
    assert trunk.attrs == {"lpar_name": "vios7a", "lpar_id": "1", "managed_system_uuid": SYSTEM_UUID, "is_trunk": "1",
                           "slot_num": "3", "port_vlan_id": "4094", "addl_vlan_ids": "110,120,130", "trunk_priority": "1",
                           "mac_addr": "F6A1B2C3D403", "ieee_virtual_eth": "1", "state": "1"}
    [sea] = [o for o in r.records if o.resource == "sea"]  # the entry lists its SEA by name only
    assert sea.attrs == {"lpar_name": "vios7a", "lpar_id": "1", "managed_system_uuid": SYSTEM_UUID, "sea": "ent8"}
    assert trunk.lines["trunk_priority"] == next(n for n, ln in enumerate(text.splitlines(), 1) if "<TrunkPriority" in ln)
    [vfc] = [o for o in r.records if o.resource == "vfc"]  # the server adapter only: the client's is the LPAR's own
    assert vfc.attrs == {"lpar_name": "vios7a", "lpar_id": "1", "managed_system_uuid": SYSTEM_UUID, "adapter_type": "server",
                         "slot_num": "142", "remote_lpar_id": "5", "remote_slot_num": "42"}


def test_the_estate_has_the_frame_its_partitions_and_pool_with_xml_evidence(tmp_path):
    hmc = tmp_path / "hmc7"
    shutil.copytree(FIX, hmc)
    a = analyze([str(tmp_path)])
    assert set(a.estate.frames) == {"p10frame7"}
    fr = a.estate.frames["p10frame7"]
    assert (fr.model, fr.serial, fr.cores_configurable, fr.mem_installed) == ("9080-M9S", "78AB123", 32.0, 1048576)
    assert set(fr.partitions) == {"dbprd5", "sapapp6", "vios7a", "vios7b"}
    assert fr.vios_pairs == [("vios7a", "vios7b")]  # both serve partition 5 (dbprd5)
    assert not [f for f in a.findings if f.rule.id == "FRAME-SEA-TRUNK-PRIORITY"]  # priorities 1 and 2
    p = fr.partitions["dbprd5"]
    assert (p.ec, p.vps, p.weight, p.pool_id, p.mem, p.hpt_ratio) == (2.5, 6, 160, 1, 65536, 128)
    ev = p.evidence["ec"]
    assert (Path(ev.path).name, ev.line) == ("logical_partition_feed.xml",
                                             _line_of("logical_partition_feed.xml", "<CurrentProcessingUnits"))
    assert fr.partitions["vios7a"].is_vios
    assert [(v.slot, v.pvid, v.vlans, v.trunk, v.priority) for v in fr.partitions["vios7a"].veth] == [
        (3, 4094, [110, 120, 130], True, 1)]
    assert (fr.pools[1].name, fr.pools[1].max_units, fr.pools[1].reserved_units) == ("SAPPool", 12.0, 0.5)
    status = {Path(i.path).name: i.status for i in a.estate.inputs}
    assert status == {"logical_partition_feed.xml": "parsed", "managed_system_feed.xml": "parsed",
                      "shared_pool_feed.xml": "parsed", "vios_entry_after_dump_header.txt": "partly",
                      "vios7b_entry.txt": "partly"}


def test_partitions_without_their_managed_system_stay_on_an_unnamed_frame(tmp_path):
    (tmp_path / "hmc7").mkdir()
    shutil.copy(FIX / "logical_partition_feed.xml", tmp_path / "hmc7")
    frames = analyze([str(tmp_path)]).estate.frames
    assert len(frames) == 1 and next(iter(frames)).startswith("unnamed system")


def test_bad_xml_is_reported_by_line_and_entities_are_never_expanded():
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>\n'
            '<feed xmlns="http://www.w3.org/2005/Atom"><entry><content><LogicalPartition xmlns="http://www.ibm.com/'
            'xmlns/systems/power/firmware/uom/mc/2012_10/"><PartitionName>&b;</PartitionName></LogicalPartition>'
            '</content></entry></feed>\n')
    assert hmc_rest.detect(bomb) == 95
    r = hmc_rest.parse(bomb)
    assert r.records == [] and [(w.line, w.message) for w in r.warnings] == [
        (1, "XML not read: a document type declaration (entities are never expanded)")]
    cut = "\n".join(_read("logical_partition_feed.xml").splitlines()[:40]) + "\n"
    r = hmc_rest.parse(cut)
    assert r.records == [] and r.warnings[0].message.startswith("XML not read: not well-formed XML at line")
    r = hmc_rest.parse(_read("logical_partition_feed.xml").replace("<PartitionID kb=\"COD\" kxe=\"false\">5</PartitionID>",
                                                                    "<PartitionID>5</PartitionIDX>"))
    at = _line_of("logical_partition_feed.xml", "<PartitionID")
    assert r.records == [] and r.warnings[0].message == f"XML not read: not well-formed XML at line {at}: mismatched tag"


def test_other_xml_is_not_taken():
    assert hmc_rest.detect('<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><entry/></feed>\n') == 0
    assert hmc_rest.detect("time=03/14/2024 10:15:00,event_type=sample,resource_type=lpar\n") == 0


def test_deep_nesting_is_read_without_recursion():
    depth = 5000
    text = ('<feed xmlns="http://www.w3.org/2005/Atom">' + "<x>" * depth + "</x>" * depth
            + '<entry><content><SharedProcessorPool xmlns="http://www.ibm.com/xmlns/systems/power/firmware/uom/mc/'
            '2012_10/"><PoolID>3</PoolID></SharedProcessorPool></content></entry></feed>\n')
    r = hmc_rest.parse(text)
    assert [(o.resource, o.attrs["shared_proc_pool_id"]) for o in r.records] == [("procpool", "3")]


def test_trunk_adapters_of_another_virtual_switch_are_kept_apart():
    text = _read("vios_entry_after_dump_header.txt")
    assert next(o for o in hmc_rest.parse(text).records if o.resource == "veth").attrs.get("vswitch") is None  # 0: ETHERNET0
    other = text.replace('<VirtualSwitchID kb="ROR" kxe="false">0</VirtualSwitchID>',
                         '<VirtualSwitchID kb="ROR" kxe="false">1</VirtualSwitchID>')
    assert next(o for o in hmc_rest.parse(other).records if o.resource == "veth").attrs["vswitch"] == "virtual switch 1"


def test_partition_entry_named_by_its_system_name_and_blank_lines_before_the_xml():
    entry = (FIX.parent / "hmc-rest-entry" / "lpar_entry_named_system.xml").read_text()
    r = hmc_rest.parse(entry)
    assert r.warnings == []
    by = {o.resource: o for o in r.records}
    assert set(by) == {"lpar", "proc-lpar", "mem-lpar"}
    assert {o.system for o in r.records} == {"p10lab3"}
    assert by["lpar"].attrs["managed_system_uuid"] == "0a1b2c3d-4e5f-3a6b-9c7d-8e9f0a1b2c3d"
    assert by["lpar"].attrs["state"] == "Not Activated" and by["lpar"].attrs["name"] == "test9"
    # text before the XML is still said
    assert [w.message for w in hmc_rest.parse("saved by tool x\n" + entry).warnings] == [
        "1 line(s) before the XML not read"]


def test_rest_error_responses_and_unread_object_types_are_named():
    from lparscope.sources.detect import split_and_classify
    error = ('<entry xmlns="http://www.w3.org/2005/Atom">\n<title>HttpErrorResponse</title>\n'
             '<content type="application/vnd.ibm.powervm.web+xml; type=HttpErrorResponse">\n'
             '<HttpErrorResponse:HttpErrorResponse xmlns:HttpErrorResponse="http://www.ibm.com/xmlns/systems/power/firmware/web/mc/2012_10/">\n'
             '<HTTPStatus kb="ROR">403</HTTPStatus>\n<Message kb="ROO">REST0002 The session is not authorized.</Message>\n'
             '</HttpErrorResponse:HttpErrorResponse>\n</content>\n</entry>\n')
    [seg] = split_and_classify(error)
    assert seg.kind is None and seg.reason == "an HMC REST error response (HTTP 403): REST0002 The session is not authorized."
    feed = ('<feed xmlns="http://www.w3.org/2005/Atom">\n<entry>\n'
            '<content type="application/vnd.ibm.powervm.uom+xml; type=VirtualSwitch">\n'
            '<VirtualSwitch:VirtualSwitch xmlns:VirtualSwitch="http://www.ibm.com/xmlns/systems/power/firmware/uom/mc/2012_10/">\n'
            '<SwitchID>1</SwitchID><SwitchName>vswitch-2</SwitchName></VirtualSwitch:VirtualSwitch>\n</content>\n</entry>\n</feed>\n')
    [seg] = split_and_classify(feed)
    assert seg.kind is None and seg.reason.startswith("an HMC REST VirtualSwitch answer: not read")
