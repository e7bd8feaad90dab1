"""Before and after, in one run: two source trees timed in alternation, whole processes, medians.

    python bench/paired.py OLD_SRC NEW_SRC FILE [FILE ...] [--runs 9] [--what reader,analyze]

``OLD_SRC`` and ``NEW_SRC`` are ``src/`` folders (e.g. ``git archive <rev> src | tar -x -C /tmp/old``;
a tree whose native core is built: copy its ``_nmon_native*.so`` in, built from the same commit's
``native/``). Each round runs every (file, tree, what) once, old and new back to back, so a machine
whose speed drifts during the run (these do, by 30 % and more within an hour) drifts for both.
``reader`` is ``read_nmon`` of the file; ``analyze`` is ``lparscope analyze FILE -q --json /dev/null``
(a file or a folder). Prints per cell the median wall time, the median CPU time of the process and
its children, the peak memory, and new over old.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

from bench import READER, run_usage  # bench/bench.py (this folder is first on the path)


def once(cmd: list[str], src: str) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS in MiB) of one whole process run with ``src`` first on the path."""
    return run_usage(cmd, dict(os.environ, PYTHONPATH=src))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--what", default="reader,analyze", help="reader, analyze or both (comma-separated)")
    args = ap.parse_args(argv)
    lparscope = str(Path(sys.executable).parent / "lparscope")
    whats = [w for w in args.what.split(",") if w]
    trees = {"old": str(args.old.resolve()), "new": str(args.new.resolve())}
    for src in trees.values():  # each tree's bytecode written once, before any run: where
        # PYTHONDONTWRITEBYTECODE is set, a tree without it would be compiled again by every run
        subprocess.run([sys.executable, "-m", "compileall", "-q", src], check=False, stdout=subprocess.DEVNULL)
    got: dict[tuple[str, str, str], list[tuple[float, float, float]]] = {}
    for _ in range(args.runs):
        for f in args.files:
            for what in whats:
                cmd = [sys.executable, "-c", READER, str(f)] if what == "reader" else \
                      [lparscope, "analyze", str(f), "-q", "--json", os.devnull]
                for tree, src in trees.items():
                    got.setdefault((str(f), what, tree), []).append(once(cmd, src))
    for f in args.files:
        for what in whats:
            line = [f"{f.name:<16} {what:<8}"]
            med = {}
            for tree in trees:
                runs = got[(str(f), what, tree)]
                med[tree] = statistics.median(t for t, _, _ in runs)
                cpu = statistics.median(c for _, c, _ in runs)
                line.append(f"{tree} {med[tree]:7.3f} s cpu {cpu:6.2f} s peak {max(m for *_, m in runs):5.0f} MiB")
            line.append(f"new/old {med['new'] / med['old']:.3f}")
            print("  ".join(line), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
