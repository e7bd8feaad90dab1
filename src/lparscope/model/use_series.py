"""The HMC utilisation samples of one partition or pool (:class:`UseSample`), kept column-wise.

``lslparutil`` gives a frame's partitions a sample every few minutes: a thousand hosts' day is
~200,000 samples, which as :class:`UseSample` objects (each with its float, line number and list
slot) were 25 MB of the model. A :class:`UseSeries` keeps the times as a list (shared objects),
processor units used as one float array and the line of each sample as one integer array. It
reads like the list it replaces (``len``, ``[i]``, iteration give :class:`UseSample` objects made
when asked), and whole columns are read without any object per sample (``physc``,
:meth:`UseSeries.dated`). :func:`physc_of` and :func:`dated_use` read the same columns from any
sequence of samples (HMC Scanner usage sheets give plain lists).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from .estate import Evidence
from .rows import RowsWhenAsked


@dataclass(slots=True)  # one per interval of every partition sampled: no per-instance dict
class UseSample:
    time: Any
    physc: float
    # Where the sample was read: an Evidence; or, when ``line`` is set, the Evidence its file's
    # samples share (line 0) and the sample's own line. A thousand hosts' HMC samples are ~600,000:
    # an Evidence object each was ~45 MB.
    where: Evidence | None = None
    line: int = 0

    @property
    def evidence(self) -> Evidence | None:
        w = self.where
        return Evidence(w.path, self.line, w.excerpt) if self.line and w is not None else w


class UseSeries(RowsWhenAsked[UseSample]):
    __slots__ = ("times", "physc", "lines", "where", "origin")

    def __init__(self, times: list[Any], physc: np.ndarray, where: Evidence | list[Evidence | None] | None,
                 lines: np.ndarray, origin: str = "lslparutil") -> None:
        self.times = times  # datetime (or the text of a time that could not be read) per sample
        self.physc = physc  # float64: processor units used in the interval
        self.lines = lines  # int64: the sample's line (0: ``where`` is its whole evidence)
        self.where = where  # the Evidence all samples share, or one per sample
        self.origin = origin  # what measured it: lslparutil (or an HMC Scanner sheet of it), or the HMC's PCM data

    def __len__(self) -> int:
        return len(self.times)

    def _row(self, k: int) -> UseSample:
        where = self.where[k] if isinstance(self.where, list) else self.where
        return UseSample(self.times[k], float(self.physc[k]), where, int(self.lines[k]))

    def dated(self) -> tuple[list[Any], np.ndarray, np.ndarray]:
        """(times, processor units, indexes) of the samples whose time was read (a datetime; the text of
        a time lslparutil printed that could not be read is left out)."""
        keep = [k for k, t in enumerate(self.times) if isinstance(t, datetime)]
        if len(keep) == len(self.times):
            return self.times, self.physc, np.arange(len(self.times))
        idx = np.array(keep, dtype=np.int64)
        return [self.times[k] for k in keep], self.physc[idx], idx


def physc_of(use: Sequence[UseSample]) -> np.ndarray:
    """Processor units used of every sample: the column of a :class:`UseSeries`, else one per sample
    (a plain list, as HMC Scanner usage sheets give it)."""
    return use.physc if isinstance(use, UseSeries) else np.array([u.physc for u in use], dtype=np.float64)


def dated_use(use: Sequence[UseSample]) -> tuple[list[Any], np.ndarray, np.ndarray]:
    """:meth:`UseSeries.dated` of any sequence of samples."""
    if isinstance(use, UseSeries):
        return use.dated()
    keep = [k for k, u in enumerate(use) if isinstance(u.time, datetime)]
    return ([use[k].time for k in keep], np.array([use[k].physc for k in keep], dtype=np.float64),
            np.array(keep, dtype=np.int64))
