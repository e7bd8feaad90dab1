"""Write examples/estate/hmc1/lslparutil_lpar.txt: one day of HMC utilisation samples of p9frame1.

Invented, deterministic (fixed seed): a demand curve per partition of the shared pool, turned into
what the HMC would have measured under today's settings (examples/README.md), then into the
cumulative cycle counters ``lslparutil -r lpar`` prints, newest sample first, every 5 minutes.

The story: aix1 (OLTP) and aix3 (application server) are busy from 08:30 to 18:00 and their peaks
meet around 11:00 and 14:30, when the 16-core pool runs out; aix2 (batch) runs from 22:00 to
04:00 and sits at its cap of 2.00 all night (it wanted about 3 cores); vios2 (capped at 1.00)
touches its cap during the 01:00 backup; vios1 and aix4 stay within reach of their settings.
The dedicated partition db1 keeps its 4 processors and is not sampled here.

    python examples/make_hmc1_lslparutil.py
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np

OUT = Path(__file__).parent / "estate" / "hmc1" / "lslparutil_lpar.txt"
SYSTEM, POOL_CORES, INTERVAL, SAMPLES = "p9frame1", 16.0, 300, 289
START = dt.datetime(2026, 11, 19, 0, 0, 0)
TIMEBASE = 512_000_000  # time_cycles per second
# name, id, EC, VPs, sharing mode, weight, memory MB
PARTS = [("vios1", 1, 1.0, 3, "uncap", 255, 3072), ("vios2", 2, 1.0, 2, "cap", 0, 4096),
         ("aix1", 3, 0.5, 12, "uncap", 128, 65536), ("aix2", 4, 2.0, 2, "cap", 0, 16384),
         ("aix3", 5, 1.0, 24, "uncap", 64, 16384), ("aix4", 6, 2.0, 3, "uncap", 128, 32768)]


def _bump(hours: np.ndarray, centre: float, width: float) -> np.ndarray:
    return np.exp(-0.5 * ((hours - centre) / width) ** 2)


def demand(rng: np.random.Generator) -> np.ndarray:
    """Cores each partition wanted, per 5-minute interval (rows in PARTS order)."""
    h = np.arange(SAMPLES) * INTERVAL / 3600.0
    day = ((h >= 8.5) & (h < 18.0)).astype(float)
    night = ((h >= 22.0) | (h < 4.0)).astype(float)
    noise = lambda s: rng.normal(0.0, s, SAMPLES)  # noqa: E731
    d = np.vstack([
        0.35 + 0.55 * day + 0.5 * _bump(h, 1.2, 0.4) + noise(0.05),  # vios1: I/O follows the day
        0.25 + 0.3 * day + 0.95 * _bump(h, 1.2, 0.35) + noise(0.04),  # vios2: NPIV backup at 01:00
        0.6 + day * (3.8 + 3.0 * _bump(h, 11.0, 0.7) + 2.6 * _bump(h, 14.5, 0.6)) + noise(0.15),  # aix1
        0.4 + 2.7 * night + noise(0.08),  # aix2: night batch wants ~3 cores
        0.5 + day * (3.0 + 4.5 * _bump(h, 11.1, 0.6) + 4.0 * _bump(h, 14.6, 0.5)) + noise(0.2),  # aix3
        0.9 + 0.9 * day + noise(0.1),  # aix4
    ])
    return np.clip(d, 0.05, None)


def measured(d: np.ndarray) -> np.ndarray:
    """What the partitions got: entitlement first, capped ones stop at EC, uncapped ones at
    their VPs, and when the pool is short the part above EC is shared in proportion to weight
    (one interval at a time, plain loops)."""
    out = np.zeros_like(d)
    for k in range(d.shape[1]):
        got = [min(d[i, k], p[2]) for i, p in enumerate(PARTS)]
        want = {i: min(d[i, k], p[3]) - got[i] for i, p in enumerate(PARTS) if p[4] == "uncap"}
        spare = POOL_CORES - sum(got)
        while spare > 1e-9 and any(v > 1e-9 for v in want.values()):
            hungry = [i for i, v in want.items() if v > 1e-9]
            total_w = sum(PARTS[i][5] for i in hungry)
            share = {i: spare * PARTS[i][5] / total_w for i in hungry}
            for i in hungry:
                give = min(share[i], want[i])
                got[i] += give
                want[i] -= give
                spare -= give
        out[:, k] = got
    return np.round(out, 3)


def main() -> None:
    rng = np.random.default_rng(16)
    use = measured(demand(rng))
    lines = [f"hscroot@hmc1:~> lslparutil -r lpar -m {SYSTEM} -n {SAMPLES}"]
    cum = {p[0]: [0.0, 0.0, 0.0, 0.0] for p in PARTS}  # entitled, capped, uncapped, idle
    rows: list[str] = []
    for k in range(SAMPLES):
        t = START + dt.timedelta(seconds=k * INTERVAL)
        tc = 3_785_641_241_622_855 + k * INTERVAL * TIMEBASE
        for i, (name, pid, ec, vps, mode, weight, mem) in enumerate(PARTS):
            c = cum[name]
            if k:
                u = float(use[i, k])
                c[0] += ec * INTERVAL * TIMEBASE
                c[1] += min(u, ec) * INTERVAL * TIMEBASE
                c[2] += max(0.0, u - ec) * INTERVAL * TIMEBASE
                c[3] += max(0.0, vps - u) * INTERVAL * TIMEBASE
            stamp = t.strftime("%m/%d/%Y %H:%M:%S")
            rows.append(
                f"time={stamp},event_type=sample,resource_type=lpar,sys_time={stamp},time_cycles={tc},"
                f"lpar_name={name},lpar_id={pid},curr_proc_mode=shared,curr_proc_units={ec},curr_procs={vps},"
                f"curr_sharing_mode={mode},curr_uncap_weight={weight},curr_shared_proc_pool_name=DefaultPool,"
                f"curr_shared_proc_pool_id=0,mem_mode=ded,curr_mem={mem},entitled_cycles={int(c[0])},"
                f"capped_cycles={int(c[1])},uncapped_cycles={int(c[2])},idle_cycles={int(c[3])}")
    # lslparutil lists the newest sample first
    n = len(PARTS)
    blocks = [rows[j:j + n] for j in range(0, len(rows), n)]
    for b in reversed(blocks):
        lines.extend(b)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(lines) - 1} samples)")


if __name__ == "__main__":
    main()
