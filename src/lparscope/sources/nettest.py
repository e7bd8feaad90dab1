"""Network measurements: ``iperf`` (2 and 3) summaries, binary ``ftp`` of ``dd`` output,
``ping`` round-trip summaries and ``netlatency.sh`` (000 §3.7.9 Example 3-27/3-28).

Input (``iperf -c``; with ``-P n`` one result per stream and a ``[SUM]`` line)::

    root@aix1:/ # iperf -c aix2 -P 2
    ------------------------------------------------------------
    Client connecting to aix2, TCP port 5001
    TCP window size:  256 KByte (default)
    ------------------------------------------------------------
    [  4] local 10.20.10.41 port 40112 connected with 10.20.10.42 port 5001
    [  3] local 10.20.10.41 port 40111 connected with 10.20.10.42 port 5001
    [ ID] Interval       Transfer     Bandwidth
    [  4]  0.0-10.0 sec   560 MBytes   470 Mbits/sec
    [  3]  0.0-10.0 sec   552 MBytes   463 Mbits/sec
    [SUM]  0.0-10.0 sec  1.09 GBytes   933 Mbits/sec

Output: one :class:`ThroughputTest` per run::

    ThroughputTest(tool="iperf", role="client", peer="aix2", local_address="10.20.10.41",
                   peer_address="10.20.10.42", streams=2, seconds=10.0,
                   total_bps=933e6, stream_bps=[470e6, 463e6], line=13, lines={"total": 13, ...})

Input (ftp of dd output, 001 "Binary ftp with dd input")::

    put "|dd if=/dev/zero bs=8k count=2097152" /dev/null
    17179869184 bytes sent in 44.35 seconds (3.783e+05 Kbytes/s)

Output: ``ThroughputTest(tool="ftp", streams=1, seconds=44.35, bytes=17179869184,
total_bps=3.099e9, ...)`` (bits per second from bytes and seconds).

Input (``ping`` summary, AIX and Linux forms)::

    ----aix2 PING Statistics----
    20 packets transmitted, 20 packets received, 0% packet loss
    round-trip min/avg/max = 0/0/1 ms

Input (``netlatency.sh -i en0 -d aix2 -c 20``)::

    Latency Packet 1 : 0.194788 ms
    ...
    Average latency (RTT): 0.0523448 ms

Output: one :class:`LatencyTest` per summary (``tool`` "ping" or "netlatency", target,
interface, sent/received, loss %, min/avg/max RTT in ms, ``samples`` for netlatency).
Rates use decimal units for bits (iperf's Mbits = 10^6) and bytes counts as printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..numbers import whole
from .base import preamble, Parsed, leading_prompt, parse_prompt, split_lines, strip_ansi, to_float

KIND = "nettest"
TITLE = "iperf / ftp of dd / ping / netlatency.sh"
COMMANDS = [r"^iperf3?\b", r"^(?:\S*/)?netlatency(?:\.sh)?\b", r"^ping6?\b", r"^ftp\b"]
STARTS = re.compile(r"^-*\s*(?:Client connecting to \S+, (?:TCP|UDP) port|Server listening on (?:TCP|UDP) port)")

_CLIENT = re.compile(r"Client connecting to (?P<peer>[^,\s]+), (?:TCP|UDP) port")
_SERVER = re.compile(r"Server listening on (?:TCP|UDP) port|^Server listening on \d+")
_IPERF3_CLIENT = re.compile(r"^Connecting to host (?P<peer>[^,\s]+), port")
_CONN = re.compile(r"^\[\s*(?P<id>\d+)\]\s+local\s+(?P<local>\S+)\s+port\s+\d+\s+connected (?:with|to)\s+(?P<peer>\S+)\s+port")
_RESULT = re.compile(
    r"^\[\s*(?P<id>\d+|SUM)\]\s+(?P<start>[\d.]+)\s*-\s*(?P<end>[\d.]+)\s+sec\s+(?P<xfer>[\d.]+)\s+(?P<xunit>[KMGT]?Bytes)"
    r"\s+(?P<rate>[\d.]+)\s+(?P<runit>[KMGT]?bits/sec)(?P<tail>.*)$")
_FTP = re.compile(r"^(?P<bytes>\d+)\s+bytes\s+(?P<dir>sent|received)\s+in\s+(?P<sec>[\d.]+)\s+(?:seconds|secs)"
                  r"(?:\s*\((?P<rate>[\d.e+-]+)\s*(?P<unit>[KMG]?bytes/s)\))?", re.I)
_FTP_PEER = re.compile(r"^Connected to (?P<peer>[^\s]+?)\.?\s*$")
_DD = re.compile(r"\bdd\s+if=")
_PING_HEAD = re.compile(r"^PING\s+(?P<target>\S+)")
_PING_STATS = re.compile(r"^-+\s*(?P<target>\S+)\s+(?:PING|ping)\s+[Ss]tatistics\s*-+$")
_PING_COUNTS = re.compile(r"^(?P<sent>\d+)\s+packets transmitted,\s+(?P<recv>\d+)\s+(?:packets\s+)?received,"
                          r"(?:.*?\s(?P<loss>[\d.]+)%\s+packet loss)?")
_PING_RTT = re.compile(r"^(?:round-trip|rtt)\s+min/avg/max(?:/(?:mdev|stddev))?\s*=\s*(?P<min>[\d.]+)/(?P<avg>[\d.]+)/(?P<max>[\d.]+)")
_LAT_PKT = re.compile(r"^Latency Packet\s+(?P<n>\d+)\s*:\s*(?P<ms>[\d.e+-]+)\s*ms")
_LAT_AVG = re.compile(r"^Average latency \(RTT\):\s*(?P<ms>[\d.e+-]+|nan|-?inf)\s*ms", re.I)
_NETLAT_CMD = re.compile(r"netlatency(?:\.sh)?\b")
_OPT = re.compile(r"-(?P<flag>[idc])\s*(?P<value>\S+)")
_PROMPT_LINE = re.compile(r"^[^\[\]]{0,60}?[#$>]\s+(?P<cmd>(?:iperf3?|ping6?|ftp|\S*netlatency\S*)\b.*)$")

_BIT_UNITS = {"bits/sec": 1.0, "Kbits/sec": 1e3, "Mbits/sec": 1e6, "Gbits/sec": 1e9, "Tbits/sec": 1e12}
_BYTE_UNITS = {"Bytes": 1, "KBytes": 1024, "MBytes": 1024**2, "GBytes": 1024**3, "TBytes": 1024**4}


@dataclass
class ThroughputTest:
    tool: str  # "iperf" or "ftp"
    role: str | None = None  # "client" / "server" (iperf); "sender" / "receiver" (ftp)
    peer: str | None = None
    local_address: str | None = None
    peer_address: str | None = None
    streams: int = 1
    seconds: float | None = None
    bytes: int | None = None
    total_bps: float | None = None
    stream_bps: list[float] = field(default_factory=list)
    command: str | None = None
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def per_stream_bps(self) -> float | None:
        return None if self.total_bps is None or not self.streams else self.total_bps / self.streams


@dataclass
class LatencyTest:
    tool: str  # "ping" or "netlatency"
    target: str | None = None
    interface: str | None = None
    sent: int | None = None
    received: int | None = None
    loss_pct: float | None = None
    min_ms: float | None = None
    avg_ms: float | None = None
    max_ms: float | None = None
    samples: list[float] = field(default_factory=list)
    command: str | None = None
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


def detect(text: str) -> int:
    lines = [ln for ln in split_lines(strip_ansi(text))[:120] if ln.strip()]
    if not lines:
        return 0
    prompt, start = leading_prompt(lines)
    if prompt and any(re.search(p, prompt.command) for p in COMMANDS):
        return 95
    body = [ln.strip() for ln in lines[start:]]
    if any(_LAT_PKT.match(ln) or _LAT_AVG.match(ln) for ln in body):
        return 90
    if any(_CLIENT.search(ln) or _SERVER.search(ln) for ln in body) and any(_RESULT.match(ln) for ln in body):
        return 85
    if any(_RESULT.match(ln) for ln in body) and any("Interval" in ln and ("Bandwidth" in ln or "Bitrate" in ln) for ln in body):
        return 80
    if any(_FTP.match(ln) for ln in body):
        return 80
    if any(_PING_COUNTS.match(ln) for ln in body) and any(_PING_RTT.match(ln) or _PING_STATS.match(ln) for ln in body):
        return 80
    return 0


class _Iperf:
    """Collects one iperf run at a time: per-stream summaries and the [SUM] line."""

    def __init__(self, out: Parsed) -> None:
        self.out = out
        self.reset(None, None, None)

    def reset(self, role: str | None, peer: str | None, command: str | None) -> None:
        self.role, self.peer, self.command = role, peer, command
        self.local = self.peer_addr = None
        self.first_line = 0
        self.streams: dict[str, tuple[float, float, float, int]] = {}  # id -> (end, bps, bytes, line)
        self.sum: tuple[float, float, float, int] | None = None
        self.sender_only = False

    def connection(self, m: re.Match[str], lineno: int) -> None:
        if self.streams or self.sum:
            self.flush()
            self.reset(self.role, self.peer, self.command)
        self.local, self.peer_addr = m.group("local"), m.group("peer")
        self.first_line = self.first_line or lineno

    def result(self, m: re.Match[str], lineno: int) -> None:
        start, end = to_float(m.group("start")) or 0.0, to_float(m.group("end")) or 0.0
        tail = m.group("tail").strip().lower()
        if start > 0.05:  # an interval report, not the run's summary
            return
        if tail.endswith("receiver") and self.role != "server":
            return  # iperf3 prints the sender and receiver totals; keep the sender's
        bps = (to_float(m.group("rate")) or 0.0) * _BIT_UNITS[m.group("runit")]
        nbytes = (to_float(m.group("xfer")) or 0.0) * _BYTE_UNITS[m.group("xunit")]
        entry = (end, bps, nbytes, lineno)
        if m.group("id") == "SUM":
            if self.sum is None or end >= self.sum[0]:
                self.sum = entry
        elif m.group("id") not in self.streams or end >= self.streams[m.group("id")][0]:
            self.streams[m.group("id")] = entry
        self.first_line = self.first_line or lineno

    def flush(self) -> None:
        if not self.streams and self.sum is None:
            return
        rows = [self.streams[k] for k in sorted(self.streams, key=lambda k: (len(k), k))]
        total = self.sum if self.sum is not None else None
        if total is None and rows:
            total = (max(r[0] for r in rows), sum(r[1] for r in rows), sum(r[2] for r in rows), rows[-1][3])
        if total is None:
            return
        lines = {"total": total[3], "streams": rows[0][3] if rows else total[3]}
        self.out.records.append(ThroughputTest(
            "iperf", self.role, self.peer, self.local, self.peer_addr, max(len(rows), 1), total[0],
            int(total[2]), total[1], [r[1] for r in rows], self.command, total[3], lines))
        self.streams, self.sum = {}, None


def _netlatency_opts(command: str) -> tuple[str | None, str | None]:
    opts = {m.group("flag"): m.group("value") for m in _OPT.finditer(command)}
    return opts.get("d"), opts.get("i")


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    command = prompt.command if prompt else None
    if prompt and prompt.user:
        out.hostname = prompt.host
    iperf = _Iperf(out)
    if command and re.match(r"^iperf3?\b", command):
        role = "server" if re.search(r"\s-s\b", command) else "client"
        peer = re.search(r"\s-c\s*(\S+)", command)
        iperf.reset(role, peer.group(1) if peer else None, command)
    ftp_peer: str | None = None
    ping: LatencyTest | None = None
    lat: LatencyTest | None = None
    if command and _NETLAT_CMD.search(command):
        target, iface = _netlatency_opts(command)
        lat = LatencyTest("netlatency", target, iface, command=command, line=start or 1)
    elif command and command.startswith("ping"):
        ping = LatencyTest("ping", command.split()[-1], command=command, line=start or 1)
    for idx in range(start, len(lines)):
        lineno = idx + 1
        s = lines[idx].strip()
        if not s:
            continue
        pm = _PROMPT_LINE.match(s)
        p = parse_prompt(s) if not pm else None
        cmd = pm.group("cmd") if pm else (p.command if p and p.command else None)
        if cmd is not None or (p is not None and not p.command):
            iperf.flush()
            cmd = cmd or ""
            if re.match(r"^iperf3?\b", cmd):
                peer = re.search(r"\s-c\s*(\S+)", cmd)
                iperf.reset("server" if re.search(r"\s-s\b", cmd) else "client", peer.group(1) if peer else None, cmd)
            if _NETLAT_CMD.search(cmd):
                target, iface = _netlatency_opts(cmd)
                lat = LatencyTest("netlatency", target, iface, command=cmd, line=lineno)
            elif cmd.startswith("ping"):
                ping = LatencyTest("ping", cmd.split()[-1] if len(cmd.split()) > 1 else None, command=cmd, line=lineno)
            elif cmd.startswith("ftp"):
                ftp_peer = cmd.split()[-1] if len(cmd.split()) > 1 else None
            continue
        m = _CLIENT.search(s) or _IPERF3_CLIENT.match(s)
        if m:
            iperf.flush()
            iperf.reset("client", m.group("peer"), iperf.command)
            continue
        if _SERVER.search(s):
            iperf.flush()
            iperf.reset("server", None, iperf.command)
            continue
        m = _CONN.match(s)
        if m:
            iperf.connection(m, lineno)
            continue
        m = _RESULT.match(s)
        if m:
            iperf.result(m, lineno)
            continue
        m = _FTP_PEER.match(s)
        if m:
            ftp_peer = m.group("peer")
            continue
        m = _FTP.match(s)
        if m:
            nbytes, secs = whole(m.group("bytes")), to_float(m.group("sec"))
            if nbytes is None:
                continue
            bps = nbytes * 8 / secs if secs else None
            role = "sender" if m.group("dir").lower() == "sent" else "receiver"
            out.records.append(ThroughputTest("ftp", role, ftp_peer, streams=1, seconds=secs, bytes=nbytes,
                                              total_bps=bps, stream_bps=[bps] if bps else [], command=command,
                                              line=lineno, lines={"total": lineno}))
            continue
        m = _LAT_PKT.match(s)
        if m:
            if lat is None:
                lat = LatencyTest("netlatency", line=lineno)
            v = to_float(m.group("ms"))
            if v is None:
                try:
                    v = float(m.group("ms"))
                except ValueError:
                    out.warn(lineno, f"unreadable latency: {m.group('ms')!r}")
                    continue
            lat.samples.append(v)
            lat.lines.setdefault("samples", lineno)
            continue
        m = _LAT_AVG.match(s)
        if m:
            if lat is None:
                lat = LatencyTest("netlatency", line=lineno)
            try:
                avg = float(m.group("ms"))
            except ValueError:
                avg = None
            if avg is None or avg != avg:  # nan: the script saw no reply
                out.warn(lineno, "netlatency average is not a number (no replies captured)")
                avg = None
            lat.avg_ms = avg
            if lat.samples:
                lat.min_ms, lat.max_ms = min(lat.samples), max(lat.samples)
                lat.sent = lat.received = len(lat.samples)
            lat.line, lat.lines["avg"] = lineno, lineno
            out.records.append(lat)
            lat = None
            continue
        m = _PING_HEAD.match(s)
        if m:
            ping = LatencyTest("ping", m.group("target"), line=lineno, command=ping.command if ping else None)
            continue
        m = _PING_STATS.match(s)
        if m:
            if ping is None:
                ping = LatencyTest("ping", line=lineno)
            ping.target = m.group("target")
            continue
        m = _PING_COUNTS.match(s)
        if m:
            ping = ping or LatencyTest("ping", line=lineno)
            ping.sent, ping.received = whole(m.group("sent")), whole(m.group("recv"))
            if ping.sent is None or ping.received is None:
                ping.sent = ping.received = None
                continue
            ping.loss_pct = to_float(m.group("loss")) if m.group("loss") else (
                100.0 * (ping.sent - ping.received) / ping.sent if ping.sent else None)
            ping.line, ping.lines["counts"] = lineno, lineno
            out.records.append(ping)
            continue
        m = _PING_RTT.match(s)
        if m and ping is not None:
            ping.min_ms, ping.avg_ms, ping.max_ms = (to_float(m.group(k)) for k in ("min", "avg", "max"))
            ping.lines["rtt"] = lineno
            ping = None
            continue
        # everything else (ftp dialogue, iperf banners, per-packet ping replies) is context
    iperf.flush()
    if lat is not None and lat.samples:
        out.warn(lat.lines.get("samples", lat.line), "netlatency samples without an 'Average latency' line")
        lat.avg_ms = sum(lat.samples) / len(lat.samples)
        lat.min_ms, lat.max_ms = min(lat.samples), max(lat.samples)
        out.records.append(lat)
    if not out.records:
        out.warn(start + 1 if start < len(lines) else 1, "no iperf, ftp, ping or netlatency summary found")
    return out
