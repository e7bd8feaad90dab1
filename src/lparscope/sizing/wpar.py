"""LPARs consolidated as WPARs on one global LPAR: its entitled capacity and virtual processors
from the candidates' measured use (000_31a80e54567cd02b.txt §3.9.1, Tables 3-13 to 3-16).

The global LPAR must carry the *sum* of the LPARs' measured use in every interval. EC = the
average of that sum at its peak and VPs = its peak in whole cores (000 §3.1), and never fewer VPs
than the sum of the LPARs' average use: in Table 3-15 three LPARs consuming 1.03 + 2.06 + 3.80 =
6.89 units (Table 3-14) got only 3.95 units on a 4-VP global LPAR and 78 % of their throughput,
while 8 VPs consumed 7.60 units, marginally above the sum, with the best throughput; 12 VPs (the
LPARs' own total) consumed 9.30 without more. Memory is left to amepat on the global LPAR, as in
§3.9.1 (8 GB down to 4 GB after three amepat runs); the LPARs' allocated memory is shown beside it.

:func:`wpar_global` sizes given traces (``lparscope whatif --wpar`` uses it through
``simulate/consolidate.py``); :func:`frame_wpar_sizing` sizes the measured AIX partitions of one
frame as the sizing output the reports show.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..model.estate import Estate
from ..model.frame import Frame, FramePartition
from .cpu import size_partition
from .measured_use import common_grid, grid_times, on_grid, trace_of

SOURCE_WPAR = "000_31a80e54567cd02b.txt §3.9.1 Tables 3-13 to 3-16"


def wpar_global(times: np.ndarray, demand: dict[str, np.ndarray], memory_in_use_mb: dict[str, float] | None = None,
                pool_cores: float | None = None) -> dict[str, Any]:
    """EC, VPs and memory of one global LPAR hosting these LPARs as WPARs (000 §3.9.1)."""
    names = list(demand)
    total = np.sum([np.asarray(demand[n], dtype=float) for n in names], axis=0)
    sz = size_partition(np.asarray(times), total, ec=None, vp=None, pool_cores=pool_cores, capped=None)
    averages = {n: round(float(np.nanmean(demand[n])), 3) for n in names}
    peaks = {n: round(float(np.nanmax(demand[n])), 3) for n in names}
    vp = sz.recommended_vp
    floor_vp = math.ceil(sum(averages.values()) - 1e-9)
    reasons = list(sz.reasons)
    if vp is not None and vp < floor_vp:
        vp = floor_vp
        reasons.append(f"VP {vp}: not below the sum of the LPARs' average use ({SOURCE_WPAR}: 4 VPs gave 3.95 units "
                       "for 6.89 measured; 8 VPs gave 7.60 and the best throughput)")
    mem = sum((memory_in_use_mb or {}).values())
    return {
        "wpars": names, "source": SOURCE_WPAR,
        "average_use": averages, "peak_use": peaks,
        "sum_of_averages": round(sum(averages.values()), 3), "sum_of_peaks": round(sum(peaks.values()), 3),
        "peak_of_sum": round(float(np.nanmax(total)), 3),
        "recommended_ec": sz.recommended_ec, "recommended_vp": vp,
        "memory_in_use_mb": round(mem, 1) if memory_in_use_mb else None,
        "reasons": reasons,
    }


def candidates(estate: Estate, fr: Frame) -> list[FramePartition]:
    """The frame's running AIX client partitions on shared processors (a VIOS or a dedicated-processor
    partition is not a WPAR candidate)."""
    out = []
    for p in sorted(fr.partitions.values(), key=lambda x: (x.id or 0, x.name)):
        host = estate.hosts.get(p.host or "")
        aix = (p.env or "").lower() == "aixlinux" or (host is not None and host.role == "aix")
        if p.running_now and not p.is_vios and p.shared and aix and (host is None or host.role != "vios"):
            out.append(p)
    return out


def frame_wpar_sizing(estate: Estate, fr: Frame) -> dict[str, Any] | None:
    """The global LPAR that would host the frame's measured AIX partitions as WPARs; None with fewer
    than two measured candidates. Only the interval all their traces share is used."""
    traces, names, parts = [], [], []
    for p in candidates(estate, fr):
        tr, src = trace_of(estate, p)
        if tr is not None and tr[0].size > 1:
            traces.append(tr)
            names.append(p.label)
            parts.append((p, src))
    if len(traces) < 2:
        return None
    grid = common_grid(traces, overlap_only=True)
    base: dict[str, Any] = {"frame": fr.name, "candidates": names, "source": SOURCE_WPAR,
                            "measured_from": {p.label: src for p, src in parts}}
    if grid is None:
        return {**base, "error": "the candidates' measurements do not overlap in time"}
    start, step, n = grid
    demand = {name: on_grid(tr, start, step, n) for name, tr in zip(names, traces)}
    keep = np.all([np.isfinite(v) for v in demand.values()], axis=0)
    if keep.sum() < 2:
        return {**base, "error": "fewer than two intervals measured on every candidate"}
    demand = {k: v[keep] for k, v in demand.items()}
    pool, _ = fr.pool_size(0)
    out = wpar_global(grid_times(start, step, n)[keep], demand, None, pool)
    out.update(base)
    out.update({"intervals": int(keep.sum()), "step_s": step,
                "current_vp_total": sum(p.vps or 0 for p, _ in parts),
                "current_ec_total": round(sum(p.ec or 0.0 for p, _ in parts), 2),
                "memory_allocated_mb": sum(p.mem or 0 for p, _ in parts),
                "note": "candidates: every measured AIX partition of the frame on shared processors; "
                        "`lparscope whatif --wpar A,B,C` sizes another choice. Memory: run amepat on the global LPAR."})
    return out
