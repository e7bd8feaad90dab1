"""EtherChannel / IEEE 802.3ad parts of :mod:`lparscope.sources.entstat`.

An aggregation's ``entstat -d`` / ``netstat -v`` output has three parts: the aggregate's
own section (its counters are those of the whole channel), a summary, and one section
per member port. The summary::

    Statistics for every adapter in the IEEE 802.3ad Link Aggregation:
    ------------------------------------------------------------------

    Number of adapters: 2
    Operating mode: Standard mode (IEEE 802.3ad)
    IEEE 802.3ad Link Aggregation Statistics:
            Aggregation status: Aggregated
            LACPDU Interval: Long
            Received LACPDUs: 10240
            Transmitted LACPDUs: 10266
    Hash mode: Source and destination TCP/UDP ports

gives :class:`EtherChannelStats` (``number_of_adapters=2``, ``mode``, ``hash_mode``,
``aggregation_status``, ``lacp`` counters; ``members`` is filled as the member sections
follow). A member's ``IEEE 802.3ad Port Statistics`` block::

    IEEE 802.3ad Port Statistics:
    -----------------------------
            Actor System Priority: 0x8000
            Actor System: 00-21-5E-0A-B0-10
            Actor Operational Key: 0xBEEF
            Actor Port Priority: 0x0080
            Actor Port: 0x0001
            Actor State:
                    LACP activity: Active
                    Synchronization: IN_SYNC
                    Collecting: Enabled
                    Distributing: Enabled
            Partner System Priority: 0x8000
            Partner System: 00-00-00-00-00-00
            Partner Operational Key: 0x0000
            Partner Port: 0x0000
            Partner State:
                    Synchronization: OUT_OF_SYNC
                    ...

is kept raw in the member's ``lacp_port`` and read by :func:`lacp_port_state` into
:class:`LacpPortState` (``actor`` and ``partner`` :class:`LacpParty`: system, key, port,
synchronization, collecting, distributing ...). The values are kept as printed: whether a
partner of all zeroes means "no LACP on the switch" is the rules' call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._entstat_sections import norm, split_kv

EC_HEADER_RE = re.compile(r"^\s*(?:Statistics for every adapter in the\s+(?P<what>(?:.*\S)?)\s*$"
                          r"|ETHERCHANNEL STATISTICS\b.*)", re.I)
_LEADING_INT = re.compile(r"^\s*(\d+)\b")
_BACKUP_LINE = re.compile(r"^\s*Backup adapter\s*(?:-|:)\s*(?P<name>ent\d+)\s*(?::\s*)?$", re.I)


@dataclass
class EtherChannelStats:
    """The "Statistics for every adapter in the EtherChannel / IEEE 802.3ad Link Aggregation" block."""

    name: str | None
    line: int
    number_of_adapters: int | None = None
    mode: str | None = None  # "Operating mode"
    hash_mode: str | None = None
    active_channel: str | None = None
    backup_adapter: str | None = None
    aggregation_status: str | None = None
    lacp: dict[str, str] = field(default_factory=dict)  # IEEE 802.3ad Link Aggregation Statistics
    other: dict[str, str] = field(default_factory=dict)
    members: list[str] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class LacpParty:
    """One side of an 802.3ad port: the AIX port (actor) or the switch port (partner), as printed."""

    system_priority: str | None = None
    system: str | None = None  # "00-1B-54-C1-22-80"
    key: str | None = None  # "Operational Key"
    port_priority: str | None = None
    port: str | None = None
    activity: str | None = None  # LACP activity: Active / Passive
    timeout: str | None = None  # LACP timeout: Long / Short
    aggregation: str | None = None  # Aggregatable / Individual
    synchronization: str | None = None  # IN_SYNC / OUT_OF_SYNC
    collecting: str | None = None  # Enabled / Disabled
    distributing: str | None = None
    defaulted: str | None = None
    expired: str | None = None
    lines: dict[str, int] = field(default_factory=dict)  # field -> 1-based line


@dataclass
class LacpPortState:
    """The ``IEEE 802.3ad Port Statistics`` of one member port."""

    actor: LacpParty
    partner: LacpParty
    counters: dict[str, str] = field(default_factory=dict)  # Received LACPDUs ... as printed


_PARTY_KEYS = {
    "system priority": "system_priority", "system": "system", "operational key": "key", "key": "key",
    "port priority": "port_priority", "port": "port",
}
_STATE_KEYS = {
    "lacp activity": "activity", "lacp timeout": "timeout", "aggregation": "aggregation",
    "synchronization": "synchronization", "collecting": "collecting", "distributing": "distributing",
    "defaulted": "defaulted", "expired": "expired",
}


def lacp_port_state(raw: dict[str, str], lines: dict[str, int]) -> LacpPortState | None:
    """The typed view of a member's ``lacp_port`` entries (keys ``"Actor System"``,
    ``"Partner State / Synchronization"`` ...), with the line of each field; None without any."""
    if not raw:
        return None
    state = LacpPortState(actor=LacpParty(), partner=LacpParty())
    for key, value in raw.items():
        head, _, sub = key.partition(" / ")
        words = norm(head).split(" ", 1)
        side = {"actor": state.actor, "partner": state.partner}.get(words[0])
        line = lines.get("lacp_port." + key)
        if side is None:
            state.counters[key] = value
            continue
        rest = words[1] if len(words) > 1 else ""
        attr = _STATE_KEYS.get(norm(sub)) if rest == "state" and sub else _PARTY_KEYS.get(rest)
        if attr is None:
            continue
        setattr(side, attr, value)
        if line:
            side.lines[attr] = line
    return state


def _number(text: str) -> int | None:
    m = _LEADING_INT.match(text)
    return int(m.group(1)) if m else None


_EC_FIELDS = {
    "number of adapters": "number_of_adapters",
    "operating mode": "mode",
    "mode": "mode",
    "hash mode": "hash_mode",
    "active channel": "active_channel",
    "backup adapter": "backup_adapter",
    "aggregation status": "aggregation_status",
    "primary aggregation status": "aggregation_status",  # newer AIX / VIOS 4: the primary channel's
}
# Newer output prints a banner between '=' rules before the member sections of each channel.
_PART_BANNER = re.compile(r"^(?P<part>PRIMARY|BACKUP) ADAPTERS$", re.I)


def read_ec_line(ec: EtherChannelStats, line: str, lineno: int, in_lacp: bool) -> tuple[bool, bool]:
    """Read one line of the EtherChannel summary; returns (in the LACP block, line was read)."""
    text = line.strip()
    m = _BACKUP_LINE.match(text)
    if m:
        ec.backup_adapter, ec.lines["backup_adapter"] = m.group("name"), lineno
        return in_lacp, True
    kv = split_kv(text)
    if kv is None:
        m = _PART_BANNER.match(text)
        if m:  # the members' sections follow; the banner itself carries no value
            ec.lines[f"{m.group('part').lower()}_adapters"] = lineno
        return in_lacp, m is not None
    key, value = kv
    nkey = norm(key)
    if not value and "link aggregation statistics" in nkey:
        return True, True
    attr = _EC_FIELDS.get(nkey)
    if attr == "number_of_adapters":
        ec.number_of_adapters = _number(value)
    elif attr:
        setattr(ec, attr, value)
        if attr == "mode" or attr == "hash_mode":
            in_lacp = False
    elif in_lacp or "lacp" in nkey or "pdu" in nkey:
        ec.lacp[key] = value
        ec.lines[f"lacp.{key}"] = lineno
        return in_lacp, True
    else:
        ec.other[key] = value
        ec.lines[f"other.{key}"] = lineno
        return in_lacp, True
    ec.lines[attr] = lineno
    return in_lacp, True
