"""Samples, sampling interval and runs of a measured series (the helpers of ``series_checks``)."""

from __future__ import annotations

import numpy as np


def arrays(times: np.ndarray, *values: np.ndarray) -> tuple[np.ndarray, ...]:
    """The times as datetime64[ms] and each series as floats of the same length (a number: repeated)."""
    t = np.asarray(times).astype("datetime64[ms]")
    out = [t]
    for v in values:
        a = np.asarray(v, dtype=float)
        if a.ndim == 0:
            a = np.full(t.shape, float(a))
        if a.shape != t.shape:
            raise ValueError(f"series of shape {a.shape} does not match times {t.shape}")
        out.append(a)
    return tuple(out)


def interval_seconds(t: np.ndarray) -> float:
    """The usual time between samples: the median of the positive steps, in seconds (0: fewer than two)."""
    if t.size < 2:
        return 0.0
    d = np.diff(t).astype("timedelta64[ms]").astype(np.int64) / 1000.0
    return float(np.median(d[d > 0])) if (d > 0).any() else 0.0


#: a pause between two samples longer than this many sampling intervals ends a run (the recording
#: stopped, or two recordings of the host were joined across a gap): what was not measured is not counted
GAP_INTERVALS = 3


def longest_run(t: np.ndarray, mask: np.ndarray, step: float = 0.0) -> tuple[int, int]:
    """(first, last) of the run of True in ``mask`` that lasts longest in ``t`` (then has most samples; the first such).
    With ``step`` (seconds between samples), a pause over :data:`GAP_INTERVALS` steps ends a run."""
    after_gap = np.zeros(len(mask), dtype=bool)  # sample i follows a pause in the measurement
    if step > 0 and len(t) > 1:
        steps = np.diff(t)
        gaps = steps.astype("timedelta64[ms]").astype(np.int64) / 1000.0
        after_gap[1:] = ~np.isnat(steps) & (gaps > GAP_INTERVALS * step)
    prev = np.concatenate(([False], mask[:-1])) & ~after_gap
    nxt = np.concatenate((mask[1:], [False])) & ~np.concatenate((after_gap[1:], [False]))
    starts, ends = np.flatnonzero(mask & ~prev), np.flatnonzero(mask & ~nxt)
    i = int(np.argmax(np.where(t[ends] - t[starts] == (t[ends] - t[starts]).max(), ends - starts, -1)))
    return int(starts[i]), int(ends[i])
