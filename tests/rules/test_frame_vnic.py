"""vNIC failover across a frame (rules/frame/vnic.py, rules-catalogue NET-16), from the HMC REST
API's VirtualNICDedicated feed (sources/_hmc_rest_vnic.py, model/frame_vnic.py). The vNIC feed
(tests/fixtures/hmc-rest-network/vnic_feed.xml) is written here in the HMC's Atom/XML format: four
vNICs of dbprd5 (partition 5 of p10frame7, whose VIOS are vios7a and vios7b in tests/fixtures/hmc-rest):
slot 6 backed on both VIOS (fine), slot 7 by one device, slot 8 by two ports of vios7a only, slot 9
by two devices of which one has its link down."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lparscope.pipeline import analyze
from lparscope.sources import hmc_rest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FEED = FIXTURES / "hmc-rest-network" / "vnic_feed.xml"


@pytest.fixture(scope="module")
def analysis(tmp_path_factory):
    hmc = tmp_path_factory.mktemp("estate") / "hmc7"
    shutil.copytree(FIXTURES / "hmc-rest", hmc)
    shutil.copy(FEED, hmc)
    return analyze([str(hmc.parent)])


def _by_slot(analysis, rule_id):
    return {f.subject: f for f in analysis.findings if f.rule.id == rule_id}


def test_the_feed_gives_vnic_and_backing_device_objects():
    r = hmc_rest.parse(FEED.read_text())
    assert r.warnings == []
    vnics = [o for o in r.records if o.resource == "vnic"]
    assert [(o.attrs["slot_num"], o.attrs["backing_count"], o.attrs["mac_addr"]) for o in vnics] == [
        ("6", "2", "A2B3C4D5E606"), ("7", "1", "A2B3C4D5E607"), ("8", "2", "A2B3C4D5E608"), ("9", "2", "A2B3C4D5E609")]
    dev = next(o for o in r.records if o.resource == "vnicbkdev" and o.attrs["slot_num"] == "7")
    assert {k: dev.attrs[k] for k in ("lpar_id", "sriov_adapter_id", "sriov_physical_port_id", "is_active", "status",
                                      "current_capacity", "managed_system_uuid")} == {
        "lpar_id": "5", "sriov_adapter_id": "1", "sriov_physical_port_id": "1", "is_active": "1",
        "status": "OPERATIONAL", "current_capacity": "10.0", "managed_system_uuid": "7c2b9d40-31aa-3f0e-8d52-0e6f1a2b3c4d"}


def test_backing_devices_join_the_client_and_their_vios_by_uuid(analysis):
    fr = analysis.estate.frames["p10frame7"]
    vnics = {v.slot: v for v in fr.partitions["dbprd5"].vnics}
    assert sorted(vnics) == [6, 7, 8, 9]
    assert [(b.vios, b.adapter_id, b.port_id, b.active) for b in vnics[6].backings] == [
        ("vios7a", 1, 0, True), ("vios7b", 2, 0, False)]


def test_one_device_and_a_link_down_are_no_failover(analysis):
    found = _by_slot(analysis, "FRAME-VNIC-NO-FAILOVER")
    assert sorted(found) == ["vNIC slot 7", "vNIC slot 9"]
    one = found["vNIC slot 7"]
    assert "one backing device (vios7a adapter 1 port 1)" in one.message
    # the frame's other VIOS is named in the command; the adapter and port are the administrator's choice
    assert one.fix.hmc[1] == ('chhwres -m p10frame7 -r virtualio --rsubtype vnic -o s --id 5 -s 7 '
                              '-a "backing_devices+=sriov/vios7b/2/<sriov adapter id>/<physical port id>/10"')
    assert one.rollback.hmc == [one.fix.hmc[1].replace("backing_devices+=", "backing_devices-=")]
    assert "1 of its 2 backing devices work (vios7b adapter 2 port 1: LINK_DOWN)" in found["vNIC slot 9"].message
    lines = {(Path(e.path).name, e.line) for e in one.evidence}
    text = FEED.read_text().splitlines()
    assert all(name == "vnic_feed.xml" for name, _ in lines)
    assert any("<VirtualSlotNumber" in text[n - 1] and ">7<" in text[n - 1] for _, n in lines)


def test_all_devices_on_one_vios_is_said_apart(analysis):
    found = _by_slot(analysis, "FRAME-VNIC-ONE-VIOS")
    assert sorted(found) == ["vNIC slot 8"]
    assert "are all owned by vios7a" in found["vNIC slot 8"].message
    assert "sriov/vios7b/2/" in found["vNIC slot 8"].fix.hmc[1]


def test_the_same_feed_read_twice_adds_no_backing_device(tmp_path):
    hmc = tmp_path / "hmc7"
    shutil.copytree(FIXTURES / "hmc-rest", hmc)
    shutil.copy(FEED, hmc / "a.xml")
    shutil.copy(FEED, hmc / "b.xml")
    a = analyze([str(tmp_path)])
    vnics = {v.slot: v for v in a.estate.frames["p10frame7"].partitions["dbprd5"].vnics}
    assert [len(vnics[s].backings) for s in (6, 7, 8, 9)] == [2, 1, 2, 2]
    assert sorted(_by_slot(a, "FRAME-VNIC-NO-FAILOVER")) == ["vNIC slot 7", "vNIC slot 9"]


def test_the_report_maps_each_backing_device(analysis):
    from lparscope.report.json_report import build_report

    [frame] = build_report(analysis)["frames"]
    rows = frame["mappings"]["vnic"]
    assert len(rows) == 7  # 2 + 1 + 2 + 2 backing devices
    assert rows[-1] == {"client": "dbprd5", "client_slot": 9, "vios": "vios7b", "adapter": 2, "port": 1,
                        "active": False, "status": "LINK_DOWN", "capacity": 2.0}


CLI = FIXTURES / "lshwres" / "hmc10_virtualio_vnic.txt"


def test_the_command_lines_vnic_listing_is_judged_too(tmp_path):
    (tmp_path / "hmc10").mkdir()
    shutil.copy(CLI, tmp_path / "hmc10")
    a = analyze([str(tmp_path)])
    fr = a.estate.frames["p10frame9"]
    vnics = {(p.name, v.slot): v for p in fr.partitions.values() for v in p.vnics}
    assert [(b.vios, b.adapter_id, b.port_id) for b in vnics[("app21", 6)].backings] == [("vios9a", 1, 0), ("vios9b", 2, 0)]
    found = [(f.host, f.subject) for f in a.findings if f.rule.id.startswith("FRAME-VNIC")]
    # app22's second backing device is not in a form read (warned): its vNIC is not judged on one device
    assert found == [("app21", "vNIC slot 7")]
    status = {i.status for i in a.estate.inputs}
    assert status == {"partly"}


def test_a_vnic_listing_without_its_command_is_not_a_virtual_ethernet_adapter():
    from lparscope.sources import hmc_hwres

    text = "\n".join(CLI.read_text().splitlines()[1:]) + "\n"
    r = hmc_hwres.parse(text)
    assert {o.resource for o in r.records} == {"vnic"}


def test_hmc_scanners_vnic_sheet_same_port_on_two_vios_is_no_failover():
    # the sheet gives each backing device's VIOS, priority and physical port location (repeated
    # column groups); web31's two devices sit on one port through two VIOS, web32's on two ports
    folder = FIXTURES / "hmcscanner-vnic"
    a = analyze([str(folder)])
    fr = a.estate.frames["p10frame11"]
    web31 = fr.partitions["web31"].vnics[0]
    assert [(b.vios, b.priority, b.location) for b in web31.backings] == [
        ("vios11a", 50, "U78DA.ND0.WZS0311-P0-C3-T1"), ("vios11b", 60, "U78DA.ND0.WZS0311-P0-C3-T1")]
    found = [(f.rule.id, f.host, f.subject) for f in a.findings if f.rule.id.startswith("FRAME-VNIC")]
    assert found == [("FRAME-VNIC-NO-FAILOVER", "web31", "vNIC slot 6")]
    [f] = [f for f in a.findings if f.rule.id == "FRAME-VNIC-NO-FAILOVER"]
    assert "all on one physical port (port U78DA.ND0.WZS0311-P0-C3-T1, through vios11a, vios11b)" in f.message
    assert (Path(f.evidence[0].path).name, f.evidence[0].line) == ("vNIC.csv", 2)


def test_the_sheet_and_the_command_line_on_one_frame_give_each_device_once(tmp_path):
    # the command line's listing and HMC Scanner's sheet for the same vNIC: ids on one side, location
    # codes on the other; the vNIC keeps the command line's view (one device), not both (two)
    (tmp_path / "hmc10").mkdir()
    shutil.copy(CLI, tmp_path / "hmc10")
    sheet = (tmp_path / "hmc10" / "vNIC.csv")
    header = (FIXTURES / "hmcscanner-vnic" / "vNIC.csv").read_text().splitlines()[0]
    sheet.write_text(header + "\np10frame9,78AB309,app21,7,ded,ded,1,120,0,all,A2B3C4D5E622,all,"
                     "vios9a,50,U78DA.ND0.WZS0309-P0-C3-T2,27004016" + ",," * 10 + "\n")
    a = analyze([str(tmp_path)])
    app21 = {v.slot: v for v in a.estate.frames["p10frame9"].partitions["app21"].vnics}
    assert [(b.vios, b.adapter_id, b.port_id, b.location) for b in app21[7].backings] == [("vios9a", 1, 1, None)]
    assert ("app21", "vNIC slot 7") in [(f.host, f.subject) for f in a.findings if f.rule.id == "FRAME-VNIC-NO-FAILOVER"]


def test_an_unreadable_backing_device_is_warned_about_in_a_dump_too():
    # the warning belongs to the HMC reader every kind shares: a collection dump read as lssyscfg
    from lparscope.sources import hmc_syscfg

    text = ("###command:lshwres -r virtualio --rsubtype vnic --level lpar -m p10frame9###\n"
            'lpar_name=app22,lpar_id=22,slot_num=6,port_vlan_id=0,"backing_devices=sriov/vios9a/1/1/0/27004017/2.0,'
            'vnic-backing/broken"\n'
            "###command:lssyscfg -r sys -F name###\np10frame9\n")
    r = hmc_syscfg.parse(text)
    assert [(w.line, w.message) for w in r.warnings] == [
        (2, "vNIC slot 6: backing device 'vnic-backing/broken' not read "
            "(expected sriov/<VIOS>/<VIOS id>/<adapter id>/<port id>/...)")]
