"""vNIC server statistics on a VIOS: ``vnicstat vnicserverN``, ``vnicstat -b`` / ``-d`` (VIOS 2.2.5+).

Input (one block per vNIC server; the client it serves, its backing device (an SR-IOV
logical port) and that device's failover state, then transmit / receive counters and the
command queues (CRQ) the server and the client partition talk through)::

    $ vnicstat -b vnicserver0
    --------------------------------------------------------------------------------
    VNIC Server Statistics: vnicserver0
    --------------------------------------------------------------------------------
    Device Statistics:
    ------------------
    State: active
    Backing Device Name: ent8

    Failover State: active
    Failover Readiness: operational
    Failover Priority: 50

    Client Partition ID: 12
    Client Partition Name: aixapp3
    Client Operating System: AIX
    Client Device Name: ent0
    Client Device Location Code: U9009.42A.7854321-V12-C5-T1

    Transmit Statistics:                    Receive Statistics:
    --------------------                    -------------------
    Packets: 9137705                        Packets: 11420936
    Errors: 0                               Errors: 2
    Dropped Packets: 0                      Dropped Packets: 2

    Main CRQ Statistics:
    --------------------
    Commands Received: 28
    Reboots: 0

    Tx Sub-CRQ 0:                           Rx Sub-CRQ 0:
    -------------                           -------------
    Packets: 9137705                        Packets: 11420936
    Errors: 0                               Buffer Size: 9216

Output: one :class:`VnicServerStats` per vNIC server::

    VnicServerStats(name="vnicserver0", line=3, state="active", backing_device="ent8",
        failover_state="active", failover_readiness="operational", failover_priority=50,
        client_partition_id=12, client_partition_name="aixapp3", client_device="ent0", ...,
        counters={"tx_packets": 9137705, "rx_errors": 2, "rx_dropped_packets": 2,
                  "main_crq.commands_received": 28, "main_crq.reboots": 0,
                  "sub_crq_0.tx_packets": 9137705, "sub_crq_0.rx_buffer_size": 9216, ...},
        lines={"state": 7, "rx_errors": 26, ...})

Two counters on a line are (transmit, receive), by position, else by column; other
``Key: value`` lines go to ``other`` (numbers to ``counters`` under the current block).
Whether a state or a counter is bad is the rules' call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._entstat_sections import RIGHT_COLUMN, read_pairs, snake, split_kv
from .base import Parsed, command_matches, is_bare_prompt, output_head, parse_prompt, preamble, strip_ansi, to_int

KIND = "vnicstat"
TITLE = "vnicstat / vnicstat -b / vnicstat -d"
COMMANDS = [r"^vnicstat\b"]
STARTS = re.compile(r"^\s*VNIC Server Statistics\s*:", re.I)

_HEADER_RE = re.compile(r"^\s*VNIC Server Statistics\s*:\s*(?P<name>\S*)\s*$", re.I)
_RULE_RE = re.compile(r"^[\s=-]+$")
_SUB_CRQ_RE = re.compile(r"^\s*Tx Sub-CRQ\s+(?P<n>\d+)\s*:", re.I)
_TXRX_RE = re.compile(r"^\s*Transmit Statistics\s*:", re.I)
_BLOCK_RE = re.compile(r"^\s*(?P<title>[A-Za-z](?:[\w /()-]*[\w/()-])?)\s*:\s*$")
_DEVICE_IN_CMD = re.compile(r"\b(vnicserver\d+)\b")

_FIELDS = {  # "Key" as printed, lower-cased -> (attribute, is a number)
    "state": ("state", False),
    "backing device name": ("backing_device", False),
    "backing device": ("backing_device", False),
    "failover state": ("failover_state", False),
    "failover readiness": ("failover_readiness", False),
    "failover priority": ("failover_priority", True),
    "client partition id": ("client_partition_id", True),
    "client partition name": ("client_partition_name", False),
    "client operating system": ("client_os", False),
    "client device name": ("client_device", False),
    "client device location code": ("client_location", False),
}
_BLOCKS = {  # block titles -> counter key prefix ("" = the server's own counters)
    "device statistics": "", "transmit statistics": "", "statistics": "",
    "main crq statistics": "main_crq.", "backing device statistics": "backing.",
}


@dataclass
class VnicServerStats:
    """One ``VNIC Server Statistics: vnicserverN`` block."""

    name: str | None
    line: int
    state: str | None = None
    backing_device: str | None = None
    failover_state: str | None = None  # active / inactive
    failover_readiness: str | None = None  # operational / ...
    failover_priority: int | None = None
    client_partition_id: int | None = None
    client_partition_name: str | None = None
    client_os: str | None = None
    client_device: str | None = None
    client_location: str | None = None
    counters: dict[str, int] = field(default_factory=dict)
    other: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


def detect(text: str) -> int:
    prompt, lines = output_head(text, 60)
    if prompt is not None and command_matches(prompt, COMMANDS):
        return 90
    if any(_HEADER_RE.match(ln) for ln in lines):
        return 98  # above entstat's banner score: a vnicstat -b output may carry entstat-like blocks
    head = text[:20000]
    if "Backing Device Name:" in head and "Client Partition ID:" in head:
        return 80
    return 0


class _Reader:
    def __init__(self, out: Parsed, hint: str | None) -> None:
        self.out = out
        self.hint = hint
        self.rec: VnicServerStats | None = None
        self.prefix = ""
        self.two_columns = False  # inside a transmit / receive area: a lone counter goes by its column
        self.pre_first: int | None = None

    def start(self, name: str | None, lineno: int) -> None:
        self.rec = VnicServerStats(name=name or None, line=lineno)
        self.out.records.append(self.rec)
        self.prefix, self.two_columns = "", False

    def feed(self, line: str, lineno: int) -> None:
        text = line.strip()
        if not text or _RULE_RE.match(line) or parse_prompt(line) is not None or is_bare_prompt(line):
            return  # blank, rules, and the prompts of several runs pasted together
        m = _HEADER_RE.match(line)
        if m:
            self.start(m.group("name"), lineno)
            return
        if self.rec is None:
            if text.lower().startswith(("state:", "backing device name:")):
                self.start(self.hint, lineno)  # an output cut above its header
            else:
                self.pre_first = self.pre_first or lineno
                return
        rec = self.rec
        assert rec is not None
        sub = _SUB_CRQ_RE.match(line)
        if sub:
            self.prefix, self.two_columns = f"sub_crq_{sub.group('n')}.", True
            return
        if _TXRX_RE.match(line):
            if not self.prefix.startswith("backing"):
                self.prefix = ""
            self.two_columns = True
            return
        block = _BLOCK_RE.match(line)
        if block:
            title = " ".join(block.group("title").lower().split())
            if title in _BLOCKS:
                self.prefix, self.two_columns = _BLOCKS[title], False
                return
        pairs, rest = read_pairs(line)
        if len(pairs) >= 2 and not rest:
            for pos, (label, value, _col) in enumerate(pairs[:2]):
                self.counter(("tx_" if pos == 0 else "rx_") + snake(label), value, lineno)
            return
        kv = split_kv(line)
        if kv is None:
            self.out.warn(lineno, f"unreadable vNIC server statistics line: {text[:60]!r}")
            return
        key, value = kv
        nkey = " ".join(key.lower().split())
        if nkey in _FIELDS and not self.prefix.startswith(("sub_crq", "main_crq", "backing")):
            attr, number = _FIELDS[nkey]
            setattr(rec, attr, to_int(value) if number else value)
            rec.lines[attr] = lineno
        elif len(pairs) == 1 and not rest:
            label, num, col = pairs[0]
            side = ("rx_" if col >= RIGHT_COLUMN else "tx_") if self.two_columns else ""
            self.counter(side + snake(label), num, lineno)
        else:
            rec.other[self.prefix + key] = value
            rec.lines["other." + self.prefix + key] = lineno

    def counter(self, key: str, value: int, lineno: int) -> None:
        rec = self.rec
        assert rec is not None
        full = self.prefix + key
        rec.counters[full] = value
        rec.lines[full] = lineno


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    hint = None
    if pre.prompt:
        out.hostname = pre.host
        m = _DEVICE_IN_CMD.search(pre.command)
        hint = m.group(1) if m else None
    reader = _Reader(out, hint)
    for idx in range(pre.body, len(pre.lines)):
        line = strip_ansi(pre.lines[idx]).rstrip()
        try:
            reader.feed(line, idx + 1)
        except Exception as exc:  # never raise on bad input: report the line instead
            out.warn(idx + 1, f"could not read line ({type(exc).__name__}): {line.strip()[:60]!r}")
    if reader.pre_first is not None:
        out.warn(reader.pre_first, "line(s) before the first VNIC Server Statistics block not read")
    if not out.records:
        out.warn(1, "no VNIC Server Statistics block found")
    for rec in out.records:
        if rec.name is None and hint and len(out.records) == 1:
            rec.name = hint
    return out
