"""Find regular expressions whose run time grows faster than the text they read.

Every pattern compiled at module level in lparscope, plus the inline patterns the parsers
compile while reading the example estate (found in the ``re`` module's cache), is run with
``search`` and ``match`` over hostile lines of two lengths. A pattern whose time grows more
than about 2x when the line doubles, or that takes longer than the budget, is reported.

``--grow`` checks what the parsers really do (``match`` at a line start) on lines that reach a
pattern's deeper parts: real lines the pattern matches (the project's fixtures and examples, plus
``--lines DIR``) are grown (a blank run widened, blanks or numbers or colons appended, a number
lengthened), and a ``match`` whose time grows faster than the line is reported.

    python bench/regex_audit.py            # every pattern
    python bench/regex_audit.py --n 4000   # longer lines (slower, more sensitive)
    python bench/regex_audit.py --grow --lines ../shared/corpus
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
        "label then spaces": "Ab Cd" + " " * n + "x",
        "label spaces digits": "Ab Cd" + " 1" * (n // 2) + " x",
        "colons": ":" * n,
        "key colon spaces": "Ab:" + " " * n + "-",
        "tabs": "a\t" * (n // 2),
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


def _grown(line: str, n: int) -> list[str]:
    """Variants of a real line that make a backtracking pattern show its growth."""
    out = [line + " " * n + "x", line + " 1" * (n // 2) + " x", line + " " * n, line + ":" * n + "x"]
    blanks = list(re.finditer(r"\s+", line))
    for m in blanks[:1] + blanks[-1:]:
        out.append(line[: m.start()] + " " * n + line[m.end():])
    digits = list(re.finditer(r"\d+", line))
    if digits:
        out.append(line[: digits[-1].start()] + "1" * n + line[digits[-1].end():])
    return out


def _best_match(pat: re.Pattern[str], text: str) -> float:
    """Fastest of three ``match`` runs (a shared machine adds pauses to single runs)."""
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        pat.match(text)
        best = min(best, time.perf_counter() - t)
        if best > 1.0:
            break
    return best


def grow_audit(n: int, extra: list[Path]) -> int:
    """Count patterns whose ``match`` on grown real lines is super-linear (printed as found)."""
    lines: set[str] = set()
    for base in [ROOT / "tests" / "fixtures", ROOT / "examples", *extra]:
        for path in base.rglob("*"):
            if path.is_file() and path.stat().st_size < 5_000_000:
                lines.update(x for x in path.read_text(errors="replace").split("\n") if 3 < len(x) < 300)
    bad = 0
    for where, pat in _patterns():
        if not isinstance(pat.pattern, str):
            continue
        for line in sorted(x for x in lines if pat.match(x))[:8]:
            small, big = _grown(line, n), _grown(line, 2 * n)
            times = []
            for a, b in zip(small, big):
                times.append((_best_match(pat, a), _best_match(pat, b)))
            slow = [(a, b) for a, b in times if b > 0.005 and b > 3 * max(a, 1e-5)]
            if slow:
                bad += 1
                print(f"SLOW {where}: {pat.pattern!r} on grown {line[:60]!r}: {slow[0][0]:.3f}s -> {slow[0][1]:.3f}s")
                break
    print(f"{bad} patterns super-linear on grown lines")
    return bad


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--budget", type=float, default=2.0, help="seconds per pattern and shape")
    ap.add_argument("--grow", action="store_true", help="grow real matched lines instead of synthetic shapes")
    ap.add_argument("--lines", type=Path, action="append", default=[], help="more folders of real lines")
    args = ap.parse_args()
    if args.grow:
        return 1 if grow_audit(args.n, args.lines) else 0
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
