"""Time-series checks as pure functions (lparscope.sizing.series_checks)."""

from __future__ import annotations

import numpy as np
import pytest

from lparscope.sizing import series_checks as sc

T0 = np.datetime64("2024-03-04T00:00")


def minutes(n: int) -> np.ndarray:
    return T0 + np.arange(n) * np.timedelta64(1, "m")


def test_entc_over_100_on_uncapped() -> None:
    t = minutes(240)
    entc = np.full(240, 80.0)
    entc[60:150] = 140.0  # 90 minutes above EC
    ep = sc.entc_over_entitlement(t, entc, capped=False)
    assert ep is not None and ep.check == "entc-over-100"
    assert ep.n_hits == 90 and ep.share == pytest.approx(90 / 240)
    assert ep.longest_run == (60, 149) and ep.longest_run_seconds == 90 * 60
    assert ep.indexes[0] == 60 and len(ep.indexes) == 90
    assert ep.busiest_hour_mean == pytest.approx(140.0)
    assert ep.worst_value == 140.0
    assert sc.entc_over_entitlement(t, entc, capped=True) is None


def test_short_burst_is_not_sustained() -> None:
    t = minutes(240)
    entc = np.full(240, 80.0)
    entc[10:20] = 150.0  # 10 minutes, 4% of the samples
    assert sc.entc_over_entitlement(t, entc, capped=False) is None
    strict = sc.Persistence(min_share=0.01, min_run_seconds=3600)
    assert sc.entc_over_entitlement(t, entc, capped=False, persistence=strict) is not None


def test_capped_flat_at_ec() -> None:
    t = minutes(100)
    entc = np.full(100, 99.0)
    entc[:15] = 60.0
    ep = sc.capped_at_entitlement(t, entc, capped=True)
    assert ep is not None and ep.share == pytest.approx(0.85)
    entc[:30] = 60.0
    assert sc.capped_at_entitlement(t, entc, capped=True) is None  # 70% < 80%
    assert sc.capped_at_entitlement(t, np.full(100, 99.0), capped=False) is None


def test_vp_bound_with_pool_idle() -> None:
    t = minutes(120)
    physc = np.full(120, 2.0)
    physc[:60] = 3.9
    idle = np.where(np.arange(120) < 30, 4.0, 0.0)
    ep = sc.vp_bound(t, physc, 4, pool_idle=idle)
    assert ep is not None and ep.n_hits == 60 and ep.vp == 4.0
    assert ep.hits_with_pool_idle == 30
    assert ep.worst_value == pytest.approx(3.9 / 4)
    assert sc.vp_bound(t, physc, 0) is None
    assert sc.vp_bound(t, physc, 8) is None


def test_run_queue_per_logical_cpu() -> None:
    t = minutes(60)
    runq = np.full(60, 4.0)
    runq[:40] = 20.0
    ep = sc.run_queue_per_lcpu(t, runq, 16)
    assert ep is not None and ep.n_hits == 40 and ep.worst_value == pytest.approx(1.25)
    lcpu = np.full(60, 32.0)
    assert sc.run_queue_per_lcpu(t, runq, lcpu) is None
    assert sc.run_queue_per_lcpu(t, runq, np.zeros(60)) is None  # no lcpu known


def test_paging_and_ame() -> None:
    t = minutes(60)
    zero = np.zeros(60)
    assert sc.paging_activity(t, zero, zero) is None
    pgsout = zero.copy()
    pgsout[10:50] = 120.0
    ep = sc.paging_activity(t, zero, pgsout)
    assert ep is not None and ep.n_hits == 40
    dxm = zero.copy()
    dxm[5:45] = 512.0
    d = sc.ame_deficit(t, dxm)
    assert d is not None and d.longest_run == (5, 44)
    assert sc.ame_deficit(t, zero) is None
    physc = np.full(60, 2.0)
    xphysc = np.full(60, 0.4)  # 20% of the cores compress memory
    a = sc.ame_cpu_share(t, xphysc, physc)
    assert a is not None and a.mean_share == pytest.approx(0.2)
    assert sc.ame_cpu_share(t, xphysc / 10, physc) is None


def test_disk_queue_full_and_network_errors() -> None:
    t = minutes(100)
    busy = np.where(np.arange(100) % 3 == 0, 0.0, 5.0)  # 2 of 3 intervals
    rare = np.zeros(100)
    rare[50] = 3.0
    disks = sc.disk_queue_full(t, {"hdisk1": rare, "hdisk7": busy, "hdisk<x>": np.full(100, np.nan)})
    assert [d.subject for d in disks] == ["hdisk7"]
    assert disks[0].share == pytest.approx(66 / 100)
    nets = sc.network_errors(t, {"en0": rare, "en1": np.zeros(100)})
    assert [n.subject for n in nets] == ["en0"] and nets[0].n_hits == 1
    assert nets[0].indexes == (50,)


def test_sea_traffic_rule_of_thumb() -> None:
    t = minutes(10)
    kbs = np.full(10, 1e9 / 8 / 1024 / 2)  # 0.5 Gbit/s each way = 1 Gbit/s carried
    s = sc.sea_traffic(t, kbs, kbs, is_vios=True, subject="ent8")
    assert s is not None and s.peak_gbit == pytest.approx(1.0)
    assert s.cpu_estimate_simplex == pytest.approx(0.63 / 0.94)
    assert s.cpu_estimate_duplex == pytest.approx(0.80 / 1.42)
    assert sc.sea_traffic(t, kbs, kbs, is_vios=False) is None
    assert sc.sea_traffic(t, np.zeros(10), np.zeros(10), is_vios=True) is None


def test_nan_empty_and_mismatched_inputs() -> None:
    empty = np.array([], "datetime64[m]")
    assert sc.entc_over_entitlement(empty, np.array([]), capped=False) is None
    assert sc.paging_activity(minutes(3), np.full(3, np.nan), np.full(3, np.nan)) is None
    with pytest.raises(ValueError):
        sc.vp_bound(minutes(3), np.ones(4), 2)


def test_a_pause_in_the_measurement_ends_a_run() -> None:
    # Two recordings joined across a night without one: 60 minutes above EC before, 30 after.
    t = np.concatenate([minutes(120), minutes(120) + np.timedelta64(12, "h")])
    entc = np.full(240, 80.0)
    entc[60:150] = 140.0  # hits 60..119 (day one, to its last sample) and 120..149 (day two, from its first)
    ep = sc.entc_over_entitlement(t, entc, capped=False)
    assert ep is not None and ep.n_hits == 90
    assert ep.longest_run == (60, 119) and ep.longest_run_seconds == 60 * 60  # not 12 hours and a half
    t2 = minutes(240)  # a late sample (three intervals after the one before, not more) does not end a run
    t2[100:] += np.timedelta64(2, "m")
    ep = sc.entc_over_entitlement(t2, entc, capped=False)
    assert ep is not None and ep.longest_run == (60, 149)
