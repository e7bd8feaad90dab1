"""Peak memory of a command and every process it starts, sampled (Linux).

A process's peak RSS (what ``bench.py`` and ``paired.py`` print) counts the pages it shares with
the processes it forked; it does not show the pages a forked child (or the parent, while the child
lives) copies when it writes to a shared page. This samples the whole process tree every 20 ms and
prints the largest sum of PSS (each shared page divided among the processes sharing it: the memory
the tree really holds) and of RSS::

    python bench/tree_memory.py lparscope analyze /tmp/lparscope-bench/estate-1000 -q --json /dev/null

A peak between two samples is missed; run it a few times.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time


def _tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (from /proc/PID/task/TID/children)."""
    out = [pid]
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                kids = [int(x) for x in fh.read().split()]
        except OSError:
            continue
        for kid in kids:
            out += _tree(kid)
    return out


def _pss_rss(pid: int) -> tuple[int, int]:
    """(PSS, RSS) of one process in KiB, (0, 0) once it has gone."""
    pss = rss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1])
    except OSError:
        pass
    return pss, rss


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak_pss = peak_rss = most = 0
    while proc.poll() is None:
        pids = _tree(proc.pid)
        sizes = [_pss_rss(p) for p in pids]
        peak_pss = max(peak_pss, sum(p for p, _ in sizes))
        peak_rss = max(peak_rss, sum(r for _, r in sizes))
        most = max(most, len(pids))
        time.sleep(0.02)
    print(f"peak PSS of the tree {peak_pss / 1024:.0f} MiB, peak RSS sum {peak_rss / 1024:.0f} MiB, "
          f"up to {most} processes at once (exit {proc.returncode})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
