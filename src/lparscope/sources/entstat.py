"""Ethernet adapter statistics: AIX ``entstat -d`` / ``entstat -all`` (VIOS too) and ``netstat -v``.

Input (one section per adapter; ``netstat -v`` and ``entstat`` of an SEA or an
EtherChannel print several)::

    # entstat -d ent0
    -------------------------------------------------------------
    ETHERNET STATISTICS (ent0) :
    Device Type: Virtual I/O Ethernet Adapter (l-lan)
    Hardware Address: 0a:f1:3c:00:00:02
    Elapsed Time: 3 days 1 hours 0 minutes 5 seconds

    Transmit Statistics:                          Receive Statistics:
    --------------------                          -------------------
    Packets: 1200                                 Packets: 3400
    Packets Dropped: 0                            Packets Dropped: 17
    Max Collision Errors: 0                       No Resource Errors: 17
    ...
    General Statistics:
    -------------------
    Adapter Data Rate: 20000
    Driver Flags: Up Broadcast Running
            Simplex 64BitSupport DataRateSet

    Virtual I/O Ethernet Adapter (l-lan) Specific Statistics:
    ---------------------------------------------------------
    Trunk Adapter: False
    Hypervisor Receive Failures: 17
    Port VLAN ID:    10
    VLAN Tag IDs:  None

Output: one :class:`EthernetAdapterStats` per section::

    EthernetAdapterStats(name="ent0", line=3, adapter_class="virtual",
        device_type="Virtual I/O Ethernet Adapter (l-lan)", elapsed_seconds=262805,
        counters={"tx_packets": 1200, "rx_packets": 3400, "rx_packets_dropped": 17,
                  "no_resource_errors": 17, ...},
        adapter_data_rate=20000, driver_flags=["Up", "Broadcast", ...],
        trunk_adapter=False, hypervisor_receive_failures=17, port_vlan_id=10, vlan_tag_ids=[], ...)

Also read: the receive buffer table of virtual adapters (``receive_buffers["huge"]
["max_allocated"]``), the SEA summary (:class:`SeaStats` on the SEA's record, with
flags, member VLANs and the failover state), the EtherChannel / 802.3ad summary
(:class:`EtherChannelStats`), member sections (``parent`` names the SEA or
EtherChannel they were listed under, ``role`` says real / virtual / control /
member), sections without the ``ETHERNET STATISTICS`` banner (script fragments
starting at ``Device Type:``) and text whose column padding collapsed to single
spaces (``Packets: 76773314 Packets: 39046671``).
"""

from __future__ import annotations

import re

from . import _entstat_etherchannel as ecm
from . import _entstat_sections as sec
from ._entstat_etherchannel import EtherChannelStats, LacpParty, LacpPortState  # noqa: F401  (re-exported)
from ._entstat_record import EthernetAdapterStats  # (re-exported: the record of this parser)
from ._entstat_sections import SeaStats  # noqa: F401  (re-exported record parts)
from ._entstat_specific import SpecificBlocks, settle_link
from .base import preamble, Parsed, leading_prompt, split_lines, strip_ansi, to_int
from .prompt_scan import prompt_lines

KIND = "entstat"
TITLE = "entstat -d / entstat -all / netstat -v"
COMMANDS = [r"^entstat\b", r"^netstat\b.*\s-[A-Za-z]*v\b"]
STARTS = re.compile(r"^\s*(?:ETHERNET|ETHERCHANNEL) STATISTICS \(")

_HEADER_RE = re.compile(r"^\s*(?P<kind>ETHERNET|ETHERCHANNEL) STATISTICS\s*\((?P<name>[^)\s]*)\)\s*(?::\s*)?$")
_RULE_RE = re.compile(r"^[\s=-]+$")
_BARE_PROMPT_RE = re.compile(r"^\s*(?:\S+\s*)?[#$]\s*$")  # "root@aix1:/ #" left at the end
_FLAG_WORDS_RE = re.compile(r"^\s*[\w+.-]+(?:\s+[\w+.-]+)*\s*$")
_DEVICE_IN_CMD = re.compile(r"\b(ent\d+)\b")


def detect(text: str) -> int:
    head = strip_ansi(text[:20000])
    if "ETHERNET STATISTICS (" in head or "ETHERCHANNEL STATISTICS (" in head:
        return 95
    lines = [ln for ln in split_lines(head)[:40] if ln.strip()]
    prompt, _ = leading_prompt(lines)
    if prompt and any(re.search(p, prompt.command) for p in COMMANDS):
        return 90
    if "Device Type:" in head and "Transmit Statistics:" in head and "Receive Statistics:" in head:
        return 80
    if sec.SEA_HEADER_RE.search(head) or re.search(r"Statistics for every adapter in the", head):
        return 70
    return 0


class _Reader(SpecificBlocks):
    """Line-by-line state machine over the sections of one text."""

    def __init__(self, lines: list[str], out: Parsed, device_hint: str | None) -> None:
        self.lines = lines
        self.out = out
        self.device_hint = device_hint
        self.rec: EthernetAdapterStats | None = None
        self.banner = ""
        self.banners: dict[int, str] = {}
        self.mode = "pre"
        self.sub: str | None = None  # sub-block inside the SEA summary
        self.in_lacp = False
        self.trailer = False  # in the transmit / receive part printed after the specific statistics
        self.queue_indent: int | None = None  # indent of the trailer's "Transmit queue statistics: N" lines
        self.stack: list[tuple[int, str]] = []  # (indent, key) of parent lines in specific blocks
        self.flags_open = False
        self.vlan_open = False
        self.vlan_path = ""
        self.buffer_cols: list[str] = []
        self.sea: SeaStats | None = None
        self.ec: EtherChannelStats | None = None
        self.ec_left = 0  # EtherChannel members still to come
        self.label: tuple[str, str] | None = None  # pending "Real Adapter: entN"
        self.pre_first: int | None = None
        self.pre_count = 0

    # -- section boundaries ------------------------------------------------------------
    def start(self, name: str | None, lineno: int, banner: str) -> None:
        rec = EthernetAdapterStats(name=name, line=lineno)
        if self.ec is not None and self.ec_left > 0:
            rec.parent, rec.role = self.ec.name, "member"
            self.ec_left -= 1
            if name:
                self.ec.members.append(name)
        elif self.label is not None:
            role, label_name = self.label
            rec.name = rec.name or label_name
            rec.role = role
            rec.parent = self.sea.name if self.sea else None
        self.label = None
        self.out.records.append(rec)
        self.banners[id(rec)] = banner
        self.rec, self.mode, self.stack = rec, "head", []
        self.flags_open = self.vlan_open = self.trailer = False
        self.queue_indent = None
        self.buffer_cols = []

    def device_type_opens_section(self, idx: int) -> bool:
        """A ``Device Type:`` line without banner opens a section when counters follow."""
        if self.rec is not None and self.mode == "head" and self.rec.device_type is None:
            return False
        return any("Transmit Statistics" in ln for ln in self.lines[idx + 1: idx + 9])

    # -- dispatcher ---------------------------------------------------------------------
    def feed(self, idx: int, line: str, prompt: bool) -> None:
        """Read line ``idx`` (``line``: as :func:`clean_lines` gives it; ``prompt``: it is a prompt line)."""
        lineno = idx + 1
        text = line.strip()
        if not text:
            self.flags_open = self.vlan_open = False
            return
        # Each pattern is tried only on lines holding a word it needs (most lines are counters). The
        # headers' word is "statistics"; two of them match in any case, where non-ASCII "ſ" is an "s".
        statistics = "statistics" in text.lower() or not text.isascii()
        m = _HEADER_RE.match(line) if statistics else None
        if m:
            self.start(m.group("name") or None, lineno, m.group("kind"))
            return
        if prompt or (("#" in text or "$" in text) and _BARE_PROMPT_RE.match(line)):
            return
        m = sec.MEMBER_LABEL_RE.match(line) if "Adapter:" in text else None
        if m:
            role, name = m.group("role").lower(), m.group("name")
            self.label, self.ec, self.ec_left, self.mode = (role, name), None, 0, "between"
            if self.sea is not None:
                self.sea.members[name] = role
                self.sea.lines[f"members.{name}"] = lineno
            return
        m = sec.SEA_HEADER_RE.match(line) if statistics else None
        if m:
            self.open_sea(m.group("name"), lineno)
            return
        if statistics and ecm.EC_HEADER_RE.match(line) and self.mode != "ec":
            self.open_ec(lineno)
            return
        if text.startswith("Device Type:") and self.device_type_opens_section(idx):
            self.start(None, lineno, "")
        if text[0] in "=-" and _RULE_RE.match(line):
            return
        if self.rec is None and self.mode not in ("sea", "ec"):
            self.pre_first = self.pre_first or lineno
            self.pre_count += 1
            return
        getattr(self, "read_" + self.mode)(idx, line, lineno)

    def read_between(self, idx: int, line: str, lineno: int) -> None:
        self.out.warn(lineno, f"line outside an adapter section: {line.strip()[:60]!r}")

    # -- header lines and the two-column area -------------------------------------------
    def common(self, line: str, lineno: int) -> bool:
        rec = self.rec
        assert rec is not None
        kv = sec.split_kv(line)
        if kv is None:
            return False
        key, value = kv
        nkey = sec.norm(key)
        if nkey == "device type":
            rec.device_type, rec.lines["device_type"] = value, lineno
        elif nkey == "hardware address":
            rec.hardware_address, rec.lines["hardware_address"] = value, lineno
        elif nkey == "elapsed time":
            if rec.elapsed_seconds is None:
                rec.elapsed_seconds, rec.lines["elapsed_seconds"] = sec.elapsed_seconds(value), lineno
        elif nkey == "transmit statistics" or line.lstrip().startswith("Transmit Statistics:"):
            self.trailer = self.trailer or self.mode not in ("head", "txrx")
            self.mode = "txrx"
        elif nkey == "general statistics":
            self.mode = "general"
        else:
            return False
        return True

    def read_head(self, idx: int, line: str, lineno: int) -> None:
        if line.lstrip().startswith("Transmit Statistics"):
            self.mode = "txrx"
        elif self.rec is not None and self.rec.device_type == "" and sec.split_kv(line) is None:
            self.rec.device_type = line.strip()  # a long device type wrapped onto its own line
        elif not self.common(line, lineno):
            self.read_txrx(idx, line, lineno)

    def read_txrx(self, idx: int, line: str, lineno: int) -> None:
        rec = self.rec
        assert rec is not None
        if line.lstrip().startswith(("Elapsed Time:", "General Statistics")) and self.common(line, lineno):
            return
        pairs, rest = sec.read_pairs(line)
        kv = sec.split_kv(line) if not pairs and self.trailer else None
        if kv is not None and to_int(kv[1]) is None:
            # VIOS 4 trailer settings ("Receive operation mode: PROCESS_INLINE"), not counters
            self.stack = []
            self.store(kv[0], kv[1], lineno, 0, push=False)
            return
        if not pairs or rest or len(pairs) > 2:
            self.out.warn(lineno, f"not a transmit/receive counter line: {line.strip()[:60]!r}")
            if not pairs:
                return
        indent = len(line) - len(line.lstrip())
        if self.queue_indent is not None and indent <= self.queue_indent:
            self.queue_indent = None  # past the per-queue blocks
        if self.trailer and len(pairs) == 1 and sec.norm(pairs[0][0]) == "transmit queue statistics":
            self.queue_indent = indent  # "Transmit queue statistics: 3": a queue's number, its counters below
            return
        for pos, (label, value, col) in enumerate(pairs[:2]):
            key = sec.counter_key(label, col, pos, len(pairs))
            if self.queue_indent is not None and key in rec.counters:
                # one counter per transmit queue (VIOS 4): the queues' sum, the longest of the lengths
                old = rec.counters[key]
                value = max(old, value) if "maximum_length" in key else old + value
            rec.counters[key] = value
            rec.lines[key] = lineno

    # -- general statistics ----------------------------------------------------------------
    def read_general(self, idx: int, line: str, lineno: int) -> None:
        rec = self.rec
        assert rec is not None
        kv = sec.split_kv(line)
        if kv is None and self.flags_open and _FLAG_WORDS_RE.match(line):
            rec.driver_flags.extend(line.split())
            return
        self.flags_open = False
        if kv is None:
            if self.is_heading(idx, line):
                self.mode = "specific"
                self.stack = []
                return
            self.out.warn(lineno, f"unreadable general statistics line: {line.strip()[:60]!r}")
            return
        key, value = kv
        nkey = sec.norm(key)
        if nkey == "driver flags":
            rec.driver_flags = value.split()
            rec.lines["driver_flags"] = lineno
            self.flags_open = True
        elif nkey == "adapter data rate":
            rec.adapter_data_rate, rec.lines["adapter_data_rate"] = to_int(value), lineno
        elif (nkey.endswith("specific statistics") or "802.3ad port statistics" in nkey) and not value:
            self.mode = "lacp_port" if "802.3ad port statistics" in nkey else "specific"
            self.stack = []
        elif to_int(value) is not None and not self.common(line, lineno):
            ckey = sec.GENERAL.get(nkey) or sec.snake(key)
            rec.counters[ckey] = to_int(value)  # type: ignore[assignment]
            rec.lines[ckey] = lineno
        elif not self.common(line, lineno):
            self.store(key, value, lineno, 0)

    # -- SEA and EtherChannel summaries -----------------------------------------------------
    def owner(self, name: str | None, wanted: str) -> EthernetAdapterStats:
        """The record a summary belongs to: by name, else the current section, else a new one."""
        for rec in reversed(self.out.records):
            if name and rec.name == name:
                return rec
        if self.rec is not None and (name is None or self.rec.name is None):
            self.rec.name = self.rec.name or name
            return self.rec
        rec = EthernetAdapterStats(name=name, line=0, device_type=wanted)
        self.out.records.append(rec)
        return rec

    def open_sea(self, name: str, lineno: int) -> None:
        rec = self.owner(name, "Shared Ethernet Adapter")
        rec.line = rec.line or lineno
        rec.sea = SeaStats(name=name, line=lineno)
        self.sea, self.sub, self.mode, self.rec = rec.sea, None, "sea", rec
        self.ec, self.ec_left, self.label = None, 0, None

    def read_sea(self, idx: int, line: str, lineno: int) -> None:
        assert self.sea is not None
        self.sub, ok = sec.read_sea_line(self.sea, self.sub, line, lineno)
        if not ok:
            self.out.warn(lineno, f"unreadable SEA statistics line: {line.strip()[:60]!r}")

    def open_ec(self, lineno: int) -> None:
        rec = self.rec or self.owner(None, "EtherChannel")
        rec.etherchannel = EtherChannelStats(name=rec.name, line=lineno)
        self.ec, self.ec_left, self.mode, self.in_lacp = rec.etherchannel, 0, "ec", False

    def read_ec(self, idx: int, line: str, lineno: int) -> None:
        assert self.ec is not None
        self.in_lacp, ok = ecm.read_ec_line(self.ec, line, lineno, self.in_lacp)
        if not ok:
            self.out.warn(lineno, f"unreadable EtherChannel statistics line: {line.strip()[:60]!r}")
        self.ec_left = self.ec.number_of_adapters or 0

    # -- end ---------------------------------------------------------------------------------
    def finish(self) -> None:
        if self.pre_first is not None:
            self.out.warn(self.pre_first, f"{self.pre_count} line(s) before the first adapter section not read")
        if not self.out.records:
            self.out.warn(1, "no ETHERNET STATISTICS section found")
        for rec in self.out.records:
            rec.adapter_class = sec.classify(rec, self.banners.get(id(rec), ""))
            rec.lacp = ecm.lacp_port_state(rec.lacp_port, rec.lines)
            settle_link(rec)
        if self.device_hint and self.out.records and self.out.records[0].name is None:
            self.out.records[0].name = self.device_hint


def clean_lines(lines: list[str]) -> list[str]:
    """The lines as the reader reads them: without colours, no-break spaces as spaces, no trailing blanks."""
    return [strip_ansi(raw).replace("\u00a0", " ").rstrip() for raw in lines]


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    hint = None
    if prompt:
        out.hostname = prompt.host
        m = _DEVICE_IN_CMD.search(prompt.command)
        hint = m.group(1) if m else None
    reader = _Reader(lines, out, hint)
    clean = clean_lines(lines)
    prompts = {i for i, _ in prompt_lines(clean)}  # found at once: nearly no line is one
    for idx in range(start, len(lines)):
        try:
            reader.feed(idx, clean[idx], idx in prompts)
        except Exception as exc:  # never raise on bad input: report the line instead
            out.warn(idx + 1, f"could not read line ({type(exc).__name__}): {lines[idx].strip()[:60]!r}")
    reader.finish()
    return out
