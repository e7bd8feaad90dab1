"""Actual and frequency-normalised processor use (SPURR): ``lparstat -E [interval [count]]``.

Input (AIX; the Linux powerpc-utils form prints ``%busy %idle Frequency %busy %idle`` with
``---Actual---`` / ``-Normalized-`` over them and is read the same way)::

    # lparstat -E 1 2

    System configuration: type=Shared mode=Uncapped smt=8 lcpu=16 mem=65536MB ent=2.00 Power=Disabled

    Physical Processor Utilisation:

     --------Actual--------              ------Normalised------
     user   sys  wait  idle      freq    user   sys  wait  idle
     ----  ----  ----  ----   ---------  ----  ----  ----  ----
     1.210 0.402 0.010 0.378  3.9GHz[104%] 1.258 0.418 0.010 0.314

Output: the configuration line as ``lparstat.LparstatConfig`` and one :class:`SpurrSample` per row::

    SpurrSample(actual={"user": 1.21, "sys": 0.402, "wait": 0.01, "idle": 0.378},
                normalised={"user": 1.258, ...}, freq_ghz=3.9, freq_pct=104.0, line=10)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head, to_float
from .lparstat_stats import _CONFIG_RE, _LINUX_TITLE_RE, _config

KIND = "lparstat-E"
TITLE = "lparstat -E"
COMMANDS = [r"^lparstat\b.*\s-[A-Za-z]*E"]
STARTS = re.compile(r"^\s*-+\s*Actual\s*-+\s+-+\s*Normali[sz]ed\s*-+\s*$")

_GROUPS = STARTS
_HEADER = re.compile(r"^\s*(?:\S+\s+)+(?:freq|Frequency)(?:\s+\S+)+\s*$")
_DASHES = re.compile(r"^\s*-{2,}(?:\s+-{2,})*\s*$")
_FREQ = re.compile(r"^(?P<ghz>\d+(?:[.,]\d+)?)GHz\[(?P<pct>\d+(?:[.,]\d+)?)%\]$")


@dataclass
class SpurrSample:
    actual: dict[str, float | None]
    normalised: dict[str, float | None]
    freq_ghz: float | None
    freq_pct: float | None  # frequency as a share of the nominal one
    line: int
    lines: dict[str, int] = field(default_factory=dict)


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if command_matches(prompt, COMMANDS):
        return 95
    if any(_GROUPS.match(ln) for ln in body[:8]) or "Physical Processor Utilisation:" in body[:4]:
        return 90
    return 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.user:
        out.hostname = prompt.host
    before: list[str] | None = None
    after: list[str] = []
    linux_title = False  # powerpc-utils prints "System Configuration", then the pairs on the next line
    odd: tuple[int, float] | None = None  # the first percentage outside 0..100
    for idx in range(start, len(lines)):
        lineno = idx + 1
        s = lines[idx].strip()
        if _LINUX_TITLE_RE.match(s):
            linux_title = True
            continue
        if linux_title and s.startswith("type="):
            out.records.append(_config(s, lineno, "linux"))
            linux_title = False
            continue
        if not s or _DASHES.match(s) or _GROUPS.match(s) or is_bare_prompt(s) or s.startswith("Physical Processor Util"):
            continue
        cm = _CONFIG_RE.match(s)
        if cm:
            out.records.append(_config(cm.group("body"), lineno))
            continue
        if _HEADER.match(s):
            cols = s.split()
            k = next(i for i, c in enumerate(cols) if c.lower() in ("freq", "frequency"))
            before, after = [c.lstrip("%") for c in cols[:k]], [c.lstrip("%") for c in cols[k + 1:]]
            continue
        tokens = re.sub(r"\[\s+", "[", s).split()
        if before is None or len(tokens) != len(before) + 1 + len(after):
            out.warn(lineno, f"not a processor utilisation row: {s[:60]!r}")
            continue
        fm = _FREQ.match(tokens[len(before)])
        nums = [to_float(t) for t in tokens[: len(before)]], [to_float(t) for t in tokens[len(before) + 1:]]
        if fm is None or None in nums[0] + nums[1]:
            out.warn(lineno, f"not a processor utilisation row: {s[:60]!r}")
            continue
        if odd is None:
            bad = [v for v in nums[0] + nums[1] if v is not None and not 0.0 <= v <= 100.0]
            if bad:
                odd = (lineno, bad[0])
        out.records.append(SpurrSample(dict(zip(before, nums[0])), dict(zip(after, nums[1])), to_float(fm.group("ghz")),
                                       to_float(fm.group("pct")), lineno, {"freq": lineno}))
    if odd is not None:
        out.warn(odd[0], f"a percentage outside 0..100 ({odd[1]:g}), as some lparstat versions print: read as printed")
    return out
