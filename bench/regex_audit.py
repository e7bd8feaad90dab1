"""Find regular expressions whose run time grows faster than the text they read.

Every pattern compiled at module level in lparscope, plus the inline patterns the parsers
compile while reading the example estate (found in the ``re`` module's cache), is run with
``search`` and ``match`` over hostile lines of two lengths. A pattern whose time grows more
than about 2x when the line doubles, or that takes longer than the budget, is reported.

    python bench/regex_audit.py            # every pattern
    python bench/regex_audit.py --n 4000   # longer lines (slower, more sensitive)
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing as mp
import pkgutil
import re
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _shapes(n: int) -> dict[str, str]:
    return {
        "spaces": " " * n,
        "newlines": "\n" * n,
        "blank lines": " \n" * (n // 2),
        "word": "a" * n,
        "user@host": "a@b" + "c" * n,
        "glued pairs": "Ab: 1" * (n // 5),
        "glued kv": "a: b " * (n // 5),
        "digits": "1" * n,
        "dots": "1." * (n // 2),
        "mixed": "aB1 :=,-./()#$>@[]\t" * (n // 20),
        "commas": "a," * (n // 2),
        "equals": "a=b " * (n // 4),
    }


def _patterns() -> list[tuple[str, re.Pattern[str] | re.Pattern[bytes]]]:
    import lparscope

    found: dict[tuple[object, int], str] = {}
    for info in pkgutil.walk_packages(lparscope.__path__, "lparscope."):
        try:
            mod = importlib.import_module(info.name)
        except Exception:
            continue
        for name, value in vars(mod).items():
            if isinstance(value, re.Pattern):
                found.setdefault((value.pattern, value.flags), f"{info.name}.{name}")
    # Inline patterns: read the example estate, then look in the re module's cache.
    from lparscope.pipeline import analyze

    analyze([str(ROOT / "examples")])
    for key in list(getattr(re, "_cache", {})):
        pattern = key[1] if isinstance(key[1], (str, bytes)) else None
        if pattern is not None:
            compiled = re.compile(pattern, key[2] if isinstance(key[2], int) else 0)
            found.setdefault((compiled.pattern, compiled.flags), "inline")
    return [(where, re.compile(p, f)) for (p, f), where in found.items()]  # type: ignore[arg-type]


def _time_one(args: tuple[str | bytes, int, str, int]) -> float:
    pattern, flags, text, _ = args
    pat = re.compile(pattern, flags)
    subject: str | bytes = text.encode() if isinstance(pattern, bytes) else text
    t = time.perf_counter()
    pat.search(subject)  # type: ignore[arg-type]
    pat.match(subject)  # type: ignore[arg-type]
    list(pat.finditer(subject))  # type: ignore[arg-type]
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--budget", type=float, default=2.0, help="seconds per pattern and shape")
    args = ap.parse_args()
    bad = 0
    pats = _patterns()
    print(f"{len(pats)} patterns")
    with mp.Pool(1) as pool:
        for where, pat in pats:
            for shape in _shapes(args.n):
                times = []
                for n in (args.n, 2 * args.n):
                    job = pool.apply_async(_time_one, ((pat.pattern, pat.flags, _shapes(n)[shape], n),))
                    try:
                        times.append(job.get(timeout=args.budget))
                    except mp.TimeoutError:
                        times.append(float("inf"))
                        pool.terminate()
                        pool = mp.Pool(1)
                        break
                slow = times[-1] == float("inf") or (times[-1] > 0.01 and times[-1] > 3 * max(times[0], 1e-4))
                if slow:
                    bad += 1
                    print(f"SLOW {where}: {pat.pattern!r} on {shape}: {['%.3fs' % t for t in times]}")
    print(f"{bad} slow pattern/shape pairs")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
