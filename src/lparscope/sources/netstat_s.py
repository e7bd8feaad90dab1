"""Protocol statistics since boot: AIX ``netstat -s`` (also ``netstat -s -p udp`` ...).

Input (a section per protocol, counters as "<number> <description>", nested by indentation;
histograms as "<name>: <number>")::

    # netstat -s
    icmp:
            3 calls to icmp_error
            Output histogram:
                    echo reply: 1436
    tcp:
            30788155 packets sent
                    20613843 data packets (1993421537 bytes)
                    8151 data packets (7903124 bytes) retransmitted
            1320 retransmit timeouts
                    12 connections dropped by rexmit timeout
    udp:
            8732910 datagrams received
            0 bad checksums
            4187 socket buffer overflows
    ip:
            35322120 total packets received
            0 fragments dropped (dup or out of space)
            0 packets dropped due to the full socket receive buffer

Output: one :class:`ProtocolStats` per section, every counter under a key made of its
description (a number in parentheses moves to its own key named by its unit, ``..._bytes``,
``..._drops``; a histogram line
is keyed under its heading; a nested line whose key is taken is prefixed with its parent)::

    ProtocolStats(protocol="tcp", line=5, counters={"packets_sent": 30788155,
        "data_packets": 20613843, "data_packets_bytes": 1993421537,
        "data_packets_retransmitted": 8151, "data_packets_retransmitted_bytes": 7903124,
        "retransmit_timeouts": 1320, "connections_dropped_by_rexmit_timeout": 12},
        descriptions={...}, lines={"packets_sent": 6, ...})
    ProtocolStats(protocol="icmp", counters={"calls_to_icmp_error": 3,
        "output_histogram.echo_reply": 1436}, ...)

and one :class:`NetstatSummary` with the counters the rules read by name
(``tcp_retransmitted_packets``, ``udp_socket_buffer_overflows``, ``ip_fragments_dropped``,
``ip_full_socket_buffer_drops``, the bad checksum counters ...), each with its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..numbers import whole
from .base import Parsed, command_matches, output_head, preamble, strip_ansi

KIND = "netstat-s"
TITLE = "netstat -s"
COMMANDS = [r"^netstat\b(?=.*\s-\w*s)(?!.*\s-\w*[vinr])"]
STARTS = None  # a section header ("tcp:") alone is too common to cut prompt-less text at

_SECTION_RE = re.compile(r"^(?P<proto>[a-z][a-z0-9]*):\s*$")
_COUNTER_RE = re.compile(r"^(?P<num>\d+)\s+(?P<desc>\S(?:.*\S)?)\s*$")
_HISTOGRAM_RE = re.compile(r"^(?P<desc>[A-Za-z][\w /'().,<>-]*?):\s*(?P<num>\d+)\s*$")
_HEADING_RE = re.compile(r"^(?P<desc>[A-Za-z][\w /'().,-]*):\s*$")
# "(1993421537 bytes)", "(for 1993397420 bytes)", "(including 1407 drops)", "(of 16133009 attempts)"
_PAREN_NUM_RE = re.compile(r"\(\s*(?:[a-z]+\s+)?(?P<num>\d+)\s+(?P<unit>[A-Za-z](?:[A-Za-z ]*[A-Za-z])?)\s*\)")
_PROTOCOLS = {"ip", "ipv6", "icmp", "icmpv6", "igmp", "tcp", "udp", "ipintrq", "arp", "route", "sctp"}

# Counters the rules read by name: (protocol, key) -> summary field.
SUMMARY_KEYS: dict[tuple[str, str], str] = {
    ("tcp", "packets_sent"): "tcp_packets_sent",
    ("tcp", "data_packets"): "tcp_data_packets_sent",
    ("tcp", "data_packets_retransmitted"): "tcp_retransmitted_packets",
    ("tcp", "retransmit_timeouts"): "tcp_retransmit_timeouts",
    ("tcp", "connections_dropped_by_rexmit_timeout"): "tcp_connections_dropped_by_rexmit",
    ("tcp", "packets_received"): "tcp_packets_received",
    ("tcp", "discarded_for_bad_checksums"): "tcp_bad_checksums",
    ("tcp", "discarded_due_to_listener_s_queue_full"): "tcp_listen_queue_full_drops",
    ("tcp", "out_of_order_packets"): "tcp_out_of_order_packets",
    ("udp", "datagrams_received"): "udp_datagrams_received",
    ("udp", "bad_checksums"): "udp_bad_checksums",
    ("udp", "dropped_due_to_no_socket"): "udp_dropped_no_socket",
    ("udp", "socket_buffer_overflows"): "udp_socket_buffer_overflows",
    ("udp", "delivered"): "udp_delivered",
    ("ip", "total_packets_received"): "ip_packets_received",
    ("ip", "bad_header_checksums"): "ip_bad_header_checksums",
    ("ip", "fragments_received"): "ip_fragments_received",
    ("ip", "fragments_dropped_dup_or_out_of_space"): "ip_fragments_dropped",
    ("ip", "fragments_dropped_after_timeout"): "ip_fragments_timed_out",
    ("ip", "output_packets_dropped_due_to_no_bufs_etc"): "ip_output_no_bufs",
    ("ip", "ipintrq_overflows"): "ip_ipintrq_overflows",
    ("ip", "packets_dropped_due_to_the_full_socket_receive_buffer"): "ip_full_socket_buffer_drops",
    ("icmp", "bad_checksums"): "icmp_bad_checksums",
}


@dataclass
class ProtocolStats:
    """One protocol section of ``netstat -s``."""

    protocol: str
    line: int
    counters: dict[str, int] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)  # key -> the description as printed
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class NetstatSummary:
    """The counters read by name, across the sections (None when the output does not print them)."""

    line: int
    tcp_packets_sent: int | None = None
    tcp_data_packets_sent: int | None = None
    tcp_retransmitted_packets: int | None = None
    tcp_retransmit_timeouts: int | None = None
    tcp_connections_dropped_by_rexmit: int | None = None
    tcp_packets_received: int | None = None
    tcp_bad_checksums: int | None = None
    tcp_listen_queue_full_drops: int | None = None
    tcp_out_of_order_packets: int | None = None
    udp_datagrams_received: int | None = None
    udp_bad_checksums: int | None = None
    udp_dropped_no_socket: int | None = None
    udp_socket_buffer_overflows: int | None = None
    udp_delivered: int | None = None
    ip_packets_received: int | None = None
    ip_bad_header_checksums: int | None = None
    ip_fragments_received: int | None = None
    ip_fragments_dropped: int | None = None
    ip_fragments_timed_out: int | None = None
    ip_output_no_bufs: int | None = None
    ip_ipintrq_overflows: int | None = None
    ip_full_socket_buffer_drops: int | None = None
    icmp_bad_checksums: int | None = None
    lines: dict[str, int] = field(default_factory=dict)


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _indent(line: str) -> int:
    raw = line.expandtabs(8)
    return len(raw) - len(raw.lstrip())


def detect(text: str) -> int:
    prompt, lines = output_head(text, 120)
    if prompt is not None and command_matches(prompt, COMMANDS):
        return 90
    heads = {m.group("proto") for ln in lines if (m := _SECTION_RE.match(ln.rstrip()))}
    known = heads & _PROTOCOLS
    counters = sum(1 for ln in lines if _COUNTER_RE.match(ln.strip()))
    signature = any(s in text[:20000] for s in ("datagrams received", "total packets received",
                                                "packets sent", "retransmit timeouts", "calls to icmp_error"))
    if known and counters >= 3 and signature:
        return 85 if len(known) >= 2 else 70
    return 0


class _Section:
    def __init__(self, rec: ProtocolStats) -> None:
        self.rec = rec
        self.stack: list[tuple[int, str]] = []  # (indent, key) of the lines that own nested ones

    def parent(self, indent: int) -> str | None:
        while self.stack and self.stack[-1][0] >= indent:
            self.stack.pop()
        return self.stack[-1][1] if self.stack else None

    def add(self, key: str, value: int, desc: str, lineno: int, parent: str | None) -> str:
        rec = self.rec
        if key in rec.counters and parent:
            key = f"{parent}.{key}"
        n, base = 2, key
        while key in rec.counters:  # a description printed twice in one section keeps both
            key, n = f"{base}_{n}", n + 1
        rec.counters[key], rec.descriptions[key], rec.lines[key] = value, desc, lineno
        return key


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    if pre.prompt:
        out.hostname = pre.host
    sec: _Section | None = None
    for idx in range(pre.body, len(pre.lines)):
        lineno = idx + 1
        raw = strip_ansi(pre.lines[idx]).rstrip()
        line = raw.strip()
        if not line:
            continue
        m = _SECTION_RE.match(raw)
        if m and _indent(raw) == 0:
            sec = _Section(ProtocolStats(m.group("proto"), lineno))
            out.records.append(sec.rec)
            continue
        if sec is None:
            out.warn(lineno, f"line before the first protocol section: {line[:60]!r}")
            continue
        indent = _indent(raw)
        parent = sec.parent(indent)
        if (c := _COUNTER_RE.match(line)) is not None:
            desc = c.group("desc")
            extra = _PAREN_NUM_RE.search(desc)
            plain = " ".join(_PAREN_NUM_RE.sub(" ", desc).split())
            num = whole(c.group("num"))
            if num is None:
                out.warn(lineno, f"counter of over 40 digits not read: {plain[:60]!r}")
                continue
            key = sec.add(_key(plain), num, desc, lineno, parent)
            more = whole(extra.group("num")) if extra is not None else None
            if extra is not None and more is not None:
                sec.add(f"{key}_{_key(extra.group('unit'))}", more, desc, lineno, None)
            sec.stack.append((indent, key))
        elif (h := _HISTOGRAM_RE.match(line)) is not None:
            prefix = f"{parent}." if parent else ""
            num = whole(h.group("num"))
            if num is None:
                out.warn(lineno, "histogram count of over 40 digits not read")
                continue
            sec.add(prefix + _key(h.group("desc")), num, line, lineno, None)
        elif (g := _HEADING_RE.match(line)) is not None and indent > 0:
            sec.stack.append((indent, _key(g.group("desc"))))
        else:
            out.warn(lineno, f"not a netstat -s counter line: {line[:60]!r}")
    if not out.records:
        out.warn(1, "no protocol section (ip:, tcp:, udp: ...) found")
        return out
    summary = NetstatSummary(line=out.records[0].line)
    for rec in out.records:
        for key, value in rec.counters.items():
            name = SUMMARY_KEYS.get((rec.protocol, key))
            if name is not None and getattr(summary, name) is None:
                setattr(summary, name, value)
                summary.lines[name] = rec.lines[key]
    out.records.append(summary)
    return out
