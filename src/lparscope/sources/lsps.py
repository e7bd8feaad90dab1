"""Paging spaces: AIX ``lsps -a`` (one row per paging space) and ``lsps -s`` (the total).

Input (``lsps -a``; NFS paging spaces name the server in the volume group column)::

    # lsps -a
    Page Space      Physical Volume   Volume Group Size %Used Active  Auto  Type Chksum
    hd6             hdisk0            rootvg        4096MB    12   yes   yes    lv     0
    paging00        hdisk3            pagevg        8192MB     3   yes   yes    lv     0

Output: one :class:`PagingSpace` per row::

    PagingSpace(name="hd6", physical_volume="hdisk0", volume_group="rootvg", size_mb=4096,
                used_pct=12.0, active=True, auto=True, type="lv", chksum="0", line=3, lines={...})

Input (``lsps -s``)::

    Total Paging Space   Percent Used
          12288MB               6%

Output: ``PagingSummary(total_mb=12288, used_pct=6.0, line=2)``.
Older levels print no ``Chksum`` column; sizes in GB are converted to MB.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head, to_float

KIND = "lsps"
TITLE = "lsps -a / lsps -s"
COMMANDS = [r"^lsps\b"]
STARTS = re.compile(r"^(?:Page\s+Space\s+Physical\s+Volume\s+Volume\s+Group|Total\s+Paging\s+Space\s+Percent\s+Used)\b")

_A_HEADER = re.compile(r"^Page\s+Space\s+Physical\s+Volume\s+Volume\s+Group\s+Size\s+%Used\s+Active\s+Auto\s+Type(?:\s+Chksum)?\s*$")
_S_HEADER = re.compile(r"^Total\s+Paging\s+Space\s+Percent\s+Used\s*$")
_SIZE = re.compile(r"^(?P<n>\d+(?:[.,]\d+)?)(?P<u>MB|GB|M|G)$")
_S_ROW = re.compile(r"^(?P<size>\d+(?:[.,]\d+)?(?:MB|GB))\s+(?P<pct>\d+(?:[.,]\d+)?)%$")


@dataclass
class PagingSpace:
    name: str
    physical_volume: str
    volume_group: str
    size_mb: int | None
    used_pct: float | None
    active: bool
    auto: bool
    type: str  # lv, nfs
    chksum: str | None
    line: int
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class PagingSummary:
    total_mb: int | None
    used_pct: float | None
    line: int
    lines: dict[str, int] = field(default_factory=dict)


def size_mb(text: str) -> int | None:
    """``4096MB`` / ``2GB`` -> MB."""
    m = _SIZE.match(text.strip())
    if not m:
        return None
    n = to_float(m.group("n"))
    return None if n is None else int(round(n * (1024 if m.group("u").startswith("G") else 1)))


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if command_matches(prompt, COMMANDS):
        return 95
    if any(_A_HEADER.match(ln.strip()) or _S_HEADER.match(ln.strip()) for ln in body[:3]):
        return 90
    return 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.user:
        out.hostname = prompt.host
    for idx in range(start, len(lines)):
        lineno = idx + 1
        s = lines[idx].strip()
        if not s or _A_HEADER.match(s) or _S_HEADER.match(s) or is_bare_prompt(s):
            continue
        sm = _S_ROW.match(s)
        if sm:
            out.records.append(PagingSummary(size_mb(sm.group("size")), to_float(sm.group("pct")), lineno,
                                             {"total_mb": lineno, "used_pct": lineno}))
            continue
        tok = s.split()
        if len(tok) in (8, 9) and size_mb(tok[3]) is not None and tok[5] in ("yes", "no") and tok[6] in ("yes", "no"):
            out.records.append(PagingSpace(
                tok[0], tok[1], tok[2], size_mb(tok[3]), to_float(tok[4]), tok[5] == "yes", tok[6] == "yes", tok[7],
                tok[8] if len(tok) == 9 else None, lineno,
                {k: lineno for k in ("name", "physical_volume", "volume_group", "size_mb", "used_pct", "active", "auto")}))
            continue
        out.warn(lineno, f"not a paging space row: {s[:60]!r}")
    return out
