"""NET-VNIC-SERVER-ERRORS: vnicstat on a VIOS."""

import shutil
from pathlib import Path

from lparscope.model.estate import Sourced
from lparscope.pipeline import analyze
from lparscope.rules.network import vnic
from lparscope.sources.vnicstat import VnicServerStats

from .conftest import host, run_rule

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "vnicstat"


def _server(h, name="vnicserver0", counters=None, **kw):
    base = dict(state="active", backing_device="ent8", failover_state="active", failover_readiness="operational",
                client_partition_name="aixapp3", client_device="ent0")
    base.update(kw)
    rec = VnicServerStats(name=name, line=3, counters=counters or {"rx_errors": 0, "tx_packets": 10},
                          lines={"state": 7, "failover_readiness": 11, "failover_state": 10, "rx_errors": 24}, **base)
    h.vnic_servers[name] = Sourced(rec, "vnicstat.txt", 0)


def test_not_operational_backing_device_and_errors_fire():
    h = host("vios1", "vios")
    _server(h, failover_state="inactive", failover_readiness="not operational")
    _server(h, "vnicserver1", counters={"rx_errors": 7, "main_crq.reboots": 2, "sub_crq_0.rx_buffer_size": 9216})
    f, g = run_rule(vnic.vnic_server_errors, h)
    assert f.subject == "vnicserver0" and "backing device ent8: failover readiness not operational" in f.message
    assert "client aixapp3 ent0" in f.message and f.evidence[0].line == 11
    assert g.subject == "vnicserver1" and "rx errors 7" in g.message and "reboots" not in g.message
    assert g.fix.root[0].startswith("vnicstat -b vnicserver1 ") and g.fix.padmin == ["vnicstat -b vnicserver1"]
    assert [e.line for e in g.evidence] == [11, 7, 10, 24]


def test_healthy_active_and_ready_standby_are_quiet():
    h = host("vios1", "vios")
    _server(h)
    _server(h, "vnicserver1", failover_state="inactive", state="inactive")  # a standby that is ready
    assert run_rule(vnic.vnic_server_errors, h) == []
    h2 = host("vios1", "vios")
    _server(h2, state="inactive", failover_state="active")  # the active one not active: reported
    assert len(run_rule(vnic.vnic_server_errors, h2)) == 1


def test_from_vnicstat_output(tmp_path):
    for f in FIX.glob("*.txt"):
        shutil.copy(f, tmp_path / f.name)
    a = analyze([str(tmp_path)])
    found = [f for f in a.findings if f.rule.id == "NET-VNIC-SERVER-ERRORS"]
    assert [(f.host, f.subject) for f in found] == [("vios2", "vnicserver3")]
    assert "rx errors 1532" in found[0].message and a.estate.hosts["vios2"].role == "vios"
