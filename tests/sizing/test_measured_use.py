"""datetime64_of: the same datetime64[s] values as numpy's own conversion, whatever the times."""

import warnings
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from lparscope.sizing.measured_use import datetime64_of

DAY = [datetime(2026, 11, 20) + timedelta(minutes=5 * i) for i in range(289)]


@pytest.mark.parametrize("stamps", [
    DAY,
    DAY + DAY[:10],  # times repeat (the memo answers)
    [datetime(1960, 1, 1, 3, 4, 5), datetime(1970, 1, 1), datetime(2038, 1, 19, 3, 14, 8)],  # before and at the epoch
    [datetime(2026, 1, 1, 0, 0, 1, 500000), datetime(2026, 1, 1)],  # a fraction of a second
    [datetime(2026, 1, 1, 12, tzinfo=timezone(timedelta(hours=2))), datetime(2026, 1, 1)],  # an aware time
    [],
])
def test_same_as_numpy(stamps: list[datetime]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy warns of aware times: the same in both
        got, want = datetime64_of(stamps), np.array(stamps, dtype="datetime64[s]")
    assert got.dtype == want.dtype
    assert got.tolist() == want.tolist()
