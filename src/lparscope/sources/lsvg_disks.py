"""The disks of a volume group: AIX ``lsvg -p <vg>`` (VIOS ``lsvg -pv <vg>``), and the mirror pool
of each disk, ``lsvg -P <vg>``.

Input (one table per volume group, under a ``<vg>:`` line)::

    # lsvg -p datavg
    datavg:
    PV_NAME           PV STATE          TOTAL PPs   FREE PPs    FREE DISTRIBUTION
    hdisk1            active            1275        1275        255..255..255..255..255
    hdisk2            missing           1275        0           00..00..00..00..00

    # lsvg -P datavg
    Physical Volume   Mirror Pool
    hdisk1            mp1
    hdisk2            mp2

Output: one :class:`VolumeGroupDisk` per ``-p`` row, one :class:`MirrorPoolDisk` per ``-P`` row::

    VolumeGroupDisk(name="hdisk2", vg="datavg", state="missing", total_pps=1275, free_pps=0,
                    distribution="00..00..00..00..00", line=5)
    MirrorPoolDisk(name="hdisk1", vg=None, mirror_pool="mp1", line=8)

The PV state is the Logical Volume Manager's view: ``active``, ``missing`` (the disk does not
answer), ``removed``. The free distribution counts free partitions in the five regions of the
disk (outer edge, outer middle, centre, inner middle, inner edge). A table without its ``<vg>:``
line takes the group the command line names, else None. ``lsvg -P`` prints no ``<vg>:`` line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import Parsed, command_matches, is_bare_prompt, output_head, preamble, to_int
from .lsvg import VG_LINE, command_vg

KIND = "lsvg-p"
TITLE = "lsvg -p / lsvg -pv (a volume group's disks), lsvg -P (their mirror pools)"
COMMANDS = [r"^lsvg\b(?=.*\s-(?:p|pv|P)\b)"]
_DISKS_HEADER = r"\s*PV_NAME\s+PV STATE\s+TOTAL PPs\s+FREE PPs\s+FREE DISTRIBUTION\s*$"
_POOLS_HEADER = r"\s*Physical Volume\s+Mirror Pool\s*$"
STARTS = re.compile(f"^(?:{_DISKS_HEADER}|{_POOLS_HEADER})")

_DISKS = re.compile("^" + _DISKS_HEADER, re.I)
_POOLS = re.compile("^" + _POOLS_HEADER, re.I)
_DISK_ROW = re.compile(r"^\s*(?P<name>[A-Za-z][\w.-]*)\s+(?P<state>[a-z]+)\s+(?P<total>\d+)\s+(?P<free>\d+)"
                       r"(?:\s+(?P<dist>\d+(?:\.\.\d+){4}))?\s*$")
_POOL_ROW = re.compile(r"^\s*(?P<name>[A-Za-z][\w.-]*)(?:\s+(?P<pool>\S+))?\s*$")


@dataclass
class VolumeGroupDisk:
    name: str  # hdiskN
    vg: str | None
    state: str  # active, missing, removed
    total_pps: int
    free_pps: int
    distribution: str | None = None  # free partitions per disk region, "255..255..255..255..255"
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class MirrorPoolDisk:
    name: str
    vg: str | None
    mirror_pool: str | None  # None: the disk is in no mirror pool (the column is empty)
    line: int = 0


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if command_matches(prompt, COMMANDS):
        return 95
    if any(_DISKS.match(ln) or _POOLS.match(ln) for ln in body[:3]):
        return 90
    return 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt = pre.lines, pre.prompt
    if prompt:
        out.hostname = prompt.host
    vg = command_vg(prompt.command) if prompt else None
    vg_line = 0
    table: str | None = None  # "disks" or "pools": the header last seen
    for idx in range(pre.body, len(lines)):
        lineno, s = idx + 1, lines[idx].strip()
        if not s or is_bare_prompt(s):
            continue
        if _DISKS.match(s) or _POOLS.match(s):
            table = "disks" if _DISKS.match(s) else "pools"
            continue
        m = VG_LINE.match(s)
        if m:
            vg, vg_line, table = m.group("vg"), lineno, None
            continue
        if table == "disks" and (r := _DISK_ROW.match(s)) is not None:
            out.records.append(VolumeGroupDisk(
                r.group("name"), vg, r.group("state"), to_int(r.group("total")) or 0, to_int(r.group("free")) or 0,
                r.group("dist"), line=lineno, lines={"vg": vg_line or lineno, "state": lineno, "free_pps": lineno}))
            continue
        if table == "pools" and (r := _POOL_ROW.match(s)) is not None:
            out.records.append(MirrorPoolDisk(r.group("name"), vg, r.group("pool"), line=lineno))
            continue
        out.warn(lineno, f"not an lsvg -p / -P row: {s[:60]!r}")
    return out
