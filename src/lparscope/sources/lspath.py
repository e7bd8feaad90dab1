"""MPIO paths: AIX ``lspath`` (also ``-l hdiskN`` and ``-F "<fields>"``) and ``lsmpio`` / ``lsmpio -l hdiskN``.

Input (``lspath``: status, device, parent adapter; one row per path)::

    # lspath -l hdisk3
    Enabled hdisk3 fscsi0
    Enabled hdisk3 fscsi1

Output: one :class:`DiskPath` per row::

    DiskPath(disk="hdisk3", status="Enabled", parent="fscsi0", connection=None, line=2)
    DiskPath(disk="hdisk3", status="Enabled", parent="fscsi1", connection=None, line=3)

Also read: ``lspath -F "status name parent connection"`` (field order from the command
line; without one, a fourth column is taken as the connection) and the ``lsmpio`` table
(header ``name path_id status path_status parent connection``), which also gives
``path_id`` and ``path_status`` (``Sel``, ``Opt``, ``Non`` ...). Text with collapsed
column padding is accepted. ``lsmpio -a`` / ``-ar`` (adapters and remote ports) are kind
``lsmpio-a`` (``lsmpio_adapters.py``); ``lsmpio -q`` / ``-S`` are not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..numbers import whole
from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head, to_int

KIND = "lspath"
TITLE = "lspath / lsmpio -l"
COMMANDS = [r"^lspath\b(?!.*\s-[AD]\b)", r"^lsmpio\b(?!.*\s-(?:[qSdz]|[A-Za-z]*a)\w*\b)"]  # -A/-D: attributes; lsmpio -q/-S: other tables, -a/-ar: kind lsmpio-a
STARTS = re.compile(r"^\s*name\s+path_id\s+status\s+path_status\s+parent\s+connection\s*$")

_STATUS = "Enabled|Disabled|Failed|Defined|Missing|Detected|Available|Unknown"
_ROW = re.compile(rf"^\s*(?P<status>{_STATUS})\s+(?P<disk>[A-Za-z]\w*(?<=\d))\s+(?P<parent>[A-Za-z]\w*(?<=\d))(?:\s+(?P<conn>\S+))?\s*$")
_MPIO_ROW = re.compile(
    rf"^\s*(?P<disk>[A-Za-z]\w*\d)\s+(?P<pid>\d+)\s+(?P<status>{_STATUS})\s+(?P<pstat>\S+)\s+(?P<parent>[A-Za-z]\w*\d)(?:\s+(?P<conn>\S+))?\s*$")
_FIELDS = {"status", "name", "parent", "connection", "path_id", "path_status"}


@dataclass
class DiskPath:
    disk: str
    status: str
    parent: str  # fscsiN, vscsiN, sasN ...
    connection: str | None = None  # "<target WWPN>,<LUN id>" or the vSCSI LUN
    path_id: int | None = None
    path_status: str | None = None  # lsmpio: Sel, Opt, Non, Rsv, Clo ...
    line: int = 0


def detect(text: str) -> int:
    prompt, body = output_head(text, 80)
    if prompt is None and not body:
        return 0
    if command_matches(prompt, COMMANDS):
        return 95
    if body and STARTS.match(body[0]):
        return 90
    rows = sum(1 for ln in body if _ROW.match(ln) or _MPIO_ROW.match(ln))
    if rows and rows >= 0.8 * len(body):
        return 75 if rows >= 2 else 40
    return 0


def _fmt(command: str) -> list[str] | None:
    m = re.search(r"-F\s*(['\"])(.+?)\1|-F\s*(\S+)", command)
    if not m or not command.startswith("lspath"):
        return None
    names = re.split(r"[\s:,]+", (m.group(2) or m.group(3)).strip())
    return names if names and set(names) <= _FIELDS and "name" in names else None


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    fmt = _fmt(prompt.command) if prompt else None
    if prompt:
        out.hostname = prompt.host
    for idx in range(start, len(lines)):
        lineno, s = idx + 1, lines[idx].strip()
        if not s or is_bare_prompt(s) or s.startswith("# ") or STARTS.match(s) or re.match(r"^-{4,}[\s-]*$", s):
            continue
        if fmt:
            values = re.split(r"[\s:]+", s, maxsplit=len(fmt) - 1)
            if len(values) != len(fmt):
                out.warn(lineno, f"expected {len(fmt)} fields ({' '.join(fmt)}), found {len(values)}")
                continue
            d = dict(zip(fmt, values))
            out.records.append(DiskPath(d["name"], d.get("status", ""), d.get("parent", ""), d.get("connection"),
                                        to_int(d.get("path_id")), d.get("path_status"), lineno))
            continue
        m = _MPIO_ROW.match(s)
        if m:
            out.records.append(DiskPath(m.group("disk"), m.group("status"), m.group("parent"), m.group("conn"),
                                        whole(m.group("pid")), m.group("pstat"), lineno))
            continue
        m = _ROW.match(s)
        if m:
            out.records.append(DiskPath(m.group("disk"), m.group("status"), m.group("parent"), m.group("conn"), line=lineno))
            continue
        out.warn(lineno, f"not a path row: {s[:60]!r}")
    return out
