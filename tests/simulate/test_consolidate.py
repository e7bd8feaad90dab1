"""Consolidation: peaks that do not coincide share a frame; memory and VIOS pairs constrain;
WPAR consolidation sizes the global LPAR on the sum of the LPARs' use (000 §3.9.1)."""

from __future__ import annotations

import numpy as np

from lparscope.simulate.consolidate import Candidate, Target, place, wpar_global

HOURS = np.arange(24 * 12) / 12.0  # a day at 5 minutes


def shaped(peak_hour: float, peak: float, base: float = 0.5) -> np.ndarray:
    return base + (peak - base) * np.exp(-0.5 * ((HOURS - peak_hour) / 1.0) ** 2)


def test_peaks_that_do_not_coincide_fit_on_a_frame_smaller_than_the_sum_of_peaks() -> None:
    day, night = Candidate("day", shaped(11, 4.0), 8192), Candidate("night", shaped(23, 4.0), 8192)
    frame = Target("small", cores=5.0, memory_mb=32768)  # sum of peaks 8 cores, frame 5
    p = place([day, night], [frame], headroom=0.0)
    assert sorted(p.targets["small"]) == ["day", "night"] and p.unplaced == []
    (row,) = p.report["targets"]
    assert row["sum_of_peaks"] == 8.0 and row["peak_sum"] < 5.0 and row["headroom_cores"] > 0
    # the same two partitions peaking together do not fit
    p = place([Candidate("a", shaped(11, 4.0)), Candidate("b", shaped(11, 4.0))], [frame], headroom=0.0)
    assert len(p.targets["small"]) == 1 and len(p.unplaced) == 1
    assert "peak of the sum" in p.unplaced[0][1]


def test_memory_and_vios_pair_constrain_and_best_fit_is_used() -> None:
    a = Candidate("a", shaped(11, 2.0), memory_mb=20000)
    b = Candidate("b", shaped(11, 1.0), memory_mb=20000, needs_vios_pair=False)
    c = Candidate("c", shaped(11, 1.0), memory_mb=1000)
    big = Target("big", cores=16.0, memory_mb=24000)
    novios = Target("novios", cores=16.0, memory_mb=64000, vios_pair=False)
    p = place([a, b, c], [big, novios], headroom=0.1)
    assert p.targets == {"big": ["a", "c"], "novios": ["b"]}
    p = place([a, b, c], [Target("tiny", 16.0, 10000)], headroom=0.1)
    assert [n for n, _ in p.unplaced] == ["a", "b"] and "MB free" in p.unplaced[0][1]


def test_existing_load_on_the_target_counts() -> None:
    busy = Target("busy", cores=6.0, memory_mb=1e6, base=shaped(11, 4.0))
    p = place([Candidate("x", shaped(11, 3.0))], [busy], headroom=0.0)
    assert p.targets["busy"] == [] and p.unplaced


def test_wpar_global_lpar_is_sized_on_the_sum_like_table_3_15() -> None:
    # Table 3-14's three LPARs as flat traces: 1.03, 2.06 and 3.80 units -> 6.89 together
    t = np.datetime64("2026-11-19T00:00") + np.arange(HOURS.size) * np.timedelta64(5, "m")
    use = {"LPAR1": np.full(HOURS.size, 1.03), "LPAR2": np.full(HOURS.size, 2.06), "LPAR3": np.full(HOURS.size, 3.80)}
    g = wpar_global(t, use, {"LPAR1": 2800.0, "LPAR2": 2800.0, "LPAR3": 2900.0})
    assert g["sum_of_averages"] == 6.89 and g["peak_of_sum"] == 6.89
    assert g["recommended_vp"] == 7 and g["recommended_ec"] == 6.9  # ceil and 0.05 steps of 6.89
    assert g["memory_in_use_mb"] == 8500.0 and "3.9.1" in g["source"]
