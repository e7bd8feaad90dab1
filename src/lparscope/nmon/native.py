"""The optional native core of the nmon reader (the ``lparscope-nmon-native`` package, Rust).

When it is installed (built by ``pip install .`` with cargo on PATH, or shipped in a wheel built
so) :func:`lparscope.nmon.read_nmon` hands the hot single pass to it: split the lines, classify
them, parse every numeric section into float64 columns (several threads). What comes back (per
section: line numbers, snapshots, field counts, values, the first values that are not numbers;
and the few thousand text lines: AAA, BBB*, ZZZZ, headers, UARG, ERROR ...) is turned into the
:class:`~lparscope.nmon.NmonRecording` by the same Python code as the pure path, so both give the
same recording.

``LPARSCOPE_NMON_NATIVE=0`` (or ``LPARSCOPE_NATIVE=0``) in the environment forces the pure path
(numpy + Arrow); a core older than these sources is not used either (``lparscope.native_core``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .snapshots import ReadLines
from .source import line_text
from . import state as limits
from .state import TooManySections

from ..native_core import STALE, core, guarded, off, status

if TYPE_CHECKING:  # pragma: no cover
    from .routing import Routing
    from .source import Source


BLOCK = 0  # bytes per block of the native pass (0: its default); tests set it small
THREADS = 0  # threads of the native pass (0: one per core)


def available() -> bool:
    """True when the native core is installed."""
    return core is not None


def enabled() -> bool:
    """True when read_nmon uses the native core (installed, current, not turned off by
    LPARSCOPE_NATIVE=0 or LPARSCOPE_NMON_NATIVE=0)."""
    return core is not None and not off() and not off("LPARSCOPE_NMON_NATIVE")


def describe() -> str:
    """One terminal line (under 80 characters): which path reads nmon recordings, and why."""
    if enabled():
        return "nmon read with the native core (Rust)"
    why = status() or "LPARSCOPE_NMON_NATIVE=0"  # status() names every other reason
    return f"nmon read with the pure-Python path{'' if STALE else ' (slower)'}: {why}"


def _texts(codes: np.ndarray, distinct: list[str]) -> np.ndarray:
    """A text column from the core: each row's code into its distinct texts (as an object array)."""
    table = np.empty(len(distinct), dtype=object)
    table[:] = distinct
    return table[codes]


def read_into(r: "Routing", src: "Source") -> None:
    """Fill the reader ``r`` from ``src`` with the native core (instead of the two numpy/Arrow passes)."""
    from .source import ends_with_newline

    ends_clean = ends_with_newline(src)
    r._ends_clean = ends_clean
    # Pass 1 (native): lines, data rows per section, the other lines as text.
    scan = guarded(core.Scanner, str(src.path) if src.path is not None else src.data, ends_clean, THREADS, BLOCK,
                   limits.MAX_FIELDS, limits.MAX_SECTIONS)
    if scan.sections_found > limits.MAX_SECTIONS:  # the core built none of them
        raise TooManySections()
    if scan.cr_line:
        r._warn_crlf(scan.cr_line)
    total = scan.lines
    r.rec.lines = total
    for k, (line, raw) in enumerate(scan.text):  # AAA, BBB*, ZZZZ, headers, ERROR ... as by the pure path
        if not k & 1023:
            r.on_time()
        r._text_line(line, line_text(raw), line == total)
    for line, fields, tag in scan.wide:
        r.wide_row(line, tag, fields)
    z = scan.zzzz  # the ZZZZ lines of the usual form, split natively
    r.snapshots.add_read(ReadLines(z["lines"], z["snaps"], z["digits"], z["sods"], z["dates"], z["date_names"]))
    # The columns of each section (from its header and what pass 1 saw of its rows), then pass 2
    # (native): the values, and each row's line, snapshot and field count.
    secs = []
    for s in scan.sections:
        r.on_time()
        sec = r.section(s["name"])
        sec.rows, sec.first_row, sec.first_nf = s["rows"], s["first_line"], s["first_nf"]
        secs.append((sec, s["most_nf"]))
    r.layouts(secs)
    results = guarded(scan.values, [(sec.value_fields, sec.text_fields) for sec, _ in secs])
    del scan
    for (sec, _), (values, text, bad, count, lines, snaps, nfields) in zip(secs, results):
        r.on_time()
        sec.line_parts, sec.snap_parts, sec.row_fields = [lines], [snaps], nfields
        sec.values = values.T  # rows x value fields, Fortran order (as the pure path)
        sec.text = {f: _texts(*text[f]) for f in sec.text_fields}
        if count:  # rows of the section -> lines of the file
            r.bad_values(sec, [(int(lines[row]), f, raw) for row, f, raw in bad], count)
    for sec in r.by_id:  # sections with a header but no rows
        if sec.values is None:
            r.layout(sec, 2)
            sec.values = np.empty((0, sec.width), np.float64, order="F")
            sec.text = {f: np.full(0, "", dtype=object) for f in sec.text_fields}
            sec.row_fields = np.empty(0, np.int32)
