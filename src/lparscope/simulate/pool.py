"""Replay a frame's shared processor pools on measured demand, interval by interval.

How the hypervisor shares processor capacity (000_31a80e54567cd02b.txt §3.1, Table 3-1):

1. Every shared partition is guaranteed its entitled capacity (EC): it gets
   ``min(demand, EC)`` first. A capped partition stops there.
2. Capacity left over is shared among the *uncapped* partitions that want more, in proportion
   to their uncapped weight (weight 0 never receives spare capacity), each bounded by its
   virtual processors (a partition cannot run on more cores than it has VPs).
3. Shared processor pools (multiple shared processor pools): the entitlement a pool does not
   use (its partitions' unused EC plus the pool's *reserved* capacity) goes first to the
   uncapped partitions of that pool; no pool consumes more than its *maximum*. What is still
   idle after that is shared frame-wide, by weight, among all uncapped partitions.
4. The physical shared pool is the frame's cores not held by dedicated partitions; a dedicated
   partition that *donates* (sharing mode ``share_idle_procs``) adds its idle cores to it
   (000 §3.1, Figure 3-2).

"Shared by weight, bounded" is progressive filling: every partition grows at a rate equal to its
weight until it has what it wants, hits a ceiling, or the capacity is gone. With pools, partition
``i`` ends at ``w_i * min(want_i / w_i, level of its pool, frame level)``: the pool's level is
found first on the pool's own headroom, the frame level then on the effective wants. Both are the
same primitive, :func:`fill`, solved exactly by rounds (each round either saturates at least one
partition or uses the whole capacity), vectorised over the time axis.

Conservation holds on every interval: ``sum(granted over shared partitions) + idle = capacity``,
where ``capacity = physical shared pool + donated idle of dedicated partitions``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

EPS = 1e-9
CHUNK = 4096  # intervals per block: a dozen working arrays of P x CHUNK values each


@dataclass
class PartitionSettings:
    """Processor settings of one partition, under the HMC's attribute meaning."""

    name: str
    ec: float = 0.0  # desired_proc_units; for a dedicated partition: unused
    vp: float = 1.0  # desired_procs: virtual processors, or dedicated processors
    uncapped: bool = False  # sharing_mode uncap
    weight: float = 128.0  # uncap_weight
    pool: int = 0  # shared_proc_pool_id
    dedicated: bool = False
    donating: bool = False  # dedicated partition sharing its idle processors while active

    @property
    def ceiling(self) -> float:
        """Most cores the partition can ever get."""
        if self.dedicated:
            return self.vp
        return self.vp if self.uncapped and self.weight > 0 else min(self.ec, self.vp)


@dataclass
class PoolSettings:
    id: int
    max_units: float | None = None  # maximum processing units (None: the physical pool)
    reserved_units: float = 0.0


@dataclass
class FrameSettings:
    """What the simulator needs of a frame: its shared cores, pools and partitions."""

    cores: float  # physical shared pool: the frame's cores minus dedicated partitions' processors
    partitions: list[PartitionSettings]
    pools: dict[int, PoolSettings] = field(default_factory=dict)

    def copy(self) -> FrameSettings:
        """Settings to change without touching these (every field below is a number, a flag or text)."""
        return FrameSettings(self.cores, [copy.copy(p) for p in self.partitions],
                             {k: copy.copy(v) for k, v in self.pools.items()})

    def problems(self) -> list[str]:
        """Settings the HMC would refuse (the replay still runs, but says so)."""
        out = []
        shared = [p for p in self.partitions if not p.dedicated]
        ents = sum(p.ec for p in shared) + sum(pl.reserved_units for pl in self.pools.values())
        if ents > self.cores + EPS:
            out.append(f"entitled capacity {ents:.2f} (partitions + pool reserves) exceeds the "
                       f"{self.cores:.2f} cores of the shared pool")
        for p in shared:
            if p.ec > p.vp + EPS:
                out.append(f"{p.name}: EC {p.ec:g} above its {p.vp:g} virtual processors")
            if p.ec < 0.05 * p.vp - EPS:
                out.append(f"{p.name}: EC {p.ec:g} below 0.05 per virtual processor ({p.vp:g} VPs)")
        for pid, pl in self.pools.items():
            ec = sum(p.ec for p in shared if p.pool == pid) + pl.reserved_units
            if pl.max_units is not None and ec > pl.max_units + EPS:
                out.append(f"pool {pid}: entitlement {ec:.2f} above its maximum {pl.max_units:g}")
        return out


@dataclass
class Replay:
    """Result per partition (rows, in ``FrameSettings.partitions`` order) and interval (columns)."""

    names: list[str]
    granted: np.ndarray  # (P, T) cores each partition ran on
    unmet: np.ndarray  # (P, T) demand not served
    idle: np.ndarray  # (T,) physical shared pool capacity nobody used
    capacity: np.ndarray  # (T,) physical shared pool + donated idle processors
    pool_use: dict[int, np.ndarray]  # pool id -> (T,) cores used by its partitions
    problems: list[str] = field(default_factory=list)
    # per partition: dedicated (what it wants beyond its own cores is its sizing, not the pool refusing it)
    dedicated: list[bool] = field(default_factory=list)


def fill(want: np.ndarray, weight: np.ndarray, cap: np.ndarray) -> np.ndarray:
    """Weighted progressive filling: share ``cap[t]`` among columns by ``weight``, each at most
    ``want[t, j]``. ``want`` is (T, P), ``weight`` (P,), ``cap`` (T,); returns (T, P).

    Exact, without iterating: every column grows at the rate of its weight up to the common
    level ``lam`` where the capacity runs out, so column j gets ``min(want_j, lam * w_j)``. Sorted
    by ``want_j / w_j``, the capacity used at level ``r_k`` is ``sum(want before k) + r_k * sum(w
    from k)``, increasing in k; the first k where it reaches the capacity gives ``lam``. Only the
    intervals where the columns want more than the capacity are sorted. Weight-0 columns get
    nothing.
    """
    w = np.asarray(weight, dtype=want.dtype)
    if (w <= 0).any() or (want < 0).any():
        want = np.where(w > 0, np.maximum(want, 0.0), 0.0)
    cap = np.maximum(np.asarray(cap, dtype=want.dtype), 0.0)
    hard = want.sum(axis=1) > cap + EPS
    if not hard.any():
        return want
    rows = np.flatnonzero(hard)
    live = np.flatnonzero(w > 0)
    every = live.size == w.size
    wa = want[rows] if every else want[np.ix_(rows, live)]
    wl = w if every else w[live]
    ratio = wa / wl
    order = np.argsort(ratio, axis=1)
    rs = np.take_along_axis(ratio, order, axis=1)
    was = np.take_along_axis(wa, order, axis=1)
    ws = wl[order]
    before = np.cumsum(was, axis=1)
    before -= was  # want of the columns saturated before k
    after = np.cumsum(ws[:, ::-1], axis=1)[:, ::-1]  # weight of the columns from k on
    rs *= after
    rs += before  # capacity used when the level reaches column k's ratio
    c = cap[rows]
    k = np.minimum((rs < c[:, None]).sum(axis=1), wa.shape[1] - 1)
    r = np.arange(rows.size)
    lam = (c - before[r, k]) / after[r, k]
    np.minimum(wa, lam[:, None] * wl, out=wa)
    out = want.copy()
    if every:
        out[rows] = wa
    else:
        out[np.ix_(rows, live)] = wa
    return out


class _Layout:
    """Columns reordered once per settings: dedicated, then capped, then uncapped partitions
    (weight > 0) grouped by pool, so every group is a contiguous slice (views, not copies)."""

    def __init__(self, s: FrameSettings) -> None:
        parts = s.partitions

        def group(p: PartitionSettings) -> tuple[int, int]:
            if p.dedicated:
                return (0, 0)
            return (2 if p.uncapped and p.weight > 0 else 1, p.pool)

        self.order = sorted(range(len(parts)), key=lambda i: (group(parts[i]), i))
        ps = [parts[i] for i in self.order]
        kinds = [group(p)[0] for p in ps]
        self.nd = kinds.count(0)
        self.nu0 = self.nd + kinds.count(1)
        self.first = np.array([p.vp if p.dedicated else min(p.ec, p.vp) for p in ps])
        self.ceiling = np.array([p.ceiling for p in ps])
        self.weight = np.array([p.weight for p in ps[self.nu0:]], dtype=float)
        self.donors = np.array([i for i, p in enumerate(ps) if p.dedicated and p.donating], dtype=int)
        self.cores = s.cores
        self.pools: list[tuple[int, PoolSettings | None, slice, slice, float]] = []
        for pid in sorted({p.pool for p in ps if not p.dedicated}):
            capped = [i for i in range(self.nd, self.nu0) if ps[i].pool == pid]
            unc = [i for i in range(self.nu0, len(ps)) if ps[i].pool == pid]
            cs = slice(capped[0], capped[-1] + 1) if capped else slice(0, 0)
            us = slice(unc[0] - self.nu0, unc[-1] + 1 - self.nu0) if unc else slice(0, 0)
            ec = sum(min(ps[i].ec, ps[i].vp) for i in capped + unc)
            self.pools.append((pid, s.pools.get(pid), cs, us, ec))


def _simulate_block(dT: np.ndarray, L: _Layout) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One block: demand (T, P) in layout order -> granted (T, P), idle (T,), capacity (T,)."""
    T = dT.shape[0]
    g = np.minimum(dT, L.first)  # entitlement first; dedicated partitions on their own processors
    donated = (L.ceiling[L.donors] - g[:, L.donors]).sum(axis=1) if L.donors.size else 0.0
    capacity = L.cores + donated + np.zeros(T)
    sh = g[:, L.nd:]
    base_sum = sh.sum(axis=1)
    over = base_sum > capacity + EPS
    if over.any():  # settings that over-commit the pool: entitlements scaled down (reported)
        sh[over] *= (capacity[over] / base_sum[over])[:, None]
        base_sum = sh.sum(axis=1)
    gu = g[:, L.nu0:]  # uncapped partitions with a weight
    want = np.minimum(dT[:, L.nu0:], L.ceiling[L.nu0:])
    want -= gu
    np.maximum(want, 0.0, out=want)
    used = base_sum.copy()
    # each pool's unused entitlement and reserve to its own uncapped partitions, within its maximum
    for pid, pl, cs, us, ec in L.pools:
        if us.stop == us.start:
            continue
        mine = g[:, L.nu0:][:, us].sum(axis=1) + (g[:, cs].sum(axis=1) if cs.stop > cs.start else 0.0)
        own = ec + (pl.reserved_units if pl else 0.0) - mine
        if pl is not None and pl.max_units is not None:
            own = np.minimum(own, pl.max_units - mine)
        own = np.minimum(np.maximum(own, 0.0), np.maximum(capacity - used, 0.0))
        if not (own > EPS).any():
            continue
        extra = fill(want[:, us], L.weight[us], own)  # may be want's own view: sum it first
        used += extra.sum(axis=1)
        gu[:, us] += extra
        want[:, us] -= extra
    # then what is still idle, frame-wide by weight; a pool's level is first bounded by its maximum
    eff = want
    for pid, pl, cs, us, ec in L.pools:
        if pl is None or pl.max_units is None or us.stop == us.start:
            continue
        if eff is want:
            eff = want.copy()
        mine = gu[:, us].sum(axis=1) + (g[:, cs].sum(axis=1) if cs.stop > cs.start else 0.0)
        eff[:, us] = fill(want[:, us], L.weight[us], np.maximum(pl.max_units - mine, 0.0))
    if gu.shape[1]:
        extra = fill(eff if eff is not want else want.copy(), L.weight, np.maximum(capacity - used, 0.0))
        gu += extra
        used += extra.sum(axis=1)
    return g, capacity - used, capacity


def simulate(demand: np.ndarray, settings: FrameSettings, chunk: int = CHUNK,
             dtype: type = np.float64) -> Replay:
    """Replay ``demand`` (P, T) cores wanted per partition and interval under ``settings``.

    Blocks of ``chunk`` intervals are computed and stored as ``dtype``: float64 by default;
    float32 halves the memory and time of a year at one-minute intervals, at a precision of
    about 1e-5 cores per interval."""
    demand = np.asarray(demand)
    if demand.ndim != 2 or demand.shape[0] != len(settings.partitions):
        raise ValueError(f"demand of shape {demand.shape} for {len(settings.partitions)} partitions")
    P, T = demand.shape
    L = _Layout(settings)
    rows = np.array(L.order, dtype=int)
    granted = np.empty((P, T), dtype=dtype)
    unmet = np.empty((P, T), dtype=dtype)
    idle = np.empty(T)
    capacity = np.empty(T)
    for a in range(0, T, chunk):
        b = min(T, a + chunk)
        dT = np.ascontiguousarray(demand[rows, a:b].T, dtype=dtype)
        np.fmax(dT, 0.0, out=dT)  # NaN (no sample) and negative values -> 0
        g, idle[a:b], capacity[a:b] = _simulate_block(dT, L)
        granted[rows, a:b] = g.T
        dT -= g
        np.maximum(dT, 0.0, out=dT)
        dT[dT < 1e-7] = 0.0
        unmet[rows, a:b] = dT.T
    pool_use = {}
    for pid in sorted({p.pool for p in settings.partitions if not p.dedicated}):
        sel = [i for i, p in enumerate(settings.partitions) if p.pool == pid and not p.dedicated]
        pool_use[pid] = granted[sel].sum(axis=0, dtype=np.float64)
    return Replay([p.name for p in settings.partitions], granted, unmet, idle, capacity, pool_use,
                  settings.problems(), [p.dedicated for p in settings.partitions])
