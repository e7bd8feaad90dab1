"""What makes an ``lslparutil`` interval a sample (``frame_util._deltas``), and the warnings for those
that are not.

Cycle counters are cumulative: ``time_cycles`` counts the frame's clock, ``capped_cycles`` +
``uncapped_cycles`` what a partition used (``utilized_pool_cycles`` a pool's) since it was activated.
Between two samples in time order every counter rises. One that goes back was restarted (the
partition re-activated, the frame powered on again): the interval over the restart is no
measurement, and the series goes on from the row after it. A computed use (physc = physical
processors consumed) above what the partition can have (its virtual processors, or dedicated
cores, the cores of its shared pool or of the frame) is a garbled or wrapped counter (a value of
2^64-1 gives a hundred million cores): not a sample either. Each is a warning on its input,
naming the sample's line; past :data:`WARN_CAP` of one input they are counted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..numbers import fmt_number as num
from .estate import Estate, InputStatus
from .frame import Frame, FramePartition, SharedPool

#: the share by which a computed use may pass its bound (the counters and the clock are read a
#: moment apart), plus a hundredth of a core
TOLERANCE = 0.05
#: warnings of intervals left out named per input; the rest are counted in one more
WARN_CAP = 20

Drop = tuple[str, int, str]  # (file, line of the sample, why it is not one)


@dataclass
class Bound:
    """The most a partition or pool can use: the row's own count (``key``: its virtual processors,
    or the pool's size, at the sample, named ``own``) else ``cap`` (what the frame's configuration
    says, named ``cap_what``), none above ``cap``."""

    key: str
    own: str
    cap: float | None = None
    cap_what: str = ""

    def per_interval(self, column: Callable[[str], Any], n: int) -> np.ndarray:
        """The bound of each interval (the larger of its two rows' own counts, none above ``cap``);
        NaN where nothing is known."""
        cap = np.float64(np.nan if self.cap is None else self.cap)
        if n < 2:
            return np.full(0, cap)
        own = np.asarray(column(self.key), dtype=np.float64)
        own = np.where(own > 0, own, np.nan)  # 0 or negative: not a count
        with np.errstate(invalid="ignore"):
            both = np.fmax(own[:-1], own[1:])
        return np.fmin(both, cap)  # fmin/fmax: NaN only where both are

    def why(self, limit: float) -> str:
        """What set ``limit`` of an interval, in words."""
        return self.cap_what if self.cap is not None and limit == self.cap else self.own


def frame_cores(fr: Frame) -> tuple[float | None, str]:
    cores = fr.cores_configurable or fr.cores_installed
    return (cores, f"the frame's {num(cores)} cores") if cores else (None, "")


def partition_bound(fr: Frame, p: FramePartition | None) -> Bound:
    """A partition uses at most its virtual processors (shared) or dedicated cores: ``curr_procs`` of
    each sample row, else the most its configuration allows (its profile's maximum, or its current
    count); a shared one no more than its pool's cores either, and none more than the frame's."""
    caps: list[tuple[float, str]] = []
    if p is not None:
        vps = max((v for v in (p.vps, p.max_vps) if v), default=None)
        if vps:
            caps.append((float(vps), f"its {vps} {'dedicated cores' if p.dedicated else 'virtual processors'} at most"))
        if p.shared:
            pool = fr.pools.get(p.pool_id or 0)
            if pool is not None and pool.max_units:
                caps.append((pool.max_units, f"its shared pool's {num(pool.max_units)} processor units"))
    cores, what = frame_cores(fr)
    if cores:
        caps.append((cores, what))
    cap = min(caps, default=None)
    own = "its processors (curr_procs) at the sample"
    return Bound("curr_procs", own, cap[0], cap[1]) if cap else Bound("curr_procs", own)


def pool_bound(fr: Frame, pool: SharedPool) -> Bound:
    """A shared pool uses at most its processor units (each row's, else the pool's), and no more than
    the frame's cores."""
    caps = [(pool.max_units, f"its {num(pool.max_units)} processor units")] if pool.max_units else []
    cores, what = frame_cores(fr)
    if cores:
        caps.append((cores, what))
    cap = min(caps, default=None)
    key = "configurable_pool_proc_units" if pool.id == 0 else "max_pool_capacity"
    own = f"the pool's size ({key}) at the sample"
    return Bound(key, own, cap[0], cap[1]) if cap else Bound(key, own)


def steps(dated: bool, clock: np.ndarray, counters: list[np.ndarray]) -> np.ndarray:
    """Which intervals (row ``j`` to ``j + 1``) have a counter that goes back, the clock included.

    Rows with times (``dated``) are in time order; a series none of whose times could be read is in
    the order the listing printed it (newest first, as lslparutil does): the clock's direction tells."""
    forward = 1.0
    if not dated:
        d = np.diff(clock)
        d = d[np.isfinite(d) & (d != 0)]
        forward = -1.0 if d.size and np.median(d) < 0 else 1.0
    back = np.zeros(max(len(clock) - 1, 0), dtype=bool)
    with np.errstate(invalid="ignore"):
        for c in [clock, *counters]:
            back |= np.diff(c) * forward < 0  # NaN: not known to go back
    return back


def _status_of(estate: Estate, path: str, line: int) -> InputStatus | None:
    """The input status of the command output that holds ``line`` of ``path`` (the last one of the
    file that starts at or above it)."""
    of_file = [s for s in estate.inputs if s.path == path]
    above = [s for s in of_file if s.line <= line]
    return max(above, key=lambda s: s.line) if above else (of_file[0] if of_file else None)


def warn_drops(estate: Estate, drops: list[Drop]) -> None:
    """Each interval left out as a warning of its input (file line of the sample), the input
    ``partly``; past :data:`WARN_CAP` of one input, one more warning counts the rest."""
    by_status: dict[int, tuple[InputStatus, list[Drop]]] = {}
    for d in sorted(drops, key=lambda d: (d[0], d[1])):
        status = _status_of(estate, d[0], d[1])
        if status is not None:
            by_status.setdefault(id(status), (status, []))[1].append(d)
    for status, found in by_status.values():
        for _, line, why in found[:WARN_CAP]:
            status.warnings.append((line, why))
        if len(found) > WARN_CAP:
            status.warnings.append((found[WARN_CAP][1], f"{len(found) - WARN_CAP} more lslparutil intervals left "
                                                        "out like the above (from this line on) not listed"))
        status.warnings.sort(key=lambda w: w[0])
        if status.status == "parsed":
            status.status = "partly"
