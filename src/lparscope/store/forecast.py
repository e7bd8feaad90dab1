"""A simple forecast of a pool's daily peak: least-squares line with a prediction interval.

For n daily peaks y_i on days x_i, the line y = a + b x is fitted by ordinary least squares.
The residual standard error is s = sqrt(sum(e_i^2) / (n - 2)); the 95 % prediction interval of one
future daily peak at day x0 is  y0 +/- t(0.975, n-2) * s * sqrt(1 + 1/n + (x0 - mean(x))^2 / Sxx).
It assumes a straight trend with independent, equally spread residuals: daily and weekly cycles
or a step change (a new partition) break that, so the interval is a guide, not a guarantee.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

# Student t 0.975 quantiles for 1..30 degrees of freedom (standard table values).
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
         2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
         2.052, 2.048, 2.045, 2.042]


def t975(df: int) -> float:
    """0.975 quantile of Student's t (table up to 30, then the Cornish-Fisher expansion)."""
    if df < 1:
        raise ValueError("needs at least one degree of freedom")
    if df <= 30:
        return _T975[df - 1]
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


@dataclass
class Forecast:
    days_used: int
    slope_per_day: float  # cores per day
    horizon_days: int
    predicted_peak: float  # cores, at the last day + horizon
    low: float  # 95 % prediction interval
    high: float
    residual_sd: float

    def to_dict(self) -> dict[str, Any]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def linear_forecast(days: list[float], peaks: list[float], horizon: int = 30) -> Forecast | None:
    """Forecast the daily peak ``horizon`` days after the last day; None with fewer than 3 days."""
    pts = [(x, y) for x, y in zip(days, peaks) if y is not None and not math.isnan(y)]
    n = len(pts)
    if n < 3:
        return None
    mx = sum(x for x, _ in pts) / n
    my = sum(y for _, y in pts) / n
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    if sxx == 0:
        return None
    b = sum((x - mx) * (y - my) for x, y in pts) / sxx
    a = my - b * mx
    sse = sum((y - (a + b * x)) ** 2 for x, y in pts)
    s = math.sqrt(sse / (n - 2))
    x0 = max(x for x, _ in pts) + horizon
    y0 = a + b * x0
    half = t975(n - 2) * s * math.sqrt(1 + 1 / n + (x0 - mx) ** 2 / sxx)
    return Forecast(n, b, horizon, y0, y0 - half, y0 + half, s)
