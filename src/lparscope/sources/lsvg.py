"""Logical volumes of a volume group: AIX ``lsvg -l <vg>`` and VIOS ``lsvg -lv <vg>`` (same table).

Input (one table per volume group, under a ``<vg>:`` line; several groups when several are named)::

    # lsvg -l rootvg
    rootvg:
    LV NAME             TYPE       LPs     PPs     PVs  LV STATE      MOUNT POINT
    hd6                 paging     16      32      2    open/syncd    N/A
    hd4                 jfs2       8       8       1    open/syncd    /
    lv_aix9             jfs        40      40      1    open/syncd    N/A

Output: one :class:`LogicalVolume` per row::

    LogicalVolume(name="hd6", vg="rootvg", type="paging", lps=16, pps=32, pvs=2, state="open/syncd",
                  mount_point=None, line=4)
    ...

``pps`` over ``lps`` is the number of copies (2: mirrored). ``N/A`` as mount point is None. A table
without its ``<vg>:`` line takes the volume group the command line names (``lsvg -l datavg``), else
None. Error lines (``0516-...``) and anything else not a row are warnings. ``lsvg <vg>`` (the
group's summary) and ``lsvg -p`` (its disks) are other formats, not read here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import Parsed, command_matches, is_bare_prompt, output_head, preamble, to_int

KIND = "lsvg-l"
TITLE = "lsvg -l / lsvg -lv (logical volumes)"
COMMANDS = [r"^lsvg\b(?=.*\s-(?:l|lv|il|li)\b)"]
_HEADER_TEXT = r"^\s*LV NAME\s+TYPE\s+LPs\s+PPs\s+PVs\s+LV STATE\s+MOUNT POINT\s*$"
STARTS = re.compile(_HEADER_TEXT)

_HEADER = re.compile(_HEADER_TEXT, re.I)
VG_LINE = re.compile(r"^\s*(?P<vg>[A-Za-z][\w.-]{0,14}):\s*$")  # AIX volume group names: at most 15 characters
_ROW = re.compile(r"^\s*(?P<name>[A-Za-z][\w.-]{0,14})\s+(?P<type>\S+)\s+(?P<lps>\d+)\s+(?P<pps>\d+)\s+(?P<pvs>\d+)"
                  r"\s+(?P<state>[a-z]+/[a-z]+)(?:\s+(?P<mount>\S(?:.*\S)?))?\s*$")
_VG_NAME = re.compile(r"[A-Za-z][\w.-]{0,14}")


@dataclass
class LogicalVolume:
    name: str
    vg: str | None  # the volume group the table is of (None: neither a "<vg>:" line nor the command says)
    type: str  # jfs2, jfs, jfs2log, paging, boot, sysdump, raw ...
    lps: int
    pps: int
    pvs: int
    state: str  # open/syncd, closed/syncd, open/stale ...
    mount_point: str | None = None  # None for N/A
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def copies(self) -> int | None:
        """Copies of each logical partition (1 plain, 2 or 3 mirrored); None when it has none."""
        return self.pps // self.lps if self.lps else None


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if command_matches(prompt, COMMANDS):
        return 95
    head = body[:3]
    if any(_HEADER.match(ln) for ln in head):
        return 90
    return 0


def command_vg(command: str) -> str | None:
    """The volume group a one-group command line names (``lsvg -l datavg`` -> datavg; the words
    after the options, before any pipe: ``lsvg -l rootvg | grep paging`` -> rootvg)."""
    names = [w for w in command.split("|", 1)[0].split()[1:] if not w.startswith("-")]
    return names[0] if len(names) == 1 and _VG_NAME.fullmatch(names[0]) else None


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt = pre.lines, pre.prompt
    if prompt:
        out.hostname = prompt.host
    vg = command_vg(prompt.command) if prompt else None
    vg_line = 0
    for idx in range(pre.body, len(lines)):
        lineno, s = idx + 1, lines[idx].strip()
        if not s or is_bare_prompt(s):
            continue
        m = VG_LINE.match(s)
        if m:
            vg, vg_line = m.group("vg"), lineno
            continue
        if _HEADER.match(s):
            continue
        r = _ROW.match(s)
        if r:
            mount = r.group("mount")
            lv = LogicalVolume(r.group("name"), vg, r.group("type"), to_int(r.group("lps")) or 0,
                               to_int(r.group("pps")) or 0, to_int(r.group("pvs")) or 0, r.group("state"),
                               None if mount in (None, "N/A") else mount, line=lineno,
                               lines={"vg": vg_line or lineno, "state": lineno, "pps": lineno})
            out.records.append(lv)
            continue
        out.warn(lineno, f"not an lsvg -l row: {s[:60]!r}")
    return out
