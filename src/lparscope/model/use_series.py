"""The HMC utilisation samples of one partition or pool, kept column-wise.

``lslparutil`` gives a frame's partitions a sample every few minutes: a thousand hosts' day is
~200,000 samples, which as :class:`UseSample` objects (each with its float, line number and list
slot) were 25 MB of the model. A :class:`UseSeries` keeps the times as a list (shared objects),
processor units used as one float array and the line of each sample as one integer array. It
reads like the list it replaces (``len``, ``[i]``, iteration give :class:`UseSample` objects made
when asked), and whole columns are read without any object per sample (``physc``,
:meth:`UseSeries.dated`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

from .estate import Evidence
from .frame import UseSample


class UseSeries(Sequence[UseSample]):
    __slots__ = ("times", "physc", "lines", "where")

    def __init__(self, times: list[Any], physc: np.ndarray, where: Evidence | list[Evidence | None] | None,
                 lines: np.ndarray) -> None:
        self.times = times  # datetime (or the text of a time that could not be read) per sample
        self.physc = physc  # float64: processor units used in the interval
        self.lines = lines  # int64: the sample's line (0: ``where`` is its whole evidence)
        self.where = where  # the Evidence all samples share, or one per sample

    def __len__(self) -> int:
        return len(self.times)

    @overload
    def __getitem__(self, i: int) -> UseSample: ...

    @overload
    def __getitem__(self, i: slice) -> list[UseSample]: ...

    def __getitem__(self, i: int | slice) -> UseSample | list[UseSample]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        k = i + len(self) if i < 0 else i
        if not 0 <= k < len(self):
            raise IndexError(i)
        where = self.where[k] if isinstance(self.where, list) else self.where
        return UseSample(self.times[k], float(self.physc[k]), where, int(self.lines[k]))

    def __iter__(self) -> Iterator[UseSample]:
        return (self[k] for k in range(len(self)))

    def dated(self) -> tuple[list[Any], np.ndarray, np.ndarray]:
        """(times, processor units, indexes) of the samples whose time was read."""
        keep = [k for k, t in enumerate(self.times) if t is not None and not isinstance(t, str)]
        if len(keep) == len(self.times):
            return self.times, self.physc, np.arange(len(self.times))
        idx = np.array(keep, dtype=np.int64)
        return [self.times[k] for k in keep], self.physc[idx], idx
