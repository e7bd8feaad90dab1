"""VIOS sizing reproduces the seeds' numbers: the 002 POWER5 table, the 003 2 x 10 Gbit case,
the 000 §3.5.2 adapter sum and the 2 GB per 16 cores rule."""

from types import SimpleNamespace

import pytest

from lparscope.model.estate import Host, Partition, Setting
from lparscope.sizing.vios import (failover, sea_cpu_1g, sea_cpu_10g, sea_cpu_for_traffic, size_vios)


@pytest.mark.parametrize("duplex,threaded,cpu", [(False, True, 0.72), (False, False, 0.63), (True, True, 0.87),
                                                 (True, False, 0.80)])
def test_002_power5_table(duplex, threaded, cpu):
    assert sea_cpu_1g(1, duplex=duplex, threaded=threaded) == cpu
    # the same share at the throughput the table measured it at
    assert sea_cpu_for_traffic(1420 if duplex else 940, duplex=duplex, threaded=threaded) == cpu


def test_002_two_gigabit_links_fill_a_cpu():
    assert sea_cpu_1g(2, duplex=True, threaded=False) == 1.6  # "dual Gigabit ... totally consumed"


def test_003_ten_gigabit():
    assert sea_cpu_10g(1) == (1.0, 1)
    assert sea_cpu_10g(2, aggregated=True) == (2.0, 3)


def _vios(devices: dict[str, tuple[str, str]], cores: int = 16, **attrs) -> Host:
    h = Host("vios1", role="vios")
    h.partition = Partition(system_cores=cores, entitled_capacity=1.0, online_vps=2, mode="Uncapped",
                            online_memory_mb=4096)
    for name, (cls, desc) in devices.items():
        d = h.device(name)
        d.cls, d.description = cls, desc
    for dev, kv in attrs.items():
        for k, v in kv.items():
            h.devices[dev].attrs[k] = Setting(v)
    return h


def test_000_352_adapter_sum():
    devs = {"ent0": ("physical", "4-Port Gigabit Ethernet PCI-Express Adapter"),
            "ent1": ("physical", "4-Port Gigabit Ethernet PCI-Express Adapter"),
            "ent2": ("physical", "PCIe2 2-Port 10GbE SR Adapter"), "ent3": ("physical", "PCIe2 2-Port 10GbE SR Adapter"),
            "fcs0": ("fc", "8Gb PCI Express Dual Port FC Adapter"), "fcs1": ("fc", "8Gb PCI Express Dual Port FC Adapter"),
            **{f"vfchost{i}": ("vfchost", "") for i in range(4)}, **{f"ent{10 + i}": ("virtual", "") for i in range(3)}}
    s = size_vios(_vios(devs, cores=16))
    # 768 + 2 x 102 + 2 x 512 + 2 x 512 + 4 x 140 + 3 x 16 = 3628 MB, above the 2048 MB of 16 cores
    assert s.memory_estimate_mb == 768 + 2 * 102 + 2 * 512 + 2 * 512 + 4 * 140 + 3 * 16 == 3628
    assert "2 x 10 Gb Ethernet port x 512 MB" in s.memory_parts


def test_000_352_per_16_cores_wins_on_a_big_frame():
    s = size_vios(_vios({"ent0": ("physical", "Gigabit Ethernet")}, cores=64))
    assert s.memory_estimate_mb == 8192


def test_vios3_floor_s10():
    h = _vios({}, cores=16)
    h.levels["ioslevel"] = Setting("3.1.4.10")
    s = size_vios(h)
    assert s.memory_floor_mb == 4096


def test_cpu_from_an_sea_on_a_2x10g_aggregation_with_vscsi():
    devs = {"ent0": ("physical", "PCIe2 2-Port 10GbE SR Adapter"), "ent1": ("physical", "PCIe2 2-Port 10GbE SR Adapter"),
            "ent7": ("etherchannel", "IEEE 802.3ad Link Aggregation"), "ent8": ("sea", "Shared Ethernet Adapter")}
    h = _vios(devs, ent7={"adapter_names": "ent0,ent1"}, ent8={"real_adapter": "ent7", "thread": "1"})
    h.vscsi_mappings = [SimpleNamespace(vtd="vtscsi0", client_id=3)]
    s = size_vios(h)
    assert (round(s.cpu_low, 2), round(s.cpu_high, 2), s.cpu_vps) == (2.2, 2.7, 3)
    assert any("(003)" in p for p in s.cpu_parts) and any("(002)" in p for p in s.cpu_parts)


def test_failover_one_vios_must_carry_both():
    a = size_vios(_vios({}))
    b = size_vios(_vios({}))
    a.measured_peak, b.measured_peak = 1.2, 0.9
    chk = failover(a, b)
    assert chk.combined_peak == pytest.approx(2.1) and not chk.one_can_carry and chk.busiest_share == 0.6
    a.measured_peak, b.measured_peak = 0.6, 0.5
    assert failover(a, b).one_can_carry
