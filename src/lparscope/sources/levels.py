"""Software levels: VIOS ``ioslevel`` and AIX ``oslevel`` / ``oslevel -s`` / ``oslevel -r``.

Input (one value per command; the prompt, when pasted, tells which)::

    padmin@vios1:/home/padmin$ ioslevel
    3.1.4.10

    # oslevel -s
    7200-05-03-2148

Output: one :class:`Level` per value::

    Level(command="ioslevel", value="3.1.4.10", line=2, form="ioslevel", release="3.1",
          technology_level=None, service_pack=None, build=None, parts=(3, 1, 4, 10))
    Level(command="oslevel", value="7200-05-03-2148", line=2, form="oslevel -s", release="7.2",
          technology_level=5, service_pack=3, build="2148", parts=(7200, 5, 3, 2148))

Without a prompt the shape decides: ``NNNN-NN-NN-NNNN`` is ``oslevel -s``, ``NNNN-NN``
is ``oslevel -r``, a four-part dotted version starting with 1..4 is ``ioslevel`` and
one starting with 5..7 is plain ``oslevel``. The ``-q`` lists (``Known Service Packs``
then one level a line) give one record per listed level. ``$ oem_setup_env`` /
``# oslevel -s`` sequences inside the text are followed. A VIOS snap's ``svCollect/VIOS.level``
line (``VIOS Level is 3.1.4.10``) is an ioslevel value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..numbers import whole
from .base import preamble, Parsed, is_bare_prompt, leading_prompt, parse_prompt, split_lines, strip_ansi

KIND = "oslevel"
TITLE = "ioslevel / oslevel [-s|-r]"
COMMANDS = [r"^(?:ioslevel|oslevel)\b"]
STARTS = None

# a prompt with no command: "$", "root@aix1:/ #"
_DOTTED = re.compile(r"^(\d+)\.(\d+)\.(\d+)\.(\d+)$")
_SP = re.compile(r"^(\d{4})-(\d{2})-(\d{2})-(\d{4})$")
_TL = re.compile(r"^(\d{4})-(\d{2})$")
# The line a VIOS snap keeps its level in (svCollect/VIOS.level): ioslevel's value.
_VIOS_LEVEL = re.compile(r"^VIOS Level is (\d+(?:\.\d+){3})$")
_KNOWN_HEAD = re.compile(r"^Known (?:Recommended Maintenance Levels|Maintenance Levels|Technology Levels|Service Packs)\s*$")


@dataclass
class Level:
    command: str  # "ioslevel" or "oslevel"
    value: str
    line: int
    form: str = ""  # "ioslevel", "oslevel", "oslevel -s", "oslevel -r" (with q for the -q lists)
    release: str | None = None  # "7.2", "3.1"
    technology_level: int | None = None
    service_pack: int | None = None
    build: str | None = None  # yyww of oslevel -s
    parts: tuple[int, ...] = ()
    listed: bool = False  # from a "Known ..." -q list rather than the installed level


def _shape(value: str) -> str | None:
    """Which command prints a value of this shape (None when it is not a level)."""
    if _SP.match(value):
        return "oslevel -s"
    if _TL.match(value):
        return "oslevel -r"
    m = _DOTTED.match(value)
    if m:
        return "ioslevel" if 1 <= (whole(m.group(1)) or 0) <= 4 else "oslevel"
    return None


def _form_of(command: str) -> str | None:
    words = command.split()
    if not words:
        return None
    prog = words[0].rsplit("/", 1)[-1]
    if prog == "ioslevel":
        return "ioslevel"
    if prog != "oslevel":
        return None
    flags = "".join(w.lstrip("-") for w in words[1:] if w.startswith("-"))
    base = "oslevel -s" if "s" in flags else "oslevel -r" if "r" in flags else "oslevel"
    return base + "q" if "q" in flags and base != "oslevel" else base


def _level(value: str, lineno: int, form: str) -> Level:
    command = "ioslevel" if form == "ioslevel" else "oslevel"
    rec = Level(command, value, lineno, form)
    m = _SP.match(value) or _TL.match(value)
    if m:
        nums = tuple(int(g) for g in m.groups())
        rec.parts = nums
        rec.release = f"{value[0]}.{value[1]}"
        rec.technology_level = nums[1]
        if len(nums) == 4:
            rec.service_pack, rec.build = nums[2], m.group(4)
        return rec
    m = _DOTTED.match(value)
    if m:
        parts = tuple(whole(g) for g in m.groups())
        if any(x is None for x in parts):  # a level part of over 40 digits is damage: no level
            return rec
        rec.parts = parts  # type: ignore[assignment]
        rec.release = f"{m.group(1)}.{m.group(2)}"
    return rec


def detect(text: str) -> int:
    lines = [ln.strip() for ln in split_lines(strip_ansi(text))[:20] if ln.strip()]
    if not lines:
        return 0
    prompt, start = leading_prompt(lines)
    if any(p and _form_of(p.command) for p in map(parse_prompt, lines[:4])):
        return 95
    body = [ln for ln in lines[start:] if not _KNOWN_HEAD.match(ln) and not re.match(r"^-+$", ln)]
    if body and any(_VIOS_LEVEL.match(ln) for ln in body):
        return 80
    if body and all(_shape(ln) for ln in body):
        return 80 if len(body) <= 3 else 60
    return 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    form = _form_of(prompt.command) if prompt else None
    if prompt:
        out.hostname = prompt.host
    listed = False
    for idx in range(start, len(lines)):
        lineno = idx + 1
        s = lines[idx].strip()
        if not s or re.match(r"^-{3,}$", s):
            continue
        p = parse_prompt(s)
        if p:
            new = _form_of(p.command)
            if new or p.program not in ("oem_setup_env", "exit", "su", "sudo"):
                form, listed = new, False
            continue
        if is_bare_prompt(s):
            continue
        if _KNOWN_HEAD.match(s):
            listed = True
            continue
        vios = _VIOS_LEVEL.match(s)
        if vios:
            s, form = vios.group(1), "ioslevel"
        shape = _shape(s)
        if shape is None:
            out.warn(lineno, f"not a level: {s[:60]!r}")
            continue
        use = form or shape
        if form == "ioslevel" and not _DOTTED.match(s):
            out.warn(lineno, f"{s!r} has the shape of {shape} output, not ioslevel")
        rec = _level(s, lineno, use)
        rec.listed = listed or use.endswith("q")
        out.records.append(rec)
    return out
