"""Store and fleet benchmark: a year of 1-minute nmon data for 50 partitions, then
"P95 physc per partition per month" from the store, with DuckDB and with Spark local mode.

    python bench/bench_store.py [--partitions 50] [--days 365] [--work /tmp/lparscope-bench-store]
                                [--skip-spark] [--master local[2]] [--keep-store] [--reuse-fleet]
                                [--months N]

Steps, each timed as a whole process (so start-up costs count):
1. generate one nmon recording per partition and month (topas_nmon -s 60: AAA header, LPAR and
   CPU_ALL sections; deterministic) unless the folder already holds them;
2. ``lparscope fleet ingest`` with DuckDB, then with Spark, into the Parquet layout (one file per
   host and month, usage_monthly.parquet kept) -- the same job on the same input;
3. the store: ``lparscope store ingest`` of each month (a whole collection with its analysis and
   the usage summary); ``--keep-store`` keeps a store already there (a store of an older schema is
   migrated: the summary is built from its series, timed);
4. "P95 physc per partition per month" from the store: ``lparscope store usage`` (reads the
   summary; target <= 5 s), and the raw scan of the store's series for reference;
5. the raw monthly P95 scan over the fleet layout with DuckDB (SQL) and with Spark (a task per
   host-month; and Spark SQL's percentile for reference), then the whole usage summary job with
   each engine (target: Spark within 3x DuckDB), checking the answers agree.

``--months N`` uses only the first N months' recordings (a subset: say so when you quote it).
The machine is shared (2 cores, other jobs running): run it two or three times and read ratios
within one run.
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
import json, sys, time
from lparscope.store.fleet import monthly_p95_duckdb
t = time.perf_counter(); rows = monthly_p95_duckdb(sys.argv[1]); q = time.perf_counter() - t
print(json.dumps(rows)); print(len(rows), repr(q))
"""
QUERY_STORE_RAW = """
import json, sys, time
from pathlib import Path
from lparscope.store.db import connect
from lparscope.store.fleet import MONTHLY_P95
from lparscope.store.query import series_relation
t = time.perf_counter()
con = connect(Path(sys.argv[1]), read_only=True)
rows = con.execute(MONTHLY_P95.format(src=series_relation(con, Path(sys.argv[1])))).fetchall()
print(json.dumps(rows)); print(len(rows), repr(time.perf_counter() - t))
"""
QUERY_SPARK = """
import json, sys, time
from lparscope.store.fleet_spark import monthly_p95_spark, session
s = session(sys.argv[2])
t = time.perf_counter(); rows = monthly_p95_spark(s, sys.argv[1]); q = time.perf_counter() - t
s.stop(); print(json.dumps(rows)); print(len(rows), repr(q))
"""
QUERY_SPARK_SQL = QUERY_SPARK.replace("monthly_p95_spark", "monthly_p95_spark_sql")
SUMMARY_DUCKDB = """
import sys, time
from lparscope.store.fleet import usage_duckdb
t = time.perf_counter(); n = usage_duckdb(sys.argv[1]).num_rows; print(n, repr(time.perf_counter() - t))
"""
SUMMARY_SPARK = """
import sys, time
from lparscope.store.fleet_spark import session, usage_spark
s = session(sys.argv[2])
t = time.perf_counter(); n = usage_spark(s, sys.argv[1]).num_rows; q = time.perf_counter() - t
s.stop(); print(n, repr(q))
"""
OPEN_STORE = """
import json, sys, time
from pathlib import Path
from lparscope.store.db import connect, schema_version
import duckdb
c = duckdb.connect(sys.argv[1], read_only=True); before = schema_version(c); c.close()
t = time.perf_counter(); con = connect(Path(sys.argv[1])); took = time.perf_counter() - t
print(before, schema_version(con), con.execute("SELECT count(*) FROM usage_monthly").fetchone()[0], repr(took))
"""


def answer(out: str) -> tuple[list, float]:
    """(rows, query seconds) printed by the QUERY_* scripts (rows: host, month, samples, p95)."""
    import json

    lines = out.strip().splitlines()
    return [tuple(r) for r in json.loads(lines[-2])], float(lines[-1].split()[1])


def same(a: list, b: list) -> bool:
    import math

    return len(a) == len(b) and all(x[:3] == y[:3] and math.isclose(x[3], y[3], rel_tol=1e-9) for x, y in zip(a, b))


def subset(nmon: Path, months: int | None, work: Path) -> Path:
    """The first ``months`` month folders (hard links: store ingest skips symbolic links), or the whole folder."""
    if not months:
        return nmon
    part = work / f"{nmon.name}-first{months}"
    shutil.rmtree(part, ignore_errors=True)
    part.mkdir(parents=True)
    for m in sorted(p for p in nmon.iterdir() if p.is_dir())[:months]:
        (part / m.name).mkdir()
        for f in m.iterdir():
            os.link(f, part / m.name / f.name)
    return part


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--partitions", type=int, default=50)
    ap.add_argument("--days", type=int, default=365)
    ap.add_argument("--work", type=Path, default=Path("/tmp/lparscope-bench-store"))
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--skip-spark", action="store_true")
    ap.add_argument("--keep-store", action="store_true", help="keep (and migrate) a store already built")
    ap.add_argument("--reuse-fleet", action="store_true", help="keep both engines' fleet outputs (no ingest)")
    ap.add_argument("--months", type=int, default=None, help="only the first N months of recordings")
    a = ap.parse_args()
    nmon = a.work / f"nmon-{a.partitions}x{a.days}"
    print(f"{a.partitions} partitions x {a.days} days of 1-minute snapshots "
          f"({a.partitions * a.days * 1440:,} rows); {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} "
          "(shared machine: other jobs run beside this)")
    t0 = time.perf_counter()
    generate(nmon, a.partitions, a.days)
    size = sum(p.stat().st_size for p in nmon.rglob("*.nmon"))
    print(f"{'generate (skipped when present)':<46} {time.perf_counter() - t0:8.1f} s  ({size / 1e9:.2f} GB of nmon)")
    src = subset(nmon, a.months, a.work)
    if a.months:
        print(f"SUBSET: first {a.months} month(s) only ({src})")
    lp = [sys.executable, "-m", "lparscope.cli"]
    tag = f"-first{a.months}" if a.months else ""
    duck, spark = a.work / f"fleet-duckdb{tag}", a.work / f"fleet-spark{tag}"
    store = a.work / f"store{tag}" / "s.duckdb"
    reuse = a.reuse_fleet and all((d / "usage_monthly.parquet").exists() for d in (duck, spark))
    ingest_d = ingest_s = None
    if reuse:
        print("fleet ingest: both engines' outputs reused (--reuse-fleet)")
    else:
        for d in (duck, spark):
            shutil.rmtree(d, ignore_errors=True)
        ingest_d, _ = timed("fleet ingest --engine duckdb", [*lp, "fleet", "ingest", str(src), "--out", str(duck)])
    if not a.skip_spark and not reuse:
        ingest_s, _ = timed(f"fleet ingest --engine spark --master {a.master}",
                            [*lp, "fleet", "ingest", str(src), "--out", str(spark), "--engine", "spark",
                             "--master", a.master])
    files = sum(1 for _ in (duck / "series").rglob("*.parquet"))
    print(f"  fleet layout: {files} Parquet file(s) (one per host and month)")
    if a.keep_store and store.exists():
        _, out = timed("store kept: open for writing (migrates)", [sys.executable, "-c", OPEN_STORE, str(store)])
        before, after, rows, took = out.split()
        print(f"  schema {before} -> {after}; {rows} summary row(s); migration {float(took):.1f} s")
    else:
        shutil.rmtree(store.parent, ignore_errors=True)
        for m in sorted(p for p in src.iterdir() if p.is_dir()):
            timed(f"store ingest {m.name}", [*lp, "store", "ingest", str(m), "--store", str(store)])
    total_u, out = timed("store usage (summary; process)", [*lp, "store", "usage", "--store", str(store), "--json", "-"])
    import json

    summary = [(r["host"], r["month"], r["samples"], r["physc_p95"]) for r in json.loads(out)]
    print(f"  {len(summary)} rows  (target <= 5 s for the whole process)")
    _, out = timed("store raw scan of the series (process)", [sys.executable, "-c", QUERY_STORE_RAW, str(store)])
    raw_store, q_rs = answer(out)
    print(f"  {len(raw_store)} rows; query alone {q_rs:.2f} s; equal to the summary: {same(raw_store, summary)}")
    total_d, out = timed("fleet raw scan: DuckDB (process)", [sys.executable, "-c", QUERY_DUCKDB, str(duck)])
    raw_d, q_d = answer(out)
    print(f"  {len(raw_d)} rows; query alone {q_d:.2f} s; equal to the store's summary: {same(raw_d, summary)}")
    if a.skip_spark:
        return
    total_sp, out = timed(f"fleet raw scan: Spark {a.master}, task per host-month (process)",
                          [sys.executable, "-c", QUERY_SPARK, str(spark), a.master])
    raw_sp, q_sp = answer(out)
    print(f"  {len(raw_sp)} rows; query alone {q_sp:.2f} s; equal to DuckDB's: {same(raw_sp, raw_d)}")
    total_sq, out = timed(f"fleet raw scan: Spark {a.master}, Spark SQL percentile (process)",
                          [sys.executable, "-c", QUERY_SPARK_SQL, str(spark), a.master])
    raw_sq, q_sq = answer(out)
    print(f"  {len(raw_sq)} rows; query alone {q_sq:.2f} s; equal to DuckDB's: {same(raw_sq, raw_d)}")
    sum_d, out = timed("fleet usage summary job: DuckDB (process)", [sys.executable, "-c", SUMMARY_DUCKDB, str(duck)])
    sq_d = float(out.split()[1])
    sum_s, out = timed(f"fleet usage summary job: Spark {a.master} (process)",
                       [sys.executable, "-c", SUMMARY_SPARK, str(spark), a.master])
    sq_s = float(out.split()[1])
    print(f"  job alone: DuckDB {sq_d:.2f} s, Spark {sq_s:.2f} s")
    ing = f"ingest {ingest_s / ingest_d:.2f}x, " if ingest_s and ingest_d else "ingest not measured (reused), "
    print(f"ratio Spark/DuckDB (target: within 3x): {ing}P95 scan process {total_sp / total_d:.2f}x, alone "
          f"{q_sp / q_d:.2f}x; Spark SQL P95 scan process {total_sq / total_d:.2f}x, alone {q_sq / q_d:.2f}x; "
          f"summary job process {sum_s / sum_d:.2f}x, alone {sq_s / sq_d:.2f}x; load now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
