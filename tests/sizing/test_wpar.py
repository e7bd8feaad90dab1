"""WPAR consolidation sizing (000 §3.9.1): the global LPAR from the sum of the candidates' measured use."""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np

from lparscope.model.frame import UseSample
from lparscope.sizing.wpar import candidates, frame_wpar_sizing, wpar_global

from ..rules._frame_builders import ev, estate, frame, part


def samples(values, start=datetime(2026, 11, 19, 8, 0), step_min=5):
    return [UseSample(start + timedelta(minutes=step_min * i), v, ev(100 + i)) for i, v in enumerate(values)]


def table_3_14_frame():
    # Table 3-13: three LPARs of 4 VPs, EC 1.0; Table 3-14: they consumed 1.03, 2.06 and 3.80 units
    wave = np.array([0.9, 1.0, 1.1, 1.0, 1.05, 0.95, 1.0, 1.0, 1.1, 0.9, 1.0, 1.0])
    lpars = [part(f"lpar{i}", i + 2, vps=4, ec=1.0, mem=8192, use=samples(list(wave * u)))
             for i, u in enumerate((1.03, 2.06, 3.80), start=1)]
    vios = part("vios1", 1, env="vioserver", use=samples([0.5] * 12))
    ded = part("db", 9, proc_mode="ded", vps=4, use=samples([3.0] * 12))
    off = part("test", 10, state="Not Activated", use=samples([1.0] * 12))
    return frame(vios, *lpars, ded, off)


def test_global_lpar_vps_cover_the_sum_of_the_candidates_use():
    fr = table_3_14_frame()
    e = estate(fr)
    assert [p.name for p in candidates(e, fr)] == ["lpar1", "lpar2", "lpar3"]
    g = frame_wpar_sizing(e, fr)
    assert g["candidates"] == ["lpar1", "lpar2", "lpar3"] and g["measured_from"]["lpar1"] == "lslparutil"
    assert round(g["sum_of_averages"], 2) == 6.89
    assert g["recommended_vp"] >= 7 and g["recommended_vp"] < g["current_vp_total"] == 12  # not 4 VPs, not 12
    assert g["recommended_ec"] >= 6.85 and g["memory_allocated_mb"] == 24576 and g["intervals"] >= 10


def test_vp_floor_is_the_sum_of_averages_even_when_the_peak_rule_gives_less():
    t = np.datetime64("2026-11-19T08:00") + np.arange(24) * np.timedelta64(5, "m")
    flat = {"a": np.full(24, 2.4), "b": np.full(24, 2.4)}
    g = wpar_global(t, flat)
    assert g["recommended_vp"] == 5 and g["sum_of_averages"] == 4.8


def test_no_sizing_with_one_candidate_and_an_error_without_overlap():
    fr = table_3_14_frame()
    for name in ("lpar2", "lpar3"):
        fr.partitions[name].use = []
    assert frame_wpar_sizing(estate(fr), fr) is None
    fr = table_3_14_frame()
    fr.partitions["lpar3"].use = samples([3.8] * 12, start=datetime(2026, 11, 20, 8, 0))
    g = frame_wpar_sizing(estate(fr), fr)
    assert "do not overlap" in g["error"] and "recommended_vp" not in g
