"""Long fuzz runs: every parser's detect() and parse() on mutated fixtures, counted per parser.

The inputs are the project's own fixtures cut per kind and mutated (tests/hardening/fuzz_inputs.py,
the same mutations as the hypothesis smoke test). A crash (an exception) or an input over the
time budget is written to OUT/KIND__N.txt, ready to become a regression fixture in
tests/fixtures/fuzz (replayed by tests/hardening/test_fuzz.py).

    python bench/fuzz.py --per-parser 1000000 --minutes 600 --out /tmp/lparscope-fuzz
    python bench/fuzz.py --kinds entstat,lsmap --per-parser 10000

Prints one line per parser at the end: inputs run, crashes, inputs over the budget, slowest.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hardening.fuzz_inputs import mutate, seeds  # noqa: E402


class _Budget(Exception):
    pass


def _alarm(*_: object) -> None:
    raise _Budget()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-parser", type=int, default=1_000_000)
    ap.add_argument("--minutes", type=float, default=60.0, help="stop after this long, whatever the counts")
    ap.add_argument("--budget", type=float, default=2.0, help="seconds allowed to one input (detect + parse)")
    ap.add_argument("--kinds", default="", help="comma-separated kinds (default: every parser)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("/tmp/lparscope-fuzz"))
    args = ap.parse_args()

    from lparscope.sources import parsers

    registry = parsers()
    pool = seeds()
    kinds = [k for k in (args.kinds.split(",") if args.kinds else sorted(registry)) if pool.get(k)]
    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    stats = {k: {"runs": 0, "crashes": 0, "slow": 0, "max_s": 0.0} for k in kinds}
    signal.signal(signal.SIGALRM, _alarm)
    stop = time.monotonic() + args.minutes * 60
    while time.monotonic() < stop and any(s["runs"] < args.per_parser for s in stats.values()):
        for kind in kinds:
            st = stats[kind]
            if st["runs"] >= args.per_parser:
                continue
            text = mutate(rng.choice(pool[kind]), rng)
            mod = registry[kind]
            t = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, args.budget)
            problem = ""
            try:
                try:
                    int(mod.detect(text))
                    mod.parse(text)
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
            except _Budget:
                st["slow"] += 1
                problem = "over budget"
            except Exception:
                st["crashes"] += 1
                problem = traceback.format_exc(limit=-3)
            st["runs"] += 1
            st["max_s"] = max(st["max_s"], time.perf_counter() - t)
            if problem:
                n = st["crashes"] + st["slow"]
                if n <= 20:
                    (args.out / f"{kind}__{n}.txt").write_text(text, encoding="utf-8", errors="surrogatepass")
                    (args.out / f"{kind}__{n}.why").write_text(problem)
        if time.monotonic() >= stop:
            break
    total = sum(s["runs"] for s in stats.values())
    for kind, st in stats.items():
        print(f"{kind:16} runs={st['runs']:>9} crashes={st['crashes']} over_budget={st['slow']} slowest={st['max_s']:.3f}s")
    print(f"total runs={total}  crashes={sum(s['crashes'] for s in stats.values())}  "
          f"over budget={sum(s['slow'] for s in stats.values())}  (problem inputs in {args.out})")
    return 1 if any(s["crashes"] or s["slow"] for s in stats.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
