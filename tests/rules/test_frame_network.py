from types import SimpleNamespace

from lparscope.model.estate import Estate
from lparscope.rules.frame import nib as frame_nib
from lparscope.rules.frame import sea as frame_sea

from .conftest import device, host, run_rule, stats


def _estate(primaries: list[int]) -> Estate:
    e = Estate()
    for name, pvid in (("vios1", 1), ("vios2", 2)):
        v = host(name, "vios")
        device(v, "ent5", "trunk", stats=stats(port_vlan_id=pvid, vlan_tag_ids=[]))
        e.hosts[name] = v
    for n, pvid in enumerate(primaries):
        c = host(f"aix{n}", "aix")
        device(c, "ent0", "virtual", stats=stats(port_vlan_id=pvid, lines={"port_vlan_id": 40}))
        device(c, "ent1", "virtual", stats=stats(port_vlan_id=3 - pvid, lines={"port_vlan_id": 40}))
        device(c, "ent2", "etherchannel", adapter_names="ent0", backup_adapter="ent1")
        e.hosts[c.name] = c
    return e


def test_nib_primaries_all_on_one_vios():
    (f,) = run_rule(frame_nib.nib_balance, _estate([1, 1, 1, 1]))
    assert f.host == "vios1" and "4 of 4" in f.message and "Move 2" in f.message
    assert "chdev -l ent2 -a adapter_names=ent1 -a backup_adapter=ent0" in f.fix.root
    assert run_rule(frame_nib.nib_balance, _estate([1, 2, 1, 2])) == []


def _vios_with_seastat(ha_mode: str, per_vlan: dict[int, int]):
    e = Estate()
    v = host("vios1", "vios")
    device(v, "ent8", "sea", stats=stats(sea=SimpleNamespace(state="PRIMARY")), ha_mode=ha_mode)
    v.sea_clients = [SimpleNamespace(sea="ent8", vlan=vl, tx_bytes=b, rx_bytes=0) for vl, b in per_vlan.items()]
    e.hosts["vios1"] = v
    return e


def test_busy_vlans_behind_one_primary_sea():
    (f,) = run_rule(frame_sea.busy_vlans_one_vios, _vios_with_seastat("auto", {10: 600, 20: 400}))
    assert "VLAN 10 60%" in f.message and "ha_mode=sharing" in f.fix.padmin[0]
    assert run_rule(frame_sea.busy_vlans_one_vios, _vios_with_seastat("auto", {10: 990, 20: 10})) == []
    assert run_rule(frame_sea.busy_vlans_one_vios, _vios_with_seastat("sharing", {10: 600, 20: 400})) == []
