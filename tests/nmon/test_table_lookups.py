"""The table assembly's shortcuts give what a binary search gives."""

from __future__ import annotations

import numpy as np
import pytest

from lparscope.nmon.tables import _epochs, _positions


@pytest.mark.parametrize("seed", range(20))
def test_positions_as_searchsorted(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(100):
        spread = int(rng.choice([60, 10**6]))  # dense (direct lookup) and sparse (binary search) numbers
        keys = np.unique(rng.integers(0, spread, int(rng.integers(1, 50)))).astype(np.int64)
        wanted = rng.integers(0, int(keys[-1]) + 20, int(rng.integers(1, 80))).astype(np.int64)
        expect = np.clip(np.searchsorted(keys, wanted), 0, len(keys) - 1)
        assert _positions(keys, wanted).tolist() == expect.tolist()


@pytest.mark.parametrize("headers", [[], [10], [10, 50], [3, 40, 90]])
def test_epochs_as_searchsorted(headers: list[int]) -> None:
    lines = np.arange(1, 120, 3, dtype=np.int64)
    expect = np.searchsorted(np.array(headers, np.int64), lines) - 1 if headers else np.full(len(lines), -1)
    assert _epochs(headers, lines).tolist() == expect.tolist()
