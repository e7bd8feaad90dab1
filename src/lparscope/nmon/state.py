"""The nmon reader's state: sections, their layout, capped warnings (tolerance) and the tail row.

Shared by both paths of the reader (:mod:`.purepath`, :mod:`.native`); the text lines are routed
by :mod:`.routing`, the tables assembled by :mod:`.tables`.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np

from .model import NAIVE, NmonRecording
from .snapshots import T_RE, Snapshots

WARN_CAP = 20  # warnings of one kind per section before they are only counted
# Fields a line of a section may have. Real sections have tens to a few hundred (nmon splits its
# disk sections into groups); a line of more is damage, and reading it field by field would cost
# seconds and gigabytes (a 1 MB line of commas): such a data row is not read, a header is cut here.
MAX_FIELDS = 10_000
# Values (8 bytes each) one recording may hold beyond those its rows carry, all sections together:
# columns a header names that no row fills, and columns merged from a section's changing headers.
# A damaged header of 10,000 names over a long recording's 45,000 rows would be 3.6 GB of NaN; a
# 5 MB file of 50 sections, each a header of 9,000 names over 3,000 rows, 11 GB.
CELL_BUDGET = 32_000_000
# Distinct sections (tags) one recording may have. Real ones have tens to a few hundred (the disk
# sections come in groups of 150 disks); each costs a table: 400,000 one-row sections in 9 MB took
# 25 s and 1.2 GB. Past this the recording is not read.
MAX_SECTIONS = 10_000
TEXT_TAGS = {"AAA", "ZZZZ", "UARG", "ERROR"}
TEXT_COLUMNS = {"command", "wlmclass", "comm", "user", "group", "fullcommand", "progname"}  # progname: nmon v8 UARG
TAG_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_+\-]*$")



@dataclass
class Header:
    line: int
    fields: list[str]


@dataclass
class Section:
    name: str
    sid: int
    top: bool = False
    title: str = ""
    headers: list[Header] = field(default_factory=list)
    first_line: int = 0  # first header (or TOP title) line
    first_row: int = 0  # line of the first data row
    first_nf: int = 0  # field count of the first data row
    rows: int = 0
    line_parts: list[np.ndarray] = field(default_factory=list)
    snap_parts: list[np.ndarray] = field(default_factory=list)
    width: int = 0  # value columns allocated (field space)
    value_fields: list[int] = field(default_factory=list)
    text_fields: list[int] = field(default_factory=list)
    values: np.ndarray | None = None
    text: dict[int, np.ndarray] = field(default_factory=dict)
    row_fields: np.ndarray | None = None  # int32 field count per row
    counters: dict[str, int] = field(default_factory=lambda: defaultdict(int))



class ReadStopped(Exception):
    """The read was given up; the message says why (for the recording's status line)."""


class ReadTooLong(ReadStopped):
    """The read went past the deadline it was given (``read_nmon(..., seconds=)``)."""


class TooManySections(ReadStopped):
    """More than MAX_SECTIONS distinct sections: damaged, or not an nmon recording."""

    def __init__(self) -> None:
        super().__init__(f"more than {MAX_SECTIONS:,} sections (distinct tags): damaged, or not an nmon recording")


class ReaderState:
    """What the reader accumulates while it goes through a file, and its capped warnings."""

    def __init__(self, tz: str | None) -> None:
        self.rec = NmonRecording(tz=tz or NAIVE)
        self.zone = None
        if tz:
            try:
                self.zone = ZoneInfo(tz)
            except (ZoneInfoNotFoundError, ValueError) as exc:
                raise ValueError(f"unknown time zone {tz!r} (use an IANA name such as Europe/Paris)") from exc
        self.sections: dict[str, Section] = {}
        self.by_id: list[Section] = []
        self.snapshots = Snapshots()
        self.bbbp: list[tuple[int, str]] = []
        self.uarg: list[tuple[int, list[str]]] = []
        self.uarg_header: Header | None = None
        self.counts: dict[str, int] = defaultdict(int)
        self.crlf_warned = False
        self.tail_rows: list[tuple[int, int, int, list[str]]] = []
        self.deadline: float | None = None  # time.monotonic() past which the read stops (ReadTooLong)
        self.padding_left = CELL_BUDGET  # values left for columns no row fills (all sections)
        self.file_name: str | None = None  # the recording's file name (its nmon date settles an ambiguous AAA,date)

    def on_time(self) -> None:
        """Raise ReadTooLong past the deadline. Checked in the reader's own loops (per section, per
        thousand lines): a cooperative budget, as an alarm signal could land inside the native core."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ReadTooLong("past the time budget")

    # warnings with a cap per kind
    def warn(self, line: int, message: str, kind: str | None = None) -> None:
        if kind is not None:
            self.counts[kind] += 1
            if self.counts[kind] > WARN_CAP:
                return
        self.rec.warnings.append((line, message))

    def section(self, name: str) -> Section:
        sec = self.sections.get(name)
        if sec is None:
            if len(self.by_id) >= MAX_SECTIONS:
                raise TooManySections()
            sec = Section(name, len(self.by_id), top=(name == "TOP"))
            self.sections[name] = sec
            self.by_id.append(sec)
        return sec

    _ends_clean = True  # False when the file's last line has no line end

    def layouts(self, wanted: list[tuple[Section, int]]) -> None:
        """:meth:`layout` of each (section, fields of its rows), in file order: the sections share the
        recording's budget of unfilled values, and both reader paths spend it alike."""
        for sec, nf in sorted(wanted, key=lambda x: min(x[0].first_line or 1 << 62, x[0].first_row or 1 << 62)):
            self.on_time()
            self.layout(sec, nf)

    def layout(self, sec: Section, nf: int) -> None:
        """Value and text fields of a section whose rows have (up to) ``nf`` fields."""
        hdr = sec.headers[-1].fields if sec.headers else []
        # Columns the header names past the first row's fields are NaN in every such row (the first
        # row: the same on both reader paths, whatever each has seen of the others at this point).
        unfilled = sec.rows * (len(hdr) - sec.first_nf) if sec.rows and len(hdr) > sec.first_nf else 0
        if unfilled > self.padding_left:
            self.warn(sec.headers[-1].line, f"{sec.name}: the header names {len(hdr) - 2:,} columns for {sec.rows:,} "
                                            f"rows, more than they carry and than the recording's budget of "
                                            f"{CELL_BUDGET:,} unfilled values allows: only the columns the rows carry are kept",
                      kind=f"cells:{sec.name}")
        else:
            self.padding_left -= unfilled
            nf = max(nf, len(hdr)) if sec.rows else nf
        if sec.top:
            names = [h.lower() for h in hdr]
            sec.text_fields = [i for i, h in enumerate(names) if h in TEXT_COLUMNS and i >= 3]
            if not sec.text_fields and sec.first_nf >= 14 and not hdr:
                sec.text_fields = list(range(13, sec.first_nf))
            sec.value_fields = [1] + [i for i in range(3, nf) if i not in sec.text_fields]
        else:
            sec.value_fields = list(range(2, nf))
        sec.width = len(sec.value_fields)

    def wide_row(self, line: int, tag: str, fields: int) -> None:
        """A data row of more than MAX_FIELDS fields: not read (both reader paths say so alike)."""
        self.warn(line, f"{tag}: a row of {fields:,} fields (more than {MAX_FIELDS:,}): not read", kind=f"wide:{tag}")

    def bad_values(self, sec: Section, first: list, count: int) -> None:
        """Warn about the values that are not numbers (file order; the first of each section listed)."""
        kind = f"nan:{sec.name}"
        room = max(0, WARN_CAP - self.counts[kind])
        for line, f, raw in first[:room]:
            raw = raw() if callable(raw) else raw
            self.warn(line, f"{sec.name}: field {f + 1} {raw[:30]!r} is not a number (read as NaN)", kind=kind)
        self.counts[kind] += count - min(room, len(first), count)

    def _warn_crlf(self, line: int) -> None:
        if not self.crlf_warned:
            self.crlf_warned = True
            self.warn(line, "CRLF (Windows) line ends: read as plain line ends")


def apply_tail_rows(r: ReaderState) -> None:
    """Add the truncated last row (read in Python) to its section."""
    for sid, line, snap, parts in r.tail_rows:
        sec = r.by_id[sid]
        vals = np.full((1, max(sec.width, 1)), np.nan)
        for j, f in enumerate(sec.value_fields):
            if f < len(parts):
                try:
                    vals[0, j] = float(parts[f])
                except ValueError:
                    pass
        sec.values = np.concatenate([sec.values if sec.values is not None and sec.values.shape[1] == vals.shape[1]
                                     else np.full((sec.rows, vals.shape[1]), np.nan), vals])
        sec.text = {f: np.concatenate([arr, np.array([parts[f].strip() if f < len(parts) else ""], dtype=object)])
                    for f, arr in sec.text.items()}
        sec.row_fields = np.concatenate([sec.row_fields if sec.row_fields is not None else np.zeros(sec.rows, np.int32),
                                         np.array([len(parts)], np.int32)])
        sec.line_parts.append(np.array([line], np.int64))
        sec.snap_parts.append(np.array([snap], np.int64))
        sec.rows += 1
        sec.width = vals.shape[1]
