"""Long fuzz runs: every parser's detect() and parse() on mutated fixtures, counted per parser.

The inputs are the project's own fixtures cut per kind and mutated (tests/hardening/fuzz_inputs.py,
the same mutations as the hypothesis smoke test); the nmon reader runs as two more kinds,
``nmon-pure`` and ``nmon-native`` (when the native core is built), on the project's recordings. A crash (an exception) or an input over the
time budget is written to OUT/KIND__<run>_<n>.txt with its .why, ready to become a regression
fixture in tests/fixtures/fuzz (replayed by tests/hardening/test_fuzz.py).

A campaign of 1,000,000 inputs per parser takes many hours of a core, so it can be split: every
worker writes its counts to OUT/progress-<run>-<worker>.json each ``--checkpoint`` seconds, and
``--resume`` adds a new run (with its own random sequence) to the totals kept in OUT/campaign.json,
first folding in the progress files of a run that was killed. ``--jobs`` spreads the parsers
over processes (each parser stays in one process, so its count is exact).

    python bench/fuzz.py --per-parser 1000000 --minutes 600 --jobs 2 --out /var/tmp/lparscope-fuzz
    python bench/fuzz.py --per-parser 1000000 --minutes 120 --resume --out /var/tmp/lparscope-fuzz
    python bench/fuzz.py --kinds entstat,lsmap --per-parser 10000

Prints one line per parser: inputs run (this run and the campaign), crashes, inputs over the
budget, slowest input (CPU seconds). Exit 1 when the campaign holds any crash or input over the budget.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import signal
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hardening.fuzz_inputs import mutate, nmon_kinds, nmon_seeds, seeds  # noqa: E402

EMPTY = {"runs": 0, "crashes": 0, "slow": 0, "max_s": 0.0}


class _Budget(Exception):
    pass


def _alarm(*_: object) -> None:
    raise _Budget()


def _capped(text: str, max_chars: int) -> str:
    """``text`` cut at the last line end before ``max_chars`` (big fixtures repeat the same line shapes)."""
    if max_chars <= 0 or len(text) <= max_chars:
        return text
    end = text.rfind("\n", 0, max_chars)
    return text[: end + 1] if end > 0 else text[:max_chars]


def _merge(into: dict, add: dict) -> None:
    for kind, st in add.items():
        tot = into.setdefault(kind, dict(EMPTY))
        for key in ("runs", "crashes", "slow"):
            tot[key] += st[key]
        tot["max_s"] = max(tot["max_s"], st["max_s"])


def _work(job: dict) -> dict:
    """One worker: its parsers round-robin until each has its quota or time is up."""
    registry = _registry()
    out = Path(job["out"])
    pool = {k: [_capped(t, job["max_chars"]) for t in _pool()[k]] for k in job["kinds"]}
    rng = random.Random(f"{job['seed']}-{job['run']}-{job['worker']}")
    stats = {k: dict(EMPTY) for k in job["kinds"]}
    progress = out / f"progress-{job['run']}-{job['worker']}.json"
    signal.signal(signal.SIGPROF, _alarm)
    stop = time.monotonic() + job["seconds"]
    next_save = time.monotonic() + job["checkpoint"]
    while time.monotonic() < stop:
        todo = [k for k in job["kinds"] if stats[k]["runs"] < job["quota"][k]]
        if not todo:
            break
        for kind in todo:
            text = mutate(rng.choice(pool[kind]), rng)
            st = stats[kind]
            problem = _one(registry[kind], text, job["budget"])
            st["runs"] += 1
            st["max_s"] = max(st["max_s"], problem[1])
            if problem[0]:
                st["slow" if problem[0] == "over budget" else "crashes"] += 1
                n = st["crashes"] + st["slow"]
                if n <= 20:
                    stem = out / f"{kind}__{job['run']}_{n}"
                    stem.with_suffix(".txt").write_text(text, encoding="utf-8", errors="surrogatepass")
                    stem.with_suffix(".why").write_text(problem[0])
        if time.monotonic() >= next_save:
            progress.write_text(json.dumps(stats))
            next_save = time.monotonic() + job["checkpoint"]
    progress.write_text(json.dumps(stats))
    return stats


def _registry() -> dict:
    from lparscope.sources import parsers

    return {**parsers(), **nmon_kinds()}


def _pool() -> dict[str, list[str]]:
    return {**seeds(), **{kind: nmon_seeds() for kind in nmon_kinds()}}


def _one(mod: object, text: str, budget: float) -> tuple[str, float]:
    """('' | 'over budget' | traceback, seconds) of detect + parse of one input."""
    t = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, budget)  # CPU time: a loaded machine does not count
    try:
        try:
            int(mod.detect(text))  # type: ignore[attr-defined]
            mod.parse(text)  # type: ignore[attr-defined]
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    except _Budget:
        return "over budget", time.process_time() - t
    except Exception:
        return traceback.format_exc(limit=-3), time.process_time() - t
    return "", time.process_time() - t


def _balance(kinds: list[str], quota: dict[str, int], jobs: int, max_chars: int, budget: float) -> list[list[str]]:
    """``kinds`` split over ``jobs`` workers so each gets about the same work (cost of 150 inputs x quota).

    Parsers differ 40-fold in cost per input; a split by name left one worker running long after the other."""
    if jobs <= 1:
        return [list(kinds)]
    registry, pool, rng = _registry(), _pool(), random.Random(0)
    signal.signal(signal.SIGPROF, _alarm)
    work = {}
    for kind in kinds:
        texts = [mutate(_capped(rng.choice(pool[kind]), max_chars), rng) for _ in range(150)]
        t = time.process_time()
        for text in texts:
            _one(registry[kind], text, budget)
        work[kind] = (time.process_time() - t) * quota[kind]
    groups: list[list[str]] = [[] for _ in range(jobs)]
    load = [0.0] * jobs
    for kind in sorted(kinds, key=lambda k: -work[k]):  # the biggest first, each to the least loaded worker
        w = load.index(min(load))
        groups[w].append(kind)
        load[w] += work[kind]
    return groups


def _load_campaign(out: Path, resume: bool) -> dict:
    path = out / "campaign.json"
    camp = json.loads(path.read_text()) if resume and path.exists() else {"runs": [], "totals": {}}
    done = {r["run"] for r in camp["runs"]}
    killed: dict[int, list[Path]] = {}
    for prog in sorted(out.glob("progress-*.json")):  # a killed run: the last checkpoint of each worker counts
        killed.setdefault(int(prog.stem.split("-")[1]), []).append(prog)
    for run, progs in sorted(killed.items()):
        if resume and run not in done:
            for prog in progs:
                _merge(camp["totals"], json.loads(prog.read_text()))
            camp["runs"].append({"run": run, "killed": True, "workers": len(progs)})
            done.add(run)
        for prog in progs:
            prog.unlink()
    if resume:
        (out / "campaign.json").write_text(json.dumps(camp, indent=1))  # folded counts survive another kill
    return camp


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-parser", type=int, default=1_000_000, help="campaign total per parser")
    ap.add_argument("--minutes", type=float, default=60.0, help="stop this run after this long, whatever the counts")
    ap.add_argument("--budget", type=float, default=2.0, help="CPU seconds allowed to one input (detect + parse)")
    ap.add_argument("--kinds", default="", help="comma-separated kinds (default: every parser)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (parsers are split among them)")
    ap.add_argument("--max-seed-chars", type=int, default=16_000, help="fixtures cut to this size first (0: whole)")
    ap.add_argument("--checkpoint", type=float, default=60.0, help="seconds between progress files")
    ap.add_argument("--resume", action="store_true", help="add this run to OUT/campaign.json")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("/tmp/lparscope-fuzz"))
    args = ap.parse_args()

    pool = _pool()
    kinds = [k for k in (args.kinds.split(",") if args.kinds else sorted(_registry())) if pool.get(k)]
    args.out.mkdir(parents=True, exist_ok=True)
    camp = _load_campaign(args.out, args.resume)
    run = max([r["run"] for r in camp["runs"]], default=0) + 1
    quota = {k: max(0, args.per_parser - camp["totals"].get(k, EMPTY)["runs"]) for k in kinds}
    groups = _balance(kinds, quota, args.jobs, args.max_seed_chars, args.budget)
    jobs = [{"kinds": groups[w], "worker": w, "run": run, "seed": args.seed, "out": str(args.out),
             "max_chars": args.max_seed_chars, "budget": args.budget, "seconds": args.minutes * 60,
             "checkpoint": args.checkpoint, "quota": quota} for w in range(max(1, args.jobs))]
    started = time.time()
    if len(jobs) == 1:
        results = [_work(jobs[0])]
    else:
        with multiprocessing.get_context("fork").Pool(len(jobs)) as workers:
            results = workers.map(_work, jobs)
    this_run: dict = {}
    for res in results:
        _merge(this_run, res)
    _merge(camp["totals"], this_run)
    camp["runs"].append({"run": run, "seed": args.seed, "jobs": args.jobs, "max_seed_chars": args.max_seed_chars,
                         "started": started,
                         "seconds": round(time.time() - started), "inputs": sum(s["runs"] for s in this_run.values())})
    (args.out / "campaign.json").write_text(json.dumps(camp, indent=1))
    for prog in args.out.glob(f"progress-{run}-*.json"):
        prog.unlink()

    totals = camp["totals"]
    for kind in kinds:
        st, tot = this_run.get(kind, EMPTY), totals.get(kind, EMPTY)
        print(f"{kind:16} run={st['runs']:>9} campaign={tot['runs']:>9} crashes={tot['crashes']} "
              f"over_budget={tot['slow']} slowest={tot['max_s']:.3f}s")
    counts = [totals.get(k, EMPTY)["runs"] for k in kinds]
    print(f"this run {sum(s['runs'] for s in this_run.values())} inputs in {time.time() - started:.0f} s; campaign "
          f"{sum(counts)} inputs over {len(camp['runs'])} run(s), fewest per parser {min(counts, default=0)}, crashes "
          f"{sum(totals.get(k, EMPTY)['crashes'] for k in kinds)}, over budget {sum(totals.get(k, EMPTY)['slow'] for k in kinds)} "
          f"(problem inputs in {args.out})")
    return 1 if any(totals.get(k, EMPTY)["crashes"] or totals.get(k, EMPTY)["slow"] for k in kinds) else 0


if __name__ == "__main__":
    raise SystemExit(main())
