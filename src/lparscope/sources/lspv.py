"""Physical volumes: AIX ``lspv`` / ``lspv -u``, VIOS ``lspv`` / ``lspv -free`` / ``lspv -size``, and ``lspv hdiskN``.

Input (AIX; one row per disk: name, PVID or ``none``, volume group or ``None``, state)::

    # lspv
    hdisk0          00c84c1d3e0a51b7                    rootvg          active
    hdisk1          00c84c1d5c816fc2                    caavg_private   active
    hdisk2          none                                None

Output: one :class:`PhysicalVolume` per row::

    PhysicalVolume(name="hdisk0", pvid="00c84c1d3e0a51b7", vg="rootvg", state="active", line=2)
    PhysicalVolume(name="hdisk1", pvid="00c84c1d5c816fc2", vg="caavg_private", state="active", line=3)
    PhysicalVolume(name="hdisk2", pvid=None, vg=None, state=None, line=4)

Also read: the VIOS header ``NAME PVID VG STATUS``; ``lspv -free`` / ``-size`` (header
``NAME PVID SIZE(megabytes)``: ``size_mb`` is set, ``vg`` stays None; ``free`` is True
only when the command line says ``-free``); ``lspv -u`` (extra UDID / UUID columns: ``udid``); the detail form of
``lspv hdiskN`` (``PHYSICAL VOLUME: hdisk0  VOLUME GROUP: rootvg`` ...), read for name,
PVID, VG and state; and text whose column padding was collapsed to single spaces.

An AIX numbered message in place of the output (``lspv hdisk9`` of a disk that is not there)::

    0516-1396 lspv: The physical volume hdisk9, was not found in the
    system database.

gives no record and one warning naming the message (its wrapped lines joined):
``lspv error 0516-1396 The physical volume hdisk9, was not found in the system database.``
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._aix_message import messages
from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head, to_int

KIND = "lspv"
TITLE = "lspv / lspv -free / lspv -u"
COMMANDS = [r"^lspv(?!.*\s-[lpMn]\b)"]  # -l / -p / -M / -n list partitions: another format
STARTS = re.compile(r"^\s*NAME\s+PVID\s+(?:VG|SIZE)")

_HEADER = re.compile(r"^\s*NAME\s+PVID\s+(?P<third>VG|SIZE\S*)(?:\s+STATUS)?\s*$", re.I)
_NAME = r"[A-Za-z]\w*(?<=\d)"  # ends in a digit; no overlap between \w* and the digits (linear)
_PVID = r"[0-9a-fA-F]{16}(?:0{16})?|none"
_ROW = re.compile(rf"^\s*(?P<name>{_NAME})\s+(?P<pvid>{_PVID})(?:\s+(?P<rest>(?:.*\S)?))?\s*$")
_STATES = {"active", "concurrent", "locked"}
_DETAIL = re.compile(r"^\s*PHYSICAL VOLUME:\s*(?P<name>\S+)\s+VOLUME GROUP:\s*(?P<vg>\S+)")
_DETAIL_KV = re.compile(r"(PV IDENTIFIER|PV STATE|VG IDENTIFIER|TOTAL PPs|FREE PPs|PP SIZE):\s*(\S+(?:\s\S+)?)")


@dataclass
class PhysicalVolume:
    name: str
    pvid: str | None  # 16 hex digits; None when the disk has none
    vg: str | None  # None when the disk belongs to no volume group
    state: str | None = None  # active, concurrent, locked; None when not varied on
    size_mb: int | None = None  # VIOS lspv -free / -size
    free: bool = False  # listed by VIOS lspv -free (neither in a VG nor mapped)
    udid: str | None = None  # lspv -u
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


def detect(text: str) -> int:
    prompt, body = output_head(text, 80)
    if prompt is None and not body:
        return 0
    if command_matches(prompt, COMMANDS):
        return 95
    if body and _HEADER.match(body[0]):
        return 90
    if any(_DETAIL.match(ln) for ln in body[:3]):
        return 85
    rows = sum(1 for ln in body if _ROW.match(ln))
    if rows and rows >= 0.8 * len(body):
        return 75 if rows >= 2 else 40
    return 0


def _row(m: re.Match[str], lineno: int, sized: bool, free: bool) -> PhysicalVolume:
    pvid = m.group("pvid")
    pv = PhysicalVolume(m.group("name"), None if pvid.lower() == "none" else pvid[:16].lower(), None, line=lineno, free=free)
    rest = (m.group("rest") or "").split()
    if sized:
        pv.size_mb = to_int(rest[0]) if rest else None
        return pv
    if rest:
        pv.vg = None if rest[0] == "None" else rest[0]
    if len(rest) > 1 and rest[1].lower() in _STATES:
        pv.state = rest[1].lower()
        extra = rest[2:]
    else:
        extra = rest[1:]
    if extra:
        pv.udid = extra[0]
    return pv


def _detail(lines: list[str], start: int, out: Parsed) -> None:
    pv: PhysicalVolume | None = None
    for idx in range(start, len(lines)):
        lineno, s = idx + 1, lines[idx]
        m = _DETAIL.match(s)
        if m:
            vg = m.group("vg")
            pv = PhysicalVolume(m.group("name"), None, None if vg == "None" else vg, line=lineno, lines={"vg": lineno})
            out.records.append(pv)
            continue
        if pv is None:
            continue
        for key, value in _DETAIL_KV.findall(s):
            if key == "PV IDENTIFIER":
                pv.pvid, pv.lines["pvid"] = value.split()[0][:16].lower(), lineno
            elif key == "PV STATE":
                pv.state, pv.lines["state"] = value.split()[0].lower(), lineno


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    command = prompt.command if prompt else ""
    if prompt:
        out.hostname = prompt.host
    errors, taken = messages(lines, start)
    for lineno, message in errors:
        out.warn(lineno, f"lspv error {message}")
    if any(_DETAIL.match(ln) for ln in lines[start:start + 5]):
        _detail(lines, start, out)
        return out
    free = bool(re.search(r"\s-free\b", command))
    sized = free or bool(re.search(r"\s-size\b", command))
    for idx in range(start, len(lines)):
        lineno, s = idx + 1, lines[idx].strip()
        if not s or idx in taken or is_bare_prompt(s) or s.startswith("# ") or re.match(r"^-{4,}[\s-]*$", s):
            continue
        h = _HEADER.match(s)
        if h:
            sized = h.group("third").upper().startswith("SIZE")
            continue
        m = _ROW.match(s)
        if m:
            out.records.append(_row(m, lineno, sized, free))
            continue
        out.warn(lineno, f"not an lspv row: {s[:60]!r}")
    return out
