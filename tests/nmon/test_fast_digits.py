"""fast._digits against a plain reading of the same bytes: value and all-digits flag per row."""

from __future__ import annotations

import numpy as np

from lparscope.nmon import fast


def _reference(m: np.ndarray, begin: int, count: int, width: int) -> tuple[int | None, bool]:
    if not 0 < count <= width:
        return None, False
    cols = [min(begin + j, fast.W - 1) for j in range(count)]
    text = bytes(int(m[c]) for c in cols)
    return (int(text), True) if text.isdigit() and text.isascii() else (None, False)


def test_digits_match_a_plain_reading() -> None:
    rng = np.random.default_rng(7)
    alphabet = np.frombuffer(b"0123456789,T /:\x00\xff", np.uint8)
    n = 4000
    m = np.where(rng.random((n, fast.W)) < 0.8, rng.integers(48, 58, (n, fast.W)),
                 rng.choice(alphabet, (n, fast.W))).astype(np.uint8)
    begin = rng.integers(0, fast.W + 3, n)
    count = rng.integers(-1, 15, n)
    for width in (7, 12):
        val, ok = fast._digits(m, begin, count, width)
        for r in range(n):
            want, good = _reference(m[r], int(begin[r]), int(count[r]), width)
            assert bool(ok[r]) == good, (r, begin[r], count[r], bytes(m[r]))
            if good:
                assert int(val[r]) == want
    assert ok.any() and not ok.all()
