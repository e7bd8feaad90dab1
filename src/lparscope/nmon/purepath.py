"""The pure path of the nmon reader: numpy finds and classifies the lines, Arrow parses the values.

The file is read in chunks twice. Pass 1 finds every line with numpy (:mod:`.fast`), classifies
it with Arrow (:mod:`.arrow_scan`; numpy's :func:`.fast.scan` without pyarrow), routes the few text
lines (:mod:`.routing`) and counts the rows of each section;
the tables are then allocated once. Pass 2 gathers the rows of the sections sharing a field
count and converts them with Arrow's multi-threaded CSV reader straight into those tables.
Memory stays near the size of the tables (8 bytes per value) plus one chunk.
"""

from __future__ import annotations

import os
from collections import defaultdict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from . import fast
from .routing import Routing
from .snapshots import ReadLines
from .source import Source, ends_with_newline, line_text, roomy_malloc
from .state import MAX_FIELDS, TAG_RE, TEXT_TAGS, WARN_CAP, Section

if fast.HAVE_ARROW:
    from .arrow_scan import scan_arrow, usual_zzzz


@dataclass
class ChunkPlan:
    """What pass 1 learnt about a chunk, for pass 2."""

    starts: np.ndarray  # start offset of every line of the chunk
    rows: np.ndarray  # line index (in the chunk) of each data row, grouped by section, file order inside
    bounds: list[tuple[int, int, int, int]]  # (section id, start in rows, end in rows, row offset in section)
    nfields: dict[int, int]  # section id -> field count of its first row in this chunk
    line0: int


class PurePasses(Routing):
    """The two numpy/Arrow passes over the chunks of a file."""

    plans: list[ChunkPlan]
    zzzz_parts: list[tuple[np.ndarray, ...]]  # ZZZZ lines read at once: (lines, snaps, digits, sods, dates)
    zzzz_dates: dict[str, int]  # date text -> its index in the ReadLines given to the snapshots

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
            if not i & 1023:
                self.on_time()
            if tag in TEXT_TAGS or tag.startswith("BBB") or not TAG_RE.match(tag):
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
        wide = np.zeros(n, bool)
        for i in np.flatnonzero(data & (ends - starts >= MAX_FIELDS)).tolist():  # at least MAX_FIELDS commas?
            fields = bytes(chunk[starts[i]:ends[i]]).count(b",") + 1
            if fields > MAX_FIELDS:
                wide[i], data[i] = True, False
                self.wide_row(line0 + i + 1, sc.tags[tid[i]], fields)
        text_rows = np.flatnonzero(~data & ~wide)
        if fast.HAVE_ARROW and "ZZZZ" in sc.tags:
            text_rows = self._usual_zzzz(chunk, starts, text_rows, tid == sc.tags.index("ZZZZ"), line0,
                                         bool(last and n and not self._ends_clean))
        for k, i in enumerate(text_rows.tolist()):
            if not k & 1023:
                self.on_time()
            raw = bytes(chunk[starts[i]:ends[i]])
            self._text_line(line0 + i + 1, line_text(raw), last and i == n - 1)
        drows = np.flatnonzero(data)
        dsec = sec_of_tag[tid[drows]]
        # stable sort by section: a radix sort when the ids fit 16 bits (always, but for odd files)
        key = dsec.astype(np.int16) if len(self.by_id) < 1 << 15 else dsec
        order = np.argsort(key, kind="stable")
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
        # Kept to pass 2: as int32 (a chunk is far below 2 GiB), 18 MB less on a 4.5-million-line file.
        kept = starts.astype(np.int32) if len(chunk) < 2**31 - 1 else starts
        self.plans.append(ChunkPlan(kept, rows, bounds, nfields, line0))
        return n

    def _usual_zzzz(self, chunk: bytes | memoryview, starts: np.ndarray, text_rows: np.ndarray,
                    is_zzzz: np.ndarray, line0: int, cut_last: bool) -> np.ndarray:
        """Read the chunk's ZZZZ lines of the usual form at once (as the native core does: a
        Python loop per snapshot cost ~0.4 s on a recording of 45,000); returns the other text rows.
        The last line of a file without a final newline stays on the text route (it may be cut)."""
        z = is_zzzz[text_rows]
        if cut_last:
            z &= text_rows != len(starts) - 1
        zrows = text_rows[z]
        ok, snaps, digits, sods, codes, names = usual_zzzz(chunk, starts, zrows)
        if not ok.any():
            return text_rows
        date_ids = self.zzzz_dates
        to_global = np.array([date_ids.setdefault(d, len(date_ids)) for d in names] + [-1], np.int64)
        self.zzzz_parts.append((zrows[ok] + (line0 + 1), snaps, digits, sods, to_global[codes]))
        z[np.flatnonzero(z)[~ok]] = False
        return text_rows[~z]

    def add_usual_zzzz(self) -> None:
        """Give the snapshots the ZZZZ lines read at once (merged there with the text route's, by line)."""
        if self.zzzz_parts:
            cols = [np.concatenate(c) for c in zip(*self.zzzz_parts)]
            self.snapshots.add_read(ReadLines(*cols, list(self.zzzz_dates)))
        self.zzzz_parts, self.zzzz_dates = [], {}

    # --- between the passes: allocate ------------------------------------------------------
    def allocate(self) -> None:
        self.layouts([(sec, max((p.nfields[sec.sid] for p in self.plans if sec.sid in p.nfields), default=2))
                      for sec in self.by_id])
        for sec in self.by_id:
            self.on_time()
            sec.values = np.empty((sec.rows, sec.width), np.float64, order="F")
            sec.text = {f: np.full(sec.rows, "", dtype=object) for f in sec.text_fields}
            sec.row_fields = np.empty(sec.rows, np.int32)


    def _grow(self, sec: Section, fields: list[int]) -> None:
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
    def pass2(self, chunk: bytes | memoryview, has_cr: bool, plan: ChunkPlan, pool: ThreadPoolExecutor | None) -> None:
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
            self.on_time()
            self._store(job.result(), members, rows, nf, plan)

    def _store(self, res: fast.GroupResult, members: list[tuple[int, int, int, int]], rows: np.ndarray,
               nf: int, plan: ChunkPlan) -> None:
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


class _Inline:
    """An executor that runs each job at once: threads cost more than they save on a small recording."""

    def __enter__(self) -> "_Inline":
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def submit(self, fn, *args):  # type: ignore[no-untyped-def]
        return _Done(fn(*args))


SMALL = 4 << 20  # bytes: below this a recording is read in this thread only


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
    scanned = scan_arrow(chunk, starts) if fast.HAVE_ARROW else fast.scan(a, starts, ends)
    return _Scanned(chunk, starts, ends, scanned, cr_line)


def read_pure(r: PurePasses, src: Source, first: bytes | memoryview, has_cr: bool, chunks) -> None:  # type: ignore[no-untyped-def]
    """Fill the reader ``r`` from ``src`` (its first chunk already read) with the two passes."""
    r.plans, r.zzzz_parts, r.zzzz_dates = [], [], {}
    workers = min(2, os.cpu_count() or 1)
    with (_Inline() if src.size < SMALL else ThreadPoolExecutor(max_workers=workers)) as pool:
        with roomy_malloc():
            line0 = _first_pass(r, src, first, has_cr, chunks, pool)
        r.rec.lines = line0
        r.allocate()
        # Pass 2: the groups of each chunk are converted in the pool, stored here.
        for (chunk, _, has_cr), plan in zip(src.chunks(), r.plans):
            r.pass2(chunk, has_cr, plan, pool)
            plan.starts = plan.rows = np.zeros(0, np.int64)


def _first_pass(r: PurePasses, src: Source, first: bytes | memoryview, has_cr: bool, chunks, pool) -> int:  # type: ignore[no-untyped-def]
    """Pass 1 over every chunk; returns the file's line count."""
    # The next chunks are scanned (numpy / Arrow, GIL released) while this one's text lines are read.
    line0 = 0
    ahead: deque = deque([pool.submit(_scan_chunk, first, has_cr)])
    for chunk, _, has_cr in chunks:
        ahead.append(pool.submit(_scan_chunk, chunk, has_cr))
        if len(ahead) > 1:
            line0 += r.pass1(ahead.popleft().result(), line0, False)
    r._ends_clean = ends_with_newline(src)
    while ahead:
        scanned = ahead.popleft().result()
        line0 += r.pass1(scanned, line0, not ahead)
        del scanned
    r.add_usual_zzzz()
    return line0
