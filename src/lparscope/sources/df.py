"""File system usage: AIX ``df`` in 512-byte blocks, ``df -k``, ``df -m``, ``df -g`` and ``df -P``.

Input (``df -g``; the block unit is named by the second header column)::

    # df -g
    Filesystem    GB blocks      Free %Used    Iused %Iused Mounted on
    /dev/hd4           2.00      1.41   30%    14211     5% /
    /proc                 -         -    -         -     -  /proc
    nas01:/vol/arch  500.00    120.25   76%   120030     1% /arch

Output: one :class:`FileSystemUsage` per row, sizes in MB whatever the unit::

    FileSystemUsage(filesystem="/dev/hd4", mounted_on="/", size_mb=2048.0, free_mb=1443.84,
                    used_pct=30.0, inodes_used=14211, inodes_used_pct=5.0, unit="GB", line=3, ...)

Also read: ``512-blocks``, ``1024-blocks``, ``MB blocks`` headers and the POSIX form
(``df -P``/``-Pk``: ``Filesystem 1024-blocks Used Available Capacity Mounted on``).
A ``-`` is ``None`` (pseudo file systems such as /proc). A long file system name that
pushed the numbers onto the next line is joined with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head, to_float, to_int

KIND = "df"
TITLE = "df / df -k / -m / -g / -P"
COMMANDS = [r"^df\b"]
STARTS = re.compile(r"^Filesystem\s+(?:512|1024|GB|MB)[- ]blocks\b")

_HEADER = re.compile(r"^Filesystem\s+(?P<unit>512-blocks|1024-blocks|MB blocks|GB blocks)\s+(?P<rest>(?:.*\S)?)\s*$")
_TO_MB = {"512-blocks": 1 / 2048, "1024-blocks": 1 / 1024, "MB blocks": 1.0, "GB blocks": 1024.0}
_UNIT = {"512-blocks": "512", "1024-blocks": "KB", "MB blocks": "MB", "GB blocks": "GB"}


@dataclass
class FileSystemUsage:
    filesystem: str
    mounted_on: str
    size_mb: float | None
    free_mb: float | None
    used_pct: float | None
    inodes_used: int | None
    inodes_used_pct: float | None
    unit: str  # as the output counted: 512, KB, MB, GB
    line: int
    lines: dict[str, int] = field(default_factory=dict)


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if command_matches(prompt, COMMANDS):
        return 95
    return 90 if any(_HEADER.match(ln.strip()) for ln in body[:3]) else 0


def _num(tok: str) -> float | None:
    return None if tok in ("-", "--") else to_float(tok)


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.user:
        out.hostname = prompt.host
    unit: str | None = None
    posix = False
    pending: tuple[str, int] | None = None  # a file system name alone on its line
    for idx in range(start, len(lines)):
        lineno = idx + 1
        s = lines[idx].strip()
        if not s or is_bare_prompt(s):
            continue
        hm = _HEADER.match(s)
        if hm:
            unit, posix = hm.group("unit"), hm.group("rest").startswith("Used")
            continue
        tok = s.split()
        if pending is not None and not tok[0].startswith(("/", "-")) or pending is not None and tok[0] == "-":
            tok = [pending[0]] + tok
        elif pending is not None:
            out.warn(pending[1], f"file system without figures: {pending[0]!r}")
        pending = None
        if unit is None:
            out.warn(lineno, f"no df header before: {s[:60]!r}")
            continue
        if len(tok) == 1:
            pending = (tok[0], lineno)
            continue
        if len(tok) < 6 if posix else len(tok) < 7:
            out.warn(lineno, f"not a df row: {s[:60]!r}")
            continue
        factor = _TO_MB[unit]
        size = _num(tok[1])
        if posix:
            avail, pct, mounted = _num(tok[3]), _num(tok[4]), " ".join(tok[5:])
            free, iused, ipct = avail, None, None
        else:
            free, pct, iused, ipct, mounted = _num(tok[2]), _num(tok[3]), to_int(tok[4]), _num(tok[5]), " ".join(tok[6:])
        if size is None and tok[1] not in ("-", "--"):
            out.warn(lineno, f"not a df row: {s[:60]!r}")
            continue
        out.records.append(FileSystemUsage(
            tok[0], mounted, None if size is None else round(size * factor, 2),
            None if free is None else round(free * factor, 2), pct, iused, ipct, _UNIT[unit], lineno,
            {k: lineno for k in ("filesystem", "mounted_on", "size_mb", "free_mb", "used_pct", "inodes_used")}))
    if pending is not None:
        out.warn(pending[1], f"file system without figures: {pending[0]!r}")
    return out
