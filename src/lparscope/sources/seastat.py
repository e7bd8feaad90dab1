"""Per-client SEA accounting: VIOS ``seastat -d entX``.

Needs ``accounting=enabled`` on the Shared Ethernet Adapter. Input::

    $ seastat -d ent7
    ================================================================================
    Advanced Statistics for SEA
    Device Name: ent7
    ================================================================================
    MAC: 7A:41:0C:55:20:02
    ----------------------
    VLAN: None
    VLAN Priority: None
    Hostname: appsrv1.example.net
    IP: 10.20.1.15

    Transmit Statistics:                     Receive Statistics:
    --------------------                     -------------------
    Packets: 1180                            Packets: 2240
    Bytes: 98100                             Bytes: 310020
    ================================================================================

Output: one :class:`SeaClientStats` per client block (one per MAC and VLAN)::

    SeaClientStats(sea="ent7", mac="7A:41:0C:55:20:02", vlan=None, vlan_priority=None,
                   hostname="appsrv1.example.net", ip_addresses=["10.20.1.15"],
                   tx_packets=1180, tx_bytes=98100, rx_packets=2240, rx_bytes=310020, line=6)

Also read: blocks without hostname / IP, several ``IP:`` lines, text whose column
padding collapsed (``Packets: 1180 Packets: 2240``) and slide-pasted copies where
the two columns were printed one value per line (transmit first, then receive) or a
dashed rule was glued to the next line (``-----VLAN: None``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._entstat_sections import read_pairs
from .base import preamble, Parsed, leading_prompt, parse_prompt, split_lines, strip_ansi, to_int

KIND = "seastat"
TITLE = "seastat -d"
COMMANDS = [r"^seastat\b"]
STARTS = re.compile(r"^\s*Advanced Statistics for SEA\s*$")

_RULE_RE = re.compile(r"^[\s=-]+$")
_GLUED_RULE_RE = re.compile(r"^\s*-{3,}(?=[A-Za-z])")
_FIELD_RE = re.compile(r"^\s*(?P<key>MAC|VLAN Priority|VLAN|Hostname|IPv6|IP(?: Address)?|Device Name)\s*:\s*(?P<value>(?:.*\S)?)\s*$",
                       re.IGNORECASE)
_COLUMN_HEADERS = re.compile(r"^\s*(?:Transmit Statistics:|Receive Statistics:)(?:\s+Receive Statistics:)?\s*$")
_RIGHT_COLUMN = 30


@dataclass
class SeaClientStats:
    sea: str | None  # the SEA named by "Device Name:"
    mac: str
    line: int
    vlan: int | None = None  # None when the SEA prints "VLAN: None" (untagged)
    vlan_priority: int | None = None
    hostname: str | None = None
    ip_addresses: list[str] = field(default_factory=list)
    tx_packets: int | None = None
    tx_bytes: int | None = None
    rx_packets: int | None = None
    rx_bytes: int | None = None
    lines: dict[str, int] = field(default_factory=dict)


def detect(text: str) -> int:
    head = strip_ansi(text[:20000])
    if STARTS.search(head) or re.search(r"(?m)^[ \t]*Advanced Statistics for SEA", head):
        return 95
    lines = [ln for ln in split_lines(head)[:20] if ln.strip()]
    prompt, _ = leading_prompt(lines)
    if prompt and re.search(COMMANDS[0], prompt.command):
        return 90
    if re.search(r"(?m)^[ \t]*MAC:", head) and "VLAN Priority:" in head:
        return 70
    return 0


def _set(rec: SeaClientStats, name: str, value: object, lineno: int) -> None:
    setattr(rec, name, value)
    rec.lines[name] = lineno


def _read_counters(rec: SeaClientStats, line: str, lineno: int, out: Parsed) -> bool:
    pairs, rest = read_pairs(line)
    if not pairs or rest or len(pairs) > 2:
        return False
    for pos, (label, value, col) in enumerate(pairs):
        what = label.strip().lower()
        if what not in ("packets", "bytes"):
            out.warn(lineno, f"unknown seastat counter {label!r}")
            continue
        tx_name, rx_name = f"tx_{what}", f"rx_{what}"
        if len(pairs) == 2:
            right = pos == 1
        else:  # one value per line: by column when padded, else transmit comes first
            right = col >= _RIGHT_COLUMN or getattr(rec, tx_name) is not None
        _set(rec, rx_name if right else tx_name, value, lineno)
    return True


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    sea = None
    if prompt:
        out.hostname = prompt.host
        m = re.search(r"\b(ent\d+)\b", prompt.command)
        sea = m.group(1) if m else None
    rec: SeaClientStats | None = None
    skipped: list[int] = []  # lines before the first client block
    for idx in range(start, len(lines)):
        lineno = idx + 1
        line = _GLUED_RULE_RE.sub("", strip_ansi(lines[idx]).replace("\u00a0", " ")).rstrip()
        text = line.strip()
        if not text or _RULE_RE.match(line) or _COLUMN_HEADERS.match(line) or parse_prompt(line):
            continue
        if re.match(r"(?i)^advanced statistics for sea$", text) or re.match(r"^\S*[#$]$", text):
            continue
        m = _FIELD_RE.match(line)
        if m:
            key, value = m.group("key").lower(), m.group("value")
            if key == "device name":
                sea = value or sea
            elif key == "mac":
                rec = SeaClientStats(sea=sea, mac=value, line=lineno)
                rec.lines["mac"] = lineno
                out.records.append(rec)
            elif rec is None:
                out.warn(lineno, f"{m.group('key')} before any MAC: block")
            elif key == "vlan":
                _set(rec, "vlan", to_int(value), lineno)
            elif key == "vlan priority":
                _set(rec, "vlan_priority", to_int(value), lineno)
            elif key == "hostname":
                _set(rec, "hostname", value or None, lineno)
            else:
                rec.ip_addresses.extend(value.split())
                rec.lines.setdefault("ip_addresses", lineno)
            continue
        if rec is not None and _read_counters(rec, line, lineno, out):
            continue
        if rec is None:
            skipped.append(lineno)
        else:
            out.warn(lineno, f"not a seastat line: {text[:60]!r}")
    if skipped:
        out.warn(skipped[0], f"{len(skipped)} line(s) before the first client block not read")
    if not out.records:
        out.warn(1, "no seastat client block (MAC:) found")
    out.warnings.sort(key=lambda w: w.line)
    return out
