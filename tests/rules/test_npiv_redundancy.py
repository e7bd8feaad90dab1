"""STO-NPIV-NO-REDUNDANCY: a client's virtual FC adapters on one physical port or one VIOS."""

from lparscope.model.frame import VirtualSlot
from lparscope.rules.config import Config
from lparscope.rules.storage.npiv_paths import npiv_no_redundancy
from lparscope.rules.vios.redundancy import single_server

from . import _frame_builders as fb
from .conftest import host
from .test_vios_pair import estate, npiv


def run(e, fn=npiv_no_redundancy):
    return list(fn(e, Config()))


def _two_vios():
    return host("vios1", "vios"), host("vios2", "vios")


def test_two_adapters_on_one_port_fire_once_per_client():
    v1, v2 = _two_vios()
    v2.npiv_mappings += [npiv("vfchost0", 3, name="aix1"), npiv("vfchost4", 3, name="aix1"),
                         npiv("vfchost1", 4, name="aix2"), npiv("vfchost5", 4, port="fcs1", name="aix2")]
    v1.npiv_mappings += [npiv("vfchost0", 5, lpar=1)]  # a partner with NPIV data: these are warnings
    v2.npiv_mappings += [npiv("vfchost2", 5)]
    found = run(estate(v1, v2))
    assert [(f.host, f.level) for f in found] == [("aix1", "warning"), ("aix2", "warning")]
    one_port, one_vios = found
    assert "the same physical port vios2 fcs0" in one_port.message and "vfchost0, vfchost4" in one_port.message
    assert "vfcmap -vadapter vfchost4 -fcp fcs0" in one_port.rollback.padmin
    assert "the same VIOS vios2" in one_vios.message and "physical port" not in one_vios.message
    # the one-adapter clients are VIOS-SINGLE-SERVER's, the two-adapter ones are not reported twice
    assert all("aix1" not in f.message and "aix2" not in f.message for f in run(estate(v1, v2), single_server))


def test_adapters_on_two_vios_are_redundant():
    v1, v2 = _two_vios()
    v1.npiv_mappings += [npiv("vfchost0", 3, lpar=1, name="aix1")]
    v2.npiv_mappings += [npiv("vfchost0", 3, name="aix1")]
    assert run(estate(v1, v2)) == []
    # one adapter only: left to VIOS-SINGLE-SERVER
    v3 = host("vios3", "vios")
    v3.npiv_mappings += [npiv("vfchost0", 7, lpar=5)]
    assert run(estate(v3)) == []


def test_vios_case_is_informational_without_partner_data():
    v2 = host("vios2", "vios")
    v2.npiv_mappings += [npiv("vfchost0", 3), npiv("vfchost1", 3, port="fcs1")]
    (f,) = run(estate(v2))
    assert f.level == "info" and "add the partner VIOS's output" in f.message and f.host == "vios2"


def _vfc(slot, kind, remote_id, remote_name, remote_slot, port=None):
    return VirtualSlot("vfc", slot, kind, remote_id, remote_name, remote_slot, port=port, evidence=fb.ev(30 + slot))


def test_hmc_view_for_clients_without_vios_outputs():
    v1 = fb.part("vios1", 1, "vioserver")
    v2 = fb.part("vios2", 2, "vioserver")
    c = fb.part("db1", 7)
    v1.vfc = [_vfc(201, "server", 7, "db1", 30, port="U78D3.001-P1-C11-T1"),
              _vfc(202, "server", 7, "db1", 31, port="U78D3.001-P1-C11-T1")]
    c.vfc = [_vfc(30, "client", 1, "vios1", 201), _vfc(31, "client", 1, "vios1", 202)]
    e = fb.estate(fb.frame(v1, v2, c))
    (f,) = run(e)
    assert f.host == "db1" and "the same physical port vios1 U78D3.001-P1-C11-T1" in f.message
    c.vfc[1] = _vfc(31, "client", 2, "vios2", 202)
    v2.vfc = [_vfc(202, "server", 7, "db1", 31, port="U78D3.001-P2-C11-T1")]
    assert run(e) == []


def test_another_frames_vios_data_is_no_partner():
    v2 = host("vios2", "vios")
    v2.npiv_mappings += [npiv("vfchost0", 3), npiv("vfchost1", 3, port="fcs1")]
    other = host("viox", "vios")  # another frame's VIOS: its lsmap -npiv says nothing of vios2's partner
    from types import SimpleNamespace as NS
    other.npiv_mappings.append(NS(vfchost="vfchost0", physloc="U8286.42A.0000009-V1-C30", client_id=9, fc_name="fcs0",
                                  client_name=None, _evidence=None))
    (f,) = run(estate(v2, other))
    assert f.level == "info" and "a port can fail without cutting it off" in f.message
