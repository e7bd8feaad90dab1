"""A partition's measured processor use as a trace, and several traces on one time grid.

Where a trace comes from (first found): the nmon LPAR section of the joined host (``PhysicalCPU``
per snapshot), else the HMC ``lslparutil`` samples (processor units used per interval, stamped at
the interval's end and moved to its start here). The grid: the coarsest of the traces' own steps;
each trace is averaged into the grid's bins and its gaps inside its own span interpolated. The
what-if replay (``simulate/traces.py``) and the WPAR consolidation sizing (``sizing/wpar.py``) read
measured use the same way through these functions.
"""

from __future__ import annotations

from datetime import datetime

import numpy as np

from ..model.estate import Estate
from ..model.frame import FramePartition
from ..model.nmon_physc import host_physc
from ..model.use_series import dated_use

Trace = tuple[np.ndarray, np.ndarray]  # (times datetime64[s], cores used)

_SECONDS: dict[datetime, int] = {}  # naive time -> seconds since 1970: sample times recur across a frame's partitions
_EPOCH_DAY = 719163  # datetime(1970, 1, 1).toordinal()


def datetime64_of(stamps: list[datetime]) -> np.ndarray:
    """Times as datetime64[s], as ``np.array(stamps, dtype="datetime64[s]")`` gives them, faster:
    numpy converts a datetime object in ~1.7 us, and every partition of a frame is sampled at the
    same times (lslparutil), so each naive whole-second time is worked out once here."""
    memo = _SECONDS
    try:  # an aware time never equals a naive one: it is never found
        return np.fromiter(map(memo.__getitem__, stamps), np.int64, len(stamps)).view("datetime64[s]")
    except (KeyError, TypeError):
        pass
    if len(memo) > 1 << 20:
        memo.clear()
    for d in stamps:
        if type(d) is not datetime or d.tzinfo is not None or d.microsecond:
            return np.array(stamps, dtype="datetime64[s]")  # aware, fractional or not a datetime: numpy's way
        if d not in memo:
            memo[d] = (d.toordinal() - _EPOCH_DAY) * 86400 + d.hour * 3600 + d.minute * 60 + d.second
    return np.fromiter(map(memo.__getitem__, stamps), np.int64, len(stamps)).view("datetime64[s]")


def nmon_trace(estate: Estate, p: FramePartition) -> Trace | None:
    host = estate.hosts.get(p.host or "")
    rec = getattr(host, "nmon", None)
    lpar = rec.tables.get("LPAR") if rec is not None else None
    if lpar is None or "PhysicalCPU" not in lpar.columns:
        return None
    t = np.asarray(lpar.times).astype("datetime64[s]")
    v = host_physc(host, lpar)  # impossible values (a glitch, 1e300) as NaN
    ok = ~np.isnat(t) & np.isfinite(v)
    return (t[ok], v[ok]) if ok.any() else None


def util_trace(p: FramePartition) -> Trace | None:
    when, v, _ = dated_use(p.use)  # the samples whose time was read
    if not when:
        return None
    t = datetime64_of(when)
    # lslparutil stamps a sample at the end of its interval: move it to the interval's start
    order = np.argsort(t)
    t, v = t[order], v[order]
    if t.size > 1:
        t = t - step_of(t)
    return t, v


def trace_of(estate: Estate, p: FramePartition) -> tuple[Trace | None, str]:
    """The partition's trace and where it came from ("nmon", "lslparutil")."""
    tr = nmon_trace(estate, p)
    if tr is not None:
        return tr, "nmon"
    return util_trace(p), "lslparutil"


def step_of(t: np.ndarray) -> np.timedelta64:
    d = np.diff(np.unique(t)).astype("timedelta64[s]").astype(np.int64)
    d = d[d > 0]
    return np.timedelta64(int(np.median(d)) if d.size else 60, "s")


def common_grid(traces: list[Trace], overlap_only: bool = False) -> tuple[int, int, int] | None:
    """(start, step, count) in seconds of the grid over the span the traces share (over their
    union when they do not overlap, unless ``overlap_only``); None without a trace of 2 samples."""
    have = [r for r in traces if r[0].size > 1]
    if not have:
        return None
    step = max(step_of(t) for t, _ in have)
    lo = max(t.min() for t, _ in have)
    hi = min(t.max() for t, _ in have)
    if hi < lo:
        if overlap_only:
            return None
        lo, hi = min(t.min() for t, _ in have), max(t.max() for t, _ in have)
    s = int(step.astype(np.int64))
    start = int(lo.astype(np.int64)) // s * s
    n = int((int(hi.astype(np.int64)) - start) // s) + 1
    return start, s, n


def grid_times(start: int, s: int, n: int) -> np.ndarray:
    return (start + np.arange(n, dtype=np.int64) * s).astype("datetime64[s]")


def on_grid(r: Trace, start: int, s: int, n: int) -> np.ndarray:
    """The trace averaged into the grid's bins; NaN outside its span."""
    t, v = r
    k = (t.astype(np.int64) - start) // s
    ok = (k >= 0) & (k < n)
    sums = np.bincount(k[ok], weights=v[ok], minlength=n)
    cnt = np.bincount(k[ok], minlength=n)
    out = np.full(n, np.nan)
    has = cnt > 0
    out[has] = sums[has] / cnt[has]
    if has.sum() >= 2:  # interpolate gaps inside the trace's own span only
        idx = np.flatnonzero(has)
        inside = np.arange(n)
        span = (inside >= idx[0]) & (inside <= idx[-1]) & ~has
        out[span] = np.interp(inside[span], idx, out[idx])
    return out
