"""percentiles: the very numbers np.percentile gives (linear method), on many shapes of series."""

import math

import numpy as np
import pytest

from lparscope.sizing.quantiles import percentiles

QS = (0, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100)


@pytest.mark.parametrize("seed", range(20))
def test_same_as_numpy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for n in (1, 2, 3, 7, 10, 96, 288, 1001):
        values = rng.random(n) * rng.choice([1.0, 64.0, 1e-3])
        if seed % 3 == 0:
            values = np.round(values, 2)  # ties, as physc is printed
        if seed % 4 == 1:
            values[rng.random(n) < 0.3] = 0.0
        assert percentiles(values, QS) == [float(v) for v in np.percentile(values, QS)]


def test_nan_and_empty() -> None:
    assert all(math.isnan(v) for v in percentiles(np.array([1.0, np.nan, 2.0]), (50, 90)))
    with pytest.raises(ValueError):
        percentiles(np.array([]), (50,))
