"""Shared Ethernet Adapters in HMC REST XML (sources/_hmc_rest_sea.py): a NetworkBridge's SEAs as
``sea`` objects, placed on their VIOS by UUID or by the partition id of their trunk adapters'
location codes, and the frame rules reading them. The bridge fixture is written here in the HMC's
Atom/XML format (tests/fixtures/hmc-rest-network); the VIOS, partition and system ones are
tests/fixtures/hmc-rest."""

from __future__ import annotations

import shutil
from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.sources import hmc_rest, parsers
from lparscope.sources.detect import split_and_classify

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BRIDGE = FIXTURES / "hmc-rest-network" / "network_bridge_feed.xml"
SYSTEM_UUID = "7c2b9d40-31aa-3f0e-8d52-0e6f1a2b3c4d"
VIOS_A, VIOS_B = "0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F0", "0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F1"


def _lines_with(text: str, needle: str) -> list[int]:
    return [n for n, ln in enumerate(text.splitlines(), 1) if needle in ln]


def test_a_network_bridge_gives_one_sea_object_per_sea_under_lsattr_names():
    text = BRIDGE.read_text()
    assert [s.kind for s in split_and_classify(text, parsers())] == ["hmc-rest"]
    r = hmc_rest.parse(text)
    assert r.warnings == []
    a, b = r.records
    assert (a.resource, b.resource) == ("sea", "sea")
    assert a.attrs == {"sea": "ent8", "ha_mode": "sharing", "ctl_chan": "ent7", "pvid": "1", "jumbo_frames": "no",
                       "largesend": "1", "thread": "1", "qos_mode": "disabled", "queue_size": "8192",
                       "real_adapter": "ent0", "virt_adapters": "ent4", "lpar_id": "1", "vios_uuid": VIOS_A,
                       "managed_system_uuid": SYSTEM_UUID}
    assert (b.attrs["ha_mode"], b.attrs["lpar_id"], b.attrs["vios_uuid"]) == ("auto", "2", VIOS_B)
    assert [a.lines["ha_mode"], b.lines["ha_mode"]] == _lines_with(text, "<HighAvailabilityMode")
    assert a.lines["lpar_id"] == _lines_with(text, "-V1-C3")[0]  # read from the trunk adapter's location code


def test_a_partition_id_two_vios_share_in_location_codes_is_not_believed():
    text = BRIDGE.read_text().replace("-V2-C3", "-V1-C3")  # both SEAs' trunk adapters say partition 1
    r = hmc_rest.parse(text)
    assert [o.attrs.get("lpar_id") for o in r.records] == [None, None]
    assert [o.attrs["vios_uuid"] for o in r.records] == [VIOS_A, VIOS_B]
    assert [w.line for w in r.warnings] == _lines_with(text, "-V1-C3")
    assert all("placed by its VIOS's UUID only" in w.message for w in r.warnings)


def test_the_frame_rule_compares_the_seas_of_the_vios_pair_by_uuid(tmp_path):
    hmc = tmp_path / "hmc7"
    shutil.copytree(FIXTURES / "hmc-rest", hmc)
    shutil.copy(BRIDGE, hmc)
    a = analyze([str(tmp_path)])
    fr = a.estate.frames["p10frame7"]
    rows = {(r["vios"], r["sea"]): r for r in fr.seas}
    assert set(rows) == {("vios7a", "ent8"), ("vios7b", "ent8")}  # the VIOS entries list ent8 too: one row each
    assert (rows[("vios7a", "ent8")]["ha_mode"], rows[("vios7b", "ent8")]["ha_mode"]) == ("sharing", "auto")
    [f] = [f for f in a.findings if f.rule.id == "FRAME-SEA-HA-MODE"]
    assert "ha_mode sharing / auto" in f.message
    assert {(Path(e.path).name, e.line) for e in f.evidence} == {
        ("network_bridge_feed.xml", n) for n in _lines_with(BRIDGE.read_text(), "<HighAvailabilityMode")}
    assert f.fix.padmin[:2] == ["chdev -dev ent8 -attr ha_mode=sharing   # on vios7a",
                                "chdev -dev ent8 -attr ha_mode=sharing   # on vios7b"]


def test_a_bridge_alone_places_its_seas_by_partition_id_on_its_system(tmp_path):
    shutil.copy(BRIDGE, tmp_path)
    a = analyze([str(tmp_path)])
    [name] = a.estate.frames
    assert name == f"unnamed system (managed system {SYSTEM_UUID})"
    fr = a.estate.frames[name]
    assert sorted((r["vios"], r["ha_mode"]) for r in fr.seas) == [("lpar1", "sharing"), ("lpar2", "auto")]
    assert all(p.is_vios for p in fr.partitions.values())


def test_partitions_of_two_unnamed_systems_stay_on_two_frames(tmp_path):
    feed = (FIXTURES / "hmc-rest" / "logical_partition_feed.xml").read_text()
    (tmp_path / "hmc").mkdir()
    (tmp_path / "hmc" / "a.xml").write_text(feed)
    other = feed.replace(SYSTEM_UUID, "11112222-3333-4444-5555-666677778888").replace("dbprd5", "web5").replace("sapapp6", "web6")
    (tmp_path / "hmc" / "b.xml").write_text(other)
    frames = analyze([str(tmp_path)]).estate.frames
    assert sorted(frames) == ["unnamed system (managed system 11112222-3333-4444-5555-666677778888)",
                              f"unnamed system (managed system {SYSTEM_UUID})"]
    assert set(frames[f"unnamed system (managed system {SYSTEM_UUID})"].partitions) == {"dbprd5", "sapapp6"}
