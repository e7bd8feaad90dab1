"""Vectorised pieces of the nmon reader: find lines, classify them, parse numeric rows.

An nmon file is CSV-like text whose first field names the section::

    CPU01,T0001,25.7,25.3,2.4,46.5
    DISKBUSY,T0001,0.0,0.2,0.9
    TOP,2555992,T0002,9.64,9.64,0.00,51,5248,0,5248,0,0,0,j2pg,Unclassified

:func:`line_bounds` finds every line with numpy; :func:`scan` (used without pyarrow, else
:mod:`.arrow_scan`) reads the first 32 bytes of each line at once (a ``lines x 32`` byte matrix)
to get its tag (section), whether it is a data row and its snapshot number (``T0001`` -> 1).
The rows of the sections that share a field count are then gathered with one Arrow ``take``
(a memcpy per line, in C++) and converted by Arrow's multi-threaded CSV reader
(:func:`parse_group_arrow`); without pyarrow, by :func:`parse_group_py` (slower, same results).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

try:  # the fast path; the reader falls back to pure Python without it
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv
except ImportError:  # pragma: no cover - exercised only where pyarrow is absent
    pa = pc = pcsv = None  # type: ignore[assignment]

HAVE_ARROW = pa is not None
# The system allocator gives memory back at once; Arrow's default pools keep freed blocks,
# which raised the reader's peak resident memory by ~100 MB on a 230 MB file.
POOL = pa.system_memory_pool() if HAVE_ARROW else None
W = 32  # bytes of each line read by scan(): tag (<= 16) + snapshot / pid fields
_COLS = np.arange(W)
# What Arrow's CSV float conversion accepts (and the native core, and _py_number): spaces and
# tabs around, a sign, decimal or exponent notation, inf / infinity / nan / nan(...) in any case.
_NUM_RE = (r"^[ \t]*[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
           r"|(?i:inf|infinity|nan|nan\([A-Za-z0-9_]*\)))[ \t]*$")
_NUM_PY = re.compile(_NUM_RE.encode("ascii"))


def _py_number(t: bytes) -> float | None:
    """A non-empty field as a number (the rules of _NUM_RE), None when it is not one."""
    if not _NUM_PY.match(t):
        return None
    t = t.strip(b" \t")
    return float("nan") if b"(" in t else float(t)


def line_bounds(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of every line of ``a`` (which ends with b'\\n'); ends point at the newline."""
    ends = np.flatnonzero(a == 10)
    starts = np.empty(len(ends), np.int64)
    if len(ends):
        starts[0] = 0
        starts[1:] = ends[:-1] + 1
    return starts, ends


@dataclass
class Scan:
    tag_ids: np.ndarray  # int32 per line: index into tags, -1 when the line has no usable tag
    tags: list[str]  # unique tags of this chunk
    tnum: np.ndarray  # int64 per line: snapshot number of a data row, -1 for other lines
    tfield: np.ndarray  # int8 per line: field holding Tnnnn (1, or 2 for TOP), 0 when none


def _window(a: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """lines x W matrix of the first W bytes of each line, zero past the line's end."""
    n = len(starts)
    if len(a) < W * 4:
        padded = np.zeros(len(a) + W, np.uint8)
        padded[: len(a)] = a
        m = np.lib.stride_tricks.sliding_window_view(padded, W)[starts]
    else:
        view = np.lib.stride_tricks.sliding_window_view(a, W)
        m = view[np.minimum(starts, len(a) - W)]
        late = np.flatnonzero(starts > len(a) - W)
        for r in late.tolist():
            seg = a[starts[r]:]
            m[r] = 0
            m[r, : len(seg)] = seg
    if n:
        m[_COLS[None, :] >= lengths[:, None]] = 0
    return m


def _digits(m: np.ndarray, begin: np.ndarray, count: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Integer value of ``count`` digits starting at column ``begin`` of each row (and all-digits flag);
    the value is meaningful only where the flag is set. One column at a time (Horner's rule): a
    ``rows x width`` int64 matrix per step cost 3-6 times more, most of it in fresh memory."""
    rows = np.arange(len(begin))
    val = np.zeros(len(begin), np.int64)
    ok = (count > 0) & (count <= width)
    for j in range(width):
        use = count > j
        d = m[rows, np.minimum(begin + j, W - 1)] - np.uint8(48)  # a byte below '0' wraps past 9
        ok &= ~use | (d <= 9)
        val = np.where(use, val * 10 + d, val)
    return val, ok


def scan(a: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> Scan:
    """Tag, data-row flag and snapshot number of every line, vectorised."""
    n = len(starts)
    if n == 0:
        return Scan(np.zeros(0, np.int32), [], np.zeros(0, np.int64), np.zeros(0, np.int8))
    lengths = ends - starts
    m = _window(a, starts, lengths)
    comma = m == 44
    p1 = comma.argmax(axis=1)
    has1 = comma[np.arange(n), p1]
    # The tag: bytes before the first comma (at most 15), hashed to one uint64 per line.
    # Byte 15 holds the tag's length, so a tag ending in NUL bytes is not taken for a shorter one.
    key_bytes = np.where(_COLS[None, :16] < p1[:, None], m[:, :16], 0).astype(np.uint8)
    key_bytes[:, 15] = np.minimum(p1, 255)
    k2 = np.ascontiguousarray(key_bytes).view(np.uint64)
    key = k2[:, 0] * np.uint64(0x9E3779B97F4A7C15) ^ k2[:, 1]
    usable = has1 & (p1 > 0) & (p1 < 16)
    uniq, first, inv = np.unique(key, return_index=True, return_inverse=True)
    inv = inv.reshape(-1)
    if (k2 != k2[first[inv]]).any():  # two tags with one hash (never seen in real files): exact grouping
        _, first, inv = np.unique(np.ascontiguousarray(key_bytes).view("V16").ravel(), return_index=True,
                                  return_inverse=True)
        inv = inv.reshape(-1)
    tags = [bytes(key_bytes[r, : p1[r]]).decode("latin-1") for r in first.tolist()]
    tag_ids = np.where(usable, inv.astype(np.int32), -1).astype(np.int32)
    # Second field: "Tnnnn" (data row) or digits (a TOP pid, then "Tnnnn" in the third field).
    later = comma & (_COLS[None, :] > p1[:, None])
    p2 = later.argmax(axis=1)
    has2 = later[np.arange(n), p2]
    p2 = np.where(has2, p2, np.where(lengths < W, lengths, W))
    c1 = np.take_along_axis(m, np.minimum(p1 + 1, W - 1)[:, None], axis=1)[:, 0]
    snap_a, ok_a = _digits(m, p1 + 2, p2 - p1 - 2, 7)
    is_t = usable & (c1 == 84) & ok_a & (has2 | (lengths < W))
    tnum = np.where(is_t, snap_a, -1)
    is_top = np.zeros(n, bool)
    cand = np.flatnonzero(usable & ~is_t & has2 & (c1 >= 48) & (c1 <= 57))
    if len(cand):
        mc, q1, q2, lc = m[cand], p1[cand], p2[cand], lengths[cand]
        later3 = (mc == 44) & (_COLS[None, :] > q2[:, None])
        q3 = later3.argmax(axis=1)
        has3 = later3[np.arange(len(cand)), q3]
        q3 = np.where(has3, q3, np.where(lc < W, lc, W))
        c2 = np.take_along_axis(mc, np.minimum(q2 + 1, W - 1)[:, None], axis=1)[:, 0]
        _, pid_ok = _digits(mc, q1 + 1, q2 - q1 - 1, 12)
        snap_b, ok_b = _digits(mc, q2 + 2, q3 - q2 - 2, 7)
        top = pid_ok & (c2 == 84) & ok_b & (has3 | (lc < W))
        is_top[cand[top]] = True
        tnum[cand[top]] = snap_b[top]
    tfield = np.where(is_t, 1, np.where(is_top, 2, 0)).astype(np.int8)
    return Scan(tag_ids, tags, tnum, tfield)


# --- numeric rows ---------------------------------------------------------------------------


_NO_CELLS = np.zeros((0, 2), np.int64)


def _no_text(row: int, fld: int) -> str:  # pragma: no cover - never called without cells
    raise KeyError((row, fld))


@dataclass
class GroupResult:
    """Rows of one group (same field count) converted: values (rows x value fields)."""

    columns: list[np.ndarray]  # float64 per value field, one value per row; NaN = missing / not a number
    fields: list[int]  # the field index (0 = tag) of each column
    text: dict[int, np.ndarray] = field(default_factory=dict)  # field index -> str per row
    # Every value that is not a number: (row, field index) sorted by row then field, and its text.
    bad_cells: np.ndarray = field(default_factory=lambda: _NO_CELLS)
    bad_text: Callable[[int, int], str] = _no_text
    nfields: np.ndarray | None = None  # per-row field count, only when rows differ


def _sorted_cells(rows: list[np.ndarray], fields: list[int]) -> np.ndarray:
    if not rows:
        return _NO_CELLS
    cells = np.column_stack([np.concatenate(rows), np.concatenate([np.full(len(r), f) for r, f in zip(rows, fields)])])
    return cells[np.lexsort((cells[:, 1], cells[:, 0]))].astype(np.int64)


def lines_array(buf: memoryview | bytes, starts: np.ndarray, binary: bool = False) -> "pa.Array":
    """The lines of ``buf`` starting at ``starts`` (each with its newline) as an Arrow array, no copy."""
    offsets = np.empty(len(starts) + 1, np.int32 if len(buf) < 2**31 - 1 else np.int64)
    offsets[:-1] = starts
    offsets[-1] = len(buf)
    small = offsets.dtype == np.int32
    typ = (pa.binary() if small else pa.large_binary()) if binary else (pa.string() if small else pa.large_string())
    return pa.Array.from_buffers(typ, len(starts), [None, pa.py_buffer(offsets), pa.py_buffer(buf)])


class ArrowLines:
    """The lines of one chunk as an Arrow string array (zero copy), each ending with its newline."""

    def __init__(self, buf: memoryview | bytes, starts: np.ndarray) -> None:
        self.buf = buf
        self.arr = lines_array(buf, starts)

    def gather(self, rows: np.ndarray) -> "pa.Buffer":
        taken = pc.take(self.arr, pa.array(rows, pa.int64()), memory_pool=POOL)
        offs = taken.buffers()[1]
        end = int(np.frombuffer(offs, np.int32 if pa.types.is_string(taken.type) else np.int64)[len(taken)])
        return taken.buffers()[2][0:end]


def _column(col: "pa.ChunkedArray") -> np.ndarray:
    if col.num_chunks == 1:
        return col.chunk(0).to_numpy(zero_copy_only=False)
    return col.to_numpy()


def _text_column(col: "pa.ChunkedArray") -> np.ndarray:
    """Text cells as str; bytes that are not UTF-8 (the CSV reader does not check) are replaced. Rows
    share one str per distinct text of a block, as from the native core (a TOP table's 450,000 rows
    repeat a few dozen commands: they were 900,000 str objects, about 50 MB)."""
    try:
        if col.null_count or not col.num_chunks:
            return col.to_numpy()
        parts = []
        for chunk in col.chunks:
            enc = chunk.dictionary_encode()
            distinct = np.asarray(enc.dictionary.to_numpy(zero_copy_only=False), dtype=object)
            parts.append(distinct[enc.indices.to_numpy()])
        return parts[0] if len(parts) == 1 else np.concatenate(parts)
    except (pa.ArrowException, UnicodeDecodeError):
        raw = col.cast(pa.binary()).to_pylist()
        return np.array([b.decode("utf-8", "replace") if b is not None else "" for b in raw], dtype=object)


def _read(data: "pa.Buffer", nfields: int, include: list[int], text_fields: set[int], as_text: bool) -> "pa.Table":
    names = [f"f{i}" for i in range(nfields)]
    types = {f"f{i}": (pa.string() if (as_text or i in text_fields) else pa.float64()) for i in include}
    return pcsv.read_csv(
        pa.BufferReader(data),
        read_options=pcsv.ReadOptions(column_names=names, block_size=1 << 21, use_threads=data.size > (1 << 20)),
        parse_options=pcsv.ParseOptions(quote_char=False, double_quote=False, escape_char=False,
                                        newlines_in_values=False, ignore_empty_lines=False),
        convert_options=pcsv.ConvertOptions(column_types=types, include_columns=[f"f{i}" for i in include],
                                            null_values=[""], strings_can_be_null=False, check_utf8=False,
                                            quoted_strings_can_be_null=False),
        memory_pool=POOL,
    )


def _field_counts(data: "pa.Buffer") -> np.ndarray:
    b = np.frombuffer(data, np.uint8)
    nl = np.flatnonzero(b == 10)
    cm = np.flatnonzero(b == 44)
    before = np.searchsorted(cm, nl)
    counts = np.diff(np.concatenate([[0], before]))
    return counts + 1


def parse_group_arrow(lines: ArrowLines, rows: np.ndarray, nfields: int, value_fields: list[int],
                      text_fields: list[int]) -> GroupResult:
    """Convert the given lines (all expected to have ``nfields`` fields) with Arrow's CSV reader."""
    data = lines.gather(rows)
    return _parse_buffer(data, len(rows), nfields, value_fields, text_fields)


def _parse_buffer(data: "pa.Buffer", nrows: int, nfields: int, value_fields: list[int],
                  text_fields: list[int]) -> GroupResult:
    # text_fields may name fields past these rows' end (a TOP row shorter than its header): "" there
    include = sorted(set(value_fields) | {f for f in text_fields if f < nfields})
    tset = set(text_fields)
    cells, bad_text = _NO_CELLS, _no_text
    try:
        table = _read(data, nfields, include, tset, as_text=False)
    except pa.ArrowInvalid as exc:
        msg = str(exc)
        if "Expected" in msg and "columns" in msg:
            return _parse_ragged(data, nrows, value_fields, text_fields)
        raw_table = _read(data, nfields, include, tset, as_text=True)
        table, cells = _clean_text_table(raw_table, value_fields)

        def bad_text(row: int, fld: int) -> str:
            raw = raw_table.column(f"f{fld}")[row].cast(pa.binary()).as_py()
            return "" if raw is None else raw.decode("utf-8", "replace")
    columns = [_column(table.column(f"f{f}")) for f in value_fields]
    text = {f: (_text_column(table.column(f"f{f}")) if f < nfields else np.full(nrows, "", dtype=object))
            for f in text_fields}
    return GroupResult(columns, list(value_fields), {k: np.asarray(v, dtype=object) for k, v in text.items()},
                       cells, bad_text)


def _clean_text_table(table: "pa.Table", value_fields: list[int]) -> tuple["pa.Table", np.ndarray]:
    """Columns read as text because some value is not a number: convert what is, null the rest.

    Every value column is converted in one pass over their concatenation (a compute call per
    column costs a fixed ~0.1 ms: a damaged row with thousands of fields made that seconds)."""
    names = [f"f{f}" for f in value_fields]
    if not names:
        return table, _NO_CELLS
    n = table.num_rows
    flat = pa.chunked_array([c for name in names for c in table.column(name).chunks], table.column(names[0]).type)
    try:
        numbers = pc.cast(flat, pa.float64())
        wrong = None
    except pa.ArrowInvalid:
        valid = pc.match_substring_regex(flat, _NUM_RE)
        empty = pc.equal(pc.utf8_length(flat), 0)
        wrong = np.asarray(pc.and_(pc.invert(valid), pc.invert(empty)).to_numpy(zero_copy_only=False), dtype=bool)
        cleaned = pc.if_else(valid, flat, pa.scalar(None, flat.type))
        numbers = pc.cast(pc.utf8_trim_whitespace(cleaned), pa.float64())
    bad_rows: list[np.ndarray] = []
    bad_fields: list[int] = []
    columns = {name: table.column(name) for name in table.column_names}
    for k, (f, name) in enumerate(zip(value_fields, names)):
        columns[name] = numbers.slice(k * n, n)
        if wrong is not None:
            idx = np.flatnonzero(wrong[k * n:(k + 1) * n])
            if len(idx):
                bad_rows.append(idx)
                bad_fields.append(f)
    return pa.table(columns), _sorted_cells(bad_rows, bad_fields)


def _extend_fields(value_fields: list[int], text_fields: list[int], width: int) -> list[int]:
    """The value fields of rows longer than expected: those given, then every field past them.

    Field 1 is a value only in a TOP row (its PID), whose field 2 is the snapshot (Tnnnn), never a
    value: past a TOP row's PID the values start at field 3."""
    last = max(value_fields, default=1)
    first = 3 if last == 1 and 1 in value_fields else last + 1
    return list(value_fields) + [f for f in range(first, width) if f not in text_fields]


def _parse_ragged(data: "pa.Buffer", nrows: int, value_fields: list[int], text_fields: list[int]) -> GroupResult:
    """Rows with differing field counts: parse each count apart, reassemble in order."""
    counts = _field_counts(data)
    b = np.frombuffer(data, np.uint8)
    starts, _ = line_bounds(b)
    lines = ArrowLines(data, starts)
    width = max(int(counts.max()), max(value_fields, default=0) + 1) if len(counts) else 0
    # The value fields extend to every field the longest row has (never the text fields).
    vf = _extend_fields(value_fields, text_fields, width)
    values = np.full((nrows, len(vf)), np.nan, order="F")
    text = {f: np.full(nrows, "", dtype=object) for f in text_fields}
    cells: list[np.ndarray] = []
    subs: dict[int, tuple[GroupResult, np.ndarray]] = {}
    col_of = {f: i for i, f in enumerate(vf)}
    for k in np.unique(counts).tolist():
        rows = np.flatnonzero(counts == k)
        sub_vf = [f for f in vf if f < k]
        sub_tf = [f for f in text_fields if f < k]
        if k <= 1:
            continue
        sub = _parse_buffer(lines.gather(rows), len(rows), int(k), sub_vf, sub_tf)
        for col, f in zip(sub.columns, sub.fields):
            values[rows, col_of[f]] = col
        for f, arr in sub.text.items():
            text[f][rows] = arr
        if len(sub.bad_cells):
            cells.append(np.column_stack([rows[sub.bad_cells[:, 0]], sub.bad_cells[:, 1]]))
            subs[int(k)] = (sub, rows)

    def bad_text(row: int, fld: int) -> str:
        sub, sub_rows = subs[int(counts[row])]
        return sub.bad_text(int(np.searchsorted(sub_rows, row)), fld)

    all_cells = np.concatenate(cells) if cells else _NO_CELLS
    all_cells = all_cells[np.lexsort((all_cells[:, 1], all_cells[:, 0]))] if len(all_cells) else all_cells
    return GroupResult([values[:, j] for j in range(len(vf))], vf, text, all_cells, bad_text, nfields=counts)


def parse_group_py(buf: memoryview | bytes, starts: np.ndarray, ends: np.ndarray, rows: np.ndarray,
                   nfields: int, value_fields: list[int], text_fields: list[int]) -> GroupResult:
    """Pure-Python twin of :func:`parse_group_arrow` (used when pyarrow is not installed)."""
    raw_lines = [bytes(buf[s:e]) for s, e in zip(starts[rows].tolist(), ends[rows].tolist())]
    counts = np.array([ln.count(b",") + 1 for ln in raw_lines], np.int64)
    ragged = bool(len(counts)) and bool((counts != nfields).any())
    width = max(int(counts.max()) if len(counts) else nfields, nfields)
    vf = _extend_fields(value_fields, text_fields, width) if ragged else value_fields
    col_of = {f: j for j, f in enumerate(vf)}
    values = np.full((len(rows), len(vf)), np.nan, order="F")
    text = {f: np.full(len(rows), "", dtype=object) for f in text_fields}
    bad: dict[tuple[int, int], str] = {}
    for r, ln in enumerate(raw_lines):
        parts = ln.split(b",")
        for f, t in enumerate(parts):
            if f in text:
                text[f][r] = t.decode("utf-8", "replace")
                continue
            j = col_of.get(f)
            if j is None or not t:
                continue
            v = _py_number(t)
            if v is None:
                bad[(r, f)] = t.decode("utf-8", "replace")
            else:
                values[r, j] = v
    cells = np.array(sorted(bad), np.int64).reshape(-1, 2)
    return GroupResult([values[:, j] for j in range(len(vf))], list(vf), text, cells,
                       lambda row, fld: bad[(row, fld)], nfields=counts if ragged else None)
