from lparscope.rules.ame import deficit as ame_deficit
from lparscope.rules.config import Config
from lparscope.rules.memory import maximum as memory_maximum
from lparscope.rules.processor import entitlement as processor_entitlement

from .conftest import cpu, host, run_rule


def test_vp_exceeds_pool_fires_and_suggests_pool_size():
    (f,) = run_rule(processor_entitlement.vp_exceeds_pool, host(online_vps=24, pool_cores=16))
    assert f.values["suggested"] == "<= 16" and "24" in f.message
    assert any("--procs 8" in c for c in f.fix.hmc) and f.disruption == ["dlpar"]
    assert any("-o a" in c for c in f.rollback.hmc)


def test_vp_within_pool_or_dedicated_does_not_fire():
    assert run_rule(processor_entitlement.vp_exceeds_pool, host(online_vps=16, pool_cores=16)) == []
    assert run_rule(processor_entitlement.vp_exceeds_pool, host(type="Dedicated-SMT", online_vps=32, pool_cores=16)) == []


def test_vp_falls_back_to_system_cores_when_pool_unknown():
    (f,) = run_rule(processor_entitlement.vp_exceeds_pool, host(online_vps=24, pool_cores=None, system_cores=20))
    assert "active cores in the system" in f.message


def test_ec_below_vp_uses_seed_folding_case():
    # 000 §3.1: EC 6.4 with 64 VPs unfolded in 30 s; EC 50 in 5 s.
    (f,) = run_rule(processor_entitlement.ec_below_vp, host(entitled_capacity=6.4, online_vps=64, pool_cores=64))
    assert "10%" in f.message and f.values["suggested"] == "EC 16.00, 64 VP"
    assert run_rule(processor_entitlement.ec_below_vp, host(entitled_capacity=50, online_vps=64, pool_cores=64)) == []


def test_ec_below_vp_prefers_measured_average_and_threshold_is_configurable():
    h = host(entitled_capacity=0.5, online_vps=12)
    h.cpu = cpu("physc", [1.2, 1.6, 1.4])
    (f,) = run_rule(processor_entitlement.ec_below_vp, h)
    # measured: EC = average 1.40, VPs = ceil(peak 1.6) + 1 = 3
    assert f.values["suggested"] == "EC 1.40, 3 VP"
    assert any("--procs 9" in c for c in f.fix.hmc) and any("--procunits 0.90" in c for c in f.fix.hmc)
    cfg = Config()
    cfg.thresholds["ec_to_vp_min_ratio"] = 0.04
    assert run_rule(processor_entitlement.ec_below_vp, h, cfg) == []


def test_uncapped_above_ec():
    h = host(entitled_capacity=0.5, online_vps=4)
    h.cpu = cpu("%entc", [240, 300, 320], physc=[1.2, 1.5, 1.6])
    (f,) = run_rule(processor_entitlement.uncapped_above_ec, h)
    assert f.values["suggested"] == "EC 1.45" and "287%" in f.message
    h.cpu = cpu("%entc", [80, 95, 99], physc=[0.4, 0.47, 0.5])
    assert run_rule(processor_entitlement.uncapped_above_ec, h) == []


def test_capped_pinned():
    h = host(mode="Capped", entitled_capacity=2.0, online_vps=2)
    h.cpu = cpu("%entc", [99.1, 100.0, 98.5, 99.9, 100.0])
    (f,) = run_rule(processor_entitlement.capped_pinned, h)
    assert "5 of 5" in f.message and "sharing_mode=uncap" in f.fix.hmc[0]
    h.cpu = cpu("%entc", [40, 99, 55, 60, 100])
    assert run_rule(processor_entitlement.capped_pinned, h) == []
    u = host(mode="Uncapped")
    u.cpu = cpu("%entc", [100, 100])
    assert run_rule(processor_entitlement.capped_pinned, u) == []


def test_hpt_is_power_of_two_per_partition():
    assert memory_maximum.hpt_mb(262144, 64) == 4096
    assert memory_maximum.hpt_mb(10752, 64) == 256  # rules-catalogue S4: 168 MB rounds up to 256 MB


def test_max_memory_far_above_online():
    (f,) = run_rule(memory_maximum.max_memory_far_above_online, host(online_memory_mb=16384, max_memory_mb=262144))
    assert "16x" in f.message and "4096 MB" in f.message and "max_mem=32768" in f.fix.hmc[0]
    assert run_rule(memory_maximum.max_memory_far_above_online, host(online_memory_mb=16384, max_memory_mb=32768)) == []


def test_ame_deficit():
    h = host(memory_mode="Dedicated-Expanded", ame_factor=1.8)
    h.cpu = cpu("dxm", [0, 512, 1024])
    (f,) = run_rule(ame_deficit.ame_deficit, h)
    assert "2 of 3" in f.message and "1024 pages = 4 MB" in f.message and "mem_expansion=1.60" in f.fix.hmc[0]
    h.cpu = cpu("dxm", [0, 0, 0])
    assert run_rule(ame_deficit.ame_deficit, h) == []


def test_one_sample_is_not_sized_from():
    # njmon -c 1 / lparstat 5 1: one moment, not an average (sizing/cpu.py MIN_SAMPLES)
    h = host(entitled_capacity=0.4, online_vps=4)
    h.cpu = cpu("%entc", [297.0], physc=[1.19])
    assert run_rule(processor_entitlement.uncapped_above_ec, h) == []
    (f,) = run_rule(processor_entitlement.ec_below_vp, h)
    assert f.values["suggested"] == "EC 1.00, 4 VP" and "too few samples to size from" in f.message
    assert all(c.basis == "heuristic" for c in f.changes)


def test_ec_below_vp_heuristic_counts_only_the_vps_the_pool_can_run():
    h = host(entitled_capacity=0.4, online_vps=4, pool_cores=2)  # CPU-VP-EXCEEDS-POOL takes 2 VPs away
    (f,) = run_rule(processor_entitlement.ec_below_vp, h)
    assert f.values["suggested"] == "EC 0.50, 2 VP" and "the pool's 2 cores" in f.message
    (v,) = run_rule(processor_entitlement.vp_exceeds_pool, h)
    assert "--procs 2" in " ".join(v.fix.hmc)  # the same target for desired_procs
