"""Entitled capacity (EC) and virtual processor (VP) sizing from a measured physc series.

The rule is the Redbook's (000_31a80e54567cd02b.txt §3.1, Table 3-1 and Figure 3-1):

* EC ("desired processing units") = the *average* use of the partition during its peak
  workload. Figure 3-1: peak from 08:00 to about 18:30, average 25 cores -> EC 25.
* VP ("desired virtual processors") = the *upper limit* used during the peak workload,
  in whole cores. Figure 3-1: highest point 36 cores -> 36 VPs. VPs are never sized above
  the cores of the shared pool (or of the system).
* A partition that uses more than its EC at peak should be uncapped, or the part above EC
  cannot be had at all.

A Virtual I/O Server follows Table 3-9 (000 §3.5.1): shared, uncapped (never capped), EC = its
average use, VPs = the cores it uses at peak *with some headroom*, weight in the upper part of
0-255. The headroom is ``headroom`` whole VPs (default :data:`VIOS_HEADROOM_VPS` = 1, the
"+1 or +2" of rules-catalogue S2 / VIOS-02 / SZ-12).

Peak window
-----------
Given by the user (``--peak 08:00-18:30``, see :func:`parse_peak`) or detected by
:func:`detect_peak`: the samples are folded onto the time of day (so several days of a
recording vote together), averaged in 5-minute bins, smoothed with a 3-bin running median
(one spiky bin does not start or end a window; bins without data between two busy bins
count as busy), and compared with a level half-way between
the quiet level (10th percentile of the bins) and the busy level (90th percentile). Runs
of bins above the level that are separated by less than 30 minutes are joined; the longest
run (which may wrap past midnight) is the peak window. When busy and quiet levels differ by
less than 25% of the busy level the workload has no distinct peak and the whole recording is
used (source ``"flat"``).

Percentiles (P90/P95/P99, overall and in the window) are shown beside the Redbook numbers
because many users size the nFit way (a high percentile of physc); they do not change the
recommendation.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields
from datetime import time
from typing import Any, Literal

import numpy as np

from ..numbers import tame_figures
from .quantiles import percentiles

SOURCE_LPAR = "000_31a80e54567cd02b.txt §3.1 (Table 3-1, Figure 3-1)"
SOURCE_VIOS = "000_31a80e54567cd02b.txt §3.5.1 (Table 3-9)"

#: Whole VPs added to the measured peak on a VIOS (Table 3-9 "some headroom";
#: rules-catalogue S2 / VIOS-02: "needed + 1 or 2").
VIOS_HEADROOM_VPS: float = 1.0
#: Processing units are set in hundredths; recommendations are rounded up to this grid.
EC_STEP: float = 0.05
#: Smallest EC per VP on POWER7+ and later (rules-catalogue SZ-11: 20 micro-partitions per core).
MIN_EC_PER_VP: float = 0.05

BIN_SECONDS = 300  # time-of-day bin used by peak detection
JOIN_GAP_SECONDS = 1800  # runs above the level closer than this are one window
FLAT_RATIO = 0.25  # (busy - quiet) / busy below this: no distinct peak
MIN_SAMPLES = 3  # fewer samples than this give statistics but no recommendation

PeakSource = Literal["given", "detected", "flat", "whole", "none"]


@dataclass(frozen=True)
class Stats:
    """Summary statistics of physc (cores) over a set of samples; None when there are none."""

    n: int
    mean: float | None
    max: float | None
    p90: float | None
    p95: float | None
    p99: float | None

    @classmethod
    def of(cls, values: np.ndarray) -> "Stats":
        if values.size == 0:
            return cls(0, None, None, None, None, None)
        p90, p95, p99 = percentiles(values, (90, 95, 99))
        return cls(int(values.size), float(values.mean()), float(values.max()), p90, p95, p99)


@dataclass(frozen=True)
class Sizing:
    """The measured CPU use of one partition and the EC/VP it should have.

    ``peak_window`` is a (start, end) time of day; start > end means the window wraps past
    midnight. ``peak_source`` says where it came from: ``given`` by the user, ``detected``
    from the shape of the series, ``flat`` (no distinct peak: the whole recording is used),
    ``whole`` (too few samples or a given window held no sample: the whole recording) or
    ``none`` (no samples at all). ``peak_ranges`` are the (first, last) sample indexes,
    inclusive, of each contiguous stretch of the window in the input arrays (for evidence).
    """

    peak_window: tuple[time, time] | None
    peak_source: PeakSource
    n_samples: int
    peak: Stats
    overall: Stats
    recommended_ec: float | None
    recommended_vp: int | None
    recommended_uncapped: bool | None
    current_ec: float | None
    current_vp: int | None
    current_capped: bool | None
    pool_cores: float | None
    is_vios: bool
    headroom: float
    reasons: list[str] = field(default_factory=list)
    peak_ranges: list[tuple[int, int]] = field(default_factory=list)
    series: str = "nmon LPAR section"  # what was measured (sizing/measured.py picks the longest series)

    @property
    def mean(self) -> float | None:
        """Average physc in the peak window (the Redbook's EC)."""
        return self.peak.mean

    @property
    def max(self) -> float | None:
        """Highest physc in the peak window (the Redbook's VP, before headroom)."""
        return self.peak.max

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (times as HH:MM): what ``dataclasses.asdict`` gives, made 10 times faster
        (the command line's report reads it for every sized host, the terminal's sizing line too)."""
        data = {name: getattr(self, name) for name in _SIZING_FIELDS}
        data["peak"], data["overall"] = _stats_dict(self.peak), _stats_dict(self.overall)
        data["reasons"] = list(self.reasons)
        data["peak_window"] = (None if self.peak_window is None
                               else [t.strftime("%H:%M") for t in self.peak_window])
        data["peak_ranges"] = [list(r) for r in self.peak_ranges]
        return data


_SIZING_FIELDS = tuple(f.name for f in fields(Sizing))
_STATS_FIELDS = tuple(f.name for f in fields(Stats))


def _stats_dict(stats: Stats) -> dict[str, Any]:
    return {name: getattr(stats, name) for name in _STATS_FIELDS}


# --------------------------------------------------------------------------- helpers

def round_up(value: float, step: float = EC_STEP) -> float:
    """Round up to the ``step`` grid (processing units), ignoring float dust."""
    return round(math.ceil(value / step - 1e-9) * step, 2)


def parse_peak(text: str) -> tuple[time, time]:
    """Parse ``HH:MM-HH:MM`` (as given to ``--peak``) into a (start, end) pair.

    ``end`` before ``start`` is a window that wraps past midnight (``22:00-04:00``).
    """
    m = _PEAK_RE.fullmatch(text.strip())
    if not m:
        raise ValueError(f"peak window {text!r} is not HH:MM-HH:MM")
    h1, m1, h2, m2 = (int(g) for g in m.groups())
    if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
        raise ValueError(f"peak window {text!r} is not a time of day")
    start, end = time(h1, m1), time(h2, m2)
    if start == end:
        raise ValueError(f"peak window {text!r} is empty")
    return start, end


_PEAK_RE = re.compile(r"(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})")


def _seconds_of_day(times: np.ndarray) -> np.ndarray:
    """Seconds since midnight of each datetime64 value (the clock time as recorded)."""
    secs = times.astype("datetime64[s]").astype(np.int64)
    return np.mod(secs, 86400)


def _in_window(tod: np.ndarray, window: tuple[time, time]) -> np.ndarray:
    start = window[0].hour * 3600 + window[0].minute * 60 + window[0].second
    end = window[1].hour * 3600 + window[1].minute * 60 + window[1].second
    if start < end:
        return (tod >= start) & (tod < end)
    return (tod >= start) | (tod < end)  # wraps past midnight


def _ranges(mask: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) inclusive index pairs of the True runs of ``mask``."""
    if mask.size == 0:
        return []
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2])]


def _clock(seconds: int) -> time:
    seconds %= 86400
    return time(seconds // 3600, (seconds % 3600) // 60)


def _running_median3(values: np.ndarray) -> np.ndarray:
    """3-point running median, circular, ignoring NaN neighbours (the median of two is their mean),
    as ``np.nanmedian`` over the three gives it, without its masked-array path (0.5 ms a call)."""
    ordered = np.sort(np.vstack([np.roll(values, 1), values, np.roll(values, -1)]), axis=0)  # NaN last
    known = (~np.isnan(ordered)).sum(axis=0)
    with np.errstate(all="ignore"):
        med = np.where(known == 3, ordered[1], np.where(known == 2, (ordered[0] + ordered[1]) / 2, ordered[0]))
    return np.where(np.isnan(values), values, med)


def detect_peak(times: np.ndarray, physc: np.ndarray) -> tuple[tuple[time, time] | None, PeakSource]:
    """Find the daily peak window of a physc series (method in the module docstring).

    Returns ``(window, "detected")``, ``(None, "flat")`` when the series has no distinct peak
    or ``(None, "whole")`` when there is too little to decide.
    """
    if physc.size < MIN_SAMPLES:
        return None, "whole"
    nbins = 86400 // BIN_SECONDS
    bins = _seconds_of_day(times) // BIN_SECONDS
    sums = np.bincount(bins, weights=physc, minlength=nbins)
    counts = np.bincount(bins, minlength=nbins)
    with np.errstate(all="ignore"):
        profile = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    filled = int((counts > 0).sum())
    if filled < 3:
        return None, "whole"
    smooth = _running_median3(profile)
    valid = smooth[~np.isnan(smooth)]
    quiet, busy = percentiles(valid, (10, 90))
    if busy <= 0 or (busy - quiet) < FLAT_RATIO * busy:
        return None, "flat"
    level = quiet + 0.5 * (busy - quiet)
    above = np.nan_to_num(smooth, nan=-np.inf) >= level
    # Bins without data take the state of their neighbours when both are busy (lost snapshots
    # inside a peak do not split it); otherwise they count as quiet.
    unknown = np.isnan(smooth)
    if unknown.any() and not unknown.all():
        shift = int(np.flatnonzero(~unknown)[0])
        rolled_u, rolled_a = np.roll(unknown, -shift), np.roll(above, -shift)
        for a, b in _ranges(rolled_u):
            if rolled_a[a - 1] and rolled_a[(b + 1) % nbins]:
                rolled_a[a:b + 1] = True
        above = np.roll(rolled_a, shift)
    # Join short dips (< JOIN_GAP_SECONDS) between runs, on the circle of the day: rotate so
    # that index 0 starts a dip, then every dip is bounded by busy bins on both sides.
    max_gap = JOIN_GAP_SECONDS // BIN_SECONDS
    joined = above.copy()
    starts = np.flatnonzero(~above & np.roll(above, 1))
    if starts.size:
        shift = int(starts[0])
        rolled = np.roll(above, -shift)
        for a, b in _ranges(~rolled):
            if b - a + 1 < max_gap:
                rolled[a:b + 1] = True
        joined = np.roll(rolled, shift)
    if joined.all():
        return None, "flat"
    start = int(np.flatnonzero(~joined)[0])
    rolled = np.roll(joined, -start)
    runs = _ranges(rolled)
    if not runs:
        return None, "flat"
    a, b = max(runs, key=lambda r: r[1] - r[0])
    first_bin = (a + start) % nbins
    end_bin = (b + start + 1) % nbins
    return (_clock(first_bin * BIN_SECONDS), _clock(end_bin * BIN_SECONDS)), "detected"


def _fmt_window(window: tuple[time, time] | None) -> str:
    if window is None:
        return "the whole recording"
    return f"{window[0].strftime('%H:%M')}-{window[1].strftime('%H:%M')}"


def _clean(times: np.ndarray, physc: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Drop NaN/NaT samples and negative physc; return times, physc and the original indexes."""
    times = np.asarray(times).astype("datetime64[s]")
    physc = np.asarray(physc, dtype=float)
    if times.shape != physc.shape:
        raise ValueError(f"times {times.shape} and physc {physc.shape} differ in shape")
    keep = ~np.isnat(times) & np.isfinite(physc) & (physc >= 0)
    index = np.flatnonzero(keep)
    return times[keep], physc[keep], index


# --------------------------------------------------------------------------- sizing

def size_partition(times: np.ndarray, physc: np.ndarray, *, ec: float | None, vp: int | None,
                   pool_cores: float | None, capped: bool | None, is_vios: bool = False,
                   peak: tuple[time, time] | None = None,
                   headroom: float = VIOS_HEADROOM_VPS) -> Sizing:
    """Recommend EC, VPs and the sharing mode of one partition from its physc series.

    ``times`` is a datetime64 array (clock time as recorded), ``physc`` the physical cores
    consumed in each interval. ``ec``, ``vp``, ``capped`` are the current settings (None when
    unknown); ``pool_cores`` the cores of the shared pool (or system) the partition runs in.
    ``peak`` is a user-given (start, end) time-of-day window; without it the window is
    detected. ``headroom`` is the number of whole VPs added on a VIOS (Table 3-9); it does not
    apply to other partitions. Invalid samples (NaN, NaT, negative) are ignored.
    """
    t, x, index = _clean(times, physc)
    reasons: list[str] = []
    base = dict(current_ec=ec, current_vp=vp, current_capped=capped, pool_cores=pool_cores,
                is_vios=is_vios, headroom=headroom)
    overall = Stats.of(x)
    if x.size == 0:
        return Sizing(peak_window=peak, peak_source="none", n_samples=0, peak=overall,
                      overall=overall, recommended_ec=None, recommended_vp=None,
                      recommended_uncapped=None, reasons=["no usable physc samples: nothing to size"],
                      **base)

    # Peak window.
    source: PeakSource
    if peak is not None:
        window, source = peak, "given"
        mask = _in_window(_seconds_of_day(t), peak)
        if not mask.any():
            reasons.append(f"the given peak window {_fmt_window(peak)} holds no sample: "
                           "the whole recording is used")
            window, source, mask = None, "whole", np.ones(x.size, bool)
    else:
        window, source = detect_peak(t, x)
        mask = (_in_window(_seconds_of_day(t), window) if window is not None
                else np.ones(x.size, bool))
        if source == "flat":
            reasons.append("no distinct peak (busy and quiet levels within 25% of each other): "
                           "the whole recording is the peak")
    peak_values = x[mask]
    peak_stats = Stats.of(peak_values)
    ranges = [(int(index[a]), int(index[b])) for a, b in _ranges(mask)]
    sizing = dict(peak_window=window, peak_source=source, n_samples=int(x.size),
                  peak=peak_stats, overall=overall, peak_ranges=ranges, **base)
    how = {"given": "given", "detected": "detected", "flat": "flat profile",
           "whole": "whole recording"}[source]
    reasons.append(f"peak window {_fmt_window(window)} ({how}): {peak_stats.n} of {x.size} samples")

    if x.size < MIN_SAMPLES:
        reasons.append(f"only {x.size} sample(s): too few to recommend EC and VPs")
        return Sizing(recommended_ec=None, recommended_vp=None, recommended_uncapped=None,
                      reasons=reasons, **sizing)

    assert peak_stats.mean is not None and peak_stats.max is not None
    src = SOURCE_VIOS if is_vios else SOURCE_LPAR

    # VPs: the highest use at peak in whole cores (+ headroom on a VIOS), never above the pool.
    rec_vp = max(1, math.ceil(peak_stats.max - 1e-9))
    reasons.append(f"VP {rec_vp}: highest physc in the peak window is {peak_stats.max:.2f} cores, "
                   f"rounded up to whole cores ({src}: VPs = the upper limit used at peak)")
    if is_vios and headroom > 0:
        extra = math.ceil(headroom - 1e-9)
        rec_vp += extra
        reasons.append(f"VP {rec_vp}: +{extra} VP of headroom for a VIOS ({SOURCE_VIOS}: "
                       "VPs = cores used at peak with some headroom; rules-catalogue S2: +1 or +2)")
    if overall.max is not None and overall.max > peak_stats.max + 1e-9 and window is not None:
        reasons.append(f"outside the peak window physc reached {overall.max:.2f} cores: "
                       "if that burst matters, size VPs on it")
    if pool_cores is not None and pool_cores > 0 and rec_vp > math.floor(pool_cores + 1e-9):
        rec_vp = max(1, math.floor(pool_cores + 1e-9))
        reasons.append(f"VP {rec_vp}: capped at the {pool_cores:g} cores of the pool "
                       f"({SOURCE_LPAR}: VPs are never above the cores of the pool or system)")

    # EC: the average at peak, rounded up to 0.05, at least 0.05 per VP, at most the VPs.
    rec_ec = round_up(peak_stats.mean)
    reasons.append(f"EC {rec_ec:.2f}: average physc in the peak window is {peak_stats.mean:.3f} cores, "
                   f"rounded up to {EC_STEP} ({src}: EC = average use at peak)")
    floor_ec = round_up(MIN_EC_PER_VP * rec_vp)
    if rec_ec < floor_ec:
        rec_ec = floor_ec
        reasons.append(f"EC {rec_ec:.2f}: raised to the minimum of {MIN_EC_PER_VP} per VP "
                       "(rules-catalogue SZ-11, POWER7+ and later)")
    if rec_ec > rec_vp:
        rec_ec = float(rec_vp)
        reasons.append(f"EC {rec_ec:.2f}: cannot exceed the VPs")
    if pool_cores is not None and pool_cores > 0 and rec_ec > pool_cores:
        rec_ec = round(float(pool_cores), 2)
        reasons.append(f"EC {rec_ec:.2f}: cannot exceed the pool")

    # Sharing mode. Capped and pinned at its EC, the use is a lower bound: nothing goes down; uncapped, a VP more.
    censored = bool(capped and ec is not None and peak_stats.max >= 0.95 * ec)
    uncapped = is_vios or censored or peak_stats.max > rec_ec + 1e-9
    reasons.append(f"uncapped: a VIOS is never capped, with a weight in the upper part of 0-255 ({SOURCE_VIOS})"
                   if is_vios else
                   f"uncapped: capped at EC {ec:g}, physc reached {peak_stats.max:.2f}: the demand above the cap "
                   "was never measured, so these numbers are a lower bound" if censored else
                   f"uncapped: peak use {peak_stats.max:.2f} exceeds the EC {rec_ec:.2f} ({SOURCE_LPAR}: "
                   "partitions that use more than their EC should be uncapped)" if uncapped else
                   f"capped is enough: peak use {peak_stats.max:.2f} stays within the EC {rec_ec:.2f}")
    if censored:
        want = min(max(math.floor(max(rec_ec, ec) + 1e-9) + 1, vp or 0), max(1, math.floor((pool_cores or 1e9) + 1e-9)))
        rec_ec, rec_vp = min(max(rec_ec, round(float(ec), 2)), float(max(rec_vp, want))), max(rec_vp, want)
        reasons.append(f"EC {rec_ec:.2f}, VP {rec_vp}: not below the current ones, with a VP above the EC "
                       "so that, uncapped, it can use more than its entitlement")
    if ec is not None:
        reasons.append(f"current EC {ec:g} -> recommended {rec_ec:.2f}")
    if vp is not None:
        reasons.append(f"current VP {vp} -> recommended {rec_vp}")
    return Sizing(recommended_ec=rec_ec, recommended_vp=rec_vp, recommended_uncapped=uncapped,
                  reasons=[tame_figures(r) for r in reasons], **sizing)
