"""files -> detect -> parse -> model -> rules: the whole analysis, as plain functions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from datetime import time
from pathlib import PurePath

from .inputs import Collected, InputFile, Limits, collect
from .model import build
from .model.frame import build_frames
from .model.estate import Estate, Evidence, InputStatus
from .rules.config import Config
from .rules.engine import Finding, run
from .sizing.measured import size_estate
from .sources import parsers
from .sources.base import Parsed
from .sources.detect import split_and_classify
from .sources.filenames import classify_with_hint, not_command_output


@dataclass
class Analysis:
    estate: Estate
    findings: list[Finding]
    problems: list[str] = field(default_factory=list)  # rules that failed, inputs that could not be read
    plan: Any = None  # lparscope.plan.Plan: the findings' changes merged, checked and ordered


def short_host(name: str) -> str:
    """Host name without its DNS domain ("aix1.example.com" -> "aix1")."""
    name = name.strip()
    return name if not name or name[0].isdigit() else name.split(".")[0]


def _file_host(segments_hosts: list[str | None], folder: str, display: str, name_host: str | None = None) -> str:
    """The content's host, else the host the file name starts with, else the folder's name."""
    for h in segments_hosts:
        if h:
            return short_host(h)
    if name_host:
        return short_host(name_host)
    return folder or PurePath(display.split("!")[-1]).stem


def read_estate(collected: Collected, tz: str | None = None,
                progress: Callable[[str], None] | None = None) -> tuple[Estate, dict[str, list[str]]]:
    """Parse every input file into an estate; also return each file's lines (for excerpts)."""
    registry = parsers()
    estate = Estate()
    texts: dict[str, list[str]] = {}
    for f in collected.files:
        if progress is not None:
            progress(f.display)
        if f.nmon is not None:
            read_nmon_file(estate, f, registry, tz)
            continue
        texts[f.display] = f.text.splitlines()
        why_not = not_command_output(f.display, f.text)
        if why_not:  # documents, scripts, images: reported, never a host
            estate.inputs.append(InputStatus(f.display, 1, None, "", "unrecognised", f"not command output ({why_not})"))
            continue
        segments, hint, shift = classify_with_hint(f.text, f.display, registry)
        results: list[tuple[object, Parsed | None, str]] = []
        for seg in segments:
            parsed: Parsed | None = None
            error = ""
            if seg.kind is not None:
                try:
                    parsed = registry[seg.kind].parse(seg.text)
                except Exception as exc:  # a parser bug must not end the run
                    error = f"parser error: {type(exc).__name__}: {exc}"
            results.append((seg, parsed, error))
        hosts = [(p.hostname if p else None) or (s.prompt.host if s.prompt else None) for s, p, _ in results]  # type: ignore[attr-defined]
        default_host = _file_host(hosts, f.folder, f.display, hint.host if hint else None)
        hint_note = hint.describe() if hint else ""
        if not segments:
            estate.inputs.append(InputStatus(f.display, 1, None, default_host, "unrecognised", "empty file"))
        for (seg, parsed, error), own in zip(results, hosts):
            host_name = short_host(own) if own else default_host
            offset = seg.start - 1 - shift  # type: ignore[attr-defined]
            first = max(seg.start - shift, 1)  # type: ignore[attr-defined]
            notes = [(n - shift, m) for n, m in seg.notes]  # type: ignore[attr-defined]
            if parsed is None:
                estate.inputs.append(InputStatus(f.display, first, seg.kind, host_name, "unrecognised",  # type: ignore[attr-defined]
                                                 error or seg.reason, notes))  # type: ignore[attr-defined]
                continue
            warnings = notes + [(offset + w.line, w.message) for w in parsed.warnings]
            if parsed.records:  # records the model cannot hold are warnings too: nothing is dropped silently
                warnings += build.apply(estate.host(host_name), seg.kind, parsed, f.display, offset)  # type: ignore[attr-defined]
            status = "partly" if warnings else "parsed"
            if not parsed.records:
                status = "unrecognised" if not warnings else "partly"
            note = "no records found" if not parsed.records else ""
            estate.inputs.append(InputStatus(f.display, first, seg.kind, host_name, status,  # type: ignore[attr-defined]
                                             "; ".join(x for x in (note, hint_note) if x), warnings))
    for prob in collected.problems:
        estate.inputs.append(InputStatus(prob.display, 0, None, "", "unrecognised", prob.message))
    build.finish(estate)
    estate.frames = build_frames(estate)
    return estate, texts


def read_nmon_file(estate: Estate, f: InputFile, registry: dict, tz: str | None = None) -> None:
    """An nmon recording: its time series and the command outputs of its BBBP section."""
    try:
        from .nmon import read_nmon
    except ImportError:
        estate.inputs.append(InputStatus(f.display, 1, "nmon", f.folder, "unrecognised",
                                         "nmon recording: the nmon reader is not available in this build"))
        return
    try:
        rec = read_nmon(f.nmon, tz=tz)  # type: ignore[arg-type]
    except Exception as exc:  # the reader must not end the run
        estate.inputs.append(InputStatus(f.display, 1, "nmon", f.folder, "unrecognised",
                                         f"nmon reader error: {type(exc).__name__}: {exc}"))
        return
    from .model.nmon import apply_recording

    host_name = short_host(rec.host) if rec.host else (f.folder or PurePath(f.display).stem)
    warnings = list(rec.warnings)
    host = estate.host(host_name)
    apply_recording(host, rec, f.display)
    unread: dict[str, int] = {}  # BBBP commands no parser reads, with their first line
    for command, first_line, text in rec.bbbp_outputs:
        # Each BBBP output line is one file line; a prompt line naming the command is put in front.
        for seg in split_and_classify(f"# {command}\n{text}", registry):
            offset = first_line - 2 + (seg.start - 1)
            where = max(offset + 1, first_line)
            if seg.kind is None:
                unread.setdefault(command, where)
                continue
            try:
                parsed = registry[seg.kind].parse(seg.text)
            except Exception as exc:  # a parser bug must not end the run
                warnings.append((where, f"BBBP output of '{command}': parser error: {type(exc).__name__}: {exc}"))
                continue
            warnings.extend((offset + w.line, f"BBBP {command}: {w.message}") for w in parsed.warnings)
            if parsed.records:
                warnings.extend(build.apply(host, seg.kind, parsed, f.display, offset))
    if unread:
        warnings.append((min(unread.values()), "BBBP outputs no parser reads: " + ", ".join(unread)))
    estate.inputs.append(InputStatus(f.display, 1, "nmon", host_name, "partly" if warnings else "parsed",
                                     "" if rec.tables else "no snapshots found", warnings))


def _lines_of(path: str, wanted: set[int]) -> dict[int, str]:
    """A few lines of a large file (an nmon recording), read without keeping the file."""
    import gzip

    out: dict[int, str] = {}
    try:
        with open(path, "rb") as raw:
            gz = raw.read(2) == b"\x1f\x8b"
        opener = gzip.open if gz else open
        with opener(path, "rb") as fh:  # type: ignore[operator]
            for n, line in enumerate(fh, start=1):
                if n in wanted:
                    out[n] = line.decode("utf-8", "replace").rstrip("\r\n")
                if n >= max(wanted):
                    break
    except OSError:
        pass
    return out


def _with_excerpts(findings: list[Finding], texts: dict[str, list[str]]) -> None:
    missing: dict[str, set[int]] = {}
    for f in findings:
        for e in f.evidence:
            if e.path not in texts and "!" not in e.path and not e.excerpt.strip():
                missing.setdefault(e.path, set()).add(e.line)
    extra = {path: _lines_of(path, lines) for path, lines in missing.items() if lines}
    for f in findings:
        if f.evidence and f.evidence[0].path in extra:
            f.evidence = [Evidence(e.path, e.line, extra[e.path].get(e.line, e.excerpt).strip()[:200])
                          if e.path in extra else e for e in f.evidence]
    for f in findings:
        filled = []
        for e in f.evidence:
            lines = texts.get(e.path)
            if lines and 0 < e.line <= len(lines):
                filled.append(Evidence(e.path, e.line, lines[e.line - 1].strip()[:200]))
            else:
                filled.append(e)
        f.evidence = filled


def analyze(paths: list[str], cfg: Config | None = None, limits: Limits | None = None,
            peak: tuple[time, time] | None = None, tz: str | None = None,
            progress: Callable[[str], None] | None = None) -> Analysis:
    """Read ``paths``, build the estate, size what was measured, run the rules.

    ``peak`` is a time-of-day window for sizing (detected when None); ``tz`` the time zone
    nmon recordings were taken in (they carry none); ``progress`` is called with each file's name.
    """
    cfg = cfg or Config()
    estate, texts = read_estate(collect(paths, limits), tz=tz, progress=progress)
    size_estate(estate, peak)
    findings, problems = run(estate, cfg)
    _with_excerpts(findings, texts)
    return Analysis(estate, findings, problems, plan_for(estate, findings, problems))


def plan_for(estate: Estate, findings: list[Finding], problems: list[str]) -> Any:
    """The plan stage; a failure there is reported as a problem, never ends the run."""
    from .plan import build_plan

    try:
        return build_plan(estate, findings)
    except Exception as exc:  # the findings are still worth reporting without a plan
        problems.append(f"plan failed: {type(exc).__name__}: {exc}")
        return None
