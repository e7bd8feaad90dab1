"""Kernel view of SCSI disks: ``echo scsidisk | kdb`` and ``echo scsidisk 0xADDR | kdb``.

Input (run in the global environment; kdb first prints its memory map, elided here)::

    # echo scsidisk | kdb
    ...
    (0)> scsidisk
    "scsidisk_list" address...[0x0]
    NAME                ADDRESS             STATE   CMDS_OUT  CURRBUF             LOW
    hdisk0              0xF1000A0150600000  0x00000002  0x0000  0x0000000000000000  0x0
    hdisk4              0xF1000A01C0250000  0x00000001  0x0000  0x0000000000000000  0x0
    # echo scsidisk 0xF1000A01C0250000 | kdb | grep queue_depth
            ushort queue_depth = 0x1;

Output: one :class:`KernelDiskEntry` per list row and one :class:`KernelQueueDepth` per
``queue_depth`` line::

    KernelDiskEntry(name="hdisk0", address="0xF1000A0150600000", state="0x00000002", line=5)
    KernelDiskEntry(name="hdisk4", address="0xF1000A01C0250000", state="0x00000001", line=6)
    KernelQueueDepth(address="0xF1000A01C0250000", name="hdisk4", queue_depth=1, line=8)

The address of a ``queue_depth`` line is the one on the nearest ``scsidisk 0x...`` before
it (the command line ``echo scsidisk 0x... | kdb`` or the kdb prompt ``(0)> scsidisk
0x...``). Its name comes from the latest scsidisk_list row with that address before the
reading, else from the first such row after it (a disk exported to a WPAR is renamed but
keeps its kernel address); ``None`` when no list names it. The same name may appear
twice with different addresses. The text is scanned with regular expressions, so output
whose line breaks were collapsed (pasted from a web page) is read as well; line numbers
come from match offsets. Addresses are kept as printed (``0x`` + upper-case hex).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from .base import preamble, Parsed, leading_prompt, split_lines, to_int

KIND = "kdb"
TITLE = "echo scsidisk | kdb"
COMMANDS = [r"^echo\b.*\bscsidisk\b.*\|\s*kdb\b", r"^kdb\b"]
STARTS = re.compile(
    r"^\s*(?:NAME\s+ADDRESS\s+STATE\s+CMDS_OUT\b|\(\d+\)>\s*scsidisk\b|\"scsidisk_list\"|(?:u?short\s+)?queue_depth\s*=\s*(?:0x[0-9A-Fa-f]+|\d+)\s*;)"
)

_HEX = r"0x[0-9A-Fa-f]+"
_LIST_HDR = re.compile(r"NAME\s+ADDRESS\s+STATE\s+CMDS_OUT\s+CURRBUF\s+LOW\b")
_ROW = re.compile(
    rf"\s*(?P<name>[A-Za-z][\w.-]*)\s+(?P<addr>{_HEX})\s+(?P<state>{_HEX})(?:\s+{_HEX}){{0,3}}"
)
_TRUNCATED = re.compile(r"\s*(?P<name>[a-z]+disk\d+)[ \t]*(?=\n|$)")
_MARKERS = re.compile(r"[ \t]*<+[ \t]*")
_ADDR_CMD = re.compile(rf"\bscsidisk\s+(?P<addr>{_HEX})\b")
_QDEPTH = re.compile(rf"(?<![\w.])queue_depth\s*=\s*(?P<value>{_HEX}|\d+)\s*;")


@dataclass
class KernelDiskEntry:
    name: str
    address: str
    state: str
    line: int


@dataclass
class KernelQueueDepth:
    address: str | None
    name: str | None
    queue_depth: int
    line: int


def _norm(addr: str) -> str:
    return "0x" + addr[2:].upper()


def detect(text: str) -> int:
    lines = split_lines(text)
    prompt, _ = leading_prompt(lines[:20])
    if prompt and any(re.search(p, prompt.command) for p in COMMANDS):
        return 95
    head = "\n".join(lines[:400])
    # the words each pattern needs, tested first: a pattern that starts with a look-behind or \b
    # is tried at every character of the head
    if ("CMDS_OUT" in head and _LIST_HDR.search(head)) or "scsidisk_list" in head:
        return 90
    if "queue_depth" in head and _QDEPTH.search(head):
        return 85 if "scsidisk" in head and _ADDR_CMD.search(head) else 60
    return 0


def _lineno(starts: list[int], pos: int) -> int:
    """1-based line of a character offset, from the offsets where lines start."""
    return bisect_right(starts, pos)


def _read_list(text: str, pos: int, starts: list[int], out: Parsed) -> tuple[list[tuple[int, KernelDiskEntry]], int]:
    """Rows following a scsidisk_list header at ``pos``; returns (offset, entry) pairs and end."""
    rows: list[tuple[int, KernelDiskEntry]] = []
    while True:
        m = _ROW.match(text, pos)
        if not m:
            break
        entry = KernelDiskEntry(m.group("name"), _norm(m.group("addr")), m.group("state"),
                                _lineno(starts, m.start("name")))
        rows.append((m.start("name"), entry))
        pos = m.end()
        tail = _MARKERS.match(text, pos)  # "<<<<" markers people add
        if tail:
            pos = tail.end()
    t = _TRUNCATED.match(text, pos)
    if t:
        out.warn(_lineno(starts, t.start("name")), f"scsidisk_list row {t.group('name')!r} has no address")
    if not rows:
        out.warn(_lineno(starts, pos), "scsidisk_list header without rows")
    return rows, pos


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    text = "\n".join(pre.lines)
    prompt = pre.prompt
    if prompt and prompt.user:
        out.hostname = prompt.host
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    entries: list[tuple[int, KernelDiskEntry]] = []
    for h in _LIST_HDR.finditer(text):
        rows, _ = _read_list(text, h.end(), starts, out)
        entries.extend(rows)
    addr_marks = [(m.start(), _norm(m.group("addr"))) for m in _ADDR_CMD.finditer(text)]

    events: list[tuple[int, object]] = [(off, e) for off, e in entries]
    for q in _QDEPTH.finditer(text):
        lineno = _lineno(starts, q.start())
        before = [a for off, a in addr_marks if off < q.start()]
        address = before[-1] if before else None
        name = None
        if address:
            earlier = [e.name for off, e in entries if e.address == address and off < q.start()]
            later = [e.name for off, e in entries if e.address == address and off > q.start()]
            name = earlier[-1] if earlier else later[0] if later else None
        else:
            out.warn(lineno, "queue_depth without a 'scsidisk 0x...' address before it")
        value = to_int(q.group("value"))
        events.append((q.start(), KernelQueueDepth(address, name, value if value is not None else 0, lineno)))
    out.records = [rec for _, rec in sorted(events, key=lambda e: e[0])]
    return out
