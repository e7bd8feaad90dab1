"""Checks over measured time series (nmon, lparstat, vmstat, iostat intervals), as pure functions.

Each check takes numpy arrays (``times`` is datetime64, one value per snapshot) and returns
``None`` when there is nothing to report, or a frozen dataclass with the numbers and the sample
indexes it used, so that a caller can turn it into a rule finding with evidence. Nothing here
knows about the rule engine, the model or the report.

"Persistent" (or "sustained") has one meaning throughout, set by :class:`Persistence`: a
condition holds in at least ``min_share`` of the samples, or without a break for at least
``min_run_seconds``. The defaults are a quarter of the samples or 30 minutes: long enough that
one busy burst does not count, short enough that a daily peak does. Some checks use their own
share where the project already has one (``capped_pinned_share`` 0.8, ``sqfull_share`` 0.5 in
:mod:`lparscope.rules.config`); those are stated at each function.

Sources: 000_31a80e54567cd02b.txt §3.1 (EC, VP, capping), §3.2 (AME: dxm, %xcpu), §3.5.1
(VIOS, Table 3-9); 002_17cd08c97e154efa.txt (SEA CPU per Gbit/s); rules-catalogue CPU-10,
CPU-11, MEM-08, AME-03, STO-01 and the "what to watch" table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .runs import arrays, interval_seconds, longest_run
from .vios import sea_cpu_for_traffic

INDEX_LIMIT = 2000  # indexes kept per result (evidence, not a copy of the series)


@dataclass(frozen=True)
class Persistence:
    """When a condition counts as persistent: in ``min_share`` of the samples or for
    ``min_run_seconds`` without a break (see the module docstring)."""

    min_share: float = 0.25
    min_run_seconds: float = 1800.0


DEFAULT = Persistence()


@dataclass(frozen=True)
class Episode:
    """Where a condition held in a series.

    ``indexes`` are the sample indexes (into the caller's arrays) where it held, at most
    :data:`INDEX_LIMIT` of them; ``longest_run`` is the (first, last) index, inclusive, of the
    longest unbroken stretch, and ``longest_run_seconds`` its duration (last - first + one
    sampling interval). ``worst_index`` is the sample with the largest value of the measure.
    """

    check: str
    threshold: float
    n_samples: int
    n_hits: int
    share: float
    longest_run: tuple[int, int] | None
    longest_run_seconds: float
    worst_index: int | None
    worst_value: float | None
    mean_value: float | None  # mean of the measure over all samples
    indexes: tuple[int, ...] = field(repr=False, default=())
    subject: str | None = None  # device or interface name, when the check is per device


@dataclass(frozen=True)
class EntcOverrun(Episode):
    """%entc above 100 on an uncapped partition; ``busiest_hour_mean`` is the highest mean
    %entc over any 60-minute stretch (rules-catalogue CPU-10 speaks of the busy hour)."""

    busiest_hour_mean: float | None = None


@dataclass(frozen=True)
class VpBound(Episode):
    """physc at the virtual processor ceiling; ``hits_with_pool_idle`` counts the hits during
    which the pool still had idle cores (the partition, not the pool, was the limit)."""

    vp: float = 0.0
    hits_with_pool_idle: int | None = None


@dataclass(frozen=True)
class AmeCpu(Episode):
    """Share of physc spent on AME compression (xphysc / physc)."""

    mean_share: float | None = None


@dataclass(frozen=True)
class SeaTraffic:
    """Traffic carried by a VIOS's Shared Ethernet Adapter, with the 002 CPU rule of thumb.

    The rule of thumb (002_17cd08c97e154efa.txt, POWER5 1.65 GHz, 1 CPU VIOS, MTU 1500,
    non-threaded SEA): 63% of a CPU for 940 Mbit/s simplex streaming, 80% of a CPU for
    1420 Mbit/s duplex. ``cpu_estimate_*`` scale those points linearly to the measured peak;
    modern cores need far less, so treat them as an upper bound and as context, not as a
    sizing rule.
    """

    subject: str | None
    n_samples: int
    mean_gbit: float
    peak_gbit: float
    p95_gbit: float
    peak_index: int
    cpu_estimate_simplex: float  # cores, if the peak were one-way streaming
    cpu_estimate_duplex: float  # cores, if the peak were two-way streaming
    indexes: tuple[int, ...] = field(repr=False, default=())


# The rule of thumb points of 002_17cd08c97e154efa.txt (threaded=0 column) live in sizing/vios.py
# (SEA_1G_CPU, SEA_1G_RATE_MBIT): one computation of the SEA's processor cost.


# --------------------------------------------------------------------------- helpers (more in runs.py)

def _episode(cls: type, check: str, t: np.ndarray, measure: np.ndarray, hits: np.ndarray,
             threshold: float, persistence: Persistence, *, subject: str | None = None,
             require_persistent: bool = True, **extra: object) -> Episode | None:
    """Build the result for ``hits`` (a boolean mask over valid samples) or None."""
    valid = np.isfinite(measure) & ~np.isnat(t)
    hits = hits & valid
    n = int(valid.sum())
    n_hits = int(hits.sum())
    if n == 0 or n_hits == 0:
        return None
    step = interval_seconds(t[valid])
    first, last = longest_run(t, hits, step)
    run_seconds = float((t[last] - t[first]).astype("timedelta64[ms]").astype(np.int64)) / 1000.0 + step
    share = n_hits / n
    if require_persistent and share < persistence.min_share and run_seconds < persistence.min_run_seconds:
        return None
    masked = np.where(valid, measure, -np.inf)
    worst = int(np.argmax(masked))
    return cls(check=check, threshold=threshold, n_samples=n, n_hits=n_hits, share=share,
               longest_run=(first, last), longest_run_seconds=run_seconds,
               worst_index=worst, worst_value=float(measure[worst]),
               mean_value=float(measure[valid].mean()),
               indexes=tuple(np.flatnonzero(hits)[:INDEX_LIMIT].tolist()),
               subject=subject, **extra)


# --------------------------------------------------------------------------- processor

ENTC_LIMIT = 100.0  # %entc: use above the entitlement (000 §3.1; rules-catalogue CPU-10)


def entc_over_entitlement(times: np.ndarray, entc_pct: np.ndarray, *, capped: bool | None,
                          persistence: Persistence = DEFAULT) -> EntcOverrun | None:
    """Sustained %entc above 100 on an uncapped partition: EC is below the real average use.

    The part above EC is not guaranteed by the hypervisor, so an uncapped partition that
    lives above 100% of its entitlement has an EC smaller than its average use at peak, which
    000 §3.1 says EC should be. Capped partitions are skipped (``capped`` True): they cannot
    go above 100%.
    """
    if capped:
        return None
    t, e = arrays(times, entc_pct)
    hits = np.nan_to_num(e, nan=-1.0) > ENTC_LIMIT
    busiest = _busiest_window_mean(t, e, 3600.0)
    return _episode(EntcOverrun, "entc-over-100", t, e, hits, ENTC_LIMIT, persistence,
                    busiest_hour_mean=busiest)  # type: ignore[return-value]


def _busiest_window_mean(t: np.ndarray, v: np.ndarray, seconds: float) -> float | None:
    """Highest mean of ``v`` over any window of ``seconds`` (by sample time)."""
    ok = np.isfinite(v) & ~np.isnat(t)
    t, v = t[ok], v[ok]
    if v.size == 0:
        return None
    secs = (t - t[0]).astype("timedelta64[ms]").astype(np.int64) / 1000.0
    csum = np.concatenate(([0.0], np.cumsum(v)))
    ends = np.searchsorted(secs, secs + seconds, side="left")
    counts = ends - np.arange(v.size)
    means = (csum[ends] - csum[:-1]) / np.maximum(counts, 1)
    return float(means.max())


CAPPED_PINNED_PCT = 95.0  # %entc (rules.config entc_capped_pinned)
CAPPED_PINNED_SHARE = 0.8  # share of samples (rules.config capped_pinned_share)


def capped_at_entitlement(times: np.ndarray, entc_pct: np.ndarray, *, capped: bool | None,
                          pinned_pct: float = CAPPED_PINNED_PCT,
                          min_share: float = CAPPED_PINNED_SHARE) -> Episode | None:
    """A capped partition flat at its EC: %entc ≥ 95 in at least 80% of the samples.

    A capped partition cannot use more than its entitlement (000 §3.1); when it sits there
    most of the time, work is waiting for processor. Only ``capped`` True partitions are checked.
    """
    if not capped:
        return None
    t, e = arrays(times, entc_pct)
    hits = np.nan_to_num(e, nan=-1.0) >= pinned_pct
    return _episode(Episode, "capped-at-ec", t, e, hits, pinned_pct,
                    Persistence(min_share=min_share, min_run_seconds=float("inf")))


VP_BOUND_RATIO = 0.95  # physc / VP (rules-catalogue CPU-11)


def vp_bound(times: np.ndarray, physc: np.ndarray, vp: float, *,
             pool_idle: np.ndarray | None = None, ratio: float = VP_BOUND_RATIO,
             persistence: Persistence = DEFAULT) -> VpBound | None:
    """physc at the virtual processor ceiling (≥ 95% of the VPs), persistently.

    An uncapped partition can never use more cores than it has VPs (000 §3.1), so physc
    pressed against that ceiling means the VPs, not the pool, limit it. With ``pool_idle``
    (idle cores in the pool per sample, nmon LPAR ``PoolIdle`` / lparstat ``app``) the result
    also counts the hits during which the pool had at least half a core idle.
    """
    if not vp or vp <= 0:
        return None
    t, p = arrays(times, physc)
    measure = p / float(vp)
    hits = np.nan_to_num(measure, nan=-1.0) >= ratio
    with_idle = None
    if pool_idle is not None:
        _, idle = arrays(times, pool_idle)
        with_idle = int((hits & (np.nan_to_num(idle, nan=0.0) >= 0.5)).sum())
    return _episode(VpBound, "vp-bound", t, measure, hits, ratio, persistence,
                    vp=float(vp), hits_with_pool_idle=with_idle)  # type: ignore[return-value]


RUNQ_PER_LCPU = 1.0  # runnable threads per logical CPU


def run_queue_per_lcpu(times: np.ndarray, runq: np.ndarray, lcpu: np.ndarray | float, *,
                       threshold: float = RUNQ_PER_LCPU,
                       persistence: Persistence = DEFAULT) -> Episode | None:
    """Run queue per logical CPU above ``threshold`` (default 1.0), persistently.

    ``runq`` is the number of runnable threads (vmstat ``r``, nmon PROC ``Runnable``), which
    on AIX counts running threads too; ``lcpu`` the online logical CPUs (a number or a series).
    More runnable threads than logical CPUs means threads wait for a CPU: the partition is
    short of processor (more VPs or EC, or a higher SMT mode). This threshold is a practitioner
    heuristic, not a number from the seed documents; raise it for batch workloads that queue
    by design.
    """
    t, r, n = arrays(times, runq, lcpu)
    with np.errstate(all="ignore"):
        measure = np.where(n > 0, r / n, np.nan)
    hits = np.nan_to_num(measure, nan=-1.0) > threshold
    return _episode(Episode, "runq-per-lcpu", t, measure, hits, threshold, persistence)


# --------------------------------------------------------------------------- memory

def paging_activity(times: np.ndarray, pgsin: np.ndarray, pgsout: np.ndarray, *,
                    min_rate: float = 0.0, persistence: Persistence = DEFAULT) -> Episode | None:
    """Paging-space page-ins plus page-outs per second above ``min_rate`` (default 0), persistently.

    ``pgsin``/``pgsout`` are paging *space* pages per second (nmon PAGE ``pgsin``/``pgsout``,
    vmstat ``pi``/``po``), not file-system paging. Sustained paging to paging space means the
    partition lacks real memory (rules-catalogue MEM-08: pi/po > 0 sustained).
    """
    t, i, o = arrays(times, pgsin, pgsout)
    measure = i + o
    hits = np.nan_to_num(measure, nan=-1.0) > min_rate
    return _episode(Episode, "paging-space", t, measure, hits, min_rate, persistence)


def ame_deficit(times: np.ndarray, dxm: np.ndarray, *,
                persistence: Persistence = DEFAULT) -> Episode | None:
    """AME memory deficit (lparstat -c ``dxm``, MB) above 0, persistently.

    A deficit means the expansion factor promised more memory than compression could deliver,
    so the partition pages (000 §3.2 monitoring; rules-catalogue AME-03: dxm > 0 sustained →
    lower the factor or add true memory).
    """
    t, d = arrays(times, dxm)
    hits = np.nan_to_num(d, nan=-1.0) > 0
    return _episode(Episode, "ame-deficit", t, d, hits, 0.0, persistence)


AME_CPU_SHARE = 0.10  # xphysc / physc


def ame_cpu_share(times: np.ndarray, xphysc: np.ndarray, physc: np.ndarray, *,
                  threshold: float = AME_CPU_SHARE,
                  persistence: Persistence = DEFAULT) -> AmeCpu | None:
    """Share of the partition's cores spent compressing memory for AME above 10%, persistently.

    ``xphysc`` is the physc used by AME (lparstat -c); the share is xphysc / physc. Above about
    a tenth the expansion costs more processor than it is worth (rules-catalogue AME-03,
    a heuristic; 000 §3.2 shows the CPU cost growing with the factor).
    """
    t, x, p = arrays(times, xphysc, physc)
    with np.errstate(all="ignore"):
        measure = np.where(p > 0, x / p, np.nan)
    hits = np.nan_to_num(measure, nan=-1.0) > threshold
    ok = np.isfinite(measure)
    mean_share = float(x[ok].sum() / p[ok].sum()) if ok.any() and p[ok].sum() > 0 else None
    return _episode(AmeCpu, "ame-cpu", t, measure, hits, threshold, persistence,
                    mean_share=mean_share)  # type: ignore[return-value]


# --------------------------------------------------------------------------- I/O

SQFULL_SHARE = 0.5  # share of intervals (rules.config sqfull_share)


def disk_queue_full(times: np.ndarray, sqfull: Mapping[str, np.ndarray], *,
                    min_share: float = SQFULL_SHARE,
                    persistence: Persistence | None = None) -> list[Episode]:
    """Disks whose service queue filled (sqfull rate > 0) persistently, worst first.

    ``sqfull`` maps a disk name to its rate of "service queue full" events per interval or per
    second (iostat -D ``sqfull``). A full service queue means the disk's queue_depth was
    reached and I/O waited in the OS (rules-catalogue STO-01: sqfull consistently > 0 → raise
    queue_depth within the storage vendor's limit, or spread over more LUNs). Persistent: in
    at least ``min_share`` (default 0.5) of the intervals or for 30 minutes without a break.
    """
    rule = persistence or Persistence(min_share=min_share, min_run_seconds=DEFAULT.min_run_seconds)
    out: list[Episode] = []
    for name, values in sqfull.items():
        t, q = arrays(times, values)
        hits = np.nan_to_num(q, nan=-1.0) > 0
        ep = _episode(Episode, "disk-sqfull", t, q, hits, 0.0, rule, subject=str(name))
        if ep is not None:
            out.append(ep)
    return sorted(out, key=lambda e: (-e.share, -(e.worst_value or 0.0), e.subject or ""))


def network_errors(times: np.ndarray, errors: Mapping[str, np.ndarray]) -> list[Episode]:
    """Interfaces with any error (> 0 errors per interval), most errors first.

    ``errors`` maps an interface to its error counts per interval or per second (nmon NETERROR
    ``ierrs + oerrs + collisions``). Errors on a healthy link are zero, so any is reported;
    persistence only orders the results (share of intervals with errors).
    """
    out: list[Episode] = []
    for name, values in errors.items():
        t, e = arrays(times, values)
        hits = np.nan_to_num(e, nan=-1.0) > 0
        ep = _episode(Episode, "net-errors", t, e, hits, 0.0, DEFAULT, subject=str(name),
                      require_persistent=False)
        if ep is not None:
            out.append(ep)
    return sorted(out, key=lambda e: (-e.share, -(e.worst_value or 0.0), e.subject or ""))


def sea_traffic(times: np.ndarray, read_kbs: np.ndarray, write_kbs: np.ndarray, *,
                is_vios: bool, subject: str | None = None, threaded: bool = False) -> SeaTraffic | None:
    """Gbit/s carried by a SEA on a VIOS, with the 002 rule-of-thumb CPU at its peak.

    ``read_kbs``/``write_kbs`` are KB/s (1024 bytes, as nmon SEA and NET report them). Returns
    None for a partition that is not a VIOS or when no traffic was seen. The VIOS processor
    must cover this traffic (000 §3.5.1: SEAs on 10 Gb adapters consume a large amount of
    processor); see :class:`SeaTraffic` for the scaling and its limits.
    """
    if not is_vios:
        return None
    t, r, w = arrays(times, read_kbs, write_kbs)
    gbit = (np.nan_to_num(r) + np.nan_to_num(w)) * 1024 * 8 / 1e9
    ok = (np.isfinite(r) | np.isfinite(w)) & ~np.isnat(t)
    if not ok.any() or not (gbit[ok] > 0).any():
        return None
    g = np.where(ok, gbit, -np.inf)
    peak_index = int(np.argmax(g))
    peak = float(gbit[peak_index])
    return SeaTraffic(
        subject=subject, n_samples=int(ok.sum()), mean_gbit=float(gbit[ok].mean()),
        peak_gbit=peak, p95_gbit=float(np.percentile(gbit[ok], 95)), peak_index=peak_index,
        cpu_estimate_simplex=sea_cpu_for_traffic(peak * 1000, duplex=False, threaded=threaded),
        cpu_estimate_duplex=sea_cpu_for_traffic(peak * 1000, duplex=True, threaded=threaded),
        indexes=tuple(int(i) for i in np.flatnonzero(ok & (gbit > 0))[:INDEX_LIMIT]),
    )
