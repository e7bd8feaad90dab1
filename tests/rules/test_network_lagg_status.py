"""NET-LAGG-NEGOTIATING: an 802.3ad aggregation whose status says LACP never formed it."""

import shutil
from pathlib import Path
from types import SimpleNamespace

from lparscope.pipeline import analyze
from lparscope.rules.network import aggregation_status
from lparscope.sources.entstat import LacpParty, LacpPortState

from .conftest import device, host, run_rule, stats

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "entstat"


def _ec_host(status, mode="8023ad", port=None):
    h = host("vios2", "vios")
    ec = SimpleNamespace(aggregation_status=status, members=["ent2", "ent3"], mode=None, backup_adapter=None)
    device(h, "ent30", "etherchannel", mode=mode, stats=stats(etherchannel=ec, lines={}))
    h.devices["ent30"].stats.etherchannel.lines = {"aggregation_status": 44}
    for name in ("ent2", "ent3"):
        device(h, name, "physical", stats=stats(lacp=port, counters={}))
    return h


def test_negotiating_aggregation_fires_with_switch_fix():
    (f,) = run_rule(aggregation_status.lagg_negotiating, _ec_host("Negotiating"))
    assert f.subject == "ent30" and f.severity is None and f.rule.severity == "warning"
    assert "aggregation status Negotiating" in f.message and "ent2, ent3" in f.message
    assert [e.line for e in f.evidence][:1] == [44]
    assert f.fix.root[0].startswith("# on the switch:") and "LACP (802.3ad)" in f.fix.root[0]
    assert "entstat -all ent30" in f.fix.padmin[0] and f.rollback.root


def test_quiet_when_aggregated_static_or_ports_already_reported():
    assert run_rule(aggregation_status.lagg_negotiating, _ec_host("Aggregated")) == []
    assert run_rule(aggregation_status.lagg_negotiating, _ec_host("Negotiating", mode="standard")) == []
    # a port without partner: NET-LAGG-LACP-PORT names it and quotes the status
    lost = LacpPortState(actor=LacpParty(synchronization="OUT_OF_SYNC"), partner=LacpParty(system="00-00-00-00-00-00"))
    assert run_rule(aggregation_status.lagg_negotiating, _ec_host("Negotiating", port=lost)) == []


def test_from_a_vios4_sea_over_a_negotiating_aggregation(tmp_path):
    shutil.copy(FIX / "vios4_sea_limbo_lacp_ent40.txt", tmp_path / "vios7_entstat.txt")
    a = analyze([str(tmp_path)])
    (f,) = [f for f in a.findings if f.rule.id == "NET-LAGG-NEGOTIATING"]
    assert f.host == "vios7" and f.subject == "ent30"
    assert "SEA ent40 bridges over it" in f.message and f.evidence[0].line == 105


def test_a_member_whose_link_is_down_is_named_before_the_switch_channel():
    h = _ec_host("Negotiating")
    h.devices["ent2"].stats.link_status = "Down"
    (f,) = run_rule(aggregation_status.lagg_negotiating, h)
    assert "member port(s) ent2 have no link" in f.message
    assert f.fix.root[0].startswith("# first the link of ent2: cable, SFP and switch port")
    assert "entstat -d ent2 | grep -i 'Link Status'" in f.fix.root
