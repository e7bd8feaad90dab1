"""Benchmark: does `analyze` scale linearly with the number of hosts?

Run by hand (not part of the tests):  python bench/bench_analyze.py [copies]

It copies the example estate N times (host names made unique), then times `analyze` on
1 copy and on N copies in the same run and prints the time per host for each and their
ratio. Ratios, not absolute seconds, are what to compare between machines: a ratio near
1.0 means per-host cost does not grow with the estate. Peak Python memory is from
tracemalloc.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from lparscope.pipeline import analyze

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "estate"


def make_copies(root: Path, copies: int) -> None:
    for n in range(copies):
        for host_dir in EXAMPLE.iterdir():
            new = f"{host_dir.name}c{n}"
            out = root / new
            out.mkdir(parents=True)
            for f in host_dir.iterdir():
                text = f.read_text()
                text = re.sub(rf"\b{host_dir.name}\b", new, text)
                (out / f.name).write_text(text)


def timed(path: Path) -> tuple[float, int, int]:
    tracemalloc.start()
    t0 = time.perf_counter()
    a = analyze([str(path)])
    elapsed = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return elapsed, len(a.estate.hosts), peak


def main() -> None:
    copies = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    with tempfile.TemporaryDirectory() as tmp:
        one, many = Path(tmp, "one"), Path(tmp, "many")
        make_copies(one, 1)
        make_copies(many, copies)
        timed(one)  # warm-up: imports, regex compilation
        t1, h1, m1 = timed(one)
        tn, hn, mn = timed(many)
    print(f"1 copy:  {h1:4d} hosts  {t1:7.3f} s  {t1 / h1 * 1000:7.1f} ms/host  peak {m1 / 2**20:6.1f} MiB")
    print(f"{copies} copies: {hn:4d} hosts  {tn:7.3f} s  {tn / hn * 1000:7.1f} ms/host  peak {mn / 2**20:6.1f} MiB")
    print(f"per-host time ratio (many / one): {(tn / hn) / (t1 / h1):.2f}")


if __name__ == "__main__":
    main()
