"""Consolidation: partitions onto target frames, and LPARs into WPARs on one global LPAR.

Partitions -> frames. Each candidate brings its measured demand on a common time grid, its
memory and whether it needs a VIOS pair for its virtual I/O. Candidates are placed biggest peak
first onto the target where they fit best: the *peak of the summed traces* (not the sum of peaks:
peaks that do not coincide share capacity) must stay within the target's cores less a headroom,
and the memory within the target's free memory; a target without a VIOS pair takes no partition
that needs one. The VIOS are not moved (they serve the frame they are on). Reported: what went
where, each target's peak of the sum against the sum of peaks and its headroom, what did not fit.

LPARs -> WPARs (000_31a80e54567cd02b.txt §3.9.1): :func:`wpar_global`, from ``sizing/wpar.py``. The global LPAR must carry the *sum* of the
LPARs' measured use in every interval. EC = the average of that sum at its peak and VPs = its
peak in whole cores (000 §3.1). Table 3-15 shows why the VPs must not be cut to what one LPAR had:
three LPARs consuming 1.03 + 2.06 + 3.80 = 6.89 units (Table 3-14) got only 3.95 units on a
4-VP global LPAR, and 7.60 units with the best throughput at 8 VPs. Tables 3-13 and 3-16: the
consolidated LPAR had a third of the VPs and 8 of 24 GB at first; one WPAR alone on the 8-VP
global LPAR ran at 116-150 % of its LPAR.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..sizing.wpar import SOURCE_WPAR, wpar_global  # noqa: F401  (the global LPAR's sizing lives in sizing/)


@dataclass
class Candidate:
    name: str
    demand: np.ndarray  # (T,) cores per interval on the common grid
    memory_mb: float = 0.0
    needs_vios_pair: bool = True
    frame: str | None = None  # where it runs today


@dataclass
class Target:
    name: str
    cores: float  # shared pool cores available to the placed partitions
    memory_mb: float
    vios_pair: bool = True
    base: np.ndarray | None = None  # (T,) cores already used on the target (its own partitions, VIOS)


@dataclass
class Placement:
    targets: dict[str, list[str]] = field(default_factory=dict)
    unplaced: list[tuple[str, str]] = field(default_factory=list)  # (partition, why)
    report: dict[str, Any] = field(default_factory=dict)


def _peak(x: np.ndarray, percentile: float) -> float:
    return float(np.percentile(x, percentile)) if percentile < 100 else float(x.max())


def place(candidates: list[Candidate], targets: list[Target], headroom: float = 0.10,
          percentile: float = 100.0) -> Placement:
    """Best-fit decreasing on the peak (or a percentile) of the summed traces."""
    if not candidates:
        return Placement({t.name: [] for t in targets}, [], {"targets": [], "unplaced": []})
    T = candidates[0].demand.size
    load = {t.name: (np.zeros(T) if t.base is None else np.asarray(t.base, dtype=float).copy()) for t in targets}
    mem = {t.name: 0.0 for t in targets}
    out = Placement({t.name: [] for t in targets})
    for c in sorted(candidates, key=lambda c: -_peak(c.demand, percentile)):
        best: tuple[float, str] | None = None
        why = []
        for t in targets:
            if c.needs_vios_pair and not t.vios_pair:
                why.append(f"{t.name}: no VIOS pair")
                continue
            if mem[t.name] + c.memory_mb > t.memory_mb:
                why.append(f"{t.name}: {t.memory_mb - mem[t.name]:.0f} MB free, needs {c.memory_mb:.0f}")
                continue
            peak = _peak(load[t.name] + c.demand, percentile)
            limit = t.cores * (1.0 - headroom)
            if peak > limit + 1e-9:
                why.append(f"{t.name}: peak of the sum {peak:.2f} > {limit:.2f} cores")
                continue
            left = limit - peak
            if best is None or left < best[0]:
                best = (left, t.name)
        if best is None:
            out.unplaced.append((c.name, "; ".join(why) or "no target"))
            continue
        load[best[1]] += c.demand
        mem[best[1]] += c.memory_mb
        out.targets[best[1]].append(c.name)
    by_name = {c.name: c for c in candidates}
    rows = []
    for t in targets:
        placed = out.targets[t.name]
        own = _peak(t.base, percentile) if t.base is not None else 0.0
        rows.append({
            "name": t.name, "cores": t.cores, "memory_mb": t.memory_mb, "partitions": placed,
            "peak_sum": round(_peak(load[t.name], percentile), 3),
            "sum_of_peaks": round(own + sum(_peak(by_name[n].demand, percentile) for n in placed), 3),
            "headroom_cores": round(t.cores - _peak(load[t.name], percentile), 3),
            "free_memory_mb": round(t.memory_mb - mem[t.name], 1),
        })
    out.report = {"headroom": headroom, "percentile": percentile, "targets": rows,
                  "unplaced": [{"partition": n, "reason": r} for n, r in out.unplaced]}
    return out
