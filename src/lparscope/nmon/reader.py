"""Read an AIX topas_nmon / nmon or Linux nmon recording (plain or gzip) into typed tables.

An nmon file holds a header (``AAA``), configuration (``BBB*``, with the ``BBBP`` command
outputs), one header line per section, then per snapshot a ``ZZZZ`` time line and the
section rows::

    AAA,host,aixlpar
    AAA,interval,300
    BBBP,113,lparstat -i
    BBBP,119,lparstat -i,"Entitled Capacity                          : 1.30"
    CPU_ALL,CPU Total aixlpar,User%,Sys%,Wait%,Idle%,Busy,PhysicalCPUs
    LPAR,Logical Partition aixlpar,PhysicalCPU,virtualCPUs,logicalCPUs,poolCPUs,entitled,...
    ZZZZ,T0001,17:28:10,10-FEB-2016
    CPU_ALL,T0001,32.2,29.2,0.1,38.5,,28
    LPAR,T0001,1.257,7,28,16,1.30,...
    TOP,2555992,T0002,9.64,9.64,0.00,51,5248,0,5248,0,0,0,j2pg,Unclassified

``read_nmon(path)`` gives an :class:`NmonRecording` whose ``tables["LPAR"].column("PhysicalCPU")``
is a float64 array, one value per snapshot, with ``tables["LPAR"].times`` beside it.

How: the hot pass over the file (lines, their classification, the numbers) runs in the native
core when it was built at install (:mod:`.native`, Rust, every core), otherwise in the numpy +
Arrow path (:mod:`.purepath`). Both hand the few text lines (AAA, BBB*, ZZZZ, headers) to the
same routing (:mod:`.routing`), the ZZZZ times to :mod:`.snapshots`, and the sections to the same
table assembly (:mod:`.tables`), so the recording is the same. ``LPARSCOPE_NMON_NATIVE=0`` forces
the pure path. An njmon recording (JSON) is read by :mod:`.njmon` into the same kind of recording.

Tolerance: a truncated last line, CRLF line ends, duplicated or out-of-order snapshots, new
devices mid-file (a new header line: the columns grow, earlier rows are NaN), ERROR lines,
values that are not numbers (NaN), lines that are not nmon records: each gives a warning with
its line number (capped per kind, the rest counted) and the rest is kept. Nothing raises on
bad content; an unreadable path raises ``OSError``, an unknown ``tz`` ``ValueError``.
"""

from __future__ import annotations

import os
import time

from functools import cache

from . import native
from .linux_lpar import add_aix_names
from .model import NmonRecording
from ..recording_head import is_njmon
from .njmon import read_njmon
from .routing import Routing
from .source import Source, is_nmon, line_text, looks_like_records, tame_malloc
from .state import apply_tail_rows
from .tables import Tables

__all__ = ["is_njmon", "is_nmon", "read_nmon"]


class _Reader(Routing, Tables):
    """One read: the state, the text-line routing and the table assembly (the native core's passes)."""


@cache
def _pure_reader() -> type:
    """The reader with the pure passes (imported only when used: they import pyarrow)."""
    from .purepath import PurePasses

    class _PureReader(PurePasses, Tables):
        """One read: the state, the text-line routing, the pure passes and the table assembly."""

    return _PureReader


def read_nmon(source: str | os.PathLike[str] | bytes, tz: str | None = None,
              seconds: float | None = None, name: str | None = None) -> NmonRecording:
    """Read an nmon recording (path or bytes, plain or gzip) into an :class:`NmonRecording`.

    ``seconds``: a time budget; past it the read stops with :class:`ReadTooLong`. ``name``: the
    recording's file name when ``source`` is its bytes (a path gives its own): nmon's
    ``host_YYMMDD_HHMM`` in it settles a header date whose day and month cannot be told apart."""
    tame_malloc()
    r = _Reader(tz) if native.enabled() else _pure_reader()(tz)
    r.file_name = name if name is not None or isinstance(source, bytes) else os.path.basename(os.fspath(source))
    if seconds:
        r.deadline = time.monotonic() + seconds
    src = Source(source, r.rec.warnings)
    r.rec.bytes_read = src.size
    if src.size == 0 or (src.data is not None and not src.data.strip()):
        r.warn(1, "empty file")
        return r.rec
    head = src.head(65536)  # the native core reads the file itself: only its head is read here
    if is_njmon(head):  # njmon's JSON: its own reader, into the same recording
        raw = src.data if src.data is not None else src.path.read_bytes()  # type: ignore[union-attr]
        text = line_text(raw)  # UTF-8, else Latin-1, as a text file
        del raw  # the text alone is kept while it is read
        rec = read_njmon(text, tz)
        rec.bytes_read = src.size
        return rec
    if not is_nmon(head):
        if looks_like_records(head):
            r.warn(1, "no AAA header lines (a part of a recording or a grep of one): its host, date and "
                      "interval are not in it")
        else:
            r.warn(1, "not an nmon file (no AAA header line)")
        if not looks_like_records(head):
            r.rec.lines = head.count(b"\n")
            return r.rec
    if native.enabled():
        native.read_into(r, src)
    else:
        from .purepath import read_pure

        chunks = src.chunks()
        first, _, has_cr = next(chunks, (b"\n", True, False))  # none: the file shrank since
        read_pure(r, src, first, has_cr, chunks)
    apply_tail_rows(r)
    r.finish()
    add_aix_names(r.rec)
    return r.rec
