"""Benchmark: the pool replay on 200 partitions x 1 year x 1-minute intervals (105 M partition-intervals).

Run by hand (not part of the tests):

    python bench/bench_whatif.py                 # 200 partitions, 525600 intervals
    python bench/bench_whatif.py --partitions 50 --days 30

The frame: four shared pools (three named ones with a maximum, one with a reserve), capped and
uncapped partitions with weights from 1 to 255, four dedicated partitions (two donating), and a
demand that follows a day curve per partition with noise, so the pool is short at some peaks
(the slow path: weighted water-filling) and idle at night (the fast path). Seeded: always the
same load. Demand is float32 (420 MB at full size); results are stored as float32.

Prints the replay's wall time and CPU time (on a busy machine the CPU time is what a quiet
machine's wall time would be, numpy being single-threaded here), intervals per second, partition-intervals per second and the
process's peak resident memory (the whole process: demand, results and working blocks). The
target (issue 16) is <= 10 s and <= 2 GB on the 2-core development machine; that machine is
shared with other jobs, so compare runs on a quiet machine, or repeat (--runs).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

import numpy as np

from lparscope.simulate import FrameSettings, PartitionSettings, PoolSettings, simulate


def frame(n: int, rng: np.random.Generator) -> FrameSettings:
    parts = []
    for i in range(n):
        dedicated = i < 4
        vp = int(rng.integers(1, 9))
        ec = round(float(rng.uniform(0.1, 0.8)) * vp, 2)
        parts.append(PartitionSettings(
            f"lpar{i:03d}", ec=0.0 if dedicated else ec, vp=float(vp), uncapped=bool(rng.random() < 0.8),
            weight=float(rng.integers(1, 256)), pool=int(rng.integers(0, 4)), dedicated=dedicated,
            donating=dedicated and i % 2 == 0))
    ents = sum(p.ec for p in parts if not p.dedicated)
    pools = {}
    for k in (1, 2, 3):
        mine = sum(p.ec for p in parts if p.pool == k and not p.dedicated)
        pools[k] = PoolSettings(k, max_units=round(mine * 1.4, 1), reserved_units=2.0 if k == 3 else 0.0)
    return FrameSettings(round(ents * 1.1 + 2.0, 1), parts, pools)


def demand(s: FrameSettings, minutes: int, rng: np.random.Generator) -> np.ndarray:
    n = len(s.partitions)
    t = np.arange(minutes, dtype=np.float32)
    day = (0.5 - 0.5 * np.cos(2 * np.pi * (t % 1440) / 1440)).astype(np.float32)  # 0 at midnight, 1 at noon
    out = np.empty((n, minutes), dtype=np.float32)
    for i, p in enumerate(s.partitions):
        level = np.float32(rng.uniform(0.3, 1.8) * (p.ec or p.vp * 0.5))
        out[i] = level * (0.3 + 1.2 * day)
        out[i] += rng.standard_normal(minutes, dtype=np.float32) * np.float32(0.1 * level)
    np.maximum(out, 0, out=out)
    return out


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--partitions", type=int, default=200)
    ap.add_argument("--days", type=float, default=365)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(16)
    s = frame(args.partitions, rng)
    minutes = int(args.days * 1440)
    t0 = time.perf_counter()
    d = demand(s, minutes, rng)
    gen = time.perf_counter() - t0
    best = best_cpu = float("inf")
    for _ in range(args.runs):
        t0, c0 = time.perf_counter(), _cpu()
        r = simulate(d, s, dtype=np.float32)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, _cpu() - c0)
        starved = int((r.unmet > 0.01).any(axis=0).sum())
        short = int((r.idle <= 0.01).sum())
        del r
    cells = args.partitions * minutes
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"command: python bench/bench_whatif.py --partitions {args.partitions} --days {args.days:g}")
    print(f"{args.partitions} partitions x {minutes} intervals = {cells / 1e6:.1f} M partition-intervals "
          f"(demand generated in {gen:.1f} s)")
    print(f"replay: {best:.2f} s wall, {best_cpu:.2f} s CPU of this process (best of {args.runs}); "
          f"{cells / best / 1e6:.1f} M partition-intervals/s wall, {cells / best_cpu / 1e6:.1f} M/s CPU")
    print(f"intervals with a starved partition: {starved}; with no idle core in the shared pool: {short}")
    print(f"peak resident memory of the process: {peak_mb:.0f} MB")
    print("target: <= 10 s and <= 2048 MB (2-core machine, shared with other jobs while measured)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
