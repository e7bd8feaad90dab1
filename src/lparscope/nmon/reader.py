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

How (speed): the file is read in chunks twice. Pass 1 finds every line and classifies it with
numpy (:mod:`.fast`), reads the few text lines (AAA, BBB*, ZZZZ, section headers) in Python
and counts the rows of each section; the tables are then allocated once. Pass 2 gathers the
rows of the sections sharing a field count and converts them with Arrow's multi-threaded CSV
reader straight into those tables. Memory stays near the size of the tables (8 bytes per value)
plus one chunk. gzip input is decompressed in memory first.

With the native core (built at install when cargo is there, :mod:`.native`) both passes
run in Rust on every core instead (~4x faster); the text lines, the columns of each section,
the warnings and the tables are made by the same code here, so the recording is the same.
``LPARSCOPE_NMON_NATIVE=0`` forces the numpy + Arrow path.

Tolerance: a truncated last line, CRLF line ends, duplicated or out-of-order snapshots, new
devices mid-file (a new header line: the columns grow, earlier rows are NaN), ERROR lines,
values that are not numbers (NaN), lines that are not nmon records: each gives a warning with
its line number (capped per kind, the rest counted) and the rest is kept. Nothing raises on
bad content; an unreadable path raises ``OSError``, an unknown ``tz`` ``ValueError``.
"""

from __future__ import annotations

import gzip
import os
import re
import zlib
from collections import defaultdict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np

from . import fast, native
from .bbbp import bbbp_outputs
from .model import NAIVE, NmonRecording, NmonTable

CHUNK = 12 << 20  # bytes per chunk
WARN_CAP = 20  # warnings of one kind per section before they are only counted
TEXT_TAGS = {"AAA", "ZZZZ", "UARG", "ERROR"}
TEXT_COLUMNS = {"command", "wlmclass", "comm", "user", "group", "fullcommand"}
_TAG_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_+\-]*$")
_T_RE = re.compile(r"^T(\d+)$")
_MONTHS = {m: i + 1 for i, m in enumerate("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split())}


# --- detection ---------------------------------------------------------------------------------


def is_nmon(head: bytes) -> bool:
    """True when ``head`` (the first bytes of a file, plain or gzip) looks like an nmon recording."""
    if head[:2] == b"\x1f\x8b":
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 4096)
        except zlib.error:
            return False
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"AAA,"):
        return True
    return re.match(rb"ZZZZ,T\d+,\d\d:\d\d", text) is not None


# --- input ------------------------------------------------------------------------------------


class _Source:
    """The file's bytes, delivered as chunks that end at a line end (twice: one per pass)."""

    def __init__(self, source: str | os.PathLike[str] | bytes, warn: list[tuple[int, str]]) -> None:
        self.path: Path | None = None
        self.data: bytes | None = None
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
            self.data = _gunzip(data, warn) if data[:2] == b"\x1f\x8b" else data
        else:
            path = Path(source)
            with open(path, "rb") as fh:
                magic = fh.read(2)
            if magic == b"\x1f\x8b":
                self.data = _gunzip(path.read_bytes(), warn)
            else:
                self.path = path
        self.size = len(self.data) if self.data is not None else self.path.stat().st_size  # type: ignore[union-attr]

    def chunks(self) -> Iterator[tuple[bytes | memoryview, bool, bool]]:
        """(chunk, last, has_cr) triples; every chunk ends with b'\\n' (added after a truncated last line)."""
        if self.data is not None:
            data = self.data
            mv = memoryview(data)
            pos = 0
            while pos < len(data):
                end = min(pos + CHUNK, len(data))
                if end < len(data):
                    cut = data.rfind(b"\n", pos, end)
                    end = cut + 1 if cut >= 0 else (data.find(b"\n", end) + 1 or len(data))
                has_cr = data.find(b"\r", pos, end) >= 0
                if data[end - 1:end] != b"\n":
                    yield bytes(mv[pos:end]) + b"\n", True, has_cr
                    return
                piece = mv[pos:end]
                pos = end
                yield piece, pos >= len(data), has_cr
            return
        with open(self.path, "rb") as fh:  # type: ignore[arg-type]
            tail = b""
            while True:
                buf = bytearray(CHUNK + len(tail))
                buf[: len(tail)] = tail
                got = fh.readinto(memoryview(buf)[len(tail):])
                filled = len(tail) + got
                if got == 0:
                    if tail:
                        yield tail + b"\n", True, b"\r" in tail
                    return
                cut = buf.rfind(b"\n", 0, filled)
                if cut < 0:
                    tail = bytes(buf[:filled])
                    continue
                tail = bytes(buf[cut + 1:filled])
                yield memoryview(buf)[: cut + 1], False, buf.find(b"\r", 0, cut + 1) >= 0


def _gunzip(data: bytes, warn: list[tuple[int, str]]) -> bytes:
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error):
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            out = d.decompress(data)
        except zlib.error:
            out = b""
        warn.append((0, "gzip stream is damaged or truncated: read what could be decompressed"))
        return out


# --- per-section accumulation -----------------------------------------------------------------


@dataclass
class _Header:
    line: int
    fields: list[str]


@dataclass
class _Section:
    name: str
    sid: int
    top: bool = False
    title: str = ""
    headers: list[_Header] = field(default_factory=list)
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


@dataclass
class _ChunkPlan:
    """What pass 1 learnt about a chunk, for pass 2."""

    starts: np.ndarray  # start offset of every line of the chunk
    rows: np.ndarray  # line index (in the chunk) of each data row, grouped by section, file order inside
    bounds: list[tuple[int, int, int, int]]  # (section id, start in rows, end in rows, row offset in section)
    nfields: dict[int, int]  # section id -> field count of its first row in this chunk
    line0: int


class _Reader:
    def __init__(self, tz: str | None) -> None:
        self.rec = NmonRecording(tz=tz or NAIVE)
        self.zone = None
        if tz:
            try:
                self.zone = ZoneInfo(tz)
            except (ZoneInfoNotFoundError, ValueError) as exc:
                raise ValueError(f"unknown time zone {tz!r} (use an IANA name such as Europe/Paris)") from exc
        self.sections: dict[str, _Section] = {}
        self.by_id: list[_Section] = []
        self.snap_times: dict[int, datetime] = {}
        self.snap_line: dict[int, int] = {}
        self.last_snap = -1
        self.bbbp: list[tuple[int, str]] = []
        self.uarg: list[tuple[int, list[str]]] = []
        self.uarg_header: _Header | None = None
        self.counts: dict[str, int] = defaultdict(int)
        self.plans: list[_ChunkPlan] = []
        self.crlf_warned = False
        self.tail_rows: list[tuple[int, int, int, list[str]]] = []

    # warnings with a cap per kind
    def warn(self, line: int, message: str, kind: str | None = None) -> None:
        if kind is not None:
            self.counts[kind] += 1
            if self.counts[kind] > WARN_CAP:
                return
        self.rec.warnings.append((line, message))

    def section(self, name: str) -> _Section:
        sec = self.sections.get(name)
        if sec is None:
            sec = _Section(name, len(self.by_id), top=(name == "TOP"))
            self.sections[name] = sec
            self.by_id.append(sec)
        return sec

    # --- pass 1 ---------------------------------------------------------------------------
    def pass1(self, scanned: "_Scanned", line0: int, last: bool) -> int:
        """Read the chunk's text lines, count its rows (from its scan); returns its line count."""
        chunk, starts, ends, sc = scanned.chunk, scanned.starts, scanned.ends, scanned.scan
        if scanned.cr_line:
            self._warn_crlf(line0 + scanned.cr_line)
        n = len(starts)
        # Map the chunk's tags to sections; which tags hold numeric rows.
        numeric = np.zeros(len(sc.tags) + 1, bool)
        sec_of_tag = np.full(len(sc.tags) + 1, -1, np.int64)
        for i, tag in enumerate(sc.tags):
            if tag in TEXT_TAGS or tag.startswith("BBB") or not _TAG_RE.match(tag):
                continue
            numeric[i] = True
            sec_of_tag[i] = self.section(tag).sid
        tid = np.where(sc.tag_ids >= 0, sc.tag_ids, len(sc.tags))
        is_top_tag = np.zeros(len(sc.tags) + 1, bool)
        if "TOP" in sc.tags:
            is_top_tag[sc.tags.index("TOP")] = True
        data = numeric[tid] & (((sc.tfield == 1) & ~is_top_tag[tid]) | ((sc.tfield == 2) & is_top_tag[tid]))
        if last and n and not self._ends_clean:
            data[n - 1] = False  # handled as text: its last field may be cut
        text_rows = np.flatnonzero(~data)
        for i in text_rows.tolist():
            raw = bytes(chunk[starts[i]:ends[i]])
            self._text_line(line0 + i + 1, raw.decode("utf-8", "replace"), last and i == n - 1)
        drows = np.flatnonzero(data)
        dsec = sec_of_tag[tid[drows]]
        order = np.argsort(dsec, kind="stable")
        rows = drows[order].astype(np.int32)
        dsec = dsec[order]
        snaps = sc.tnum[rows]
        bounds: list[tuple[int, int, int, int]] = []
        nfields: dict[int, int] = {}
        if len(rows):
            cuts = np.flatnonzero(np.diff(dsec)) + 1
            lo_list = np.concatenate([[0], cuts]).tolist()
            hi_list = np.concatenate([cuts, [len(rows)]]).tolist()
            for lo, hi in zip(lo_list, hi_list):
                sec = self.by_id[int(dsec[lo])]
                bounds.append((sec.sid, lo, hi, sec.rows))
                sec.rows += hi - lo
                sec.line_parts.append((rows[lo:hi] + (line0 + 1)).astype(np.int32))
                sec.snap_parts.append(snaps[lo:hi].astype(np.int32))
                r = int(rows[lo])
                nfields[sec.sid] = bytes(chunk[starts[r]:ends[r]]).count(b",") + 1
                if not sec.first_row:
                    sec.first_row = line0 + r + 1
                    sec.first_nf = nfields[sec.sid]
        self.plans.append(_ChunkPlan(starts, rows, bounds, nfields, line0))
        return n

    _ends_clean = True

    def _warn_crlf(self, line: int) -> None:
        if not self.crlf_warned:
            self.crlf_warned = True
            self.warn(line, "CRLF (Windows) line ends: read as plain line ends")

    def _text_line(self, line: int, text: str, last: bool) -> None:
        if not text.strip():
            return
        if last and not self._ends_clean:
            self.warn(line, "last line is truncated (no end of line): its last field was dropped")
            if "," not in text:
                return
            text = text.rsplit(",", 1)[0]
        parts = text.split(",")
        tag = parts[0].strip()
        if len(parts) < 2 or not _TAG_RE.match(tag):
            self.warn(line, f"not an nmon record: {text[:60]!r}", kind="garbage")
            return
        if tag == "AAA":
            key = parts[1].strip()
            value = ",".join(parts[2:]).strip()
            if key in self.rec.header and len(parts) > 2:
                key, value = f"{key}:{parts[2].strip()}", ",".join(parts[3:]).strip()
            self.rec.header[key] = value
            if key == "host":
                self.rec.host = value or None
            return
        if tag.startswith("BBB"):
            self.rec.config.append((line, text))
            if tag == "BBBP":
                self.bbbp.append((line, text))
            return
        if tag == "ZZZZ":
            self._zzzz(line, parts)
            return
        if tag == "ERROR":
            self.warn(line, f"nmon ERROR line: {','.join(parts[1:])[:120]}", kind="ERROR")
            return
        if tag == "UARG":
            m = _T_RE.match(parts[1].strip())
            if m:
                self.uarg.append((line, parts))
            elif self.uarg_header is None:
                self.uarg_header = _Header(line, [p.strip() for p in parts])
            return
        sec = self.section(tag)
        second = parts[1].strip()
        if _T_RE.match(second) or re.match(r"^[-+]?[\d.]+$", second):
            if last:
                self._tail_row(sec, line, parts)
                return
            self.warn(line, f"{tag}: row not read ({text[:60]!r})", kind=f"badrow:{tag}")
            return
        if sec.top and not second.startswith("+") and len(parts) <= 2:
            sec.title = second
            if not sec.first_line:
                sec.first_line = line
            return
        if not sec.first_line:
            sec.first_line = line
        if not sec.title or not sec.top:
            sec.title = second if not sec.top else sec.title
        if sec.headers and sec.headers[-1].fields[2:] == [p.strip() for p in parts[2:]]:
            return  # the same header again
        if sec.headers:
            self.warn(line, f"{tag}: new header line mid-file ({len(parts) - 2} columns, "
                            f"was {len(sec.headers[-1].fields) - 2}): columns merged", kind=f"hdr:{tag}")
        sec.headers.append(_Header(line, [p.strip() for p in parts]))

    def _tail_row(self, sec: _Section, line: int, parts: list[str]) -> None:
        """The truncated last line of a file, read in Python."""
        if sec.top:
            m = _T_RE.match(parts[2].strip()) if len(parts) > 2 else None
        else:
            m = _T_RE.match(parts[1].strip())
        if not m:
            return
        self.tail_rows.append((sec.sid, line, int(m.group(1)), parts))

    def _zzzz(self, line: int, parts: list[str]) -> None:
        m = _T_RE.match(parts[1].strip()) if len(parts) > 1 else None
        if not m:
            self.warn(line, "ZZZZ line without a snapshot number", kind="zzzz")
            return
        snap = int(m.group(1))
        when = _parse_time(parts[2].strip() if len(parts) > 2 else "", parts[3].strip() if len(parts) > 3 else "")
        if when is None:
            self.warn(line, f"ZZZZ {parts[1].strip()}: unreadable time {','.join(parts[2:4])!r}", kind="zzzz")
            return
        if self.zone is not None:
            when = when.replace(tzinfo=self.zone)
        if snap in self.snap_times:
            self.warn(line, f"snapshot {parts[1].strip()} appears again (first at line {self.snap_line[snap]}): "
                            "the last one is kept", kind="dupsnap")
        elif snap < self.last_snap:
            self.warn(line, f"snapshot {parts[1].strip()} is out of order (after T{self.last_snap:04d}): "
                            "rows are sorted by snapshot", kind="ordersnap")
        self.last_snap = max(self.last_snap, snap)
        self.snap_times[snap] = when
        self.snap_line[snap] = line
        self.rec.times[parts[1].strip()] = when

    # --- between the passes: allocate ------------------------------------------------------
    def allocate(self) -> None:
        for sec in self.by_id:
            counts = [p.nfields[sec.sid] for p in self.plans if sec.sid in p.nfields]
            self.layout(sec, max(counts, default=2))
            sec.values = np.empty((sec.rows, sec.width), np.float64, order="F")
            sec.text = {f: np.full(sec.rows, "", dtype=object) for f in sec.text_fields}
            sec.row_fields = np.empty(sec.rows, np.int32)

    def layout(self, sec: _Section, nf: int) -> None:
        """Value and text fields of a section whose rows have (up to) ``nf`` fields."""
        hdr = sec.headers[-1].fields if sec.headers else []
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

    def _grow(self, sec: _Section, fields: list[int]) -> None:
        if len(fields) <= sec.width and fields[-1:] == sec.value_fields[len(fields) - 1:len(fields)]:
            return
        known = set(sec.value_fields) | set(sec.text_fields)
        extra = [f for f in fields if f not in known]
        if not extra:
            return
        sec.value_fields = sec.value_fields + extra
        grown = np.full((sec.rows, len(sec.value_fields)), np.nan, order="F")
        grown[:, : sec.width] = sec.values  # type: ignore[index]
        sec.values = grown
        sec.width = len(sec.value_fields)

    # --- pass 2 ---------------------------------------------------------------------------
    def pass2(self, chunk: bytes | memoryview, has_cr: bool, plan: _ChunkPlan, pool: ThreadPoolExecutor | None) -> None:
        if not plan.bounds:
            return
        if has_cr:
            chunk = _no_cr(chunk)
        starts = plan.starts
        ends = np.empty_like(starts)
        if len(starts):
            ends[:-1] = starts[1:] - 1
            ends[-1] = len(chunk) - 1
        lines = fast.ArrowLines(chunk, starts) if fast.HAVE_ARROW else None
        # Groups: sections with the same field count and layout are parsed together.
        groups: dict[tuple, list[tuple[int, int, int, int]]] = defaultdict(list)
        for b in plan.bounds:
            sec = self.by_id[b[0]]
            nf = plan.nfields[sec.sid]
            groups[(nf, sec.sid if sec.top else -1)].append(b)
        jobs = []
        for (nf, _), members in sorted(groups.items(), key=lambda g: -sum(m[2] - m[1] for m in g[1])):
            rows = np.concatenate([plan.rows[lo:hi] for _, lo, hi, _ in members])
            sec0 = self.by_id[members[0][0]]
            if sec0.top:
                vf = [1] + [i for i in range(3, nf) if i not in sec0.text_fields]
                tf = list(sec0.text_fields)
            else:
                vf, tf = list(range(2, nf)), []
            if lines is not None:
                args = (fast.parse_group_arrow, lines, rows, nf, vf, tf)
            else:
                args = (fast.parse_group_py, chunk, starts, ends, rows, nf, vf, tf)
            job = pool.submit(*args) if pool is not None else _Done(args[0](*args[1:]))
            jobs.append((job, members, rows, nf))
        for job, members, rows, nf in jobs:
            self._store(job.result(), members, rows, nf, plan)

    def _store(self, res: fast.GroupResult, members: list[tuple[int, int, int, int]], rows: np.ndarray,
               nf: int, plan: _ChunkPlan) -> None:
        pos = 0
        for sid, lo, hi, off in members:
            sec = self.by_id[sid]
            k = hi - lo
            # Only the fields this section's rows have (the group may hold longer rows of others).
            most = nf if res.nfields is None else int(res.nfields[pos:pos + k].max())
            self._grow(sec, [f for f in res.fields if f < most])
            where = {f: j for j, f in enumerate(sec.value_fields)}
            values = sec.values
            assert values is not None
            done = set()
            for col, f in zip(res.columns, res.fields):
                j = where.get(f)
                if j is None:
                    continue
                values[off:off + k, j] = col[pos:pos + k]
                done.add(j)
            if len(done) < sec.width:
                values[off:off + k, [j for j in range(sec.width) if j not in done]] = np.nan
            for f, arr in res.text.items():
                if f in sec.text:
                    sec.text[f][off:off + k] = arr[pos:pos + k]
            assert sec.row_fields is not None
            sec.row_fields[off:off + k] = nf if res.nfields is None else res.nfields[pos:pos + k]
            cells = res.bad_cells
            if len(cells):
                mine = cells[(cells[:, 0] >= pos) & (cells[:, 0] < pos + k)]
                self.bad_values(sec, [(plan.line0 + int(rows[r]) + 1, f, lambda r=r, f=f: res.bad_text(r, f))
                                      for r, f in mine[: WARN_CAP].tolist()], len(mine))
            pos += k

    def bad_values(self, sec: _Section, first: list, count: int) -> None:
        """Warn about the values that are not numbers (file order; the first of each section listed)."""
        kind = f"nan:{sec.name}"
        room = max(0, WARN_CAP - self.counts[kind])
        for line, f, raw in first[:room]:
            raw = raw() if callable(raw) else raw
            self.warn(line, f"{sec.name}: field {f + 1} {raw[:30]!r} is not a number (read as NaN)", kind=kind)
        self.counts[kind] += count - min(room, len(first), count)

    # --- the end: tables -------------------------------------------------------------------
    def finish(self) -> None:
        rec = self.rec
        snap_keys = np.array(sorted(self.snap_times), np.int64)
        if self.zone is not None:
            snap_vals = np.array([self.snap_times[k].astimezone(timezone.utc).replace(tzinfo=None)
                                  for k in snap_keys.tolist()], dtype="datetime64[s]")
        else:
            snap_vals = np.array([self.snap_times[k] for k in snap_keys.tolist()], dtype="datetime64[s]")
        # Tables in the order of the file (a section's header, or its first row without one).
        for sec in sorted(self.by_id, key=lambda s: (s.first_line or s.first_row or 1 << 62, s.sid)):
            table = self._table(sec, snap_keys, snap_vals)
            if table is not None:
                rec.tables[sec.name] = table
        if self.uarg:
            rec.tables["UARG"] = self._uarg_table(snap_keys, snap_vals)
        rec.bbbp_outputs = bbbp_outputs(self.bbbp)
        for kind, n in sorted(self.counts.items()):
            if n > WARN_CAP:
                rec.warnings.append((0, f"{n - WARN_CAP} more warnings like the above ({kind.split(':')[0]}"
                                        f"{' in ' + kind.split(':', 1)[1] if ':' in kind else ''}) not listed"))
        rec.warnings.sort(key=lambda w: w[0])

    def _columns(self, sec: _Section, rows_epoch: np.ndarray) -> tuple[list[str], np.ndarray]:
        """Named columns for the field-space values, merging header epochs (devices added mid-file)."""
        assert sec.values is not None
        names_per_epoch: dict[int, list[str | None]] = {}
        if not len(rows_epoch):
            used: list[int] = []
        elif rows_epoch[0] == rows_epoch[-1]:  # rows are in file order, so epochs never decrease
            used = [int(rows_epoch[0])]
        else:
            used = np.unique(rows_epoch).tolist()
        for e in used:
            hdr = sec.headers[e].fields if e >= 0 else []
            names_per_epoch[e] = [(hdr[f] if f < len(hdr) and hdr[f] else None) for f in sec.value_fields]
        if not used:
            hdr = sec.headers[-1].fields if sec.headers else []
            names = [(hdr[f] if f < len(hdr) and hdr[f] else f"col{f - 1}") for f in sec.value_fields]
            return _dedupe(names), sec.values
        if len(used) == 1:
            names = [n or f"col{f - 1}" for n, f in zip(names_per_epoch[used[0]], sec.value_fields)]
            return _dedupe(names), sec.values
        merged: list[str] = []
        plan: dict[int, tuple[list[int], list[str]]] = {}
        widths = sec.row_fields if sec.row_fields is not None else np.full(sec.rows, 1 << 30)
        for e in used:
            rows_e = rows_epoch == e
            maxw = int(widths[rows_e].max()) if rows_e.any() else 0
            src, names = [], []
            for j, (n, f) in enumerate(zip(names_per_epoch[e], sec.value_fields)):
                if n is None and f >= maxw:
                    continue  # no name and no value in this epoch
                src.append(j)
                names.append(n or f"col{f - 1}")
                if names[-1] not in merged:
                    merged.append(names[-1])
            plan[e] = (src, names)
        out = np.full((sec.rows, len(merged)), np.nan)
        for e in used:
            rows = np.flatnonzero(rows_epoch == e)
            src, names = plan[e]
            dst = [merged.index(n) for n in names]
            out[np.ix_(rows, dst)] = sec.values[np.ix_(rows, src)]
        return merged, out

    def _table(self, sec: _Section, snap_keys: np.ndarray, snap_vals: np.ndarray) -> NmonTable | None:
        lines = np.concatenate(sec.line_parts).astype(np.int64) if sec.line_parts else np.zeros(0, np.int64)
        snaps = np.concatenate(sec.snap_parts).astype(np.int64) if sec.snap_parts else np.zeros(0, np.int64)
        sec.line_parts = sec.snap_parts = []
        if sec.rows == 0 and not sec.headers:
            return None
        assert sec.values is not None
        hdr_lines = np.array([h.line for h in sec.headers], np.int64)
        epoch = np.searchsorted(hdr_lines, lines) - 1 if len(hdr_lines) else np.full(len(lines), -1)
        self._check_widths(sec, lines, epoch)
        columns, values = self._columns(sec, epoch)
        text = {(sec.headers[-1].fields[f] if sec.headers and f < len(sec.headers[-1].fields) else f"col{f - 1}"): arr
                for f, arr in sec.text.items()}
        if sec.top:
            columns = [c.lstrip("+") for c in columns]
        elif len(snaps) > 1 and not bool((np.diff(snaps) > 0).all()):
            keep = self._dedupe_rows(sec, lines, snaps)
            lines, snaps, values = lines[keep], snaps[keep], values[keep]
            text = {k: v[keep] for k, v in text.items()}
        if len(snaps) and len(snap_keys):
            idx = np.clip(np.searchsorted(snap_keys, snaps), 0, len(snap_keys) - 1)
            found = snap_keys[idx] == snaps
            times = np.where(found, snap_vals[idx], np.datetime64("NaT"))
            missing = int((~found).sum())
            if missing:
                self.warn(int(lines[np.flatnonzero(~found)[0]]),
                          f"{sec.name}: {missing} rows whose snapshot has no ZZZZ time line (time NaT)",
                          kind=f"notime:{sec.name}")
        else:
            times = np.full(len(snaps), np.datetime64("NaT"), dtype="datetime64[s]")
        title = sec.title or (sec.headers[-1].fields[1] if sec.headers and len(sec.headers[-1].fields) > 1 else "")
        return NmonTable(sec.name, title, columns, snaps, times.astype("datetime64[s]"), values,
                         sec.first_line or sec.first_row, lines, text)

    def _check_widths(self, sec: _Section, lines: np.ndarray, epoch: np.ndarray) -> None:
        if not sec.headers or sec.row_fields is None or not len(lines):
            return
        expected = np.array([len(h.fields) for h in sec.headers], np.int64)[np.maximum(epoch, 0)]
        have = sec.row_fields.astype(np.int64)
        if sec.top:
            return
        for what, mask in (("more", have > expected), ("fewer", have < expected)):
            bad = np.flatnonzero(mask & (epoch >= 0))
            if len(bad):
                r = int(bad[0])
                self.warn(int(lines[r]), f"{sec.name}: {len(bad)} rows have {what} values ({have[r] - 2}) than "
                                         f"the header line {sec.headers[int(epoch[r])].line} names "
                                         f"({expected[r] - 2}); missing values are NaN, extra ones get "
                                         "generic column names", kind=f"width:{sec.name}")

    def _dedupe_rows(self, sec: _Section, lines: np.ndarray, snaps: np.ndarray) -> np.ndarray:
        order = np.argsort(snaps, kind="stable")
        s = snaps[order]
        last = np.ones(len(s), bool)
        last[:-1] = s[1:] != s[:-1]
        dropped = np.flatnonzero(~last)
        if len(dropped):
            again = int(lines[order[dropped[0] + 1]])
            self.warn(again, f"{sec.name}: {len(dropped)} rows repeat a snapshot already read (first: "
                             f"T{int(s[dropped[0]]):04d}, also at line {int(lines[order[dropped[0]]])}); "
                             "the last row of each snapshot is kept", kind=f"duprow:{sec.name}")
        if bool((np.diff(snaps) < 0).any()):
            r = int(np.flatnonzero(np.diff(snaps) < 0)[0]) + 1
            self.warn(int(lines[r]), f"{sec.name}: rows out of snapshot order; sorted by snapshot",
                      kind=f"order:{sec.name}")
        return order[last]

    def _uarg_table(self, snap_keys: np.ndarray, snap_vals: np.ndarray) -> NmonTable:
        hdr = self.uarg_header.fields if self.uarg_header else ["UARG", "+Time", "PID", "PPID", "COMM", "THCOUNT",
                                                               "USER", "GROUP", "FullCommand"]
        names = hdr[2:]
        numeric = [i for i, n in enumerate(names) if n.lower() not in TEXT_COLUMNS]
        textual = [i for i, n in enumerate(names) if n.lower() in TEXT_COLUMNS]
        vals = np.full((len(self.uarg), len(numeric)), np.nan)
        text = {names[i]: np.full(len(self.uarg), "", dtype=object) for i in textual}
        snaps = np.zeros(len(self.uarg), np.int64)
        lines = np.zeros(len(self.uarg), np.int64)
        for r, (line, parts) in enumerate(self.uarg):
            m = _T_RE.match(parts[1].strip())
            snaps[r] = int(m.group(1)) if m else -1
            lines[r] = line
            fields = parts[2:len(names) + 1] + [",".join(parts[len(names) + 1:])]
            for j, i in enumerate(numeric):
                try:
                    vals[r, j] = float(fields[i])
                except (ValueError, IndexError):
                    pass
            for i in textual:
                text[names[i]][r] = fields[i].strip() if i < len(fields) else ""
        idx = np.clip(np.searchsorted(snap_keys, snaps), 0, max(len(snap_keys) - 1, 0))
        times = (np.where(snap_keys[idx] == snaps, snap_vals[idx], np.datetime64("NaT")) if len(snap_keys)
                 else np.full(len(snaps), np.datetime64("NaT")))
        return NmonTable("UARG", "Process arguments", [names[i] for i in numeric], snaps,
                         times.astype("datetime64[s]"), vals, int(lines[0]), lines, text)


def _dedupe(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for n in names:
        if n in seen:
            seen[n] += 1
            out.append(f"{n}#{seen[n]}")
        else:
            seen[n] = 1
            out.append(n)
    return out


def _parse_time(hms: str, date: str) -> datetime | None:
    """'17:28:10' + '10-FEB-2016' -> datetime (also '10:24.25' and ISO-ish dates)."""
    m = re.match(r"^(\d{1,2})[:.](\d{2})[:.](\d{2})", hms)
    d = re.match(r"^(\d{1,2})-([A-Za-z]{3})-(\d{2,4})$", date)
    try:
        if m and d:
            year = int(d.group(3))
            year += 2000 if year < 100 else 0
            return datetime(year, _MONTHS[d.group(2).upper()], int(d.group(1)),
                            int(m.group(1)), int(m.group(2)), int(m.group(3)))
        d2 = re.match(r"^(\d{4})-(\d{2})-(\d{2})$", date)
        if m and d2:
            return datetime(int(d2.group(1)), int(d2.group(2)), int(d2.group(3)),
                            int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except (KeyError, ValueError):
        return None
    return None


@dataclass
class _Scanned:
    chunk: bytes | memoryview
    starts: np.ndarray
    ends: np.ndarray
    scan: fast.Scan
    cr_line: int  # 1-based line (in the chunk) of the first carriage return, 0 when none


class _Done:
    """A finished result with the interface of a Future."""

    def __init__(self, value: object) -> None:
        self.value = value

    def result(self) -> object:
        return self.value


def _no_cr(chunk: bytes | memoryview) -> bytes:
    return bytes(chunk).replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def _scan_chunk(chunk: bytes | memoryview, has_cr: bool) -> _Scanned:
    cr_line = 0
    if has_cr:
        raw = bytes(chunk)
        cr_line = raw.count(b"\n", 0, raw.find(b"\r")) + 1
        chunk = _no_cr(raw)
    a = np.frombuffer(chunk, np.uint8)
    starts, ends = fast.line_bounds(a)
    return _Scanned(chunk, starts, ends, fast.scan(a, starts, ends), cr_line)


_MALLOC_TAMED = False


def _tame_malloc() -> None:
    """Fix glibc's mmap threshold (256 KiB) so freed chunk buffers go back to the system.

    glibc raises the threshold after each large free, after which the reader's per-chunk
    buffers are kept in the heap: ~110 MB more peak memory on a 230 MB file. Linux/glibc only;
    a no-op elsewhere.
    """
    global _MALLOC_TAMED
    if _MALLOC_TAMED:
        return
    _MALLOC_TAMED = True
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 256 * 1024)  # M_MMAP_THRESHOLD
    except (OSError, AttributeError):
        pass


def read_nmon(source: str | os.PathLike[str] | bytes, tz: str | None = None) -> NmonRecording:
    """Read an nmon recording (path or bytes, plain or gzip) into an :class:`NmonRecording`."""
    _tame_malloc()
    r = _Reader(tz)
    src = _Source(source, r.rec.warnings)
    r.rec.bytes_read = src.size
    if src.size == 0 or (src.data is not None and not src.data.strip()):
        r.warn(1, "empty file")
        return r.rec
    chunks = src.chunks()
    try:
        first, last, has_cr = next(chunks)
    except StopIteration:
        r.warn(1, "empty file")
        return r.rec
    head = bytes(first[:65536])
    if not is_nmon(head):
        r.warn(1, "not an nmon file (no AAA header line)")
        if not _looks_like_records(head):
            r.rec.lines = head.count(b"\n")
            return r.rec
    if native.enabled():
        native.read_into(r, src)
        _apply_tail_rows(r)
        r.finish()
        return r.rec
    workers = min(2, os.cpu_count() or 1)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        # Pass 1: the next chunks are scanned (numpy, GIL released) while this one's text lines are read.
        line0 = 0
        ahead: deque = deque([pool.submit(_scan_chunk, first, has_cr)])
        for chunk, _, has_cr in chunks:
            ahead.append(pool.submit(_scan_chunk, chunk, has_cr))
            if len(ahead) > 1:
                line0 += r.pass1(ahead.popleft().result(), line0, False)
        r._ends_clean = _ends_with_newline(src)
        while ahead:
            scanned = ahead.popleft().result()
            line0 += r.pass1(scanned, line0, not ahead)
            del scanned
        r.rec.lines = line0
        r.allocate()
        # Pass 2: the groups of each chunk are converted in the pool, stored here.
        for (chunk, _, has_cr), plan in zip(src.chunks(), r.plans):
            r.pass2(chunk, has_cr, plan, pool)
            plan.starts = plan.rows = np.zeros(0, np.int64)
    _apply_tail_rows(r)
    r.finish()
    return r.rec


def _apply_tail_rows(r: _Reader) -> None:
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


def _ends_with_newline(src: _Source) -> bool:
    if src.data is not None:
        return src.data.endswith(b"\n")
    with open(src.path, "rb") as fh:  # type: ignore[arg-type]
        fh.seek(max(0, src.size - 1))
        return fh.read(1) == b"\n"


def _looks_like_records(head: bytes) -> bool:
    """An nmon excerpt without its AAA header still has TAG,Tnnnn rows."""
    return re.search(rb"(?m)^[A-Z][A-Z0-9_]*,T\d{4,},", head) is not None
