from types import SimpleNamespace

from lparscope.rules.config import Config
from lparscope.rules.frame.sea import (
    frame_sea_ha_mode,
    frame_sea_trunk_priority,
    frame_sea_vlans_differ,
)
from lparscope.rules.frame.vios import frame_single_vios, frame_vios_failover

from ._frame_builders import estate, frame, part, slot, trunk, use
from .conftest import device, host


def run(fn, e):
    return list(fn(e, Config()))


def _client(name="aix1", id=3):
    p = part(name, id)
    p.vscsi.append(slot("vscsi", 10, "client", 1, "vios1", 101))
    return p


def test_single_vios_fires_and_not_with_a_pair():
    v1 = part("vios1", 1, "vioserver")
    [f] = run(frame_single_vios, estate(frame(v1, _client())))
    assert f.host == "vios1" and "one VIOS (vios1)" in f.message and f.fix.hmc[0].startswith("mksyscfg -r lpar -m p9frame1")
    assert not run(frame_single_vios, estate(frame(v1, part("vios2", 2, "vioserver"), _client())))


def _pair(prio_b=2, vlans_b=(20,)):
    v1 = part("vios1", 1, "vioserver")
    v1.veth.append(trunk(11, 10, [20], 1))
    v2 = part("vios2", 2, "vioserver")
    v2.veth.append(trunk(11, 10, vlans_b, prio_b))
    return v1, v2


def test_trunk_priority_equal_fires():
    v1, v2 = _pair(prio_b=1)
    [f] = run(frame_sea_trunk_priority, estate(frame(v1, v2)))
    assert f.level == "critical" and "VLAN(s) 10, 20" in f.message and "trunk_priority=2" in f.fix.hmc[2]


def test_trunk_priority_different_quiet():
    v1, v2 = _pair(prio_b=2)
    assert not run(frame_sea_trunk_priority, estate(frame(v1, v2)))


def test_vlans_differ_fires_and_quiet():
    v1, v2 = _pair(vlans_b=(20, 30))
    [f] = run(frame_sea_vlans_differ, estate(frame(v1, v2)))
    assert "only vios2: 30" in f.message and 'addl_vlan_ids+=30' in f.fix.hmc[0] and "-p vios1" in f.fix.hmc[0]
    v1, v2 = _pair()
    assert not run(frame_sea_vlans_differ, estate(frame(v1, v2)))


def test_vlans_differ_fix_is_one_the_hmc_accepts():
    """A tagged VLAN goes only onto an 802.1Q trunk adapter; a partner trunk whose PVID the other VIOS
    lacks is a trunk adapter to add (with the lacking VIOS's trunk priority), not VLANs to tag."""
    v1, v2 = _pair(vlans_b=(20, 30))
    v1.veth[0].ieee = False
    [f] = run(frame_sea_vlans_differ, estate(frame(v1, v2)))
    assert not any("addl_vlan_ids+=" in c for c in f.fix.hmc)
    assert f.fix.hmc[0].startswith("# vios1 has no trunk adapter that takes tagged VLANs") and "30" in f.fix.hmc[0]
    v1, v2 = _pair()
    v2.veth.append(trunk(12, 4092, [2018, 2019], 2))
    [f] = run(frame_sea_vlans_differ, estate(frame(v1, v2)))
    assert "only vios2: 2018, 2019, 4092" in f.message
    add = f.fix.hmc[0]
    assert add.startswith("chhwres -m p9frame1 -r virtualio --rsubtype eth -o a -p vios1 -s <free virtual slot> ")
    assert '-a "port_vlan_id=4092,ieee_virtual_eth=1,\\"addl_vlan_ids=2018,2019\\",is_trunk=1,trunk_priority=1"' in add
    assert f.fix.hmc[1].startswith("# then on vios1: add that trunk adapter to its SEA")
    assert not any(" -o s -p " in c for c in f.fix.hmc) and f.rollback.hmc == [
        "chhwres -m p9frame1 -r virtualio --rsubtype eth -o r -p vios1 -s <the slot added>"]


def _vios_host(name, mode, pvid=999):
    h = host(name, role="vios")
    d = device(h, "ent8", "sea", ha_mode=mode, ctl_chan="ent6")
    d.stats = SimpleNamespace(sea=SimpleNamespace(ha_mode=mode, control_channel_pvid=pvid), lines={}, line=1)
    d.stats_origin = ("s.txt", 0)
    return h


def test_ha_mode_mismatch_fires():
    v1, v2 = _pair()
    v1.host, v2.host = "vios1", "vios2"
    e = estate(frame(v1, v2), hosts=[_vios_host("vios1", "sharing"), _vios_host("vios2", "auto", 998)])
    [f] = run(frame_sea_ha_mode, e)
    assert "load sharing needs sharing on both" in f.message and "control channel PVID 999 / 998" in f.message
    assert "chdev -dev ent8 -attr ha_mode=sharing   # on vios2" in f.fix.padmin


def test_ha_mode_alike_quiet():
    v1, v2 = _pair()
    v1.host, v2.host = "vios1", "vios2"
    e = estate(frame(v1, v2), hosts=[_vios_host("vios1", "auto"), _vios_host("vios2", "auto")])
    assert not run(frame_sea_ha_mode, e)


def test_failover_capacity():
    v1 = part("vios1", 1, "vioserver", vps=2, ec=1.0)
    v2 = part("vios2", 2, "vioserver", vps=2, ec=1.0)
    v1.use, v2.use = use(1.2, 1.5), use(0.9, 1.1)
    fr = frame(v1, v2)
    fr.vios_pairs = [("vios1", "vios2")]
    [f] = run(frame_vios_failover, estate(fr))
    assert "together 2.60" in f.message and "75%" in f.message
    # what failover means, said as the load the other VIOS must then carry
    assert "with vios2 down, vios1 must carry 2.60 and can reach 2.00 (130% of it)" in f.message
    assert "vios1 already runs at 75% of what it can reach (Table 3-10: at most 50%)" in f.message
    v1.use, v2.use = use(0.3, 0.5), use(0.2, 0.4)
    assert not run(frame_vios_failover, estate(fr))


def test_failover_capacity_when_what_a_vios_can_reach_is_not_in_the_data():
    # measured use of both, but no virtual processors or entitlement read: said, not a crash
    v1, v2 = (part(n, i, "vioserver", ec=None, vps=None) for n, i in (("vios1", 1), ("vios2", 2)))
    v1.use, v2.use = use(1.2, 1.5), use(0.9, 1.1)
    fr = frame(v1, v2)
    fr.vios_pairs = [("vios1", "vios2")]
    (f,) = run(frame_vios_failover, estate(fr))
    assert "must carry 2.60, and what it can reach is not in the data" in f.message


def test_single_vios_on_a_full_frame_says_to_free_capacity_first():
    v1 = part("vios1", 1, "vioserver")
    fr = frame(v1, _client())
    fr.cores_available, fr.mem_available = 0.0, 2048
    [f] = run(frame_single_vios, estate(fr))
    assert f.fix.hmc[0].startswith("# the frame has not the room for it now") and "0 free" in f.fix.hmc[0]
    assert f.fix.hmc[1].startswith("mksyscfg -r lpar")
