"""files -> detect -> parse -> model -> rules: the whole analysis, as plain functions."""

from __future__ import annotations

import re

import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import time
from typing import Any
from pathlib import PurePath

from . import heap
from .parse_pool import Prepared, notes_by_output, pack, parse_segment, prepare_input, prepared_inputs
from .snap_trees import SnapTrees
from .pipeline_guard import describe, file_seconds
from .inputs import Collected, InputFile, InputProblem, Limits, iter_inputs
from .input_items import short_host
from .model import build
from .model.frame_build import build_frames
from .model.estate import Estate, Evidence, InputStatus
from .rules.config import Config
from .rules.engine import Finding, run
from .sizing.measured import size_estate
from .sources import Registry
from .sources.detect import split_and_classify
from .sources.filenames import NameHint, names_a_host


@dataclass
class Analysis:
    estate: Estate
    findings: list[Finding]
    problems: list[str] = field(default_factory=list)  # rules or stages that failed
    plan: Any = None  # lparscope.plan.Plan: the findings' changes merged, checked and ordered
    internal: list[str] = field(default_factory=list)  # unexpected errors (bugs): inputs, stages, rules
    traces: Any = None  # simulate.traces.FrameTrace list the plan was replayed on (empty: not built)

    def __post_init__(self) -> None:
        if not self.internal:
            self.internal = [f"{i.path}:{i.line}: {i.reason}" for i in self.estate.inputs if i.internal]
            self.internal += [p for p in self.problems if p.startswith(("rule ", "internal error", "plan failed"))]


def _file_host(segments_hosts: list[str | None], folder: str, display: str, name_host: str | None = None) -> str:
    """The content's host, else the host the file name starts with, else the folder's name (unless
    it is a generic one, "files", "logs", a command's), else the file's own name."""
    for h in segments_hosts:
        if h and short_host(h):
            return short_host(h)
    if name_host and short_host(name_host):
        return short_host(name_host)
    return folder if names_a_host(folder) else PurePath(display.split("!")[-1]).stem


def _internal(estate: Estate, display: str, line: int, kind: str | None, host: str, stage: str,
              exc: BaseException) -> None:
    """An unexpected failure while handling one input: a per-file status, and the run goes on."""
    estate.inputs.append(InputStatus(display, line, kind, host, "unrecognised",
                                     f"internal error while {stage}: {describe(exc)}", internal=True))


def read_estate(collected: Collected | Iterable[InputFile | InputProblem], tz: str | None = None,
                progress: Callable[[str], None] | None = None, workers: int | None = None
                ) -> tuple[Estate, dict[str, bytes]]:
    """Parse every input file into an estate; also return each file's text, compressed (for excerpts:
    :func:`_packed_lines`; a thousand hosts' outputs are kept in a tenth of their size).

    Each input is read on its own: whatever goes wrong in one (a damaged archive, a parser or
    model bug, memory) becomes that input's status and the others are still read.
    """
    registry = Registry()  # imported beside the first nmon recording, or by the first text file that needs it
    estate = Estate()
    texts: dict[str, bytes] = {}
    items: Iterable[InputFile | InputProblem] = (
        [*collected.files, *collected.problems] if isinstance(collected, Collected) else collected)
    problems: list[InputProblem] = []
    strings: dict[str, str] = {}  # the run's shared strings, for the files parsed here (parse_pool.prepare)
    snaps = SnapTrees()
    for n, (f, pre) in enumerate(prepared_inputs(items, workers), start=1):  # parsed on every core, folded here in order
        if not n % 64:
            heap.settle()  # the model read so far lives to the end of the run
        if isinstance(f, InputProblem):
            problems.append(f)
            continue
        if progress is not None:
            progress(f.display)
        try:
            if f.nmon is not None:
                read_nmon_file(estate, f, registry, tz, strings)
            elif not snaps.holds(f, pre, registry, strings):
                _read_text_file(estate, f, registry, texts, snaps.prepared, strings, snaps.host)
        except Exception as exc:  # MemoryError and RecursionError included: one input never ends the run
            _internal(estate, f.display, 1, None, f.folder, "reading it", exc)
        finally:
            f.text = ""  # the text lives on in ``texts`` only (for excerpts); bytes are released
            f.nmon = None if isinstance(f.nmon, bytes) else f.nmon
    for f, pre, host in snaps.held():
        try:
            _read_text_file(estate, f, registry, texts, pre, strings, host)
        except Exception as exc:
            _internal(estate, f.display, 1, None, host or f.folder, "reading it", exc)
    for prob in problems:
        estate.inputs.append(InputStatus(prob.display, 0, None, "", "unrecognised", prob.message))
    if isinstance(collected, Collected):
        estate.repeated_inputs = list(collected.repeated)
    for stage, step in (("settling the model", build.finish), ("building the frames", _frames)):
        try:
            step(estate)
        except Exception as exc:
            _internal(estate, "(estate)", 0, None, "", stage, exc)
    return estate, texts


def _frames(estate: Estate) -> None:
    estate.frames = build_frames(estate)


def _read_text_file(estate: Estate, f: InputFile, registry: Registry, texts: dict[str, bytes],
                    prepared: Prepared | None = None, strings: dict[str, str] | None = None,
                    folder_host: str | None = None) -> None:
    """One text file: cut into command outputs, each parsed (:func:`parse_pool.prepare`, maybe in a
    worker process) and folded into its host on its own (here, in input order). ``folder_host``:
    the host when the file names none, instead of its folder's name (a snap tree's host)."""
    pre = prepared if prepared is not None else prepare_input(f, registry.get(), strings)
    folder = folder_host or f.folder
    if pre.skip:
        estate.inputs.append(InputStatus(f.display, 1, None, folder if pre.skip_folder else "", "unrecognised",
                                         pre.skip, pre.notes))
        return
    texts[f.display] = pre.packed or pack(f.text)  # none packed: the worker failed on it (cut_error below)
    if pre.cut_error:
        estate.inputs.append(InputStatus(f.display, 1, None, folder, "unrecognised",
                                         f"internal error while cutting it into command outputs: {pre.cut_error}",
                                         internal=True))
        return
    segments, hint, shift, results = pre.segments, pre.hint, pre.shift, pre.results
    hosts = [(p.hostname if p else None) or (s.prompt.host if s.prompt else None) for s, p, _ in results]
    default_host = _file_host(hosts, folder, f.display, hint.host if hint else None)
    if not segments:
        estate.inputs.append(InputStatus(f.display, 1, None, default_host, "unrecognised", "empty file", pre.notes))
    host_from_name = not any(hosts)
    file_notes = notes_by_output(pre.notes, [max(s.start - shift, 1) for s, _, _ in results])
    for k, ((seg, parsed, error), own) in enumerate(zip(results, hosts)):
        host_name = (short_host(own) if own else "") or default_host
        hint_note = _hint_note(hint, k == 0 and shift > 0, host_from_name)
        offset = seg.start - 1 - shift
        first = max(seg.start - shift, 1)
        notes = file_notes[k] + [(n - shift, m) for n, m in seg.notes]
        if parsed is None:
            estate.inputs.append(InputStatus(f.display, first, seg.kind, host_name, "unrecognised",
                                             error or seg.reason, notes, internal=bool(error)))
            continue
        warnings = notes + [(offset + w.line, w.message) for w in parsed.warnings]
        if parsed.records:  # records the model cannot hold are warnings too: nothing is dropped silently
            try:
                if seg.prompt is not None and _PADMIN_SYNTAX.match(seg.prompt.command):
                    estate.host(host_name).role_reasons.append(
                        f"VIOS padmin command syntax: {seg.prompt.command[:60]} ({f.display}:{first})")
                warnings += build.apply(estate.host(host_name), seg.kind, parsed, f.display, offset)  # type: ignore[arg-type]
            except Exception as exc:
                _internal(estate, f.display, first, seg.kind, host_name, "adding it to the estate model", exc)
                continue
        status = "partly" if warnings else "parsed"
        if not parsed.records and not parsed.empty:
            status = "unrecognised" if not warnings else "partly"
        note = (parsed.empty or "no records found") if not parsed.records else ""
        estate.inputs.append(InputStatus(f.display, first, seg.kind, host_name, status,
                                         "; ".join(x for x in (note, hint_note) if x), warnings))


# Commands only the VIOS restricted shell (padmin, ioscli) takes in this form: AIX's lsdev / chdev
# name a device with -l, the VIOS's with -dev; lsdev -virtual / -type / -slots are ioscli's alone
_PADMIN_SYNTAX = re.compile(r"(?:lsdev|chdev)\b.*\s-dev\s|lsdev\s+(?:.*\s)?-(?:virtual|type|slots)\b")


def _hint_note(hint: NameHint | None, command_used: bool, host_used: bool) -> str:
    """"read from the file name: ..." for what the name gave this output: the command when it was put
    in front of the text, the host when no output of the file named one (the content wins)."""
    if hint is None:
        return ""
    used = NameHint(hint.command if command_used else None, hint.host if host_used else None)
    return used.describe()


def _later_stages() -> None:
    """What the stages after reading import when first run (about 40 ms): imported beside the first
    native nmon read, while the interpreter is free. ``numpy.ma`` is what ``np.median`` imports on
    its first call."""
    import numpy.ma  # noqa: F401

    from .plan import build, reconcile  # noqa: F401
    from .simulate import ame, plan_bridge, scenario, traces  # noqa: F401


def read_nmon_file(estate: Estate, f: InputFile, registry: Registry, tz: str | None = None,
                   strings: dict[str, str] | None = None) -> None:
    """An nmon recording: its time series and the command outputs of its BBBP section (their strings
    shared through the run's ``strings``, as a text file's are)."""
    try:
        from .nmon import ReadStopped, ReadTooLong, read_nmon
    except ImportError:
        estate.inputs.append(InputStatus(f.display, 1, "nmon", f.folder, "unrecognised",
                                         "nmon recording: the nmon reader is not available in this build"))
        return
    seconds = file_seconds()
    try:
        with registry.alongside(_later_stages):  # for its BBBP outputs, imported while the native reader runs
            # a recording from an archive comes as bytes: its file name (host_YYMMDD_HHMM) is given apart
            name = PurePath(f.display).name if isinstance(f.nmon, (bytes, bytearray)) else None
            rec = read_nmon(f.nmon, tz=tz, seconds=seconds, name=name)  # type: ignore[arg-type]
    except ReadStopped as exc:  # past the time budget, or hostile (400,000 one-row sections)
        why = (f"reading it took longer than the per-file budget of {seconds:g} s (LPARSCOPE_FILE_SECONDS)"
               if isinstance(exc, ReadTooLong) else str(exc))
        estate.inputs.append(InputStatus(f.display, 1, "nmon", f.folder, "unrecognised", f"not read: {why}"))
        return
    except (OSError, EOFError, zlib.error) as exc:  # damaged or truncated recordings
        estate.inputs.append(InputStatus(f.display, 1, "nmon", f.folder, "unrecognised",
                                         f"unreadable nmon recording: {describe(exc)}"))
        return
    except Exception as exc:  # the reader must not end the run
        _internal(estate, f.display, 1, "nmon", f.folder, "reading the nmon recording", exc)
        return
    from .model.nmon import apply_recording
    from .nmon.bbbp import command_of

    host_name = (short_host(rec.host) if rec.host else "") or _file_host([], f.folder, f.display)
    warnings = list(rec.warnings) + ([] if not rec.host or short_host(rec.host) else [(
        rec.header_lines.get("host", 1), f"AAA,host {rec.host[:60]!r} is not a host name: the host is named {host_name}")])
    host = estate.host(host_name)
    try:
        warnings += apply_recording(host, rec, f.display)
        if rec.partition:  # njmon: the partition configuration, as lparstat -i gives it
            from .sources.lparstat_info import from_njmon

            p = rec.partition
            warnings += build.apply(host, "lparstat-i", from_njmon(p["config"], p["partition_type"], p["server"], p["line"]),
                                    f.display, 0)
    except Exception as exc:
        _internal(estate, f.display, 1, "nmon", host_name, "adding the nmon recording to the estate model", exc)
        return
    unread: dict[str, int] = {}  # BBBP commands no parser reads, with their first line
    for command, first_line, text in rec.bbbp_outputs:
        # Each BBBP output line is one file line; a prompt line naming the command is put in front.
        try:
            segments = split_and_classify(f"# {command_of(command)}\n{text}", registry.get())
        except Exception as exc:
            warnings.append((first_line, f"BBBP output of '{command}': internal error: {describe(exc)}"))
            continue
        for seg in segments:
            offset = first_line - 2 + (seg.start - 1)
            where = max(offset + 1, first_line)
            if seg.kind is None:
                unread.setdefault(command, where)
                continue
            try:
                parsed = parse_segment(seg, registry.get(), {} if strings is None else strings)
                if parsed.records:
                    warnings.extend((offset + w.line, f"BBBP {command}: {w.message}") for w in parsed.warnings)
                    warnings.extend(build.apply(host, seg.kind, parsed, f.display, offset))
                else:  # never dropped without a word; one line, not one per line the parser could not read
                    first = parsed.warnings[0] if parsed.warnings else None
                    warnings.append((offset + first.line if first else where,
                                     f"BBBP {command}: read as {seg.kind}, but no records found in it"
                                     + (f" ({len(parsed.warnings)} lines not read; first: {first.message})" if first else "")))
            except Exception as exc:  # a parser or model bug must not end the run
                warnings.append((where, f"BBBP output of '{command}': internal error: {describe(exc)}"))
    if unread:
        warnings.append((min(unread.values()), "BBBP outputs no parser reads: " + ", ".join(unread)))
    estate.inputs.append(InputStatus(f.display, 1, rec.kind, host_name, "partly" if warnings else "parsed",
                                     "" if rec.tables else "no snapshots found", warnings))


def _lines_of(path: str, blank: set[int], shown: set[int]) -> dict[int, str]:
    """Lines of a large file (an nmon recording), read without keeping the file: those of ``blank``
    and those of ``shown`` that come before the first snapshot (ZZZZ), in the header part where
    the BBBP command outputs are."""
    import gzip

    out: dict[int, str] = {}
    last_blank, last_shown = max(blank, default=0), max(shown, default=0)
    try:
        with open(path, "rb") as raw:
            gz = raw.read(2) == b"\x1f\x8b"
        opener = gzip.open if gz else open
        with opener(path, "rb") as fh:  # type: ignore[operator]
            header = True
            for n, line in enumerate(fh, start=1):
                header = header and not line.startswith(b"ZZZZ,")
                if n in blank or (header and n in shown):
                    out[n] = line.decode("utf-8", "replace").rstrip("\r\n")
                if n >= last_blank and (not header or n >= last_shown):
                    break
    except OSError:
        pass
    return out


def _packed_lines(packed: bytes) -> list[bytes]:
    """The lines of a file kept by :func:`read_estate`, still encoded: only the lines shown are decoded.
    Its line ends are the parsers' (``sources.base.split_lines``: CRLF, CR or LF; a form feed does not end a
    line); a line end is one byte, never inside a UTF-8 character, so a line decodes as it would in the text."""
    return zlib.decompress(packed).replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")


def _with_excerpts(findings: list[Finding], texts: dict[str, bytes]) -> None:
    # Files not kept (nmon recordings): a line is shown as written when the evidence has no excerpt or
    # the line is in the header part (BBBP command outputs); a snapshot keeps its short description.
    blank: dict[str, set[int]] = {}
    shown: dict[str, set[int]] = {}
    for f in findings:
        for e in f.evidence:
            if e.path not in texts and "!" not in e.path:
                (shown if e.excerpt.strip() else blank).setdefault(e.path, set()).add(e.line)
    extra = {path: _lines_of(path, blank.get(path, set()), shown.get(path, set())) for path in {*blank, *shown}}
    for f in findings:
        if any(e.path in extra for e in f.evidence):
            f.evidence = [Evidence(e.path, e.line, extra[e.path].get(e.line, e.excerpt).strip()[:200])
                          if e.path in extra else e for e in f.evidence]
    wanted: dict[str, set[int]] = {}
    for f in findings:
        for e in f.evidence:
            if e.path in texts:
                wanted.setdefault(e.path, set()).add(e.line)
    excerpt: dict[tuple[str, int], str] = {}
    for path, numbers in wanted.items():  # one file's lines at a time: a large estate is never all split at once
        lines = _packed_lines(texts[path])
        excerpt.update(((path, n), lines[n - 1].decode("utf-8", "surrogatepass").strip()[:200])
                       for n in numbers if 0 < n <= len(lines))
    for f in findings:
        f.evidence = [Evidence(e.path, e.line, excerpt[(e.path, e.line)]) if (e.path, e.line) in excerpt else e
                      for e in f.evidence]


def analyze(paths: list[str], cfg: Config | None = None, limits: Limits | None = None,
            peak: tuple[time, time] | None = None, tz: str | None = None,
            progress: Callable[[str], None] | None = None, workers: int | None = None) -> Analysis:
    """Read ``paths``, build the estate, size what was measured, run the rules.

    ``workers``: processes that parse text inputs (None: ``LPARSCOPE_WORKERS`` or one per core; 1: serial).

    ``peak`` is a time-of-day window for sizing (detected when None); ``tz`` the time zone
    nmon recordings were taken in (they carry none); ``progress`` is called with each file's name.
    """
    cfg = cfg or Config()
    with heap.long_lived():
        repeated: list[tuple[str, str]] = []  # inputs met again, not read twice (name, name read under)
        estate, texts = read_estate(iter_inputs(paths, limits, repeated), tz=tz, progress=progress, workers=workers)
        estate.repeated_inputs = repeated
        heap.settle()
        problems: list[str] = []
        try:
            size_estate(estate, peak)
        except Exception as exc:
            problems.append(f"internal error while sizing from measured use: {describe(exc)}")
        try:
            findings, rule_problems = run(estate, cfg)
        except Exception as exc:
            findings, rule_problems = [], [f"internal error while running the rules: {describe(exc)}"]
        problems += rule_problems
        heap.settle()
        try:
            _with_excerpts(findings, texts)
        except Exception as exc:
            problems.append(f"internal error while adding excerpts to the evidence: {describe(exc)}")
        traces: list[Any] = []
        plan = plan_for(estate, findings, problems, traces)
        return Analysis(estate, findings, problems, plan, traces=traces)


def plan_for(estate: Estate, findings: list[Finding], problems: list[str], traces: list[Any] | None = None) -> Any:
    """The plan stage; a failure there is reported as a problem, never ends the run. ``traces``, when
    given, receives the frames' measured traces the plan was replayed on (the what-if report reuses them)."""
    from .plan import build_plan

    try:
        plan = build_plan(estate, findings)
    except Exception as exc:  # the findings are still worth reporting without a plan
        problems.append(f"internal error while planning the changes: {describe(exc)}")
        return None
    try:  # prove the plan on the measured traces: a step that starves another partition is a check
        from .simulate.plan_bridge import flag_plan
        from .simulate.traces import estate_traces
        built = estate_traces(estate)
        if traces is not None:
            traces[:] = built
        flag_plan(estate, plan, traces=built)
    except Exception as exc:
        problems.append(f"what-if replay of the plan failed: {type(exc).__name__}: {exc}")
    try:  # every finding shows the plan's target for the settings it touches, not its own
        from .plan.reconcile import align_findings
        align_findings(plan, findings, estate)
    except Exception as exc:
        problems.append(f"internal error while aligning the findings with the plan: {describe(exc)}")
    return plan
