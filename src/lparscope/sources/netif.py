"""Network interfaces: AIX ``ifconfig -a`` and ``netstat -in``.

Input (``ifconfig -a``; the ISNO line appears when interface-specific options are set)::

    # ifconfig -a
    en0: flags=1e084863,480<UP,BROADCAST,NOTRAILERS,RUNNING,SIMPLEX,MULTICAST,GROUPRT,64BIT,CHECKSUM_OFFLOAD(ACTIVE),LARGESEND,CHAIN>
            inet 10.20.30.41 netmask 0xffffff00 broadcast 10.20.30.255
             tcp_sendspace 262144 tcp_recvspace 262144 rfc1323 1
    lo0: flags=e08084b,c0<UP,BROADCAST,LOOPBACK,RUNNING,SIMPLEX,MULTICAST,GROUPRT,64BIT,LARGESEND,CHAIN>
            inet 127.0.0.1 netmask 0xff000000 broadcast 127.255.255.255
            inet6 ::1%1/0

Output: one :class:`Interface` per interface::

    Interface(name="en0", flags=["UP", "BROADCAST", ..., "LARGESEND", "CHAIN"], mtu=None,
              inet=[("10.20.30.41", "255.255.255.0")], inet6=[],
              isno={"tcp_sendspace": 262144, "tcp_recvspace": 262144, "rfc1323": 1},
              largesend=True, line=2, lines={"flags": 2, "inet": 3, "tcp_sendspace": 4, ...})

Input (``netstat -in``)::

    Name  Mtu   Network     Address            Ipkts Ierrs    Opkts Oerrs  Coll
    en0   1500  link#2      fa.16.3e.0.1.2   8811220     0  7012334     0     0
    en0   1500  10.20.30    10.20.30.41      8811220     0  7012334     0     0
    lo0   16896 link#1                          4400     0     4400     0     0

Output: one :class:`InterfaceCounters` per row (``network`` / ``address`` are ``None``
when the column is empty)::

    InterfaceCounters(name="en0", mtu=1500, network="link#2", address="fa.16.3e.0.1.2",
                      ipkts=8811220, ierrs=0, opkts=7012334, oerrs=0, coll=0, line=2)

AIX ``ifconfig`` does not print the MTU, so ``mtu`` is ``None`` unless an ``mtu N`` token is
shown. The hex netmask is given in dotted form. Both outputs may sit in the same text.

Linux ``ifconfig`` (in the BBBP section of a Linux nmon recording, or pasted) is read in both of
its forms: net-tools 2 (``eth0: flags=4163<UP,...>  mtu 1500`` / ``inet 10.1.2.3  netmask ...``)
as AIX's, and the older one::

    eth0      Link encap:Ethernet  HWaddr 6c:62:6d:38:33:a1
              inet addr:192.168.11.108  Bcast:192.168.11.255  Mask:255.255.255.0
              UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1

(``Interface(name="eth0", flags=["UP", "BROADCAST", "RUNNING", "MULTICAST"], mtu=1500,
inet=[("192.168.11.108", "255.255.255.0")], ...)``). Their packet, error and byte counter lines
are known and not kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..numbers import whole
from .base import (
    preamble,
    Parsed,
    command_matches,
    is_bare_prompt,
    output_head,
    parse_prompt,
    to_int,
)

KIND = "netif"
TITLE = "ifconfig -a / netstat -in"
COMMANDS = [r"^ifconfig\b", r"^netstat\b(?=.*-\w*i)(?!.*-\w*[vsrDpaPAmMCc])"]
STARTS = re.compile(
    r"^\s*Name\s+Mtu\s+Network\s+Address\s+Ipkts\b|^[a-z]+\d*:\s+flags=[0-9a-fA-F,]+<"
)


_IF_RE = re.compile(r"^(?P<name>[A-Za-z][\w.]*\*?):\s+flags=(?P<hex>[0-9a-fA-F,x]+)<(?P<flags>[^>]*)>(?P<rest>.*)$")
_INET_RE = re.compile(r"^\s*inet\s+(?P<addr>\d+\.\d+\.\d+\.\d+)(?:\s+netmask\s+(?P<mask>\S+))?")
_INET6_RE = re.compile(r"^\s*inet6\s+(?!addr:)(?P<addr>\S+)")
_ISNO_RE = re.compile(r"\b(tcp_sendspace|tcp_recvspace|rfc1323|tcp_nodelay|tcp_mssdflt)\s+(-?\d+)")
_HEADER_RE = re.compile(r"^\s*Name\s+Mtu\s+Network\s+Address\s+Ipkts\s+Ierrs\s+Opkts\s+Oerrs(?:\s+Coll)?\s*$", re.I)
_ROW_RE = re.compile(r"^(?P<name>[A-Za-z][\w.]*\*?)\s+(?P<mtu>\d+)\s+(?P<rest>.*)$")  # on stripped lines
# Linux: the older ifconfig form (net-tools before 2.0), and the counter lines of both forms
_LINUX_IF_RE = re.compile(r"^(?P<name>[A-Za-z][\w.:@-]*)\s+Link encap:")
_LINUX_FLAGS_RE = re.compile(r"^\s*(?P<flags>(?:[A-Z]+\s+)*)MTU:(?P<mtu>\d+)\s+Metric:\d+\s*$")
_LINUX_INET_RE = re.compile(r"^\s*inet addr:(?P<addr>\d+\.\d+\.\d+\.\d+)(?:\s+(?:P-t-P|Bcast):\S+)*(?:\s+Mask:(?P<mask>\S+))?")
_LINUX_INET6_RE = re.compile(r"^\s*inet6 addr:\s*(?P<addr>\S+)")
_LINUX_KNOWN_RE = re.compile(r"^\s*(?:(?:RX|TX)\s+(?:packets|errors|bytes|dropped)|collisions:|Interrupt:|Memory:|"
                             r"loop\s|unspec\s|infiniband\s|device\s+(?:interrupt|memory)\b)")


@dataclass
class Interface:
    name: str
    flags: list[str]
    mtu: int | None
    inet: list[tuple[str, str | None]] = field(default_factory=list)  # (address, dotted netmask)
    inet6: list[str] = field(default_factory=list)
    isno: dict[str, int] = field(default_factory=dict)  # tcp_sendspace, tcp_recvspace, rfc1323 ...
    largesend: bool = False
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class InterfaceCounters:
    name: str
    mtu: int | None
    network: str | None
    address: str | None
    ipkts: int | None
    ierrs: int | None
    opkts: int | None
    oerrs: int | None
    coll: int | None
    line: int


def _dotted(mask: str | None) -> str | None:
    """0xffffff00 -> 255.255.255.0; dotted masks are kept; None stays None."""
    if mask is None:
        return None
    if re.match(r"^0x[0-9a-fA-F]{8}$", mask):
        v = int(mask, 16)
        return ".".join(str((v >> s) & 0xFF) for s in (24, 16, 8, 0))
    return mask


def _logical_lines(lines: list[str], start: int) -> list[tuple[int, str]]:
    """(1-based line, text) pairs, re-joining an interface header that a PDF copy broke
    over lines ("en0:" / "flags=1e080863,4c0<UP,...,GROU" / "PRT,64BIT,...>")."""
    out: list[tuple[int, str]] = []
    i = start
    while i < len(lines):
        line, first = lines[i].rstrip(), i
        if re.match(r"^[A-Za-z][\w.]*\*?:\s*$", line) and i + 1 < len(lines) and lines[i + 1].lstrip().startswith("flags="):
            i += 1
            line = line.strip() + " " + lines[i].strip()
        if re.match(r"^[A-Za-z][\w.]*\*?:\s+flags=[^<]*<[^>]*$", line):
            j = i
            while j + 1 < len(lines) and j - i < 3 and ">" not in line:
                j += 1
                line += lines[j].strip()
            if ">" in line:
                i = j
        out.append((first + 1, line))
        i += 1
    return out


def detect(text: str) -> int:
    prompt, body = output_head(text, 80)
    if prompt is None and not body:
        return 0
    if command_matches(prompt, COMMANDS):
        return 95
    if any(_HEADER_RE.match(ln) for ln in body[:5]):
        return 90
    ifs = sum(1 for ln in body if _IF_RE.match(ln))
    if ifs and any(_INET_RE.match(ln) or _ISNO_RE.search(ln) for ln in body):
        return 90
    return 40 if ifs else 0


def _counters_row(m: re.Match[str], lineno: int) -> InterfaceCounters | None:
    tokens = m.group("rest").split()
    nums = []
    while tokens and len(nums) < 5 and re.fullmatch(r"\d+|-", tokens[-1]):
        nums.insert(0, tokens.pop())
    if len(nums) < 4 or len(tokens) > 2:
        return None
    if len(nums) == 4:
        nums.append("")  # no Coll column
    network = tokens[0] if tokens else None
    address = tokens[1] if len(tokens) > 1 else None
    vals = [to_int(n) if n not in ("", "-") else None for n in nums]
    return InterfaceCounters(m.group("name"), to_int(m.group("mtu")), network, address, *vals, line=lineno)


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.user:
        out.hostname = prompt.host
    cur: Interface | None = None
    in_table = False
    for lineno, line in _logical_lines(lines, start):
        if not line.strip():
            continue
        m = _IF_RE.match(line)
        if m:
            flags = [f for f in m.group("flags").split(",") if f]
            mtu_m = re.search(r"\bmtu\s+(\d+)", m.group("rest"))
            cur = Interface(m.group("name"), flags, whole(mtu_m.group(1)) if mtu_m else None,
                            largesend="LARGESEND" in flags, line=lineno, lines={"flags": lineno})
            out.records.append(cur)
            in_table = False
            continue
        m = _LINUX_IF_RE.match(line)
        if m:
            cur = Interface(m.group("name"), [], None, line=lineno, lines={"flags": lineno})
            out.records.append(cur)
            in_table = False
            continue
        if _HEADER_RE.match(line):
            in_table, cur = True, None
            continue
        if is_bare_prompt(line):
            continue
        p = parse_prompt(line)
        if p:
            if p.user and p.host:
                out.hostname = p.host
            in_table, cur = False, None
            continue
        if in_table:
            r = _ROW_RE.match(line.strip())
            row = _counters_row(r, lineno) if r else None
            if row:
                out.records.append(row)
            else:
                out.warn(lineno, f"not a netstat -in row: {line.strip()[:60]!r}")
            continue
        if cur is not None:  # continuation lines (indented, or not when padding was lost)
            i4 = _INET_RE.match(line)
            if i4:
                cur.inet.append((i4.group("addr"), _dotted(i4.group("mask"))))
                cur.lines.setdefault("inet", lineno)
                continue
            i6 = _INET6_RE.match(line)
            if i6:
                cur.inet6.append(i6.group("addr"))
                cur.lines.setdefault("inet6", lineno)
                continue
            isno = _ISNO_RE.findall(line)
            if isno:
                for key, value in isno:
                    n = whole(value)
                    if n is None:
                        out.warn(lineno, f"ISNO {key} is not a number of at most 40 digits: not read")
                        continue
                    cur.isno[key] = n
                    cur.lines[key] = lineno
                continue
            if re.match(r"^\s*(ether|lladdr|media|status|nd6|options)\b", line) or _LINUX_KNOWN_RE.match(line):
                continue
            if _linux_line(cur, line, lineno):
                continue
        out.warn(lineno, f"unrecognised interface line: {line.strip()[:60]!r}")
    return out


def _linux_line(cur: Interface, line: str, lineno: int) -> bool:
    """A line of the older Linux ifconfig form under ``cur`` (its flags and MTU, addresses), read into it."""
    m = _LINUX_FLAGS_RE.match(line)
    if m:
        cur.flags = m.group("flags").split()
        cur.mtu = whole(m.group("mtu"))
        cur.largesend = "LARGESEND" in cur.flags
        cur.lines["flags"] = lineno
        return True
    m = _LINUX_INET_RE.match(line)
    if m:
        cur.inet.append((m.group("addr"), _dotted(m.group("mask"))))
        cur.lines.setdefault("inet", lineno)
        return True
    m = _LINUX_INET6_RE.match(line)
    if m:
        cur.inet6.append(m.group("addr"))
        cur.lines.setdefault("inet6", lineno)
        return True
    return False
