"""Multipath paths as IBM's Subsystem Device Driver sees them: SDDPCM ``pcmpath query device`` and
SDD ``datapath query device``.

Input (a block per disk: its number, name, storage type, path selection, LUN serial, then a row
per path; ``*`` after a path number marks a non-preferred path of an SVC / Storwize LUN; SDD's
``datapath`` names the path's hdisk where SDDPCM names ``pathN``)::

    # pcmpath query device

    Total Dual Active and Active/Asymmetric Devices : 2

    DEV#:   2  DEVICE NAME: hdisk2  TYPE: 2145  ALGORITHM:  Load Balance
    SERIAL: 60050768018105A1C000000000000042
    ==========================================================================
    Path#      Adapter/Path Name          State     Mode     Select     Errors
        0*         fscsi0/path0           OPEN   NORMAL         58          0
        1          fscsi0/path1           DEAD   NORMAL     181520         47
        2*         fscsi1/path2           OPEN   NORMAL         61          0
        3          fscsi1/path3           OPEN   NORMAL     179804          0

Output: one :class:`SddDevice` per disk and one :class:`SddPath` per path::

    SddDevice(number=2, name="hdisk2", type="2145", policy="Load Balance",
              serial="60050768018105A1C000000000000042", command="pcmpath", line=5)
    SddPath(disk="hdisk2", path_id=1, parent="fscsi0", path_name="path1", state="DEAD", mode="NORMAL",
            select=181520, errors=47, preferred=True, device_number=2, status="Failed",
            command="pcmpath", line=11)

``state`` and ``mode`` are as printed. ``status`` says the same in ``lspath``'s words, so the path
checks read both alike (the SDD user's guide: OPEN is a path in use, CLOSE one not opened now, DEAD
one taken out of service after errors, CLOSE_DEAD a closed path that failed, INVALID one that
failed to open; mode OFFLINE a path an administrator set offline):

* OPEN or CLOSE in mode NORMAL: ``Enabled``;
* DEAD, CLOSE_DEAD, INVALID, FAILED, CLOSE_FAILED (any mode): ``Failed``;
* OPEN or CLOSE in mode OFFLINE: ``Disabled``;
* any other state or mode: ``None`` (a warning on its line; the path is not judged).

``connection`` is None (the table gives no target WWPN or LUN id). ``preferred`` is False for a
path marked ``*``, None when the output marks none. A ``Total ... Devices : 0`` answer is an
empty output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import Parsed, command_matches, is_bare_prompt, output_head, preamble, to_int

KIND = "pcmpath"
TITLE = "pcmpath / datapath query device"
COMMANDS = [r"^(?:pcmpath|datapath)\s+query\s+device\b"]
STARTS = re.compile(r"^\s*(?:Total\s+(?:Dual\s+Active\s+and\s+Active/Asymmetric\s+)?Devices\s*:\s*\d+"
                    r"|DEV#:\s*\d+\s+DEVICE\s+NAME:)")

_TOTAL = re.compile(r"^\s*Total\s+.*Devices\s*:\s*(?P<n>\d+)\s*$")
# numbers no device or path has (a run of digits) leave the line unread, warned
_DEVICE = re.compile(r"^\s*DEV#:\s*(?P<num>\d{1,9})\s+DEVICE\s+NAME:\s*(?P<name>.+?)\s+TYPE:\s*(?P<type>\S+)"
                     r"(?:\s+(?:ALGORITHM|POLICY):\s*(?P<policy>.*?))?\s*$")
_SERIAL = re.compile(r"^\s*(?P<key>SERIAL|LUN IDENTIFIER):\s*(?P<value>\S*)\s*$")
_HEADER = re.compile(r"^\s*Path#\s+Adapter/(?:Path\s+Name|Hard\s+Disk)\s+State\s+Mode\s+Select\s+Errors\s*$")
_ROW = re.compile(r"^\s*(?P<id>\d{1,9})(?P<star>\*?)\s+(?P<where>\S(?:.*\S)?)\s+(?P<state>[A-Z_]+)\s+(?P<mode>[A-Z_]+)"
                  r"\s+(?P<select>\d+)\s+(?P<errors>\d+)\s*$")
_RULE = re.compile(r"^\s*={5,}\s*$")

_UP_STATES = {"OPEN", "CLOSE"}
_FAILED_STATES = {"DEAD", "CLOSE_DEAD", "INVALID", "FAILED", "CLOSE_FAILED"}
_MODES = {"NORMAL", "OFFLINE"}


@dataclass
class SddDevice:
    number: int
    name: str  # hdiskN (SDDPCM), vpathN (SDD)
    type: str | None  # the storage's machine type: 2145 (SVC / Storwize), 2107 (DS8000) ...
    policy: str | None  # ALGORITHM (SDDPCM) or POLICY (SDD) as printed
    serial: str | None = None
    command: str = "pcmpath"
    lines: dict[str, int] = field(default_factory=dict)
    line: int = 0


@dataclass
class SddPath:
    disk: str
    path_id: int
    parent: str  # the adapter: fscsi0
    path_name: str  # path0 (SDDPCM), hdisk4 (SDD)
    state: str
    mode: str
    select: int | None
    errors: int | None
    preferred: bool | None
    device_number: int
    status: str | None  # the same in lspath's words (module doc), None when the state is not known
    command: str = "pcmpath"
    connection: str | None = None
    line: int = 0


def lspath_status(state: str, mode: str) -> str | None:
    """A path's state and mode in lspath's words (module doc), or None when either is not known."""
    if state in _FAILED_STATES and mode in _MODES:
        return "Failed"
    if state in _UP_STATES and mode == "NORMAL":
        return "Enabled"
    if state in _UP_STATES and mode == "OFFLINE":
        return "Disabled"
    return None


def detect(text: str) -> int:
    prompt, body = output_head(text, 60)
    if command_matches(prompt, COMMANDS):
        return 95
    devices = sum(1 for ln in body if _DEVICE.match(ln))
    headers = sum(1 for ln in body if _HEADER.match(ln))
    if devices and headers:
        return 90
    if devices or headers or any(_TOTAL.match(ln) for ln in body[:3]):
        return 50
    return 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, start = pre.lines, pre.body
    out.hostname = pre.host
    command = "datapath" if pre.command.startswith("datapath") else "pcmpath"
    device: SddDevice | None = None
    in_table = False
    total: int | None = None
    for idx in range(start, len(lines)):
        lineno, s = idx + 1, lines[idx].strip()
        if not s or is_bare_prompt(s) or _RULE.match(s):
            continue
        m = _TOTAL.match(s)
        if m:
            total = to_int(m.group("n"))
            continue
        m = _DEVICE.match(s)
        if m:
            device = SddDevice(int(m.group("num")), m.group("name"), m.group("type"),
                               (m.group("policy") or "").strip() or None, command=command, line=lineno)
            device.lines["name"] = lineno
            out.records.append(device)
            in_table = False
            continue
        m = _SERIAL.match(s)
        if m and device is not None:
            device.serial = device.serial or m.group("value") or None
            device.lines["serial"] = lineno
            continue
        if _HEADER.match(s):
            if "Hard" in s:  # SDD's table names each path's hdisk
                command = "datapath"
            in_table = True
            continue
        m = _ROW.match(s)
        if m and device is not None and in_table:
            where = m.group("where")
            parent, _, name = where.rpartition("/")
            state, mode = m.group("state"), m.group("mode")
            status = lspath_status(state, mode)
            if status is None:
                out.warn(lineno, f"path {m.group('id')} of {device.name}: state {state} mode {mode} not known: the path is not judged")
            out.records.append(SddPath(device.name, int(m.group("id")), parent or where, name, state, mode,
                                       to_int(m.group("select")), to_int(m.group("errors")),
                                       False if m.group("star") else None, device.number, status, command, line=lineno))
            continue
        if m:
            out.warn(lineno, "path row outside a device's path table")
            continue
        out.warn(lineno, f"not a pcmpath / datapath line: {s[:60]!r}")
    stars = any(isinstance(r, SddPath) and r.preferred is False for r in out.records)
    for r in out.records:
        if stars and isinstance(r, SddPath) and r.preferred is None:
            r.preferred = True  # the output marks the non-preferred paths: the others are preferred
        if isinstance(r, (SddDevice, SddPath)):
            r.command = command
    if not out.records and total == 0:
        out.empty = "no SDD devices configured (Total Devices : 0)"
    return out
