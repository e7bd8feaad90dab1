"""Archive bombs and hang inputs through a whole ``lparscope analyze`` process: wall time and peak RSS.

Builds each hostile input under a temporary folder (never in the repository), runs
``lparscope analyze INPUT GOOD -q --json OUT`` in a fresh process per input and prints its exit
code, wall time, peak resident memory (the whole process, from getrusage of the child) and the
status lparscope gave the input. ``GOOD`` is a small lsattr output: the run must still read it.

    python bench/bombs.py                 # every shape at full size (a few minutes; ~2 GB of /tmp free)
    python bench/bombs.py --only zip-gz   # one shape
    python bench/bombs.py --scale 0.1     # smaller bombs (quick check)
    python bench/bombs.py --hardening ../shared/hardening   # also the ready-made repros, one by one

Shapes: zip-gz (8 gzip members of 1 GB of zeros each inside one zip), nmon-gz (a .nmon.gz that
expands to 10 GB: one gzip member repeated), tgz-100k (a .tgz of 100,000 small members),
line-1mb (one 1 MB line), fifo (a FIFO inside a folder), nmon-row-1mb (an nmon data row of a
million commas), nmon-header-cells (a 45,000-snapshot recording whose header names 9,999 columns),
nmon-header-every-row (a header naming two new columns before each of 20,000 rows),
nmon-many-sections (400,000 distinct one-row sections), nmon-many-wide-headers (50 sections,
each a header of 9,000 names over 3,000 one-value rows: 5 MB; 5 such sections took 1.1 GB).
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
import zlib
from pathlib import Path

LSATTR = b"# lsattr -El sys0\nmaxuproc 4096 Maximum number of PROCESSES allowed per user True\n"
GB = 1024 ** 3


def _gzip_of_zeros(size: int) -> bytes:
    comp = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b"\0" * (16 * 1024 * 1024)
    out = []
    left = size
    while left > 0:
        out.append(comp.compress(block[: min(left, len(block))]))
        left -= len(block)
    out.append(comp.flush())
    return b"".join(out)


def zip_gz(folder: Path, scale: float) -> Path:
    member = _gzip_of_zeros(int(GB * scale))
    path = folder / "bomb_gz_members.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:  # stored: the zip's own ratio is 1
        for n in range(8):
            zf.writestr(f"host{n}/lsattr_{n}.txt.gz", member)
    return path


def nmon_gz(folder: Path, scale: float) -> Path:
    head = b"AAA,progname,topas_nmon\nAAA,host,bomb\nAAA,interval,60\n"
    row = b"CPU01,T0001,10.0,5.0,1.0,84.0\n"
    block = row * (100 * 1024 * 1024 // len(row))  # ~100 MB of rows per gzip member
    member = gzip.compress(block, 9)
    path = folder / "bomb.nmon.gz"
    with open(path, "wb") as fh:
        fh.write(gzip.compress(head))
        for _ in range(max(1, int(100 * scale))):  # 100 members: ~10 GB expanded
            fh.write(member)
    return path


def tgz_members(folder: Path, scale: float) -> Path:
    path = folder / "bomb_members.tgz"
    with tarfile.open(path, "w:gz", compresslevel=1) as tf:
        for n in range(max(1, int(100_000 * scale))):
            data = b"# lsattr -El sys0\nmaxuproc %d Maximum number of PROCESSES allowed per user True\n" % n
            info = tarfile.TarInfo(f"h{n % 500}/lsattr_{n}.txt")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


def line_1mb(folder: Path, scale: float) -> Path:
    path = folder / "long_line.txt"
    path.write_bytes(b"# lparstat -i\nNode Name : aix1\nPartition Name : " + b"a@b" * (1024 * 1024 // 3) + b"\n")
    return path


NMON_HEAD = b"AAA,progname,topas_nmon\nAAA,host,aixbomb\nAAA,date,04-MAR-2024\nCPU_ALL,CPU Total aixbomb,User%,Sys%,Wait%,Idle%\n"


def _snapshots(n: int) -> bytes:
    return b"".join(b"ZZZZ,T%05d,%02d:%02d:%02d,04-MAR-2024\nCPU_ALL,T%05d,1.0,2.0,3.0,94.0\n"
                    % (t, t // 3600 % 24, t // 60 % 60, t % 60, t) for t in range(1, n + 1))


def nmon_row_1mb(folder: Path, scale: float) -> Path:
    """An nmon recording with one data row of a million commas."""
    path = folder / "row_1mb.nmon"
    path.write_bytes(NMON_HEAD + _snapshots(10) + b"CPU_ALL,T00005" + b"," * int(1_000_000 * scale) + b"\n")
    return path


def nmon_header_cells(folder: Path, scale: float) -> Path:
    """A long recording (45,000 snapshots) whose header names 9,999 columns: rows x names of NaN."""
    path = folder / "header_cells.nmon"
    n = max(10, int(45_000 * scale))
    header = b"CPU_ALL,CPU Total aixbomb," + b",".join(b"c%d" % i for i in range(9_997)) + b"\n"
    path.write_bytes(NMON_HEAD + header + _snapshots(n))
    return path


def nmon_header_every_row(folder: Path, scale: float) -> Path:
    """A recording whose header names two new columns before each of its 20,000 rows."""
    path = folder / "header_every_row.nmon"
    n = max(10, int(20_000 * scale))
    path.write_bytes(NMON_HEAD + b"".join(b"CPU_ALL,CPU Total,a%d,b%d\nZZZZ,T%05d,00:00:01,04-MAR-2024\nCPU_ALL,T%05d,1,2\n"
                                          % (i, i, i, i) for i in range(1, n + 1)))
    return path


def nmon_many_sections(folder: Path, scale: float) -> Path:
    """A recording of 400,000 distinct one-row sections (9 MB)."""
    path = folder / "many_sections.nmon"
    n = max(10, int(400_000 * scale))
    path.write_bytes(NMON_HEAD + _snapshots(1) + b"".join(b"S%07d,T00001,1.0,2.0\n" % i for i in range(n)))
    return path


def nmon_many_wide_headers(folder: Path, scale: float) -> Path:
    """50 sections, each a header of 9,000 names over 3,000 rows of one value."""
    path = folder / "many_wide_headers.nmon"
    n = max(2, int(50 * scale))
    names = b",".join(b"c%d" % i for i in range(9_000))
    rows = b"".join(b"ZZZZ,T%05d,00:00:01,04-MAR-2024\n" % t + b"".join(b"S%03d,T%05d,1\n" % (s, t) for s in range(n))
                    for t in range(1, 3_001))
    path.write_bytes(NMON_HEAD + b"".join(b"S%03d,Header %d,%s\n" % (s, s, names) for s in range(n)) + rows)
    return path


def fifo(folder: Path, scale: float) -> Path:
    d = folder / "with_fifo"
    d.mkdir()
    os.mkfifo(d / "pipe.txt")
    (d / "lsattr.txt").write_bytes(LSATTR)
    return d


SHAPES = {"zip-gz": zip_gz, "nmon-gz": nmon_gz, "tgz-100k": tgz_members, "line-1mb": line_1mb, "fifo": fifo,
          "nmon-row-1mb": nmon_row_1mb, "nmon-header-cells": nmon_header_cells,
          "nmon-header-every-row": nmon_header_every_row, "nmon-many-sections": nmon_many_sections,
          "nmon-many-wide-headers": nmon_many_wide_headers}

_CHILD = """
import resource, subprocess, sys, time
t = time.perf_counter()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
print(rc, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def measure(target: Path, good: Path, out: Path, timeout: float) -> dict:
    cmd = [sys.executable, "-c", _CHILD, sys.executable, "-m", "lparscope.cli", "analyze", str(target), str(good),
           "-q", "--json", str(out)]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    rc, wall, rss_kb = res.stdout.split()
    report = json.loads(out.read_text()) if out.exists() else {"inputs": []}
    statuses = [f"{i['status']}: {i['reason']}" for i in report["inputs"] if target.name in i["path"] or
                (target.is_dir() and str(target) in i["path"])]
    good_read = any(i["status"] == "parsed" for i in report["inputs"] if i["path"].endswith(good.name))
    return {"exit": int(rc), "wall_s": round(float(wall), 2), "peak_rss_mb": round(int(rss_kb) / 1024),
            "good_input_read": good_read, "statuses": sorted(set(statuses))[:4]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", choices=sorted(SHAPES))
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--hardening", type=Path, help="folder of ready-made repros to run one by one too")
    ap.add_argument("--timeout", type=float, default=900)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="lparscope-bombs-") as tmp:
        folder = Path(tmp)
        good = folder / "good_lsattr.txt"
        good.write_bytes(LSATTR)
        targets: list[tuple[str, Path, float]] = []
        for name, build in SHAPES.items():
            if args.only and name != args.only:
                continue
            t = time.perf_counter()
            path = build(folder, args.scale)
            size = path.stat().st_size if path.is_file() else 0
            print(f"built {name}: {size / 1024 / 1024:.1f} MB in {time.perf_counter() - t:.1f} s", flush=True)
            targets.append((name, path, size))
        if args.hardening:
            targets += [(p.name, p, p.stat().st_size) for p in sorted(args.hardening.iterdir()) if p.name != "README.md"]
        for name, path, _ in targets:
            out = folder / f"{name}.json"
            r = measure(path, good, out, args.timeout)
            print(json.dumps({"input": name, **r}), flush=True)
            out.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
