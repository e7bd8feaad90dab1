"""Volume groups: AIX ``lsvg <vg>`` (a group's summary), and ``lsvg`` / ``lsvg -o`` (the names).

Input (``lsvg <vg>``: two ``LABEL: value`` pairs a line, labels with blanks; several groups when
several are named, ``lsvg -o | lsvg -i``)::

    # lsvg datavg
    VOLUME GROUP:       datavg                   VG IDENTIFIER:  00c4a1b200004c0000000187a93f22d1
    VG STATE:           active                   PP SIZE:        64 megabyte(s)
    VG PERMISSION:      read/write               TOTAL PPs:      1598 (102272 megabytes)
    MAX LVs:            256                      FREE PPs:       210 (13440 megabytes)
    LVs:                6                        USED PPs:       1388 (88832 megabytes)
    OPEN LVs:           5                        QUORUM:         2 (Enabled)
    TOTAL PVs:          2                        VG DESCRIPTORS: 3
    STALE PVs:          1                        STALE PPs:      37
    ACTIVE PVs:         2                        AUTO ON:        yes
    MAX PPs per VG:     32768                    MAX PVs:        1024
    HOT SPARE:          no                       BB POLICY:      relocatable
    MIRROR POOL STRICT: off

Output: one :class:`VolumeGroup` per ``VOLUME GROUP:`` line::

    VolumeGroup(name="datavg", identifier="00c4a1b200004c0000000187a93f22d1", state="active",
                permission="read/write", pp_size_mb=64, total_pps=1598, free_pps=210, used_pps=1388,
                max_lvs=256, lvs=6, open_lvs=5, quorum=2, quorum_enabled=True, total_pvs=2,
                vg_descriptors=3, stale_pvs=1, stale_pps=37, active_pvs=2, auto_on=True,
                max_pps_per_vg=32768, max_pvs=1024, hot_spare="no", mirror_pool_strict="off",
                values={"VOLUME GROUP": "datavg", ..., "BB POLICY": "relocatable"}, line=2,
                lines={"name": 2, "identifier": 2, "state": 3, ...})

Every pair is kept as printed in ``values`` (``LTG size (Dynamic)``, ``CRITICAL VG``,
``Concurrent`` ...); the common ones are typed (numbers as ints, sizes in MB, ``yes`` / ``no``
as booleans). ``lsvg`` and ``lsvg -o`` print one group name a line: one :class:`ListedVolumeGroup`
each (``varied_on`` True under ``-o``, else unknown). An AIX numbered message (``0516-010 : Volume
group must be varied on``) is one warning; other lines are warnings. ``lsvg -l`` (kind ``lsvg-l``),
``-p`` and ``-M`` are other formats, not read here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._aix_message import messages
from .base import Parsed, command_matches, is_bare_prompt, output_head, preamble, to_int

KIND = "lsvg"
TITLE = "lsvg <vg> (volume group summary) / lsvg, lsvg -o"
# Not -l/-lv/-il (lsvg-l), -p (disks), -M/-m (maps, mirror pools), -n (a disk's descriptor): options before any pipe.
COMMANDS = [r"^lsvg\b(?![^|]*\s-[A-Za-z]*[lpMmn])"]
STARTS = re.compile(r"^\s*VOLUME GROUP:\s*\S+\s+VG IDENTIFIER:")

_KNOWN = ("VOLUME GROUP", "VG IDENTIFIER", "VG STATE", "PP SIZE", "VG PERMISSION", "TOTAL PPs", "MAX LVs",
          "FREE PPs", "LVs", "USED PPs", "OPEN LVs", "QUORUM", "TOTAL PVs", "VG DESCRIPTORS", "STALE PVs",
          "STALE PPs", "ACTIVE PVs", "AUTO ON", "MAX PPs per VG", "MAX PPs per PV", "MAX PVs",
          "LTG size (Dynamic)", "LTG size", "AUTO SYNC", "HOT SPARE", "BB POLICY", "MIRROR POOL STRICT",
          "PV RESTRICTION", "INFINITE RETRY", "DISK BLOCK SIZE", "CRITICAL VG", "FS SYNC OPTION",
          "CRITICAL PVs", "ENCRYPTION", "Concurrent", "Auto-Concurrent", "VG Mode", "Node ID", "Active Nodes")
_KNOWN_RE = "|".join(re.escape(k) for k in sorted(_KNOWN, key=len, reverse=True))
# A known label after any blank (padding collapsed to one space still reads), or any label-like words
# at the line's start or after two blanks.
_LABEL = re.compile(rf"(?:(?<!\S)(?P<known>{_KNOWN_RE})|(?:^|(?<=\s\s))(?P<other>[A-Z][\w()/-]*(?: [\w()/-]+){{0,4}})):(?=\s|$)")
_NAME = re.compile(r"^[A-Za-z][\w.-]{0,14}$")  # AIX volume group names: at most 15 characters
_LV_HEADER = re.compile(r"^\s*LV NAME\s+TYPE\s+LPs\b", re.I)


@dataclass
class VolumeGroup:
    name: str
    identifier: str | None = None
    state: str | None = None  # active, active/complete ...
    permission: str | None = None  # read/write, read-only
    pp_size_mb: int | None = None
    total_pps: int | None = None
    free_pps: int | None = None
    used_pps: int | None = None
    max_lvs: int | None = None
    lvs: int | None = None
    open_lvs: int | None = None
    quorum: int | None = None  # descriptors needed for the group to stay varied on
    quorum_enabled: bool | None = None  # "2 (Enabled)" / "1 (Disabled)"
    total_pvs: int | None = None
    vg_descriptors: int | None = None
    stale_pvs: int | None = None
    stale_pps: int | None = None
    active_pvs: int | None = None
    auto_on: bool | None = None  # varied on at boot
    max_pps_per_vg: int | None = None
    max_pps_per_pv: int | None = None
    max_pvs: int | None = None
    auto_sync: bool | None = None
    hot_spare: str | None = None  # no, yes, yes (one to one), yes (pool) ...
    mirror_pool_strict: str | None = None  # off, on, super
    critical_vg: bool | None = None
    values: dict[str, str] = field(default_factory=dict)  # every "LABEL: value" as printed
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class ListedVolumeGroup:
    name: str
    varied_on: bool | None  # True when listed by lsvg -o; None: plain lsvg lists every group
    line: int = 0


def _count(value: str) -> int | None:
    words = value.split()
    return to_int(words[0]) if words else None


def _yes(value: str) -> bool | None:
    word = value.split()[0].lower() if value.split() else ""
    return {"yes": True, "no": False, "on": True, "off": False}.get(word)


def _pp_size(value: str) -> int | None:
    m = re.match(r"^(\d+)\s*(mega|giga|kilo)?byte", value, re.I)
    if not m:
        return None
    n, unit = to_int(m.group(1)), (m.group(2) or "mega").lower()
    if n is None:
        return None
    return n * 1024 if unit == "giga" else n // 1024 if unit == "kilo" else n


# printed label: (field, converter)
_TYPED = {
    "VG IDENTIFIER": ("identifier", str), "VG STATE": ("state", str), "VG PERMISSION": ("permission", str),
    "PP SIZE": ("pp_size_mb", _pp_size), "TOTAL PPs": ("total_pps", _count), "FREE PPs": ("free_pps", _count),
    "USED PPs": ("used_pps", _count), "MAX LVs": ("max_lvs", _count), "LVs": ("lvs", _count),
    "OPEN LVs": ("open_lvs", _count), "QUORUM": ("quorum", _count), "TOTAL PVs": ("total_pvs", _count),
    "VG DESCRIPTORS": ("vg_descriptors", _count), "STALE PVs": ("stale_pvs", _count),
    "STALE PPs": ("stale_pps", _count), "ACTIVE PVs": ("active_pvs", _count), "AUTO ON": ("auto_on", _yes),
    "MAX PPs per VG": ("max_pps_per_vg", _count), "MAX PPs per PV": ("max_pps_per_pv", _count),
    "MAX PVs": ("max_pvs", _count), "AUTO SYNC": ("auto_sync", _yes), "HOT SPARE": ("hot_spare", str),
    "MIRROR POOL STRICT": ("mirror_pool_strict", str), "CRITICAL VG": ("critical_vg", _yes),
}


def pairs(line: str) -> list[tuple[str, str]]:
    """The ``LABEL: value`` pairs of one summary line, in order (values stripped, maybe empty)."""
    found = list(_LABEL.finditer(line))
    out = []
    for n, m in enumerate(found):
        end = found[n + 1].start() if n + 1 < len(found) else len(line)
        out.append((m.group("known") or m.group("other"), line[m.end():end].strip()))
    return out


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if any(_LV_HEADER.match(ln) for ln in body[:3]):
        return 0  # lsvg -l (lsvg -o | lsvg -il names both kinds' commands)
    if any(STARTS.match(ln) for ln in body[:3]):
        return 95
    if command_matches(prompt, COMMANDS):
        return 90
    return 0


def _set(vg: VolumeGroup, label: str, value: str, lineno: int, out: Parsed) -> None:
    vg.values[label] = value
    if label == "QUORUM":
        vg.quorum_enabled = True if "enabled" in value.lower() else False if "disabled" in value.lower() else None
    if label not in _TYPED:
        return
    name, conv = _TYPED[label]
    typed = conv(value) if value else None
    setattr(vg, name, typed)
    vg.lines[name] = lineno
    if value and typed is None and conv is not str:
        out.warn(lineno, f"{label}: not read: {value[:40]!r}")


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt = pre.lines, pre.prompt
    if prompt:
        out.hostname = prompt.host
    command = prompt.command.split("|", 1)[0] if prompt else ""
    varied_on = True if re.search(r"\s-[A-Za-z]*o", command) else None
    errors, taken = messages(lines, pre.body)
    for lineno, message in errors:
        out.warn(lineno, f"lsvg error {message}")
    vg: VolumeGroup | None = None
    for idx in range(pre.body, len(lines)):
        lineno, s = idx + 1, lines[idx].strip()
        if not s or idx in taken or is_bare_prompt(s):
            continue
        found = pairs(s)
        if found and found[0][0] == "VOLUME GROUP":
            if not _NAME.match(found[0][1]):
                out.warn(lineno, f"VOLUME GROUP: not a volume group name: {found[0][1][:40]!r}")
                vg = None
                continue
            vg = VolumeGroup(found[0][1], values={"VOLUME GROUP": found[0][1]}, line=lineno, lines={"name": lineno})
            out.records.append(vg)
        if found and vg is not None:
            for label, value in found[1:] if found[0][0] == "VOLUME GROUP" else found:
                _set(vg, label, value, lineno, out)
            continue
        if vg is None and _NAME.match(s) and ":" not in s:
            out.records.append(ListedVolumeGroup(s, varied_on, lineno))
            continue
        out.warn(lineno, f"not an lsvg line: {s[:60]!r}")
    return out
