"""Firmware and microcode levels: AIX ``lsmcode -c`` (system firmware) and ``lsmcode -A`` (all devices).

Input (``lsmcode -c``)::

    # lsmcode -c
    The current permanent system firmware image is SV860_212.
    The current temporary system firmware image is SV860_240.
    The system is currently booted from the temporary firmware image.

Output: one :class:`FirmwareLevel` for the system::

    FirmwareLevel(device="sys0", kind="system", level="SV860_240", permanent="SV860_212",
                  temporary="SV860_240", booted_from="temporary", line=2,
                  lines={"permanent": 2, "temporary": 3, "booted_from": 4})

Input (``lsmcode -A``, ``device!level`` per line; the system line marks permanent
``(p)`` and temporary ``(t)`` images)::

    sys0!system:SV860_240 (t) SV860_212 (p) SV860_240 (t)
    ent0!14108902.0603
    hdisk0!ST300MM0008.B56B

Output: one :class:`FirmwareLevel` per line (``kind`` is ``system``, ``service`` or
``device``). ``level`` is the image in use (the booted side when known).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head

KIND = "lsmcode"
TITLE = "lsmcode -c / lsmcode -A"
COMMANDS = [r"^lsmcode\b"]
STARTS = re.compile(r"^(?:The current (?:permanent|temporary) system firmware image is|sys0!system:)")

_IMAGE = re.compile(r"^The current (?P<side>permanent|temporary) system firmware image is (?P<level>\S+?)\.?\s*$")
_BOOTED = re.compile(r"^The system is currently booted from the (?P<side>permanent|temporary) firmware image\.?\s*$")
_LEVEL_IS = re.compile(r"^(?P<what>System Firmware|Service Processor|Platform Firmware)\s+level is\s+(?P<level>\S+?)\.?\s*$", re.I)
_BANG = re.compile(r"^(?P<dev>[A-Za-z][\w.-]*)!(?P<rest>\S.*)$")  # read on stripped lines (a lazy .*? before \s*$ was quadratic)
_MARKED = re.compile(r"(?<![\w.-])(?P<level>[\w.-]+)\s*\((?P<side>[pt])\)")  # starts only where a word starts


@dataclass
class FirmwareLevel:
    device: str
    kind: str  # system, service, device
    level: str | None
    permanent: str | None = None
    temporary: str | None = None
    booted_from: str | None = None  # permanent / temporary
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if command_matches(prompt, COMMANDS):
        return 95
    if any(_IMAGE.match(ln.strip()) for ln in body[:3]):
        return 90
    bangs = sum(1 for ln in body if _BANG.match(ln.strip()))
    if body and bangs >= 0.8 * len(body) and any(ln.startswith("sys0!") for ln in body):
        return 85
    return 0


def _system(out: Parsed) -> FirmwareLevel:
    for r in out.records:
        if r.kind == "system":
            return r
    rec = FirmwareLevel("sys0", "system", None)
    out.records.append(rec)
    return rec


def _settle(rec: FirmwareLevel) -> None:
    side = rec.booted_from or ("temporary" if rec.temporary else "permanent")
    rec.level = (rec.temporary if side == "temporary" else rec.permanent) or rec.level or rec.permanent or rec.temporary


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.user:
        out.hostname = prompt.host
    for idx in range(start, len(lines)):
        lineno = idx + 1
        s = lines[idx].strip()
        if not s or is_bare_prompt(s):
            continue
        m = _IMAGE.match(s)
        if m:
            rec = _system(out)
            setattr(rec, m.group("side"), m.group("level"))
            rec.lines[m.group("side")] = lineno
            rec.line = rec.line or lineno
            _settle(rec)
            continue
        m = _BOOTED.match(s)
        if m:
            rec = _system(out)
            rec.booted_from = m.group("side")
            rec.lines["booted_from"] = lineno
            rec.line = rec.line or lineno
            _settle(rec)
            continue
        m = _LEVEL_IS.match(s)
        if m:
            kind = "service" if m.group("what").lower().startswith("service") else "system"
            rec = _system(out) if kind == "system" else FirmwareLevel("sys0", "service", None, line=lineno)
            if kind == "service":
                out.records.append(rec)
            rec.level, rec.line = m.group("level"), rec.line or lineno
            rec.lines["level"] = lineno
            continue
        m = _BANG.match(s)
        if m:
            dev, rest = m.group("dev"), m.group("rest")
            kind = "device"
            if ":" in rest and rest.split(":", 1)[0] in ("system", "service"):
                kind, rest = rest.split(":", 1)
            marked = _MARKED.findall(rest)
            rec = FirmwareLevel(dev, kind, rest.split()[0] if rest.split() else None, line=lineno,
                                lines={"level": lineno})
            for level, side in marked[1:] if len(marked) > 1 else marked:
                setattr(rec, "permanent" if side == "p" else "temporary", level)
            if marked:
                rec.booted_from = "permanent" if marked[0][1] == "p" else "temporary"
                rec.level = marked[0][0]
            out.records.append(rec)
            continue
        out.warn(lineno, f"not a microcode level line: {s[:60]!r}")
    return out
