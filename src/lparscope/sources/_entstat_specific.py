"""The adapter-specific area of an entstat section: nested ``Key: value`` blocks, the receive
buffer table of virtual adapters and the IEEE 802.3ad port statistics. A part of the entstat
reader (``lparscope.sources.entstat._Reader`` mixes it in), kept apart by concept."""

from __future__ import annotations

import re
from collections.abc import Callable

from . import _entstat_sections as sec
from ._entstat_record import EthernetAdapterStats
from .base import Parsed, to_int

BUFFER_HEADER_RE = re.compile(r"^\s*Buffer Type\s+(?P<cols>[A-Za-z]+(?:\s+[A-Za-z]+)+)\s*$")
# The label's words and the spaces between them are matched apart (a space is never both part of
# the label and of the gap before the numbers), so a long run of spaces costs linear time.
NUMBERS_ROW_RE = re.compile(
    r"^\s*(?P<label>[A-Za-z][A-Za-z/()+.-]*(?: +[A-Za-z/()+.-]+)*?)\s+(?P<nums>-?\d+(?:\s+-?\d+)*)\s*$")
WORDS_RE = re.compile(r"^\s*[A-Za-z][\w /()&.,+'-]*$")
# A running speed is a negotiated rate ("10 Gbps Full Duplex", "1000 Mbps"), never "Unknown" or
# "Auto-negotiation", which a port prints when its link is down.
SPEED_RE = re.compile(r"\d+(?:\.\d+)?\s*[KMG]\s*(?:bps|b/s|bit/s)\b", re.I)
_RUNNING_SPEED = ("media speed running", "physical port speed")


class SpecificBlocks:
    """Reader state and methods for the adapter-specific area (the reader sets the state)."""

    lines: list[str]
    out: Parsed
    rec: EthernetAdapterStats | None
    mode: str
    stack: list[tuple[int, str]]
    vlan_open: bool
    vlan_path: str  # the "VLAN ... IDs" key whose list goes on in the following lines
    buffer_cols: list[str]
    common: Callable[[str, int], bool]  # the reader's lines shared by every area (link, speed ...)

    def is_heading(self, idx: int, line: str) -> bool:
        if not WORDS_RE.match(line) and not line.rstrip().endswith(":"):
            return False
        for nxt in self.lines[idx + 1: idx + 3]:
            if nxt.strip():
                return bool(re.match(r"^\s*-{4,}\s*$", nxt))
        return False

    # -- adapter-specific blocks --------------------------------------------------------------
    def read_specific(self, idx: int, line: str, lineno: int) -> None:
        rec = self.rec
        assert rec is not None
        text = line.strip()
        indent = sec.indent_of(line)
        if self.vlan_open and (ids := sec.int_list(text)) is not None:
            if sec.norm(self.vlan_path.rpartition(" / ")[2]) == "vlan tag ids":
                rec.vlan_tag_ids = (rec.vlan_tag_ids or []) + ids
            else:  # "Enabled VLAN IDs:" with the ids on the next, indented lines
                rec.specific[self.vlan_path] = " ".join([rec.specific.get(self.vlan_path, ""), *text.split()]).strip()
            return
        self.vlan_open = False
        if self.read_buffer_table(line, lineno):
            return
        pairs = sec.multi_kv(line)
        if pairs:
            for key, value in pairs:
                self.store(key, value, lineno, indent, push=False)
            return
        kv = sec.split_kv(line)
        if kv is not None:
            key, value = kv
            nkey = sec.norm(key)
            if not value and (nkey.endswith("specific statistics") or self.is_heading(idx, line)):
                self.mode = "lacp_port" if "802.3ad port statistics" in nkey else "specific"
                self.stack = []
                return
            if not self.common(line, lineno):
                self.store(key, value, lineno, indent)
            return
        m = NUMBERS_ROW_RE.match(line)
        if m:
            self.store(m.group("label").strip(), " ".join(m.group("nums").split()), lineno, indent, push=False)
            return
        if WORDS_RE.match(line):
            if self.is_heading(idx, line):
                self.stack = []
            else:  # sub-heading such as "Hypervisor Information", "  Virtual Memory"
                self.push(indent, text)
            return
        if indent == 0:
            self.out.warn(lineno, f"unreadable adapter statistics line: {text[:60]!r}")

    read_lacp_port = read_specific

    def read_buffer_table(self, line: str, lineno: int) -> bool:
        rec = self.rec
        assert rec is not None
        m = BUFFER_HEADER_RE.match(line)
        if m:
            self.buffer_cols = [c.lower() for c in m.group("cols").split()]
            for col in self.buffer_cols:
                rec.receive_buffers.setdefault(col, {})
            rec.lines["receive_buffers"] = lineno
            return True
        if not self.buffer_cols:
            return False
        if line.strip() == "History":
            return True
        row = NUMBERS_ROW_RE.match(line)
        if not row:  # a sub-heading ("Virtual Memory") or a setting ends the table
            self.buffer_cols = []
            return False
        nums = row.group("nums").split()
        if len(nums) != len(self.buffer_cols):
            # not one value per pool (VIOS 4 "Mapped" adds two totals): kept raw, the table goes on
            return False
        key = sec.snake(row.group("label"))
        for col, num in zip(self.buffer_cols, nums):
            rec.receive_buffers[col][key] = int(num)
        rec.lines[f"receive_buffers.{key}"] = lineno
        return True

    def push(self, indent: int, key: str) -> None:
        while self.stack and self.stack[-1][0] >= indent:
            self.stack.pop()
        self.stack.append((indent, key))

    def store(self, key: str, value: str, lineno: int, indent: int, push: bool = True) -> None:
        """Keep a ``Key: value`` of the adapter-specific area, and fill the typed field it names."""
        rec = self.rec
        assert rec is not None
        while self.stack and self.stack[-1][0] >= indent:
            self.stack.pop()
        path = " / ".join([k for _, k in self.stack] + [key])
        if push:
            self.stack.append((indent, key))
        target, prefix = (rec.lacp_port, "lacp_port.") if self.mode == "lacp_port" else (rec.specific, "specific.")
        target[path] = value
        rec.lines[prefix + path] = lineno
        if self.mode == "lacp_port":
            return
        nkey = sec.norm(key)
        if nkey in _RUNNING_SPEED and not SPEED_RE.search(value):
            return  # not a speed: the raw text stays in ``specific``
        if "vlan" in nkey and nkey.endswith(" ids"):  # "VLAN Tag IDs", "Enabled VLAN IDs"
            self.vlan_open, self.vlan_path = True, path
        if nkey in sec.INT_FIELDS and to_int(value) is not None:
            setattr(rec, sec.INT_FIELDS[nkey], to_int(value))
            rec.lines[sec.INT_FIELDS[nkey]] = lineno
        elif nkey in sec.STR_FIELDS and value and getattr(rec, sec.STR_FIELDS[nkey]) is None:
            setattr(rec, sec.STR_FIELDS[nkey], value)
            rec.lines[sec.STR_FIELDS[nkey]] = lineno
        elif nkey in sec.BOOL_FIELDS and value.lower() in ("true", "false"):
            setattr(rec, sec.BOOL_FIELDS[nkey], value.lower() == "true")
            rec.lines[sec.BOOL_FIELDS[nkey]] = lineno
        elif nkey == "vlan tag ids":
            ids = sec.int_list(value)
            rec.vlan_tag_ids = ids if ids is not None else []
            rec.lines["vlan_tag_ids"] = lineno
        elif "flow control status" in nkey and rec.flow_control is None:
            rec.flow_control, rec.lines["flow_control"] = value, lineno


def settle_link(rec: EthernetAdapterStats) -> None:
    """A port whose link is down runs at no speed, whatever its speed line says."""
    if (rec.link_status or "").strip().lower() == "down" and rec.media_speed_running is not None:
        rec.media_speed_running = None
        rec.lines.pop("media_speed_running", None)
