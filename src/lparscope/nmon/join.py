"""Recordings of one host taken one after another, read as one recording.

nmon is most often started by cron once a day (``nmon -f -s 300 -c 288``): a week of collection
is seven files of the same partition, each from midnight to midnight. Sizing, the series checks,
the charts and the store want the whole week, not its last day, so recordings whose times do not
overlap are joined by :func:`join_recordings`:

- each section's rows are put one after the other, in time order, with the columns of every part
  (a part without a column, say a disk added on Wednesday, has NaN there; a missing text is "");
- snapshot numbers run on from one part to the next (T0288 of Monday is followed by T0289);
- every row keeps the file it was read from (``NmonTable.sources`` and ``source_index``) and its
  line in that file, so evidence still names the right file and line;
- the header (AAA: host, serial, LPAR number) and configuration lines are the latest part's.

Recordings that overlap in time (the same day read twice, two collections running at once), and
recordings of another frame or partition number (:func:`other_partition`), are never joined: the
caller sees that with :func:`time_span`, :func:`overlaps` and :func:`other_partition`, and chooses one.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import numpy as np

from .model import NmonRecording, NmonTable
from .snapshots import LazyTimes

Span = tuple[int, int]  # (first, last) known snapshot time, seconds since the epoch


def time_span(rec: NmonRecording) -> Span | None:
    """The first and last dated snapshot of a recording; None when no snapshot has a time."""
    lo: int | None = None
    hi: int | None = None
    seen: set[int] = set()
    for table in rec.tables.values():
        times = table.times
        if id(times) in seen or not len(times):  # the per-snapshot sections share one array
            continue
        seen.add(id(times))
        known = times[~np.isnat(times)]
        if not known.size:
            continue
        secs = known.astype("datetime64[s]").astype(np.int64)
        first, last = int(secs.min()), int(secs.max())
        lo = first if lo is None else min(lo, first)
        hi = last if hi is None else max(hi, last)
    return None if lo is None or hi is None else (lo, hi)


def overlaps(a: Span | None, b: Span | None) -> bool:
    """Whether two recordings share any time (an undated one overlaps everything: it cannot be placed)."""
    return a is None or b is None or (a[0] <= b[1] and b[0] <= a[1])


def other_partition(a: NmonRecording, b: NmonRecording) -> str:
    """Why two recordings of one host name are of different partitions ("" when nothing says so):
    another frame serial or another partition number in their AAA lines. Such recordings are
    never joined (a partition moved by LPM, or two partitions with one host name, are not one series)."""
    for key, what in (("SerialNumber", "frame serial"), ("LPARNumberName", "partition number")):
        x, y = (r.header.get(key, "").split(",")[0].strip() for r in (a, b))
        if x and y and x != y:
            return f"{what}: {y}, not {x}"
    return ""


class JoinedTimes(LazyTimes):
    """The snapshot times of the joined recording, by its own tokens (``T0289`` ...), made on first use."""

    def __init__(self, parts: list[Mapping[str, datetime]], offsets: list[int]) -> None:
        self._parts, self._offsets = parts, offsets  # each part's times only: not its tables

    def _make(self) -> dict[str, datetime]:
        made: dict[str, datetime] = {}
        for times, offset in zip(self._parts, self._offsets):
            for token, when in times.items():
                digits = token[1:] if token[:1] in ("T", "t") else token
                made[f"T{int(digits) + offset:04d}" if digits.isdigit() else token] = when
        return made

    def _count(self) -> int:
        return sum(len(t) for t in self._parts)


def _last_snapshot(rec: NmonRecording) -> int:
    """The highest snapshot number a recording uses (the next part's numbers start after it)."""
    top = len(rec.times)
    for table in rec.tables.values():
        if len(table.snapshots):
            top = max(top, int(np.max(table.snapshots)))
    return top


def join_recordings(parts: list[tuple[NmonRecording, str]], drop_parts: bool = False) -> NmonRecording:
    """One recording made of ``parts`` (recording, file it was read from), which must not overlap
    in time (:func:`overlaps`); they are put in time order here. With ``drop_parts`` each part's
    section is taken out of it once joined, so that a year of daily files is held about once, not
    twice, while they are joined (the parts are left without sections)."""
    if not parts:
        raise ValueError("no recordings to join")
    spans = [time_span(rec) for rec, _ in parts]
    order = sorted(range(len(parts)), key=lambda i: spans[i] or (0, 0))
    recs = [parts[i][0] for i in order]
    paths = tuple(parts[i][1] for i in order)
    offsets: list[int] = []
    at = 0
    for rec in recs:
        offsets.append(at)
        at += _last_snapshot(rec)
    names = list(dict.fromkeys(name for rec in recs for name in rec.tables))
    shared: dict[tuple[int, ...], tuple[list[np.ndarray], np.ndarray]] = {}  # arrays the parts shared: joined once
    tables = {}
    for name in names:
        tables[name] = _join_table(name, [(k, rec.tables[name]) for k, rec in enumerate(recs) if name in rec.tables],
                                   paths, offsets, shared)
        for rec in recs if drop_parts else []:
            rec.tables.pop(name, None)
    last = recs[-1]
    return NmonRecording(host=last.host, header=dict(last.header), header_lines=dict(last.header_lines), tz=last.tz,
                         times=JoinedTimes([r.times for r in recs], offsets), tables=tables, config=list(last.config),
                         bytes_read=sum(r.bytes_read for r in recs), lines=sum(r.lines for r in recs))


def _once(shared: dict[tuple[int, ...], tuple[list[np.ndarray], np.ndarray]], arrays: list[np.ndarray],
          make) -> np.ndarray:  # type: ignore[no-untyped-def]
    key = tuple(id(a) for a in arrays)
    if key not in shared:
        shared[key] = (arrays, make())  # the arrays are kept with it: their ids are never reused meanwhile
    return shared[key][1]


def _join_table(name: str, pieces: list[tuple[int, NmonTable]], paths: tuple[str, ...], offsets: list[int],
                shared: dict[tuple[int, ...], tuple[list[np.ndarray], np.ndarray]]) -> NmonTable:
    tables = [t for _, t in pieces]
    columns = list(dict.fromkeys(c for t in tables for c in t.columns))
    if all(t.columns == columns for t in tables):
        values = np.concatenate([t.values for t in tables]) if len(tables) > 1 else tables[0].values.copy()
    else:  # a column some parts lack: NaN in their rows
        values = np.full((sum(len(t) for t in tables), len(columns)), np.nan)
        row = 0
        for t in tables:
            where = [columns.index(c) for c in t.columns]
            values[row:row + len(t), where] = t.values
            row += len(t)
    times = _once(shared, [t.times for t in tables], lambda: np.concatenate([t.times for t in tables]))
    snapshots = _once(shared, [t.snapshots for t in tables],  # the same arrays: the same parts, the same offsets
                      lambda: np.concatenate([np.asarray(t.snapshots, dtype=np.int64) + offsets[k] for k, t in pieces]))
    lines = np.concatenate([_row_lines(t) for t in tables])
    source_index = np.concatenate([np.full(len(t), k, dtype=np.int32) for k, t in pieces])
    text: dict[str, np.ndarray] = {}
    for key in dict.fromkeys(k for t in tables for k in t.text):
        text[key] = np.concatenate([np.asarray(t.text[key], dtype=object) if key in t.text
                                    else np.full(len(t), "", dtype=object) for t in tables])
    return NmonTable(name=name, title=tables[-1].title, columns=columns, snapshots=snapshots, times=times,
                     values=values, first_line=tables[0].first_line, lines=lines, text=text,
                     sources=paths, source_index=source_index)


def _row_lines(table: NmonTable) -> np.ndarray:
    """A line for every row (a table read without row lines cites its section's first line)."""
    lines = np.asarray(table.lines, dtype=np.int64)[:len(table)]
    if len(lines) < len(table):
        lines = np.concatenate([lines, np.full(len(table) - len(lines), table.first_line or 1, dtype=np.int64)])
    return lines
