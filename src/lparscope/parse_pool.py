"""Parsing text inputs on every core: the pure part of reading a file, in a process pool.

Reading a text input has two halves. :func:`prepare` is pure (text in, parser records out:
cut the file into command outputs, detect each one's kind, parse it) and runs in worker
processes; folding the records into the estate stays in the main process, file after file in
the order the inputs were found, so a parallel run gives exactly the estate and findings of a
serial one (``tests/test_parallel_parse.py``). nmon recordings are not sent to the pool: their
reader already uses every core.

``LPARSCOPE_WORKERS=1`` (or ``workers=1``) reads serially; small runs (fewer than
``MIN_FILES`` text files ready) are read serially as well, a pool costs more than it saves there.
"""

from __future__ import annotations

import os
import zlib
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any

from . import heap
from .input_items import read_deferred
from .inputs import InputFile, InputProblem
from .pipeline_guard import TimeBudgetExceeded, describe, file_seconds, time_budget
from .sources import Registry
from .sources.base import ParseWarning
from .sources.cut_line import CUT_ROW, MAY_BE_CUT, open_last_line, stops_before_last_column
from .sources.detect import split_and_classify
from .sources.filenames import classify_with_hint, not_command_output
from .sources.shared_strings import share

if TYPE_CHECKING:  # the pool's modules are imported when a pool is started (most runs of one file never do)
    from concurrent.futures import Executor

PROBE_BYTES = 64 * 1024  # a large file whose first 64 KB hold no supported output is not read further
MIN_FILES = 32  # text files before a pool is worth starting
WINDOW = 4  # batches in flight per worker (bounds memory: texts wait in the pool, not all at once)
# Files per task sent to a worker, or fewer up to BATCH_CHARS of text. One task per file costs the
# main process more than it saves (each is a pickle, a pipe write and a wake-up); larger batches
# also bring back fewer copies of the strings their records repeat (a pickle writes a repeated
# string once): on a thousand hosts, 64 files a task instead of 16 held 15 MB less at the end.
BATCH_FILES = 64
BATCH_CHARS = 1024 * 1024


@dataclass
class Prepared:
    """What the pure half made of one text file (picklable: it comes back from a worker)."""

    skip: str = ""  # why the file is not read (not command output, large without any), or ""
    skip_folder: bool = False  # the skip status names the folder as host (large files)
    cut_error: str = ""  # the cut into command outputs failed (internal error)
    segments: list[Any] = field(default_factory=list)
    hint: Any = None
    shift: int = 0
    results: list[tuple[Any, Any, str]] = field(default_factory=list)  # (segment, parsed or None, error)
    packed: bytes = b""  # the file's text, compressed (kept for excerpts: ``pipeline._packed_lines``)
    notes: list[tuple[int, str]] = field(default_factory=list)  # (file line, what reading it changed: NULs taken out)


def prepare(display: str, text: str, registry: dict | None = None, strings: dict[str, str] | None = None
            ) -> Prepared:
    """Cut one file into command outputs and parse each (no estate involved), within the per-file
    time budget (``pipeline_guard.file_seconds``): a file that takes longer is reported and not read.
    ``strings``: the run's table of shared strings (:func:`sources.shared_strings.share`); None:
    strings are shared within this file only."""
    seconds = file_seconds()
    try:
        with time_budget(seconds):
            return _prepare(display, text, registry, {} if strings is None else strings)
    except TimeBudgetExceeded:
        return Prepared(skip=f"not read: cutting and parsing it took longer than the per-file budget of {seconds:g} s "
                             f"(LPARSCOPE_FILE_SECONDS)")


def _prepare(display: str, text: str, registry: dict | None, strings: dict[str, str]) -> Prepared:
    registry = registry if registry is not None else _registry()
    why_not = not_command_output(display, text)
    if why_not:  # documents, scripts, images: reported, never a host
        return Prepared(skip=f"not command output ({why_not})")
    if len(text) > PROBE_BYTES and not any(s.kind for s in split_and_classify(text[:PROBE_BYTES], registry)):
        return Prepared(skip=f"large file ({len(text) // 1024} KB) with no supported command output "
                             f"in its first {PROBE_BYTES // 1024} KB; not read further", skip_folder=True)
    packed = pack(text)
    notes = []
    cut = open_last_line(text)  # the file ends inside its last line: was it cut? (sources/cut_line.py)
    if cut is not None and stops_before_last_column(text, cut[1]):
        notes.append((cut[0], CUT_ROW))
        text, cut = text[:cut[1]], None  # a row missing its last fields: not read
    try:
        segments, hint, shift = classify_with_hint(text, display, registry)
    except Exception as exc:
        return Prepared(cut_error=describe(exc), packed=packed)
    results = []
    for seg in segments:
        parsed = None
        error = ""
        if seg.kind is not None:
            try:
                parsed = parse_segment(seg, registry, strings)
            except Exception as exc:  # a parser bug must not end the run
                error = f"internal error in the {seg.kind} parser: {describe(exc)}"
        seg.text, seg.parsed = "", None  # parsed: the file's text travels back once, packed (a thousand hosts' 112 MB went twice)
        if cut is not None and parsed is not None:
            _may_be_cut(parsed, cut[0] - (seg.start - 1 - shift))
        results.append((seg, parsed, error))
    return Prepared(segments=segments, hint=hint, shift=shift, results=results, packed=packed, notes=notes)


def _may_be_cut(parsed: Any, line: int) -> None:
    """A warning of ``parsed`` on the file's open last line (its ``line`` in the output) says the
    file ends inside that line."""
    for k, w in enumerate(parsed.warnings):
        if w.line == line:
            parsed.warnings[k] = ParseWarning(w.line, f"{w.message} ({MAY_BE_CUT})")


def parse_segment(seg: Any, registry: dict, strings: dict[str, str]) -> Any:
    """A detected command output's records: as detection already parsed them, else by its kind's
    parser; their strings shared through the run's ``strings`` (:func:`sources.shared_strings.share`)."""
    return share(seg.parsed if seg.parsed is not None else registry[seg.kind].parse(seg.text), strings)


def pack(text: str) -> bytes:
    """A file's text as it is kept for excerpts: compressed (``pipeline._packed_lines`` reads it back)."""
    return zlib.compress(text.encode("utf-8", "surrogatepass"), 1)


_registry = Registry().get  # the parsers, imported once per process (by a worker: inherited, or when first needed)


def prepare_input(f: InputFile, registry: dict | None = None, strings: dict[str, str] | None = None) -> Prepared:
    """:func:`prepare` of an input file, reading it first when it was listed without its text."""
    text, notes = f.text, list(f.notes)
    if f.deferred is not None:
        try:
            read = read_deferred(*f.deferred)
        except OSError as exc:
            return Prepared(skip=f"cannot read: {exc.strerror or exc}")
        except MemoryError:
            return Prepared(skip="too large: not enough memory to read it")
        if read.text is None:
            return Prepared(skip=read.why)
        text, notes = read.text, notes + read.notes
    pre = prepare(f.display, text, registry, strings)
    pre.notes = notes + pre.notes
    return pre


def notes_by_output(notes: list[tuple[int, str]], firsts: list[int]) -> list[list[tuple[int, str]]]:
    """A file's notes shared out among its command outputs (``firsts``: the first file line of
    each, in order): each note goes to the output its line is in (before the first: the first)."""
    out: list[list[tuple[int, str]]] = [[] for _ in firsts]
    for line, message in notes:
        k = max((i for i, first in enumerate(firsts) if first <= line), default=0)
        if out:
            out[k].append((line, message))
    return out


_WORKER_STRINGS: dict[str, str] = {}  # a worker's shared strings: it lives as long as its pool (one run)


def _prepare_batch(files: list[InputFile]) -> list[Prepared]:
    """Several files in one worker task, each on its own."""
    out = []
    for f in files:
        try:
            out.append(prepare_input(f, strings=_WORKER_STRINGS))
        except Exception as exc:  # anything else: the main process reports it for this input
            out.append(Prepared(cut_error=describe(exc)))
    return out


def workers_wanted(workers: int | None) -> int:
    if workers is None:
        env = os.environ.get("LPARSCOPE_WORKERS", "").strip()
        workers = int(env) if env.isdigit() else 0
    return workers if workers > 0 else (os.cpu_count() or 1)


def prepared_inputs(items: Iterable[InputFile | InputProblem], workers: int | None = None
                    ) -> Iterator[tuple[InputFile | InputProblem, Prepared | None]]:
    """Each input in order, with its :class:`Prepared` (from the pool), or None: prepare it here."""
    n = workers_wanted(workers)
    it = iter(items)
    head: list[InputFile | InputProblem] = []
    texts_ahead = 0
    if n > 1:  # look ahead: is there enough text to share out?
        for item in it:
            head.append(item)
            texts_ahead += _pooled(item)
            if texts_ahead >= MIN_FILES:
                break
    if n <= 1 or texts_ahead < MIN_FILES:
        for item in [*head, *it]:
            yield item, None
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    _registry()  # imported here once, not in every worker
    heap.settle()  # forked workers neither re-scan nor copy (by writing GC headers) what they inherit
    with ProcessPoolExecutor(max_workers=n, mp_context=ctx) as pool:
        yield from _windowed(pool, _batches([*head], it), n * WINDOW)


def _pooled(item: InputFile | InputProblem) -> bool:
    """Text files go to the pool; nmon recordings are read in the main process (natively, on every core)."""
    return isinstance(item, InputFile) and item.nmon is None


def _batches(head: list, rest: Iterator) -> Iterator[list[InputFile | InputProblem]]:
    """The inputs in order, in runs of up to BATCH_FILES text files (or BATCH_CHARS of text)."""
    batch: list[InputFile | InputProblem] = []
    files = chars = 0
    for item in chain(head, rest):
        batch.append(item)
        if _pooled(item):
            files += 1
            chars += item.size  # type: ignore[union-attr]
        if files >= BATCH_FILES or chars >= BATCH_CHARS:
            yield batch
            batch, files, chars = [], 0, 0
    if batch:
        yield batch


def _windowed(pool: Executor, batches: Iterator[list], window: int
              ) -> Iterator[tuple[InputFile | InputProblem, Prepared | None]]:
    """Each batch's text files sent to the pool as one task; up to ``window`` tasks in flight;
    the inputs handed back in their order, each with its result (None: read it in this process,
    as after a worker ended: killed, out of memory; no input is lost with it)."""
    pending: deque = deque()
    broken = False

    def drain() -> Iterator[tuple[InputFile | InputProblem, Prepared | None]]:
        batch, future = pending.popleft()
        try:
            done = iter(future.result()) if future is not None else None
        except Exception:  # the worker ended: this batch is read here
            done = None
        for item in batch:
            yield item, next(done) if done is not None and _pooled(item) else None

    for batch in batches:
        texts = [x for x in batch if _pooled(x)]  # a deferred file travels as its path
        future = None
        if texts and not broken:
            try:
                future = pool.submit(_prepare_batch, texts)
            except Exception:  # a broken pool takes no more work: the rest is read here
                broken = True
        pending.append((batch, future))
        while len(pending) > window:
            yield from drain()
    while pending:
        yield from drain()
