"""Scheduler resource allocation domains (SRADs): AIX ``lssrad -av``.

Input (each ``REF1`` domain on a line of its own, then its SRADs: memory in MB and the logical
processors they hold; an SRAD may hold memory and no processor)::

    # lssrad -av
    REF1   SRAD        MEM      CPU
    0
              0   31682.06      0-7 12-15 20-23
    1
              1   29880.00      8-11 16-19 24-27
              2    3219.50

Output: one :class:`Srad` per SRAD row::

    Srad(ref1=0, srad=0, memory_mb=31682.06, cpus=[0, 1, ..., 7, 12, ..., 23], cpu_text="0-7 12-15 20-23", line=4)
    Srad(ref1=1, srad=2, memory_mb=3219.5, cpus=[], cpu_text="", line=7)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..numbers import whole
from .base import Parsed, command_matches, is_bare_prompt, output_head, preamble, to_float, to_int

KIND = "lssrad"
TITLE = "lssrad -av"
COMMANDS = [r"^lssrad\b"]
STARTS = re.compile(r"^REF1\s+SRAD\s+MEM\s+CPU\s*$")

_REF = re.compile(r"^\d+$")
_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")
MAX_CPUS = 65536  # no partition has more logical processors; a wider range is refused


@dataclass
class Srad:
    ref1: int | None
    srad: int
    memory_mb: float | None
    cpus: list[int]
    cpu_text: str
    line: int
    lines: dict[str, int] = field(default_factory=dict)


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if command_matches(prompt, COMMANDS):
        return 95
    return 90 if body and STARTS.match(body[0].strip()) else 0


def cpu_list(text: str) -> list[int] | None:
    """``0-7 12-15`` -> [0..7, 12..15]; None when a part is not a number or a range."""
    out: list[int] = []
    for part in text.replace(",", " ").split():
        m = _RANGE.match(part)
        if not m:
            return None
        a = whole(m.group(1))
        b = whole(m.group(2)) if m.group(2) else a
        if a is None or b is None or b < a or b - a > MAX_CPUS or len(out) > MAX_CPUS:
            return None
        out.extend(range(a, b + 1))
    return out


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    out.hostname = pre.host
    ref1: int | None = None
    lines = pre.lines
    for idx in range(pre.body, len(lines)):
        lineno = idx + 1
        raw = lines[idx].rstrip()
        s = raw.strip()
        if not s or is_bare_prompt(s) or STARTS.match(s):
            continue
        if _REF.match(s) and not raw[:1].isspace():
            ref1 = to_int(s)
            continue
        parts = s.split(None, 2)
        srad = whole(parts[0]) if parts else None
        if len(parts) < 2 or srad is None or to_float(parts[1]) is None:
            out.warn(lineno, f"not an lssrad row: {s[:60]!r}")
            continue
        cpu_text = parts[2].strip() if len(parts) > 2 else ""
        cpus = cpu_list(cpu_text)
        if cpus is None:
            out.warn(lineno, f"SRAD {parts[0]}: processor list not read: {cpu_text[:40]!r}")
            cpus = []
        out.records.append(Srad(ref1, srad, to_float(parts[1]), cpus, cpu_text, lineno,
                                {"memory_mb": lineno, "cpus": lineno}))
    return out
