"""The pure path's line scan done by Arrow: tag, data-row flag and snapshot number of every line.

Same answer as :func:`.fast.scan` (the numpy version, kept for an install without pyarrow), from one
regular expression run by Arrow over the chunk's lines (zero copy) instead of a ``lines x 32`` byte
matrix and its dozens of full-size temporaries. The first three fields of a line::

    CPU01,T0001,25.7,25.3,2.4,46.5          tag CPU01, snapshot 1 in field 2
    TOP,2555992,T0002,9.64,9.64,0.00,51     tag TOP, a PID in field 2, snapshot 2 in field 3
    AAA,host,aixprod01                      tag AAA, no snapshot (a text line)

The second and third fields repeat a lot (every row of a snapshot names it), so each distinct
value is judged once in Python and the verdict spread back to the lines with its dictionary code.
Alone on one 12 MB chunk this is no quicker than the numpy scan (0.2 s each), but it makes a few
arrays instead of dozens of full-size ones: in the reader's two scanning threads the numpy scan
spent 6.4 s of thread time on a 215 MB recording, most of it faulting in fresh pages; this one 2.0-2.4 s.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .fast import Scan, lines_array

# tag: 1-15 bytes before the first comma (as fast.scan's `usable`); f2, f3: the next two fields.
# Lines are binary (each ends with its newline), so no byte is refused as bad UTF-8.
_FIELDS = r"^(?P<tag>[^,\n]{1,15}),(?P<f2>[^,\n]*)(?:,(?P<f3>[^,\n]*))?"
_MAX_SNAPSHOT_DIGITS = 7  # T0000001: as fast.scan
_MAX_PID_DIGITS = 12


def _codes(arr: "pa.Array") -> tuple[np.ndarray, list[bytes]]:
    """Dictionary code of each value (-1 where null) and the distinct values."""
    enc = pc.dictionary_encode(arr)
    codes = enc.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
    return codes, enc.dictionary.to_pylist()


def _snapshot(value: bytes) -> int:
    """The snapshot number of a 'Tnnnn' field (1-7 digits), -1 for anything else."""
    if value[:1] == b"T" and 2 <= len(value) <= _MAX_SNAPSHOT_DIGITS + 1 and value[1:].isdigit():
        return int(value[1:])
    return -1


def scan_arrow(buf: bytes | bytearray | memoryview, starts: np.ndarray) -> Scan:
    """:func:`.fast.scan` of a chunk ending with a newline, whose lines start at ``starts``."""
    n = len(starts)
    if n == 0:
        return Scan(np.zeros(0, np.int32), [], np.zeros(0, np.int64), np.zeros(0, np.int8))
    # flatten() gives the fields with the struct's nulls (a line that does not match);
    # StructArray.field() would give the children without them.
    tag, f2, f3 = pc.extract_regex(lines_array(buf, starts, binary=True), _FIELDS).flatten()
    tag_ids, tag_values = _codes(tag)
    f2_codes, f2_values = _codes(f2)
    # Per distinct second field: its snapshot number, or whether it may be a TOP row's PID.
    snap_of = np.full(len(f2_values) + 1, -1, np.int64)  # the extra slot is for code -1 (no match)
    pid_of = np.zeros(len(f2_values) + 1, bool)
    for i, v in enumerate(f2_values):
        snap_of[i] = _snapshot(v)
        pid_of[i] = snap_of[i] < 0 and 1 <= len(v) <= _MAX_PID_DIGITS and v.isdigit()
    tnum = snap_of[f2_codes]
    tfield = (tnum >= 0).astype(np.int8)
    # A PID in field 2: a TOP row when field 3 is the snapshot.
    maybe_top = np.flatnonzero(pid_of[f2_codes])
    if len(maybe_top):
        f3_codes, f3_values = _codes(f3.take(pa.array(maybe_top, pa.int64())))
        snap3_of = np.array([_snapshot(v) for v in f3_values] + [-1], np.int64)
        snap3 = snap3_of[f3_codes]
        top = snap3 >= 0
        tnum[maybe_top[top]] = snap3[top]
        tfield[maybe_top[top]] = 2
    return Scan(tag_ids.astype(np.int32), [v.decode("latin-1") for v in tag_values], tnum, tfield)


# The usual ZZZZ line, as the native core takes it (native/src/classify.rs, zzzz): exactly four
# fields, T and 1-9 digits, hh:mm:ss, a date of printable ASCII without a comma that starts and
# ends with a non-space. Any other form goes the text route (snapshots.Snapshots.add).
_USUAL_ZZZZ = (r"^ZZZZ,T(?P<snap>[0-9]{1,9}),(?P<h>[0-9]{2}):(?P<m>[0-9]{2}):(?P<s>[0-9]{2}),"
               r"(?P<date>[!-+\--~](?:[ !-+\--~]*[!-+\--~])?)\n$")


def usual_zzzz(buf: bytes | bytearray | memoryview, starts: np.ndarray, rows: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """The lines ``rows`` (ZZZZ lines, each ending with a newline) of the usual form, read at once:
    (which of ``rows``, their snapshot, digits of the snapshot field, seconds of the day, date code,
    the dates by code)."""
    none = np.zeros(0, np.int64)
    if not len(rows):
        return np.zeros(0, bool), none, none, none, none, []
    lines = lines_array(buf, starts, binary=True).take(pa.array(rows, pa.int64()))
    snap, h, m, s, date = pc.extract_regex(lines, _USUAL_ZZZZ).flatten()
    ok = np.asarray(pc.is_valid(snap).to_numpy(zero_copy_only=False), bool)
    if not ok.any():
        return ok, none, none, none, none, []
    matched = pa.array(ok)
    hour, minute, second = (np.asarray(pc.cast(x.filter(matched), pa.int64()).to_numpy(), np.int64) for x in (h, m, s))
    clock = (hour <= 23) & (minute <= 59) & (second <= 59)  # a valid time of day
    ok[ok] = clock
    sods = (hour * 3600 + minute * 60 + second)[clock]
    keep = pa.array(ok)
    snap_text = snap.filter(keep)
    snaps = np.asarray(pc.cast(snap_text, pa.int64()).to_numpy(), np.int64)
    digits = np.asarray(pc.binary_length(snap_text).to_numpy(), np.int64)
    codes, names = _codes(date.filter(keep))
    return ok, snaps, digits, sods, codes, [v.decode("ascii") for v in names]
