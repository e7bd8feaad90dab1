"""SnapshotRows: the LPAR snapshots of a recording read as the processor series' dict rows, made
when asked, with the column values Series.values gives."""

import numpy as np

from lparscope.model.estate import Series
from lparscope.model.nmon import SnapshotRows


def test_rows_and_columns() -> None:
    nan = np.nan
    rows = SnapshotRows({"physc": np.array([0.5, nan, 0.25]), "%entc": np.array([50.0, nan, nan]),
                         "vp": np.array([2.0, 2.0, nan])})
    assert len(rows) == 3 and bool(rows)
    assert rows[0] == {"physc": 0.5, "%entc": 50.0, "vp": 2.0}
    assert rows[1] == {"physc": None, "vp": 2.0}  # no %entc key where it could not be worked out
    assert rows[-1] == {"physc": 0.25, "vp": None}
    assert rows[1:] == [rows[1], rows[2]] and list(rows) == [rows[0], rows[1], rows[2]]
    s = Series(samples=rows)  # type: ignore[arg-type]
    assert s.values("physc") == [0.5, 0.25] and s.values("vp") == [2.0, 2.0] and s.values("pool") == []
    assert s.mean("%entc") == 50.0
    try:
        rows[3]
    except IndexError:
        pass
    else:
        raise AssertionError("rows[3] exists")
