"""Store and fleet benchmark: a year of 1-minute nmon data for 50 partitions, then
"P95 physc per partition per month" from the store, with DuckDB and with Spark local mode.

    python bench/bench_store.py [--partitions 50] [--days 365] [--work /tmp/lparscope-bench-store]
                                [--skip-spark] [--master local[2]]

Steps, each timed as a whole process (so start-up costs count):
1. generate one nmon recording per partition and month (topas_nmon -s 60: AAA header, LPAR and
   CPU_ALL sections; deterministic) unless the folder already holds them;
2. ``lparscope fleet ingest --engine duckdb`` into the Parquet layout, then
   ``lparscope store ingest`` of one month (a whole collection with its analysis) for scale;
3. the monthly P95 query with DuckDB over the layout (target: <= 5 s);
4. ``fleet ingest --engine spark`` and the same query with Spark on the same data (target: within
   3x DuckDB), checking both answers agree.

The machine is shared (2 cores, other jobs running): run it two or three times and read ratios.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

LPAR_HEAD = ("LPAR,Logical Partition {h},PhysicalCPU,virtualCPUs,logicalCPUs,poolCPUs,entitled,weight,"
             "PoolIdle,usedAllCPU%,usedPoolCPU%,SharedCPU,Capped,EC_User%,EC_Sys%,EC_Wait%,EC_Idle%,"
             "VP_User%,VP_Sys%,VP_Wait%,VP_Idle%,Folded,Pool_id")
CPU_HEAD = "CPU_ALL,CPU Total {h},User%,Sys%,Wait%,Idle%,Busy,PhysicalCPUs"


def write_month(path: Path, host: str, serial: str, start: dt.datetime, minutes: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    ec = 0.5 + (seed % 8) * 0.25
    t = np.arange(minutes)
    tod = ((start.hour * 60 + start.minute + t) % 1440) / 1440.0
    day_shape = np.where((tod > 8 / 24) & (tod < 18.5 / 24), 1.0, 0.25)
    trend = 1.0 + 0.1 * (t / (365 * 1440))
    physc = np.clip(ec * 1.4 * day_shape * trend + rng.normal(0, 0.08 * ec, minutes), 0.01, 8.0)
    user = np.clip(physc / 8 * 70, 0, 95)
    lines = [f"AAA,progname,topas_nmon", f"AAA,host,{host}", "AAA,interval,60", f"AAA,snapshots,{minutes}",
             f"AAA,SerialNumber,{serial}", "AAA,MachineType,IBM,9080-M9S", f"AAA,NodeName,{host}",
             f"AAA,date,{start:%d-%b-%Y}".upper().replace("AAA,DATE", "AAA,date"),
             LPAR_HEAD.format(h=host), CPU_HEAD.format(h=host)]
    out = open(path, "w", encoding="ascii")
    out.write("\n".join(lines) + "\n")
    stamps = [start + dt.timedelta(minutes=int(i)) for i in range(minutes)]
    chunk = []
    for i in range(minutes):
        s = stamps[i]
        n = f"T{i + 1:04d}" if i < 9999 else f"T{i + 1}"
        p = physc[i]
        chunk.append(f"ZZZZ,{n},{s:%H:%M:%S},{s:%d-%b-%Y}".upper().replace("ZZZZ,T", "ZZZZ,T"))
        chunk.append(f"LPAR,{n},{p:.3f},8,32,64,{ec:.2f},128,{64 - p * 10:.3f},{p / 64 * 100:.2f},"
                     f"{p / 64 * 100:.2f},1,0,50,10,1,39,40,8,1,51,0,0")
        chunk.append(f"CPU_ALL,{n},{user[i]:.1f},{user[i] / 5:.1f},0.5,{100 - user[i] * 1.2 - 0.5:.1f},,32")
        if len(chunk) > 30000:
            out.write("\n".join(chunk) + "\n")
            chunk = []
    out.write("\n".join(chunk) + "\n")
    out.close()


def generate(folder: Path, partitions: int, days: int) -> None:
    start = dt.datetime(2025, 1, 1)
    end = start + dt.timedelta(days=days)
    for p in range(partitions):
        host = f"lpar{p:03d}"
        month = start
        while month < end:
            nxt = (month.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
            stop = min(nxt, end)
            minutes = int((stop - month).total_seconds() // 60)
            path = folder / f"{month:%Y-%m}" / f"{host}_{month:%Y%m}.nmon"
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                write_month(path, host, f"78{p % 5:05d}", month, minutes, seed=p * 1000 + month.month)
            month = nxt


def timed(label: str, argv: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    took = time.perf_counter() - t0
    if done.returncode != 0:
        print(done.stdout[-2000:], done.stderr[-4000:], file=sys.stderr)
        raise SystemExit(f"{label} failed ({done.returncode})")
    print(f"{label:<46} {took:8.1f} s", flush=True)
    return took, done.stdout


QUERY_DUCKDB = """
import sys, time
from lparscope.store.fleet import monthly_p95_duckdb
t = time.perf_counter(); rows = monthly_p95_duckdb(sys.argv[1]); q = time.perf_counter() - t
print(len(rows), repr(q)); print(repr(rows[:3]))
"""
QUERY_STORE = """
import sys, time
from pathlib import Path
from lparscope.store.db import connect
from lparscope.store.fleet import MONTHLY_P95
from lparscope.store.query import series_relation
t = time.perf_counter()
con = connect(Path(sys.argv[1]), read_only=True)
rows = con.execute(MONTHLY_P95.format(src=series_relation(con, Path(sys.argv[1])))).fetchall()
print(len(rows), repr(time.perf_counter() - t))
"""
QUERY_SPARK = """
import sys, time
from lparscope.store.fleet_spark import monthly_p95_spark, session
s = session(sys.argv[2])
t = time.perf_counter(); rows = monthly_p95_spark(s, sys.argv[1]); q = time.perf_counter() - t
print(len(rows), repr(q)); print(repr(rows[:3])); s.stop()
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--partitions", type=int, default=50)
    ap.add_argument("--days", type=int, default=365)
    ap.add_argument("--work", type=Path, default=Path("/tmp/lparscope-bench-store"))
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--skip-spark", action="store_true")
    a = ap.parse_args()
    nmon = a.work / f"nmon-{a.partitions}x{a.days}"
    print(f"{a.partitions} partitions x {a.days} days of 1-minute snapshots "
          f"({a.partitions * a.days * 1440:,} rows); {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} "
          "(shared machine: other jobs run beside this)")
    t0 = time.perf_counter()
    generate(nmon, a.partitions, a.days)
    size = sum(p.stat().st_size for p in nmon.rglob("*.nmon"))
    print(f"{'generate (skipped when present)':<46} {time.perf_counter() - t0:8.1f} s  ({size / 1e9:.2f} GB of nmon)")
    lp = [sys.executable, "-m", "lparscope.cli"]
    duck, spark, store = a.work / "fleet-duckdb", a.work / "fleet-spark", a.work / "store" / "s.duckdb"
    for d in (duck, spark, store.parent):
        shutil.rmtree(d, ignore_errors=True)
    ingest_d, _ = timed("fleet ingest --engine duckdb", [*lp, "fleet", "ingest", str(nmon), "--out", str(duck)])
    months = sorted(p for p in nmon.iterdir() if p.is_dir())
    for m in months:
        timed(f"store ingest {m.name}", [*lp, "store", "ingest", str(m), "--store", str(store)])
    total_d, out = timed("P95 per partition per month: DuckDB (process)", [sys.executable, "-c", QUERY_DUCKDB, str(duck)])
    n_d, q_d = out.strip().splitlines()[-2].split()
    print(f"  {n_d} rows; query alone {float(q_d):.2f} s")
    total_s, out = timed("same from the store catalogue (process)", [sys.executable, "-c", QUERY_STORE, str(store)])
    n_s, q_s = out.split()
    print(f"  {n_s} rows; query alone {float(q_s):.2f} s  (target <= 5 s)")
    if a.skip_spark:
        return
    ingest_s, _ = timed("fleet ingest --engine spark", [*lp, "fleet", "ingest", str(nmon), "--out", str(spark),
                                                        "--engine", "spark", "--master", a.master])
    total_sp, out_sp = timed("P95 per partition per month: Spark (process)",
                             [sys.executable, "-c", QUERY_SPARK, str(spark), a.master])
    n_sp, q_sp = out_sp.splitlines()[0].split()
    print(f"  {n_sp} rows; query alone {float(q_sp):.2f} s")
    print(f"ratio Spark/DuckDB: ingest {ingest_s / ingest_d:.2f}x, query process {total_sp / total_d:.2f}x, "
          f"query alone {float(q_sp) / float(q_d):.2f}x  (target: within 3x)")


if __name__ == "__main__":
    main()
