"""Where a row of a measured section was read from, for evidence.

A section read from one nmon file cites that file and the row's line. Recordings of one host
that follow one another (a file a day) are joined into one (``nmon.join``): each row then has its
own file, and a citation counts rows within the file it names. Tables are read by their shape
(``source_of``, ``row_in_source``), so this module imports nothing: the rules use it without
loading the nmon reader.
"""

from __future__ import annotations


def row_origin(table: object, row: int, default: str) -> tuple[str, int]:
    """(file, 0-based place among that file's rows) of a section's row: ``default`` and ``row`` for
    a section read from one file (or anything shaped like one), the row's own file when joined."""
    source_of = getattr(table, "source_of", None)
    if source_of is None:
        return default, row
    return source_of(row, default), table.row_in_source(row)  # type: ignore[attr-defined]
