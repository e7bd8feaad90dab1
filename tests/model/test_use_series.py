"""HMC utilisation samples kept column-wise (model/use_series.py) read like the list they replace."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from lparscope.model.estate import Evidence
from lparscope.model.frame import FramePartition, UseSample
from lparscope.model.use_series import UseSeries
from lparscope.pipeline import analyze
from lparscope.sizing.measured import size_host
from lparscope.sizing.measured_use import util_trace

EXAMPLE = Path(__file__).parents[2] / "examples" / "estate"


def _series() -> UseSeries:
    times = [datetime(2026, 11, 20, 0, 5 * k) for k in range(4)]
    times[2] = "11/20/2026 ??"  # a time lslparutil printed that could not be read
    return UseSeries(times, np.array([0.5, 1.25, 2.0, 0.75]), Evidence("hmc/lslparutil.txt", 0, "capped_cycles"),
                     np.array([11, 12, 13, 14]))


def test_reads_like_a_list_of_samples() -> None:
    s = _series()
    assert len(s) == 4 and bool(s)
    assert s[1] == UseSample(s.times[1], 1.25, s.where, 12)
    assert s[-1].physc == 0.75 and [u.physc for u in s[1:3]] == [1.25, 2.0]
    assert s[0].evidence == Evidence("hmc/lslparutil.txt", 11, "capped_cycles")
    with pytest.raises(IndexError):
        s[4]
    times, physc, idx = s.dated()
    assert len(times) == 3 and physc.tolist() == [0.5, 1.25, 0.75] and idx.tolist() == [0, 1, 3]
    fp = FramePartition("aix1", use=s)
    assert fp.peak_use() == 2.0 and fp.mean_use() == pytest.approx(1.125)


def test_sizing_and_traces_are_those_of_the_same_samples_as_objects() -> None:
    a = analyze([str(EXAMPLE)], workers=1)
    joined = [(fr, fp) for fr in a.estate.frames.values() for fp in fr.partitions.values()
              if fp.host and isinstance(fp.use, UseSeries) and len(fp.use)]
    assert joined  # the example's HMC listings give column-wise series
    for _, fp in joined:
        host = a.estate.hosts[fp.host]
        as_list = replace(fp, use=list(fp.use))  # the objects the model used to keep
        assert as_list.peak_use() == fp.peak_use() and as_list.mean_use() == pytest.approx(fp.mean_use())
        t1, v1 = util_trace(fp)
        t2, v2 = util_trace(as_list)
        assert (t1 == t2).all() and (v1 == v2).all()
        size_host(host, None, fp)
        by_columns, evidence = host.sizing, list(host.sizing_evidence)
        size_host(host, None, as_list)
        assert host.sizing == by_columns and [u.evidence for u in host.sizing_evidence] == [u.evidence for u in evidence]
