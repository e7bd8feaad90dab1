"""The store's series of a recording (store/series.py)."""

from __future__ import annotations

import math
from pathlib import Path

from lparscope.nmon import read_nmon
from lparscope.store.series import recording_columns

NMON = Path(__file__).parents[1] / "fixtures" / "nmon" / "aix_small.nmon"


def test_physc_the_partition_cannot_use_is_no_sample_in_the_store() -> None:
    # T0002's PhysicalCPU 60.0 on a partition of 2 virtual processors (a counter glitch): sizing and the
    # rules leave it out; the store's series (trends, fleet sizing) must too, the others kept as read
    text = NMON.read_text().replace("LPAR,T0002,0.955,", "LPAR,T0002,60.000,")
    cols = recording_columns(read_nmon(text.encode()))
    assert cols is not None
    physc = cols["physc"]
    assert physc[0] == 0.612 and math.isnan(physc[1]) and physc[2] == 1.204
    assert cols["virtual_cpus"][1] == 2.0  # the other LPAR columns of that snapshot are kept
