from pathlib import Path

from lparscope.sources import lssea
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "lssea"


def test_report_seas_tables_and_lacp_columns():
    text = (FIX / "vios3b_lsseas_report.log").read_text()
    assert lssea.detect(text) >= 90
    r = lssea.parse(text)
    assert r.warnings == [] and r.hostname == "vios3b"
    report, sea, ec, p2, p3, trunk, sea2, p4, trunk2 = r.records
    assert (report.vios, report.serial, report.ioslevel) == ("vios3b", "0221A7C4D", "3.1.4.30")
    assert report.other["netaddr"] == "10.20.30.41"
    assert (sea.name, sea.ha_mode, sea.state, sea.priority, sea.number_of_adapters) == ("ent12", "Auto", "BACKUP", 2, 3)
    assert sea.vlans == [100, 200, 210] and sea.flags == ["THREAD", "LARGESEND", "ACCOUNTING"] and sea.lines["state"] == 8
    assert sea.other["ctl_chan port_vlan_id"] == "4094"
    assert (ec.table, ec.sea, ec.name, ec.line) == ("etherchannel", "ent12", "ent8", 18)
    assert ec.values == {"phys_adapters": "ent2,ent3", "mode": "8023ad", "hash_mode": "default", "jumbo": "yes"}
    assert (p2.lacp.partner.system, p2.lacp.partner.port, p2.lacp.partner.synchronization) == ("00-23-04-EE-BE-0A", "0x0121", "IN_SYNC")
    assert (p3.lacp.actor.synchronization, p3.lacp.partner.synchronization) == ("OUT_OF_SYNC", "OUT_OF_SYNC")
    assert p3.lacp.partner.lines["synchronization"] == 23 and p3.values["running_speed"] == "25_Gbps_Full_Duplex"
    assert (trunk.table, trunk.values["port_vlan_id"], trunk.values["active"]) == ("virtual adapters", "100", "False")
    # a SEA without aggregation: its real adapter row has no LACP cells
    assert (sea2.name, p4.name, p4.sea, p4.lacp) == ("ent13", "ent4", "ent13", None)
    assert trunk2.values["vlan_tags_ids"] == "1"


def test_cut_from_what_precedes_it_and_bad_lines_warned():
    text = "lsmap output of something else\n" * 3 + (FIX / "vios3b_lsseas_report.log").read_text()
    kinds = [s.kind for s in split_and_classify(text)]
    assert kinds[-1] == "lssea"
    r = lssea.parse("running lssea on v1 | IBM,1 | ioslevel 3.1\nSEA : ent5\n%% nonsense %%\n")
    assert [w.line for w in r.warnings] == [3] and r.records[1].name == "ent5"
    assert lssea.parse("nothing\n").warnings[-1].message == "no 'SEA : entN' block found"
