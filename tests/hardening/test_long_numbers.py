"""Every number of every seed input replaced by a run of 5,000 digits: no parser raises.

Python refuses to turn more than 4,300 digits into an int (ValueError), and a conversion of
millions of digits is quadratic: a counter no system prints (64-bit counters have at most 20
digits) must be read as "not a number" with a warning, never end the parse. This walks every
parser kind over its seeds (the project's own fixtures) with each number replaced in turn, one
line at a time (so every regular expression that reads a number meets one).
"""

from __future__ import annotations

import re

import pytest

from lparscope.sources import parsers

from .fuzz_inputs import seeds

LONG = "9" * 5000
_NUMBER = re.compile(r"\d+")


def _variants(text: str, limit: int = 60):
    """The text with the numbers of one line replaced by LONG, for each line holding a number."""
    lines = text.splitlines()
    n = 0
    for i, line in enumerate(lines):
        if not _NUMBER.search(line):
            continue
        yield "\n".join(lines[:i] + [_NUMBER.sub(LONG, line)] + lines[i + 1:]) + "\n"
        n += 1
        if n >= limit:
            return


@pytest.mark.parametrize("kind", sorted(parsers()))
def test_a_5000_digit_number_never_ends_a_parse(kind: str) -> None:
    mod = parsers()[kind]
    texts = seeds().get(kind) or []
    if not texts:
        pytest.skip(f"no seed input of kind {kind}")
    for text in texts[:4]:
        for variant in _variants(text):
            try:
                mod.parse(variant)
            except Exception as exc:  # pragma: no cover - the failure message says where
                line = next(ln for ln in variant.splitlines() if LONG in ln)
                pytest.fail(f"{kind}: {type(exc).__name__}: {str(exc)[:120]} on line {line[:80]!r}")
