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

from dataclasses import dataclass, field

import numpy as np

EPS = 1e-9
CHUNK = 8192  # intervals per block: ~a dozen working arrays of P x CHUNK x 8 bytes each


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


def fill(want: np.ndarray, weight: np.ndarray, cap: np.ndarray) -> np.ndarray:
    """Weighted progressive filling: share ``cap[t]`` among columns by ``weight``, each at most
    ``want[t, j]``. ``want`` is (T, P), ``weight`` (P,), ``cap`` (T,); returns (T, P).

    Every round gives each still-hungry column ``rest * w / sum(w)`` (clipped to what it still
    wants); a round either satisfies at least one column or hands out all that is left, so at
    most P rounds run, on the intervals still undecided only.
    """
    want = np.maximum(want, 0.0)
    out = np.zeros_like(want)
    cap = np.maximum(np.asarray(cap, dtype=want.dtype), 0.0)
    total = want.sum(axis=1)
    easy = total <= cap + EPS
    out[easy] = want[easy]
    rows = np.flatnonzero(~easy)
    if rows.size == 0:
        return out
    w = np.asarray(weight, dtype=want.dtype)
    g = np.zeros((rows.size, want.shape[1]), dtype=want.dtype)
    wa = want[rows]
    rest = cap[rows].copy()
    active = (wa > EPS) & (w > 0)
    idx = np.arange(rows.size)
    for _ in range(want.shape[1] + 1):
        wsum = (active * w).sum(axis=1)
        live = (rest > EPS) & (wsum > 0)
        if not live.any():
            break
        if not live.all():  # keep only the undecided intervals
            idx, rest, active, wsum = idx[live], rest[live], active[live], wsum[live]
        need = wa[idx] - g[idx]
        share = np.where(active, (rest / wsum)[:, None] * w, 0.0)
        give = np.minimum(share, need)
        g[idx] += give
        rest = rest - give.sum(axis=1)
        active = active & (need - give > EPS)
    out[rows] = g
    return out


def _simulate_block(demand: np.ndarray, s: FrameSettings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One block of intervals: demand (P, T) -> granted (P, T), idle (T,), capacity (T,)."""
    parts = s.partitions
    d = np.maximum(np.nan_to_num(demand, nan=0.0), 0.0).T  # (T, P): rows are intervals
    T, P = d.shape
    ded = np.array([p.dedicated for p in parts], dtype=bool)
    ec = np.array([0.0 if p.dedicated else min(p.ec, p.vp) for p in parts])
    ceiling = np.array([p.ceiling for p in parts])
    weight = np.array([p.weight if (p.uncapped and not p.dedicated) else 0.0 for p in parts])
    pool_of = np.array([p.pool for p in parts])
    granted = np.zeros_like(d)
    # dedicated partitions run on their own processors; donors give the rest to the shared pool
    if ded.any():
        granted[:, ded] = np.minimum(d[:, ded], ceiling[ded])
    donors = ded & np.array([p.donating for p in parts], dtype=bool)
    donated = (ceiling[donors] - granted[:, donors]).sum(axis=1) if donors.any() else np.zeros(T)
    capacity = s.cores + donated
    sh = ~ded
    # 1. entitlement first (scaled down only when the settings over-commit the pool)
    base = np.minimum(d[:, sh], ec[sh])
    over = base.sum(axis=1) > capacity + EPS
    if over.any():
        base[over] *= (capacity[over] / base[over].sum(axis=1))[:, None]
    granted[:, sh] = base
    want = np.where(weight > 0, np.minimum(d, ceiling) - granted, 0.0)
    want[:, ded] = 0.0
    want = np.maximum(want, 0.0)
    # 2. each pool's unused entitlement and reserve to its own uncapped partitions, within its maximum
    pool_ids = sorted({int(x) for x in pool_of[sh]})
    for pid in pool_ids:
        cols = np.flatnonzero(sh & (pool_of == pid))
        pl = s.pools.get(pid)
        reserved = pl.reserved_units if pl else 0.0
        own = ec[cols].sum() + reserved - granted[:, cols].sum(axis=1)
        if pl is not None and pl.max_units is not None:
            own = np.minimum(own, pl.max_units - granted[:, cols].sum(axis=1))
        room = np.maximum(capacity - granted.sum(axis=1), 0.0)
        extra = fill(want[:, cols], weight[cols], np.minimum(np.maximum(own, 0.0), room))
        granted[:, cols] += extra
        want[:, cols] -= extra
    # 3. what is still idle, frame-wide by weight; a pool's level is bounded by its maximum first
    eff = want.copy()
    for pid in pool_ids:
        pl = s.pools.get(pid)
        if pl is None or pl.max_units is None:
            continue
        cols = np.flatnonzero(sh & (pool_of == pid))
        head = np.maximum(pl.max_units - granted[:, cols].sum(axis=1), 0.0)
        eff[:, cols] = fill(want[:, cols], weight[cols], head)
    free = np.maximum(capacity - granted[:, sh].sum(axis=1), 0.0)
    granted += fill(eff, weight, free)
    idle = capacity - granted[:, sh].sum(axis=1)
    return granted.T, idle, capacity


def simulate(demand: np.ndarray, settings: FrameSettings, chunk: int = CHUNK,
             dtype: type = np.float64) -> Replay:
    """Replay ``demand`` (P, T) cores wanted per partition and interval under ``settings``.

    Blocks of ``chunk`` intervals are computed in float64; results are stored as ``dtype``
    (float32 halves the memory of a year at one-minute intervals)."""
    demand = np.asarray(demand)
    if demand.ndim != 2 or demand.shape[0] != len(settings.partitions):
        raise ValueError(f"demand of shape {demand.shape} for {len(settings.partitions)} partitions")
    P, T = demand.shape
    granted = np.empty((P, T), dtype=dtype)
    unmet = np.empty((P, T), dtype=dtype)
    idle = np.empty(T)
    capacity = np.empty(T)
    for a in range(0, T, chunk):
        b = min(T, a + chunk)
        block = np.asarray(demand[:, a:b], dtype=np.float64)
        g, idle[a:b], capacity[a:b] = _simulate_block(block, settings)
        granted[:, a:b] = g
        u = np.maximum(np.nan_to_num(block, nan=0.0) - g, 0.0)
        u[u < 1e-7] = 0.0
        unmet[:, a:b] = u
    pool_use = {}
    for pid in sorted({p.pool for p in settings.partitions if not p.dedicated}):
        rows = [i for i, p in enumerate(settings.partitions) if p.pool == pid and not p.dedicated]
        pool_use[pid] = granted[rows].sum(axis=0)
    return Replay([p.name for p in settings.partitions], granted, unmet, idle, capacity, pool_use,
                  settings.problems())
