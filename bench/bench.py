"""The speed benchmark of issue 14, in one run: nmon files of both shapes and a many-hosts estate.

    python bench/bench.py [--dir DIR] [--runs N] [--skip-pure] [--hosts 100,1000]

Inputs (generated into ``--dir`` once, seeded, then reused; never commit them):

- ``long.nmon``: a long recording, 45,000 one-minute snapshots of a small LPAR (8 disks, ~215 MB);
- ``wide.nmon``: a wide one, 400 disks over DISK*/DISK*1/DISK*2, 32 logical CPUs (~230 MB);
- ``estate-<N>``: the example estate copied until it has N hosts, every copy with its own host
  names, its own frame (managed-system name and serial) and its own partition names.

Every measure is a whole process (start-up included), timed from outside, with its peak RSS
(``wait4``): ``wc -l`` and ``cat`` of the same bytes as the baselines, the nmon reader
(``read_nmon``, native core and pure path), ``lparscope analyze`` of one file, of the estates,
and ``lparscope --version``. Each line gives seconds, MB/s, the ratio to ``cat`` (and to the
reader), and peak memory. With ``--runs N`` the best of N is kept; the native reader and
``analyze`` of one file alternate, and their ratio is the median of the N pairs. The machine may
be shared: compare ratios inside one run, not seconds between runs.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent / "examples" / "estate"
PY = sys.executable
LPARSCOPE = str(Path(PY).parent / "lparscope")
READER = "import sys; from lparscope.nmon import read_nmon; r = read_nmon(sys.argv[1]); print(len(r.tables))"


def run(cmd: list[str], env: dict | None = None, stdout=subprocess.DEVNULL) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(seconds, peak RSS in MiB) of one whole process."""
    took, _, rss = run_usage(cmd, env, stdout)
    return took, rss


def run_usage(cmd: list[str], env: dict | None = None, stdout=subprocess.DEVNULL) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    """(seconds, CPU seconds of the process and the children it waited for, peak RSS in MiB) of one whole process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    took = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"failed ({status}): {' '.join(cmd)}")
    return took, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def best(cmd: list[str], runs: int, env: dict | None = None) -> tuple[float, float]:
    got = [run(cmd, env) for _ in range(runs)]
    return min(t for t, _ in got), max(m for _, m in got)


# --- inputs ---------------------------------------------------------------------------------


def nmon_file(d: Path, shape: str) -> Path:
    out = d / f"{shape}.nmon"
    if not out.exists():
        args = (["--snapshots", "45000", "--disks", "8", "--lcpus", "16", "--procs", "10", "--seed", "2"]
                if shape == "long" else ["--size-mb", "220", "--disks", "400", "--lcpus", "32", "--seed", "1"])
        print(f"generating {out} ...", flush=True)
        subprocess.run([PY, str(HERE / "nmon_gen.py"), str(out), *args], check=True)
    return out


def estate(d: Path, hosts: int) -> Path:
    """The example estate copied until it has ``hosts`` hosts, each copy on its own frame."""
    out = d / f"estate-{hosts}"
    if out.exists():
        return out
    tmp = d / f".estate-{hosts}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    host_dirs = sorted(p for p in EXAMPLE.iterdir() if p.is_dir())
    names = [p.name for p in host_dirs]
    texts = {(h.name, f.name): f.read_bytes() for h in host_dirs for f in sorted(h.iterdir()) if f.is_file()}
    frames = sorted({m for t in texts.values() for m in re.findall(rb"p9frame\d+", t)})
    serials = sorted({m for t in texts.values() for m in re.findall(rb"\b784C1D0\b", t)})
    pattern = re.compile(rb"\b(" + b"|".join(re.escape(n.encode()) for n in sorted(names + [x.decode() for x in frames + serials], key=len, reverse=True)) + rb")\b")
    copy = 0
    made = 0
    while made < hosts:
        def rename(m: re.Match) -> bytes:  # type: ignore[type-arg]
            word = m.group(1)
            if word in serials:
                return b"%07X" % (0x7000000 + copy)  # a serial of its own per frame
            return word + b"c%d" % copy
        for h in names:
            if made >= hosts:
                break
            target = tmp / f"{h}c{copy}"
            target.mkdir(parents=True)
            for (hn, fn), data in texts.items():
                if hn == h:
                    (target / fn).write_bytes(pattern.sub(rename, data))
            made += 1
        copy += 1
    tmp.rename(out)
    return out


def tree_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


# --- report ---------------------------------------------------------------------------------


def line(label: str, secs: float, size: int, rss: float, cat: float, extra: str = "") -> None:
    mbs = size / 1e6 / secs if secs else float("inf")
    print(f"  {label:<34} {secs:7.2f} s  {mbs:7.1f} MB/s  {secs / cat:6.1f} x cat  peak {rss:7.0f} MiB{extra}",
          flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=Path("/tmp/lparscope-bench"))
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--skip-pure", action="store_true", help="do not time the pure path")
    ap.add_argument("--hosts", default="100,500,1000", help="estate sizes (hosts), comma-separated")
    ap.add_argument("--no-serial", action="store_true", help="do not also time the estates in one process (LPARSCOPE_WORKERS=1)")
    ap.add_argument("--no-html", action="store_true", help="do not also time the estates with the HTML report (--html)")
    ap.add_argument("--only", choices=["nmon", "estate", "version"], action="append")
    args = ap.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    only = set(args.only or ["nmon", "estate", "version"])
    import compileall

    import lparscope
    from lparscope.nmon import native

    # Byte code as an installed package has it (pip compiles at install): a source tree run with
    # PYTHONDONTWRITEBYTECODE=1 would recompile every changed module in every timed process.
    compileall.compile_dir(Path(lparscope.__file__).parent, quiet=1)

    print(f"lparscope bench: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start "
          f"(shared machine: compare ratios within this run); native core: {'built' if native.available() else 'absent'}")
    pure = dict(os.environ, LPARSCOPE_NMON_NATIVE="0")
    if "nmon" in only:
        for shape in ("long", "wide"):
            f = nmon_file(args.dir, shape)
            size = f.stat().st_size
            print(f"\n{shape}: {f.name} {size / 1e6:.0f} MB, {sum(1 for _ in open(f, 'rb')):,} lines", flush=True)
            wc, wc_rss = best(["wc", "-l", str(f)], args.runs)
            cat, cat_rss = best(["cat", str(f)], args.runs)
            line("wc -l", wc, size, wc_rss, cat)
            line("cat", cat, size, cat_rss, cat)
            reader = [PY, "-c", READER, str(f)]
            analyze = [LPARSCOPE, "analyze", str(f), "-q", "--json", os.devnull]
            # The native reader and analyze alternate, so that the ratio is taken run by run (its
            # median), not from two best times that a noisy machine may give minutes apart.
            pairs = [(run(reader), run(analyze)) for _ in range(args.runs)] if native.available() else []
            if pairs:
                rss = max(r[1] for r, _ in pairs)
                line("read_nmon (native)", min(r[0] for r, _ in pairs), size, rss, cat,
                     f"  ({rss / (size / 2**20):.2f} x file)")
            if not args.skip_pure:
                t, rss = best(reader, args.runs, pure)
                line("read_nmon (pure)", t, size, rss, cat, f"  ({rss / (size / 2**20):.2f} x file)")
            if pairs:
                ratio = statistics.median(a[0] / r[0] for r, a in pairs)
                line("lparscope analyze (default path)", min(a[0] for _, a in pairs), size,
                     max(a[1] for _, a in pairs), cat, f"  ({ratio:.2f} x reader, median of {len(pairs)} pairs)")
            else:
                t, rss = best(analyze, args.runs)
                line("lparscope analyze (default path)", t, size, rss, cat)
            out = args.dir / f"export-{shape}"
            t, rss = best([LPARSCOPE, "nmon", "export", str(f), str(out), "--to", "parquet"], args.runs)
            line("lparscope nmon export --to parquet", t, size, rss, cat)
            shutil.rmtree(out, ignore_errors=True)
    if "estate" in only:
        run_s: dict[int, float] = {}  # hosts -> seconds of the analysis
        for hosts in [int(x) for x in args.hosts.split(",") if x]:
            d = estate(args.dir, hosts)
            files = [str(p) for p in sorted(d.rglob("*")) if p.is_file()]
            size = tree_bytes(d)
            print(f"\nestate of {hosts} hosts: {len(files):,} files, {size / 1e6:.1f} MB", flush=True)
            cat, cat_rss = best(["sh", "-c", f"find '{d}' -type f -exec cat {{}} + > /dev/null"], args.runs)
            line("cat (all files)", cat, size, cat_rss, cat)
            t, rss = best([LPARSCOPE, "analyze", str(d), "-q", "--json", os.devnull], args.runs)
            run_s[hosts] = t
            line("lparscope analyze", t, size, rss, cat, f"  {t / hosts * 1000:.1f} ms/host")
            if not args.no_html:  # the README's report: the HTML page as well (findings, charts, frames)
                th, rssh = best([LPARSCOPE, "analyze", str(d), "-q", "--html", os.devnull], args.runs)
                line("lparscope analyze --html", th, size, rssh, cat, f"  {th / hosts * 1000:.1f} ms/host")
            if args.no_serial:
                continue
            t1, rss1 = best([LPARSCOPE, "analyze", str(d), "-q", "--json", os.devnull], args.runs,
                            dict(os.environ, LPARSCOPE_WORKERS="1"))
            line("lparscope analyze (one process)", t1, size, rss1, cat, f"  {t1 / hosts * 1000:.1f} ms/host")
        if len(run_s) > 1:
            lo, hi = min(run_s), max(run_s)
            print(f"  per-host time {hi} vs {lo} hosts: {run_s[hi] / hi / (run_s[lo] / lo):.2f} (1.00 = linear)")
            # A run is a fixed cost (start, imports, the worker pool) plus a cost per host; the ratio
            # above charges the fixed cost to the small estate's hosts. What each added host costs,
            # between successive sizes, leaves it out (with three sizes or more, a test of linearity):
            sizes = sorted(run_s)
            steps = [(run_s[b] - run_s[a]) / (b - a) for a, b in zip(sizes, sizes[1:])]
            print("  cost per added host: " + ", ".join(f"{a}->{b} {c * 1000:.1f} ms" for a, b, c in
                                                         zip(sizes, sizes[1:], steps))
                  + (f"; largest / smallest {max(steps) / min(steps):.2f} (1.00 = linear)" if len(steps) > 1 else ""))
    if "version" in only:
        t, rss = best([LPARSCOPE, "--version"], max(3, args.runs))
        print(f"\nlparscope --version: {t:.3f} s, peak {rss:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
