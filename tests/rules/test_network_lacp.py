"""NET-LAGG-LACP-PORT and NET-LAGG-RX-ERRORS: an 802.3ad aggregation's own report about itself."""

import shutil
from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.rules.config import Config
from lparscope.rules.network import aggregation, aggregation_lacp
from lparscope.sources.entstat import LacpParty, LacpPortState

from .conftest import device, host, run_rule, stats

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "entstat"


def _port(partner_system="74-A2-E6-8C-1D-C0", sync="IN_SYNC", psync="IN_SYNC", dist="Enabled"):
    return LacpPortState(actor=LacpParty(system="B8-E9-24-E2-A0-A4", synchronization=sync, distributing=dist),
                         partner=LacpParty(system=partner_system, synchronization=psync))


def _lacp_lines():
    return {"lacp_port.Partner System": 30, "lacp_port.Actor State / Synchronization": 25,
            "lacp_port.Partner State / Synchronization": 40}


def _ec_host(mode="8023ad", **ports):
    h = host("vios1", "vios")
    device(h, "ent10", "etherchannel", adapter_names=",".join(ports), mode=mode)
    for name, lacp in ports.items():
        device(h, name, "physical", stats=stats(lacp=lacp, counters={}, lines=_lacp_lines()))
    return h


def test_lacp_port_out_of_sync_or_without_partner_fires_once_per_aggregation():
    h = _ec_host(ent0=_port(), ent1=_port("00-00-00-00-00-00", "OUT_OF_SYNC", "OUT_OF_SYNC", "Disabled"),
                 ent2=_port(psync="OUT_OF_SYNC"))
    (f,) = run_rule(aggregation_lacp.lagg_lacp_port, h)
    assert f.subject == "ent10" and f.rule.severity == "warning" and f.severity is None
    assert "2 of 3 member port(s)" in f.message and "ent1: no LACP partner" in f.message
    assert "ent2: partner OUT_OF_SYNC" in f.message and "ent0" not in f.values["current"]
    assert {e.line for e in f.evidence} >= {25, 30, 40}
    assert any("LACP (802.3ad) port channel" in c for c in f.fix.root)
    assert f.fix.padmin and "entstat -all ent10" in f.fix.padmin[0]


def test_lacp_port_quiet_when_in_sync_or_not_8023ad():
    assert run_rule(aggregation_lacp.lagg_lacp_port, _ec_host(ent0=_port(), ent1=_port())) == []
    # a static (standard mode) channel has no LACP: its port statistics are not judged
    bad = _port("00-00-00-00-00-00", "OUT_OF_SYNC", "OUT_OF_SYNC")
    assert run_rule(aggregation_lacp.lagg_lacp_port, _ec_host("standard", ent0=bad, ent1=bad)) == []


def _rx_host(rx_errors, rx_packets=1_000_000, dma=0):
    h = host("vios1", "vios")
    counters = {"rx_packets": rx_packets, "rx_errors": rx_errors, "dma_overrun": dma}
    device(h, "ent10", "etherchannel", adapter_names="ent0,ent1",
           stats=stats(counters=counters, lines={"rx_errors": 12, "dma_overrun": 23, "rx_packets": 10}))
    device(h, "ent0", "physical", rxdesc_que_sz=1024, stats=stats(counters={"rx_errors": rx_errors, "dma_overrun": dma}))
    device(h, "ent1", "physical", rxdesc_que_sz=1024, stats=stats(counters={"rx_errors": 0}))
    return h


def test_aggregate_receive_errors_above_the_threshold_fire_with_numbers():
    (f,) = run_rule(aggregation_lacp.lagg_rx_errors, _rx_host(rx_errors=1000, dma=990))
    assert f.subject == "ent10" and "rx errors 1000, dma overrun 990" in f.message and "0.100%" in f.message
    assert "ent0: rx errors 1000, dma overrun 990; ent1: none" in f.message
    assert str(f.values["rx_packets"]) == "1000000" and f.values["members"] == "ent0, ent1"
    assert [e.line for e in f.evidence] == [12, 23, 10]
    # only the port that drops gets its receive queue raised
    assert any(c.startswith("chdev -l ent0 -a rxdesc_que_sz=") for c in f.fix.root)
    assert not any(" ent1 " in c for c in f.fix.root) and "rxdesc_que_sz=1024" in f.rollback.root[0]


def test_aggregate_receive_errors_below_the_threshold_or_absent_are_quiet():
    assert run_rule(aggregation_lacp.lagg_rx_errors, _rx_host(rx_errors=50)) == []  # 0.005 %
    assert run_rule(aggregation_lacp.lagg_rx_errors, _rx_host(rx_errors=0)) == []
    cfg = Config(thresholds={"lagg_rx_error_ratio": 0.00001})
    assert len(run_rule(aggregation_lacp.lagg_rx_errors, _rx_host(rx_errors=50), cfg)) == 1


def test_from_entstat_output_to_findings(tmp_path):
    shutil.copy(FIX / "vios_8023ad_partner_missing_ent16.txt", tmp_path / "vios1_entstat.txt")
    a = analyze([str(tmp_path)])
    ids = sorted(f.rule.id for f in a.findings if f.subject == "ent16")
    assert ids == ["NET-LAGG-LACP-PORT", "NET-LAGG-RX-ERRORS"]
    lacp = next(f for f in a.findings if f.rule.id == "NET-LAGG-LACP-PORT")
    assert "2 of 4 member port(s)" in lacp.message and "ent1" in lacp.message and "ent5" in lacp.message
    assert any(e.line == 221 for e in lacp.evidence)  # ent1's "Partner System: 00-00-00-00-00-00"
    # the two ports LACP left out carry nothing: the transmit spread is judged over the two that aggregate
    assert not [f for f in a.findings if f.rule.id == aggregation.lagg_tx_spread.rule.id]


def test_from_an_lssea_report(tmp_path):
    shutil.copy(FIX.parent / "lssea" / "vios3b_lsseas_report.log", tmp_path / "vios3b_lssea.log")
    a = analyze([str(tmp_path)])
    h = a.estate.hosts["vios3b"]
    assert h.role == "vios" and h.devices["ent8"].cls == "etherchannel" and h.devices["ent3"].parent == "ent8"
    (f,) = [f for f in a.findings if f.rule.id == "NET-LAGG-LACP-PORT"]
    assert f.subject == "ent8" and "1 of 2 member port(s)" in f.message
    assert "ent3: actor OUT_OF_SYNC, partner OUT_OF_SYNC" in f.message and "does not match" in f.message
    assert [e.line for e in f.evidence][:1] == [23]
    # the report prints the aggregation's attributes: its hash mode is judged as lsattr's would be
    assert any(g.rule.id == "NET-LAGG-MODE" and g.subject == "ent8" for g in a.findings)
