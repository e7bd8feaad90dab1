"""Cuts the splitter (``detect.py``) makes inside a piece after reading it: where another output starts
after text its parser could not read. ``classify`` is the splitter's own (kind, reason) of a text."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from .prompt_line import Prompt

Classify = Callable[[str, "Prompt | None", dict[str, ModuleType], "dict[Any, Any] | None"], tuple["str | None", str]]


def warned_tail(lines: list[str], lo: int, hi: int, prompt: Prompt, starts: Any,
                registry: dict[str, ModuleType], memo: dict[Any, Any], classify: Classify) -> int | None:
    """Where, in a prompted piece its parser could not read to the end, another output starts
    without a prompt of its own (an ``lsmap`` pasted under an ``lspv`` with a note between); else None.

    Cut at the first line that opens another kind's output (its ``STARTS``) at or after the piece's
    first warning, or one of the three lines above it, only when nothing the piece's parser read
    comes from there on and the two parts together warn less than the whole: the line that reads
    with the fewest warnings, the earliest of equals."""
    whole = "\n".join(lines[lo:hi])
    kind, _ = classify(whole, prompt, registry, memo)
    if kind is None:
        return None
    try:
        parsed = registry[kind].parse(whole)
    except Exception:  # a parser's failure is reported where the piece is parsed
        return None
    memo[("parsed", kind, whole)] = parsed  # handed to the segment: not parsed again
    if not parsed.warnings:
        return None
    first_warned = lo + min(w.line for w in parsed.warnings) - 1
    start = next((i for i in range(max(first_warned, lo + 2), hi)
                  if lines[i].strip() and starts.kind(lines[i].strip()) not in (None, kind)), None)
    if start is None:
        return None
    read = [lo + r.line - 1 for r in parsed.records if isinstance(getattr(r, "line", None), int) and r.line > 0]
    cuts = [j for j in range(max(lo + 2, start - 3), start + 1) if lines[j].strip() and not any(n >= j for n in read)]
    best = _fewest_warnings(lines, cuts, hi, registry, memo, classify,
                            lambda j: len(registry[kind].parse("\n".join(lines[lo:j])).warnings))
    if best is None or best[0] >= len(parsed.warnings):
        return None
    memo.pop(("parsed", kind, whole), None)
    return best[1]


def late_start(lines: list[str], lo: int, hi: int, starts: Any, registry: dict[str, ModuleType],
               memo: dict[Any, Any], classify: Classify) -> int | None:
    """In a piece no parser reads, where an output starts after other text (a title, a note or a code
    fence above a table must not hide it); else None. The first line that opens an output (a parser's
    ``STARTS``) or one of the three lines just above it (``rootvg:`` above lsvg -l's header): the one
    from which that output reads with the fewest warnings, the earliest of equals."""
    first = next((i for i in range(lo + 1, hi) if lines[i].strip() and starts.kind(lines[i].strip())), None)
    if first is None:
        return None
    cuts = [j for j in range(max(lo + 1, first - 3), first + 1)
            if lines[j].strip() and any(ln.strip() for ln in lines[lo:j])]
    best = _fewest_warnings(lines, cuts, hi, registry, memo, classify, lambda j: 0)
    return best[1] if best is not None else None


def _fewest_warnings(lines: list[str], cuts: list[int], hi: int, registry: dict[str, ModuleType],
                     memo: dict[Any, Any], classify: Classify, above: Callable[[int], int]) -> tuple[int, int] | None:
    """Of the candidate cuts, the one where the output from there to ``hi`` (of the kind the splitter
    gives it) plus the text above (``above(cut)``: its warnings) warn least, the earliest of equals,
    as (warnings, cut); None when no candidate's tail is an output."""
    best: tuple[int, int] | None = None
    for j in cuts:
        tail = "\n".join(lines[j:hi])
        tail_kind, _ = classify(tail, None, registry, memo)
        if tail_kind is None:
            continue
        try:  # a parser's failure is reported where the piece is parsed
            warned = above(j) + len(registry[tail_kind].parse(tail).warnings)
        except Exception:
            continue
        if best is None or warned < best[0]:
            best = (warned, j)
    return best
