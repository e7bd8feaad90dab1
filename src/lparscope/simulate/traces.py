"""Demand traces of a frame's partitions on one time grid, and today's settings, from the model.

Where a trace comes from, per partition (first found): the nmon LPAR section of the joined host
(``PhysicalCPU`` per snapshot), else the HMC ``lslparutil`` samples (processor units used per
interval, from the cycle counters). ``lparstat`` interval outputs carry no clock time and cannot
be aligned with the others, so they are not used.

The readers and the grid come from ``sizing/measured_use.py`` (the WPAR sizing reads measured use
the same way). The grid: the coarsest of the traces' own steps, over the span the traces share (over their
union when they do not overlap). Each trace is averaged into the grid's bins; empty bins inside
a trace's span are interpolated; outside its span, and for a partition without any trace, the
demand is assumed to be its entitlement (``assumed`` says which).

Censoring. What was measured is what the partition *got*, not what it wanted: where it ran at its
ceiling (a capped partition at its EC, an uncapped one at its virtual processors) or competed in a
pool that had no idle capacity left, the true demand is unknown but *at least* the measured
value. Those intervals are marked ``censored``; the replay treats their demand as the measured
value plus ``censored_extra`` (10 % by default): enough to show that the partition wanted more
and whether new settings would give it, never a claim about how much more. Unmet demand on a
censored interval is therefore a lower bound.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..model.estate import Estate
from ..model.frame import Frame, FramePartition
from ..sizing.measured_use import common_grid, grid_times
from ..sizing.measured_use import nmon_trace as _nmon_trace
from ..sizing.measured_use import on_grid as _on_grid
from ..sizing.measured_use import util_trace as _util_trace
from .pool import FrameSettings, PartitionSettings, PoolSettings

CENSORED_EXTRA = 0.10
TOLERANCE = 0.02  # cores: "at the ceiling" when within this (or 2 %) of it


@dataclass
class FrameTrace:
    """Measured use of a frame's partitions on a common grid."""

    frame: str
    times: np.ndarray  # (T,) datetime64[s], start of each interval
    step_s: int
    observed: np.ndarray  # (P, T) cores used as measured (or assumed)
    censored: np.ndarray  # (P, T) bool
    source: list[str]  # per partition: "nmon", "lslparutil", "assumed (no trace)"
    settings: FrameSettings  # today's settings, partitions in row order
    labels: list[str] = field(default_factory=list)  # names findings use (joined host, else partition)
    vios: list[bool] = field(default_factory=list)
    hmc_names: list[str] = field(default_factory=list)  # partition names as the HMC knows them
    memory_mb: list[float] = field(default_factory=list)
    virtual_io: list[bool] = field(default_factory=list)  # a client with vSCSI / vFC adapters (needs its VIOS)
    # plan steps already replayed on this trace (plan_bridge.step_effects): the plan check and the
    # what-if report replay the same steps
    replayed: dict[Any, list[dict[str, Any]]] = field(default_factory=dict, repr=False, compare=False)

    def demand(self, censored_extra: float = CENSORED_EXTRA) -> np.ndarray:
        return np.where(self.censored, self.observed * (1.0 + censored_extra), self.observed)


def settings_of(fr: Frame, parts: list[FramePartition]) -> FrameSettings:
    """Today's settings of these partitions, as they run (HMC values)."""
    out = []
    for p in parts:
        mode = (p.sharing_mode or "").lower()
        out.append(PartitionSettings(
            name=p.label, ec=float(p.ec or 0.0), vp=float(p.vps or max(1, int(np.ceil(p.ec or 1.0)))),
            uncapped=p.uncapped, weight=float(p.weight if p.weight is not None else (128 if p.uncapped else 0)),
            pool=int(p.pool_id or 0), dedicated=p.dedicated,
            donating=p.dedicated and mode in ("share_idle_procs_active", "share_idle_procs_always")))
    cores, _ = fr.pool_size(0)
    if not cores:
        cores = sum(s.ec for s in out if not s.dedicated)
    pools = {pid: PoolSettings(pid, pl.max_units if pid else None, float(pl.reserved_units or 0.0))
             for pid, pl in fr.pools.items()}
    return FrameSettings(float(cores), out, pools)


def frame_trace(estate: Estate, fr: Frame) -> FrameTrace | None:
    """The frame's running partitions on one grid; None when no partition has a trace."""
    parts = [p for p in fr.partitions.values() if p.running_now and (p.shared or p.dedicated)]
    parts.sort(key=lambda p: (p.id or 0, p.name))
    raw: list[tuple[np.ndarray, np.ndarray] | None] = []
    source: list[str] = []
    for p in parts:
        tr = _nmon_trace(estate, p)
        src = "nmon"
        if tr is None:
            tr, src = _util_trace(p), "lslparutil"
        raw.append(tr)
        source.append(src if tr is not None else "assumed (no trace)")
    grid = common_grid([r for r in raw if r is not None])
    if grid is None:
        return None
    start, s, n = grid
    times = grid_times(start, s, n)
    settings = settings_of(fr, parts)
    observed = np.empty((len(parts), n))
    for i, (r, ps) in enumerate(zip(raw, settings.partitions)):
        observed[i] = _on_grid(r, start, s, n) if r is not None else np.nan
        miss = np.isnan(observed[i])
        if miss.any():
            observed[i, miss] = ps.vp if ps.dedicated else ps.ec
            if r is None or miss.all():
                source[i] = "assumed (no trace)"
    censored = _censored(observed, settings, source)
    return FrameTrace(fr.name, times, s, observed, censored, source, settings, [p.label for p in parts],
                      [p.is_vios for p in parts], [p.name for p in parts], [float(p.mem or 0) for p in parts],
                      [any(a.adapter_type == "client" for a in [*p.vscsi, *p.vfc]) for p in parts])


def _censored(observed: np.ndarray, s: FrameSettings, source: list[str]) -> np.ndarray:
    """Intervals where the measured use sat at a ceiling, so the demand was at least that."""
    cen = np.zeros(observed.shape, dtype=bool)
    shared = np.array([not p.dedicated for p in s.partitions])
    use = observed[shared].sum(axis=0) if shared.any() else np.zeros(observed.shape[1])
    pool_full = use >= s.cores - max(TOLERANCE, 0.02 * s.cores)
    for i, p in enumerate(s.partitions):
        if source[i].startswith("assumed"):
            continue
        ceil = p.ceiling
        tol = max(TOLERANCE, 0.02 * ceil)
        cen[i] = observed[i] >= ceil - tol
        if p.uncapped and not p.dedicated:
            cen[i] |= pool_full & (observed[i] > p.ec + tol)
    return cen


def estate_traces(estate: Estate) -> list[FrameTrace]:
    out = []
    for fr in estate.frames.values():
        tr = frame_trace(estate, fr)
        if tr is not None:
            out.append(tr)
    return out


def describe(tr: FrameTrace) -> dict[str, Any]:
    return {"frame": tr.frame, "intervals": int(tr.times.size), "step_s": tr.step_s,
            "start": str(tr.times[0]) if tr.times.size else None,
            "end": str(tr.times[-1]) if tr.times.size else None,
            "partitions": {lab: {"source": src, "censored_intervals": int(c.sum())}
                           for lab, src, c in zip(tr.labels, tr.source, tr.censored)}}
