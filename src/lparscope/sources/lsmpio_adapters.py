"""FC adapters as the AIX MPIO path control module sees them: ``lsmpio -a``, ``lsmpio -ar``
(and ``-ar -l hdiskN``, the paths of one disk).

Input (per adapter: driver and PCM, WWPN, link state; with ``-r`` a table of the remote target
ports it reaches, with the number of paths through each in every state)::

    # lsmpio -ar
    Adapter Driver: fscsi0 -> AIX PCM
        Adapter WWPN:  c050760a1b2c0010
        Link State:    Up
                              Paths      Paths      Paths      Paths
        Remote Ports        Enabled   Disabled     Failed    Missing         ID
        5005076810113a4c          6          0          2          0   0x0a1b00

Output: one :class:`MpioAdapter` per adapter, one :class:`MpioRemotePort` per table row::

    MpioAdapter(name="fscsi0", pcm="AIX PCM", wwpn="c050760a1b2c0010", link_state="Up", disk=None,
                line=2, lines={"name": 2, "wwpn": 3, "link_state": 4})
    MpioRemotePort(adapter="fscsi0", wwpn="5005076810113a4c", enabled=6, disabled=0, failed=2,
                   missing=0, port_id="0x0a1b00", disk=None, line=7)

``disk`` is the disk ``-l hdiskN`` names (the counts are then that disk's paths), else None (all
disks). An AIX numbered message is one warning; a row before any adapter, a count that is not a
number and any other line are warnings. The ``lsmpio`` / ``lsmpio -l`` path table is kind
``lspath``; ``lsmpio -q`` (disk inquiry data) and ``-S`` (statistics) are not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._aix_message import messages
from .base import Parsed, command_matches, is_bare_prompt, output_head, preamble, to_int

KIND = "lsmpio-a"
TITLE = "lsmpio -a / -ar (FC adapters, remote ports)"
COMMANDS = [r"^lsmpio\b(?=[^|]*\s-[A-Za-z]*a)"]  # -a, -ar, -are, -ra ... before any pipe
STARTS = re.compile(r"^\s*Adapter Driver:\s*\S+\s*->")

_ADAPTER = re.compile(r"^\s*Adapter Driver:\s*(?P<name>[A-Za-z]\w*)\s*(?:->\s*(?P<pcm>\S(?:.*\S)?))?\s*$")
_FIELD = re.compile(r"^\s*(?P<key>Adapter WWPN|Link State):\s*(?P<value>\S+)\s*$")
_HEADER = re.compile(r"^\s*(?:Paths(?:\s+Paths)*|Remote Ports\s+Enabled\s+Disabled\s+Failed\s+Missing(?:\s+ID)?)\s*$")
_ROW = re.compile(r"^\s*(?P<wwpn>[0-9A-Fa-f]{16})\s+(?P<counts>\S+(?:\s+\S+){3})(?:\s+(?P<id>0x[0-9A-Fa-f]+))?\s*$")
_DISK = re.compile(r"\s-l\s*(?P<disk>[A-Za-z]\w*\d)\b")


@dataclass
class MpioAdapter:
    name: str  # fscsiN (or sasN ...)
    pcm: str | None  # the path control module after "->": AIX PCM, ...
    wwpn: str | None = None
    link_state: str | None = None  # Up, Down ...
    disk: str | None = None  # the disk -l names; None: every disk
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class MpioRemotePort:
    adapter: str
    wwpn: str  # the remote (target) port
    enabled: int  # paths through it in each state
    disabled: int
    failed: int
    missing: int
    port_id: str | None  # the port's SCSI ID (N_Port ID), e.g. 0x0a1b00
    disk: str | None = None  # the disk -l names; None: paths of every disk
    line: int = 0


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if any(STARTS.match(ln) for ln in body[:3]):
        return 95
    if command_matches(prompt, COMMANDS):
        return 90
    return 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt = pre.lines, pre.prompt
    if prompt:
        out.hostname = prompt.host
    m = _DISK.search(prompt.command.split("|", 1)[0]) if prompt else None
    disk = m.group("disk") if m else None
    errors, taken = messages(lines, pre.body)
    for lineno, message in errors:
        out.warn(lineno, f"lsmpio error {message}")
    adapter: MpioAdapter | None = None
    for idx in range(pre.body, len(lines)):
        lineno, s = idx + 1, lines[idx].strip()
        if not s or idx in taken or is_bare_prompt(s) or _HEADER.match(s):
            continue
        a = _ADAPTER.match(s)
        if a:
            adapter = MpioAdapter(a.group("name"), a.group("pcm"), disk=disk, line=lineno, lines={"name": lineno})
            out.records.append(adapter)
            continue
        f = _FIELD.match(s)
        if f and adapter is not None:
            name = "wwpn" if f.group("key") == "Adapter WWPN" else "link_state"
            setattr(adapter, name, f.group("value"))
            adapter.lines[name] = lineno
            continue
        r = _ROW.match(s)
        if r and adapter is not None:
            counts = [to_int(c) for c in r.group("counts").split()]
            if any(c is None for c in counts):
                out.warn(lineno, f"remote port row with a count that is not a number: {s[:60]!r}")
                continue
            enabled, disabled, failed, missing = (c or 0 for c in counts)
            out.records.append(MpioRemotePort(adapter.name, r.group("wwpn").lower(), enabled, disabled, failed, missing,
                                              r.group("id"), disk, lineno))
            continue
        if (r or f) and adapter is None:
            out.warn(lineno, f"no 'Adapter Driver:' line above: {s[:60]!r}")
            continue
        out.warn(lineno, f"not an lsmpio -a line: {s[:60]!r}")
    return out
