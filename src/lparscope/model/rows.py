"""Rows of measured series made when asked, and where a row was read from, for evidence.

A long series (an nmon recording's 45,000 snapshots, a frame's HMC samples) is kept as columns;
the rules read whole columns and cite a few rows. :class:`RowsWhenAsked` reads like the list of
rows it replaces: ``len``, ``[i]`` (negative too), slices and iteration, each row made by ``_row``.

A section read from one nmon file cites that file and the row's line. Recordings of one host
that follow one another (a file a day) are joined into one (``nmon.join``): each row then has its
own file, and a citation counts rows within the file it names. Tables are read by their shape
(``source_of``, ``row_in_source``), so this module imports nothing: the rules use it without
loading the nmon reader.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class RowsWhenAsked(Sequence[T]):
    """A sequence whose row ``k`` is made by ``_row(k)`` when asked (subclasses give it and ``__len__``)."""

    __slots__ = ()

    def _row(self, k: int) -> T:
        raise NotImplementedError

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self._row(k) for k in range(*i.indices(len(self)))]
        k = i + len(self) if i < 0 else i
        if not 0 <= k < len(self):
            raise IndexError(i)
        return self._row(k)

    def __iter__(self) -> Iterator[T]:
        return (self._row(k) for k in range(len(self)))


def row_origin(table: object, row: int, default: str) -> tuple[str, int]:
    """(file, 0-based place among that file's rows) of a section's row: ``default`` and ``row`` for
    a section read from one file (or anything shaped like one), the row's own file when joined."""
    source_of = getattr(table, "source_of", None)
    if source_of is None:
        return default, row
    return source_of(row, default), table.row_in_source(row)  # type: ignore[attr-defined]
