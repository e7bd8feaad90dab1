"""Benchmark the nmon reader against ``wc -l`` on the same file, in one run.

    python bench/bench_nmon.py [FILE]      # default: generate /tmp/lparscope-bench.nmon (~220 MB) first

Prints the throughput of ``wc -l`` and of ``read_nmon`` (MB/s, file size / wall time), their
ratio, and the reader's peak memory: Python allocations (tracemalloc, in a separate run since
tracing slows the reader) and the process peak resident set (ru_maxrss, which includes numpy
and Arrow buffers). The targets of issue 6: >= 250 MB/s, peak <= 1.5 x file size + 200 MB.

Both paths of the reader are measured when the optional native core (built by ``pip install`` when cargo is on PATH)
is installed: ``native`` (the default) and ``pure`` (numpy + Arrow, ``LPARSCOPE_NMON_NATIVE=0``);
``--path native|pure`` measures one. Each run is a fresh process; the best of ``--runs`` is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = Path("/tmp/lparscope-bench.nmon")


def _wc(path: Path) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run(["wc", "-l", str(path)], check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t)
    return best


def _child(path: str, mode: str) -> None:
    """Run the reader once in this (fresh) process and print a JSON line of measures."""
    from lparscope.nmon import read_nmon

    if mode == "trace":
        tracemalloc.start()
    t = time.perf_counter()
    rec = read_nmon(path)
    wall = time.perf_counter() - t
    out = {
        "wall": wall,
        "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "tables": len(rec.tables),
        "snapshots": rec.snapshots,
        "values": int(sum(t.values.size for t in rec.tables.values())),
        "warnings": len(rec.warnings),
    }
    if mode == "trace":
        out["tracemalloc_peak_mb"] = tracemalloc.get_traced_memory()[1] / 1e6
    print(json.dumps(out))


def _run_child(path: Path, mode: str, native: bool) -> dict:
    env = dict(os.environ, LPARSCOPE_NMON_NATIVE="1" if native else "0")
    res = subprocess.run([sys.executable, __file__, "--child", mode, str(path)], check=True,
                         capture_output=True, text=True, env=env)
    return json.loads(res.stdout.strip().splitlines()[-1])


def _native_available() -> bool:
    from lparscope.nmon import native

    return native.available()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path)
    ap.add_argument("--size-mb", type=float, default=220.0, help="size of the generated file")
    ap.add_argument("--runs", type=int, default=3, help="timed reader runs (best is reported)")
    ap.add_argument("--path", choices=["both", "native", "pure"], default="both",
                    help="reader path(s) to measure (native needs cargo at install time)")
    ap.add_argument("--child", choices=["time", "trace"], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(str(args.file), args.child)
        return 0
    path = args.file or DEFAULT
    if not path.exists():
        subprocess.run([sys.executable, str(HERE / "nmon_gen.py"), str(path), "--size-mb", str(args.size_mb)],
                       check=True)
    size = path.stat().st_size
    mb = size / 1e6
    subprocess.run(["cat", str(path)], check=True, stdout=subprocess.DEVNULL)  # warm the page cache
    wc = _wc(path)
    paths = ["native", "pure"] if args.path == "both" else [args.path]
    if "native" in paths and not _native_available():
        print("native core not built (no cargo at install): measuring the pure path only")
        paths = ["pure"]
    limit = 1.5 * size / 2**20 + 200
    results = {}
    for which in paths:
        runs = [_run_child(path, "time", which == "native") for _ in range(max(1, args.runs))]
        trace = _run_child(path, "trace", which == "native")
        results[which] = (min(runs, key=lambda r: r["wall"]), runs, trace)
    best0 = next(iter(results.values()))[0]
    print(f"file               {path}  {mb:.1f} MB, {best0['snapshots']} snapshots, {best0['tables']} tables, "
          f"{best0['values']:,} values, {best0['warnings']} warnings")
    print(f"wc -l              {wc:.3f} s   {mb / wc:8.0f} MB/s")
    for which, (best, runs, trace) in results.items():
        rss = max(r["maxrss_mb"] for r in runs)
        label = f"read_nmon {which}"
        print(f"{label:<18} {best['wall']:.3f} s   {mb / best['wall']:8.0f} MB/s   "
              f"(runs: {', '.join('%.2f' % r['wall'] for r in runs)} s; cores: {os.cpu_count()})")
        print(f"  ratio reader/wc  {(mb / best['wall']) / (mb / wc):.3f}   (wc -l is {best['wall'] / wc:.1f}x faster)")
        print(f"  peak memory      ru_maxrss {rss:.0f} MiB, tracemalloc peak {trace['tracemalloc_peak_mb']:.0f} MB "
              f"(limit 1.5 x file + 200 MB = {limit:.0f} MiB)")
        print(f"  targets          throughput >= 250 MB/s: {'yes' if mb / best['wall'] >= 250 else 'NO'}; "
              f"memory: {'yes' if rss <= limit else 'NO'}")
    if len(results) == 2:
        same = {k: results["native"][0][k] for k in ("tables", "snapshots", "values", "warnings")} == \
               {k: results["pure"][0][k] for k in ("tables", "snapshots", "values", "warnings")}
        print(f"native / pure      {results['pure'][0]['wall'] / results['native'][0]['wall']:.1f}x faster; "
              f"same tables, snapshots, values and warnings: {'yes' if same else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
