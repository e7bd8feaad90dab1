"""Derived numbers computed once (model/hpt.py, Frame.pool_free, sizing/vios.py) and the rules that
read them: the HPT ratio, weights among VIOS only, VIOS processor against its SEA's need."""

from types import SimpleNamespace

import numpy as np

from lparscope.model.estate import Estate
from lparscope.model.hpt import divisor_by_generation, hpt_divisor, hpt_mb
from lparscope.rules.config import Config
from lparscope.rules.frame.memory import frame_hpt_total
from lparscope.rules.frame.processor import frame_weights_flat
from lparscope.rules.memory.maximum import max_memory_far_above_online
from lparscope.rules.vios.sea_cpu import vios_cpu_below_sea_need
from lparscope.sizing.vios import sea_need

from ._frame_builders import estate, frame, part
from .conftest import device, host, run_rule


def test_hpt_divisor_order():
    assert hpt_divisor(64, 128, 9, "aixlinux") == (64, "the partition's HPT ratio")
    assert hpt_divisor(None, 128, 7, "aixlinux")[0] == 128
    assert hpt_divisor(None, None, 9, "aixlinux")[0] == 128 and hpt_divisor(None, None, 9, "os400")[0] == 64
    assert hpt_divisor(None, None, 7, "aixlinux")[0] == 64  # 000 §3.1: POWER7 and before
    assert hpt_divisor(None, None, 9, "aixlinux", shared_memory=True)[0] == 64  # 000 §3.1: AMS partitions
    assert hpt_divisor(None, None, None, None, fallback=32)[0] == 32
    assert divisor_by_generation(None) is None
    assert hpt_mb(10752, 64) == 256  # rules-catalogue S4: 168 MB rounds up to 256 MB


def _hpt_estate(ratio: int | None, frame_default: int | None):
    """aix2 runs with max 256 GB for 16 GB online; the HMC knows its ratio (or only the frame's)."""
    h = host("aix2", online_memory_mb=16384, max_memory_mb=262144)
    fr = frame(part("aix2", 3, mem=16384, mem_max=262144, hpt_ratio=ratio, host="aix2"),
               part("db1", 4, mem=65536, mem_max=393216, hpt_ratio=ratio), default_hpt_ratio=frame_default)
    e = estate(fr, hosts=[h])
    h.frame_name, h.hpt_ratio, h.frame_hpt_ratio, h.frame_model = fr.name, ratio, frame_default, fr.model
    return e, h


def test_host_rule_and_frame_rule_state_the_same_hpt():
    """The issue's case: the host rule used a fixed 1:64 while the frame view read 1:128."""
    for ratio, default, want in ((128, 128, 2048), (None, 64, 4096), (None, None, 2048)):  # last: POWER9 by model
        e, h = _hpt_estate(ratio, default)
        (hf,) = run_rule(max_memory_far_above_online, h)
        (ff,) = list(frame_hpt_total(e, Config()))
        assert hf.facts[("aix2", "hpt_mb")] == ff.facts[("aix2", "hpt_mb")] == want
        assert hf.facts[("aix2", "hpt_divisor")] == ff.facts[("aix2", "hpt_divisor")]
        assert f"HPT for it is {want} MB" in hf.message


def test_host_rule_without_a_frame_falls_back_to_the_configured_ratio():
    h = host("aix2", online_memory_mb=16384, max_memory_mb=262144)
    (f,) = run_rule(max_memory_far_above_online, h)
    assert f.facts[("aix2", "hpt_divisor")] == 64 and "configured default" in f.message


def test_pool_free_is_size_less_entitlement_and_reserve_within_available():
    fr = frame(part("a", 2, ec=4.0), part("b", 3, ec=2.5), part("c", 4, ec=9.0, state="Not Activated"))
    assert fr.pool_free(0) == 16.0 - 6.5
    fr.pools[0].reserved_units = 0.5
    assert fr.pool_free(0) == 9.0
    fr.cores_available = 3.0
    assert fr.pool_free(0) == 3.0
    assert frame().pool_free(7) is None


def test_flat_weights_skip_sets_made_only_of_vios():
    vios_only = frame(*(part(f"vios{i}", i, "vioserver", weight=255) for i in range(1, 5)),
                      part("a", 5, sharing_mode="cap"), part("b", 6, sharing_mode="cap"))
    assert list(frame_weights_flat(estate(vios_only), Config())) == []
    mixed = frame(part("vios1", 1, "vioserver", weight=255), part("vios2", 2, "vioserver", weight=255),
                  part("a", 3, weight=255))
    (f,) = list(frame_weights_flat(estate(mixed), Config()))
    assert "All 3 uncapped partitions" in f.message


def _sea_vios(name="vios1", ec=1.0, vps=3, ports=2, aggregated=True, **kw):
    h = host(name, "vios", entitled_capacity=ec, online_vps=vps, **kw)
    names = [f"ent{i}" for i in range(ports)]
    for n in names:
        device(h, n, "physical", "PCIe2 2-port 10GbE SR Adapter")
    if aggregated:
        device(h, "ent7", "etherchannel", adapter_names=",".join(names))
        device(h, "ent8", "sea", real_adapter="ent7", thread="1")
    else:
        device(h, "ent8", "sea", real_adapter=names[0], thread="1")
    return h


def test_vios_below_sea_need_fires_with_the_computed_need():
    h = _sea_vios(ec=1.0, vps=2)
    (f,) = run_rule(vios_cpu_below_sea_need, estate(hosts=[h]))
    assert f.values == {"current": "EC 1, 2 VP", "suggested": "EC 2, 3 VP"}
    assert "2 x 10 Gbit SEA port(s) aggregated: 2 EC, 3 VP (003)" in f.message
    assert [(c.attribute, c.target, c.bound) for c in f.changes] == [("desired_proc_units", 2.0, "min"),
                                                                   ("desired_procs", 3, "min")]
    assert f.facts == {("vios1", "sea_need_ec"): 2.0, ("vios1", "sea_need_vps"): 3}


def test_vios_with_enough_for_its_sea_is_quiet():
    assert run_rule(vios_cpu_below_sea_need, estate(hosts=[_sea_vios(ec=2.0, vps=3)])) == []
    # one 10 Gbit port, not aggregated: about one core (003)
    assert run_rule(vios_cpu_below_sea_need, estate(hosts=[_sea_vios(ec=1.0, vps=2, ports=1, aggregated=False)])) == []
    # a client partition is not judged, nor a VIOS without an SEA
    assert run_rule(vios_cpu_below_sea_need, estate(hosts=[host("vios3", "vios", entitled_capacity=0.2)])) == []


def _nmon_sea(gbit_peak: float) -> SimpleNamespace:
    kbs = gbit_peak * 1e9 / 8 / 1024 / 2
    cols = {"ent8-read-KB/s": np.array([kbs / 4, kbs]), "ent8-write-KB/s": np.array([kbs / 4, kbs])}
    times = np.array(["2026-11-25T10:00", "2026-11-25T10:05"], dtype="datetime64[s]")
    table = SimpleNamespace(columns=list(cols), column=lambda c: cols[c], times=times, lines=[10, 11], name="SEA")
    return SimpleNamespace(tables={"SEA": table})


def test_measured_sea_traffic_sets_a_need_threaded_or_not():
    h = _sea_vios(ec=0.5, vps=1, ports=1, aggregated=False)
    for d in list(h.devices.values()):
        d.description = "2-Port Gigabit Ethernet-SX PCI-Express Adapter"
    h.nmon = _nmon_sea(1.42)  # 002's duplex measurement point: 87% of a CPU threaded, 80% not
    (f,) = run_rule(vios_cpu_below_sea_need, estate(hosts=[h]))
    assert f.facts[("vios1", "sea_need_ec")] == 0.87 and "threaded" in f.message
    h.devices["ent8"].attrs["thread"].value = "0"
    (f,) = run_rule(vios_cpu_below_sea_need, estate(hosts=[h]))
    assert f.facts[("vios1", "sea_need_ec")] == 0.8
    h.partition.entitled_capacity = 1.0
    assert run_rule(vios_cpu_below_sea_need, estate(hosts=[h])) == []
    assert sea_need(0, False, True, None) == (0.0, 0, [])


def test_consistency_of_these_estates():
    from .test_consistency import contradictions

    e, h = _hpt_estate(None, 64)
    found = run_rule(max_memory_far_above_online, h) + list(frame_hpt_total(e, Config()))
    assert len(found) == 2 and contradictions(found) == []
    assert isinstance(e, Estate)


def test_sea_traffic_and_sea_need_give_one_cpu_figure():
    """VIOS-SEA-TRAFFIC and VIOS-CPU-BELOW-SEA-NEED read the same 002 cost, threaded as the SEA is."""
    from lparscope.rules.measured.series import sea_traffic

    h = _sea_vios(ec=0.5, vps=1, ports=1, aggregated=False)
    for d in list(h.devices.values()):
        d.description = "2-Port Gigabit Ethernet-SX PCI-Express Adapter"
    h.nmon = _nmon_sea(1.42)
    (t,) = run_rule(sea_traffic, h)
    (n,) = run_rule(vios_cpu_below_sea_need, estate(hosts=[h]))
    assert "(threaded)" in t.message and "0.87 (two-way) to 1.09 (one-way) POWER5 cores" in t.message
    assert n.facts[("vios1", "sea_need_ec")] == 0.87

