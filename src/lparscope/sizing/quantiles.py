"""Percentiles exactly as ``np.percentile`` gives them (its default ``linear`` method), for the
small 1-D series sizing and the what-if summaries read several times per partition: numpy's
general code costs ~100 us a call in set-up alone (half a second for a thousand hosts).

The k-th percentile of n sorted values sits at index (n - 1) * k / 100; between two values it is
interpolated as numpy does (from the nearer end, for the same rounding).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def percentiles(values: np.ndarray, qs: Sequence[float]) -> list[float]:
    """``[float(v) for v in np.percentile(values, qs)]`` for a non-empty 1-D array."""
    a = np.sort(np.asarray(values, dtype=np.float64), axis=None)
    n = a.size
    if n == 0:
        raise ValueError("percentiles of an empty series")
    if math.isnan(a[-1]):  # NaN sorts last: numpy's answer is NaN
        return [math.nan] * len(qs)
    out = []
    for q in qs:
        at = (n - 1) * (q / 100)
        if at >= n - 1:
            out.append(float(a[-1]))
            continue
        if at < 0:
            out.append(float(a[0]))
            continue
        lo = math.floor(at)
        t = at - lo
        x, y = float(a[lo]), float(a[lo + 1])
        d = y - x
        out.append(y - d * (1 - t) if t >= 0.5 else x + d * t)
    return out
