"""Private helpers for :mod:`lparscope.sources.entstat`.

The SEA summary dataclass (:class:`SeaStats`, re-exported by ``entstat``), the
typed-field tables and the adapter classification, label tables for the two-column
transmit / receive area, small line readers (``Key: value`` splitting, counter
pairs, elapsed time) and the reader of the SEA summary that follows an SEA's own section ("Statistics for adapters in the
Shared Ethernet Adapter entX"). The EtherChannel / IEEE 802.3ad summary and the
per-port LACP state live in :mod:`._entstat_etherchannel`. Only the dataclasses
are public, through ``entstat``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..numbers import whole
from .base import to_int

# --- the SEA summary block (re-exported by entstat) ---------------------------------------

@dataclass
class SeaStats:
    """The "Statistics for adapters in the Shared Ethernet Adapter entX" block."""

    name: str | None
    line: int
    number_of_adapters: int | None = None
    flags_raw: str | None = None  # "00001133" as printed
    flags: list[str] = field(default_factory=list)  # decoded words: THREAD, LARGESEND ...
    threaded: bool = False  # the THREAD word is present
    vlan_ids: dict[str, list[int]] = field(default_factory=dict)  # member adapter -> VLAN ids
    members: dict[str, str] = field(default_factory=dict)  # adapter -> "real" | "virtual" | "control"
    real_side: dict[str, int] = field(default_factory=dict)
    virtual_side: dict[str, int] = field(default_factory=dict)
    other: dict[str, int] = field(default_factory=dict)
    thread_queue_overflow_packets: int | None = None
    threads: dict[int, dict[str, int]] = field(default_factory=dict)  # thread #N -> queue counters
    ha: dict[str, str] = field(default_factory=dict)  # failover block, raw
    ha_mode: str | None = None
    state: str | None = None  # PRIMARY, BACKUP, PRIMARY_SH, LIMBO ...
    priority: int | None = None
    bridge_mode: str | None = None
    control_channel_pvid: int | None = None
    times_became_backup: int | None = None
    times_became_primary: int | None = None
    vid_shared: list[int] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


# --- typed fields of the adapter-specific area -------------------------------------------

INT_FIELDS = {
    "hypervisor send failures": "hypervisor_send_failures",
    "hypervisor receive failures": "hypervisor_receive_failures",
    "receiver failures": "receiver_failures",
    "send errors": "send_errors",
    "invalid vlan id packets": "invalid_vlan_id_packets",
    "port vlan id": "port_vlan_id",
    "priority": "priority",
}
STR_FIELDS = {
    "link status": "link_status",
    "physical port link status": "link_status",
    "media speed selected": "media_speed_selected",
    "media speed running": "media_speed_running",
    "physical port speed": "media_speed_running",
    "transmit and receive flow control status": "flow_control",
    "jumbo frames": "jumbo_frames",
    "switch id": "switch_id",
}
BOOL_FIELDS = {"trunk adapter": "trunk_adapter", "active": "active"}


def classify(rec: Any, banner: str) -> str:
    """physical | virtual | trunk | sea | etherchannel | vlan | unknown, from what the section shows."""
    dtype = (rec.device_type or "").lower()
    if rec.sea is not None or "shared ethernet adapter" in dtype:
        return "sea"
    if rec.etherchannel is not None or banner == "ETHERCHANNEL" or "etherchannel" in dtype \
            or "link aggregation" in dtype:
        return "etherchannel"
    if "l-lan" in dtype or "virtual i/o ethernet" in dtype:
        return "trunk" if rec.trunk_adapter else "virtual"
    if "vlan" in dtype:
        return "vlan"
    if "virtual nic" in dtype or "(vnic)" in dtype:
        return "virtual"
    if rec.device_type == "":  # VLAN pseudo adapters print an empty "Device Type:"
        return "vlan"
    return "physical" if dtype else "unknown"



# --- the two-column transmit / receive area -----------------------------------------

_LEFT = {
    "packets": "tx_packets",
    "bytes": "tx_bytes",
    "interrupts": "tx_interrupts",
    "transmit errors": "tx_errors",
    "packets dropped": "tx_packets_dropped",
    "max packets on s/w transmit queue": "max_sw_tx_queue_packets",
    "s/w transmit queue overflow": "sw_tx_queue_overflow",
    "current s/w+h/w transmit queue length": "current_sw_hw_tx_queue_length",
    "broadcast packets": "tx_broadcast_packets",
    "multicast packets": "tx_multicast_packets",
    "no carrier sense": "no_carrier_sense",
    "dma underrun": "dma_underrun",
    "lost cts errors": "lost_cts_errors",
    "max collision errors": "max_collision_errors",
    "late collision errors": "late_collision_errors",
    "deferred": "deferred",
    "sqe test": "sqe_test",
    "timeout errors": "timeout_errors",
    "single collision count": "single_collision_count",
    "multiple collision count": "multiple_collision_count",
    "current hw transmit queue length": "current_hw_tx_queue_length",
}
_RIGHT = {
    "packets": "rx_packets",
    "bytes": "rx_bytes",
    "interrupts": "rx_interrupts",
    "receive errors": "rx_errors",
    "packets dropped": "rx_packets_dropped",
    "bad packets": "rx_bad_packets",
    "broadcast packets": "rx_broadcast_packets",
    "multicast packets": "rx_multicast_packets",
    "crc errors": "crc_errors",
    "dma overrun": "dma_overrun",
    "alignment errors": "alignment_errors",
    "no resource errors": "no_resource_errors",
    "receive collision errors": "rx_collision_errors",
    "packet too short errors": "packet_too_short_errors",
    "packet too long errors": "packet_too_long_errors",
    "packets discarded by adapter": "packets_discarded_by_adapter",
    "receiver start count": "receiver_start_count",
}
GENERAL = {"no mbuf errors": "no_mbuf_errors", "adapter reset count": "adapter_reset_count"}
RIGHT_COLUMN = 30  # the receive column starts at 46 in real output; anything this far right is receive

# Glued "Label: value" lines are read by a scanner, not by one pattern with nested or
# neighbouring quantifiers over the same characters (that took seconds to minutes on one line).
_PAIR_LABEL_RE = re.compile(r"[A-Za-z][A-Za-z0-9/+ .()-]*")
_KV_KEY_RE = re.compile(r"[A-Za-z][\w /().-]*")
_NUMBER_RE = re.compile(r"-?\d+")
_BLANKS_RE = re.compile(r"\s*")
_NONBLANK_RE = re.compile(r"\S+")


@lru_cache(maxsize=4096)  # the same few hundred labels on every adapter of every host
def norm(label: str) -> str:
    return " ".join(label.lower().split())


@lru_cache(maxsize=4096)
def snake(label: str) -> str:
    """``"Packets dropped(VlanId) "`` -> ``"packets_dropped_vlanid"``."""
    return re.sub(r"[^a-z0-9]+", "_", label.lower().replace("s/w", "sw").replace("h/w", "hw")).strip("_")


def _label_colon(line: str, pos: int, label_re: re.Pattern[str], blanks_before_colon: bool = True
                 ) -> tuple[int, int, int] | None:
    """(label start, label end, index after the colon) of ``Label:`` at ``pos`` (blanks first), else None."""
    start = _BLANKS_RE.match(line, pos).end()  # type: ignore[union-attr]
    colon = line.find(":", start)
    if colon < 0:
        return None
    end = start + len(line[start:colon].rstrip()) if blanks_before_colon else colon
    m = label_re.match(line, start, end)
    if m is None or m.end() != end:
        return None
    return start, end, colon + 1


def read_pairs(line: str) -> tuple[list[tuple[str, int, int]], str]:
    """``(label, value, start column)`` for each ``Label: number`` on the line, and the unread rest."""
    pairs: list[tuple[str, int, int]] = []
    pos = 0
    while pos < len(line):
        found = _label_colon(line, pos, _PAIR_LABEL_RE)
        if found is None:
            break
        start, end, after = found
        v = _NUMBER_RE.match(line, _BLANKS_RE.match(line, after).end())  # type: ignore[union-attr]
        if v is None or (v.end() < len(line) and not line[v.end()].isspace()):
            break
        n = whole(v.group())
        if n is None:  # a run of digits no counter holds: the pair is not read
            break
        pairs.append((line[start:end], n, start))
        pos = v.end()
    return pairs, line[pos:].strip()


def counter_key(label: str, column: int, position: int, npairs: int) -> str:
    """Stable key for a counter of the transmit / receive area.

    Two pairs on a line are (transmit, receive). A lone pair is placed by its label when
    the label belongs to one column only ("Bad Packets", "No Resource Errors"), else by
    its column, which survives in real output but not in collapsed pasted text.
    """
    n = norm(label)
    if npairs >= 2:
        right = position >= 1
    elif n in _RIGHT and n not in _LEFT:
        right = True
    elif n in _LEFT and n not in _RIGHT:
        right = False
    else:
        right = column >= RIGHT_COLUMN
    table, prefix = (_RIGHT, "rx_") if right else (_LEFT, "tx_")
    return table.get(n) or prefix + snake(label)


# --- generic line readers ----------------------------------------------------------------

_ELAPSED_RE = re.compile(r"(?<!\d)(\d+)\s*(day|hour|minute|second)s?", re.IGNORECASE)
_UNIT = {"day": 86400, "hour": 3600, "minute": 60, "second": 1}


def split_kv(line: str) -> tuple[str, str] | None:
    """``Key: value`` split at the last colon followed by blank or end (MAC addresses keep theirs)."""
    text = line.strip()
    cut = text.rfind(":")  # the last colon with a blank (or nothing) after it
    while cut > 0 and cut + 1 < len(text) and not text[cut + 1].isspace():
        cut = text.rfind(":", 0, cut)
    if cut <= 0:
        return None
    key, value = text[:cut].strip(), text[cut + 1:].strip()
    return (key, value) if key else None


def multi_kv(line: str) -> list[tuple[str, str]] | None:
    """Several ``Key: value`` on one line (``Enabled: 1  Queued: 0  Overflow: 0``), else None."""
    if line.count(":") < 2:
        return None
    found: list[tuple[str, str]] = []
    pos = 0
    while _BLANKS_RE.match(line, pos).end() < len(line):  # type: ignore[union-attr]
        kv = _label_colon(line, pos, _KV_KEY_RE, blanks_before_colon=False)
        if kv is None:
            return None
        start, _, after = kv
        value = _NONBLANK_RE.match(line, _BLANKS_RE.match(line, after).end())  # type: ignore[union-attr]
        if value is None:
            return None
        found.append((line[start:after - 1].strip(), value.group()))
        pos = value.end()
    return found if len(found) >= 2 else None


def elapsed_seconds(text: str) -> int | None:
    parts = _ELAPSED_RE.findall(text)
    if not parts:
        return None
    return sum(int(n) * _UNIT[u.lower()] for n, u in parts)


def indent_of(line: str) -> int:
    raw = line.expandtabs(8)
    return len(raw) - len(raw.lstrip())


def int_list(text: str) -> list[int] | None:
    """``"205 298 299"`` -> ints; ``"None"`` -> []; None when a token is not a number."""
    tokens = text.replace(",", " ").split()
    if not tokens or [t.lower() for t in tokens] == ["none"]:
        return []
    values = [to_int(t) for t in tokens]
    return None if any(v is None for v in values) else values  # type: ignore[return-value]


# --- the Shared Ethernet Adapter summary -------------------------------------------------

SEA_HEADER_RE = re.compile(r"^\s*Statistics for adapters in the Shared Ethernet Adapter\s+(?P<name>\S+)", re.I)
MEMBER_LABEL_RE = re.compile(r"^\s*(?P<role>Real|Virtual|Control)(?: Channel)?\s+Adapter:\s*(?P<name>ent\d+)\s*$")
_THREAD_RE = re.compile(r"^Thread\s*\.*\s*#(?P<n>\d+)$")  # "Thread .............. #3"
_FLAG_WORD_RE = re.compile(r"<\s*((?:[A-Za-z0-9_ ]*[A-Za-z0-9_])?)\s*>")

_SEA_SUBS = {
    "vlan ids": "vlan",
    "real side statistics": "real",
    "virtual side statistics": "virtual",
    "other statistics": "other",
    "sea threads information": "threads",
    "high availability statistics": "ha",
    "type of packets received": "ha",
}
_HA_KEYS = {
    "control channel pvid", "control packets in", "control packets out", "keep-alive packets",
    "recovery packets", "notify packets", "limbo packets", "state", "bridge mode",
    "number of times server became backup", "number of times server became primary",
    "number of times server became flipflop", "high availability mode", "priority", "vid shared",
}


def read_sea_line(sea: SeaStats, sub: str | None, line: str, lineno: int) -> tuple[str | None, bool]:
    """Read one line of the SEA summary; returns the new sub-block and whether the line was read."""
    text = line.strip()
    low = norm(text.rstrip(":"))
    if low in _SEA_SUBS:
        return _SEA_SUBS[low], True
    if text.startswith("<"):  # decoded SEA flag words, one per line: "< THREAD >"
        words = [w for w in _FLAG_WORD_RE.findall(text) if w]
        _add_flags(sea, words)
        return sub, True
    kv = split_kv(text)
    if kv is None:
        if sub == "vlan" and (ids := int_list(text)) is not None and sea.vlan_ids:
            sea.vlan_ids[list(sea.vlan_ids)[-1]].extend(ids)  # wrapped list of VLAN ids
            return sub, True
        m = _THREAD_RE.match(text) if sub == "threads" else None
        if m:
            n = int(m.group("n"))
            sea.threads[n] = sea.threads.pop(n, {})  # the current thread is the last key
        return sub, sub == "threads"  # thread banners and queue names ("SEA Default Queue #8") carry no values
    key, value = kv
    nkey = norm(key)
    if nkey == "number of adapters":
        sea.number_of_adapters = to_int(value)
    elif nkey == "sea flags":
        tokens = value.split()
        sea.flags_raw = tokens[0] if tokens else value
        _add_flags(sea, [w for w in _FLAG_WORD_RE.findall(value) if w])
        sub = "flags"
    elif sub == "vlan" and re.fullmatch(r"ent\d+", key):
        sea.vlan_ids[key] = int_list(value) or []
        sea.members.setdefault(key, "virtual")  # the VLAN list names the trunk adapters
        sea.lines[f"vlan_ids.{key}"] = lineno
        return sub, True
    elif nkey in _HA_KEYS or sub == "ha":
        _read_ha(sea, key, value, lineno)
        return sub, True
    elif sub == "threads" and sea.threads and to_int(value) is not None:
        n = list(sea.threads)[-1]  # the counters of the last "Thread ... #N" banner
        sea.threads[n][snake(key)] = to_int(value)  # type: ignore[assignment]
        sea.lines[f"threads.{n}.{snake(key)}"] = lineno
        return sub, True
    elif sub in ("real", "virtual", "other") and to_int(value) is not None:
        target = {"real": sea.real_side, "virtual": sea.virtual_side, "other": sea.other}[sub]
        k = snake(key)
        if k in target:  # some pasted copies repeat a label; the first one is the real counter
            return sub, True
        target[k] = to_int(value)  # type: ignore[assignment]
        sea.lines[f"{sub}.{k}"] = lineno
        if k == "thread_queue_overflow_packets":
            sea.thread_queue_overflow_packets = target[k]
            sea.lines["thread_queue_overflow_packets"] = lineno
        return sub, True
    else:
        sea.extra[key] = value
        sea.lines[f"extra.{key}"] = lineno
        return sub, True
    sea.lines[snake(key)] = lineno
    return sub, True


def _add_flags(sea: SeaStats, words: list[str]) -> None:
    for w in words:
        w = "_".join(w.split()).upper()
        if w not in sea.flags:
            sea.flags.append(w)
    sea.threaded = "THREAD" in sea.flags


def _read_ha(sea: SeaStats, key: str, value: str, lineno: int) -> None:
    sea.ha[key] = value
    sea.lines[f"ha.{key}"] = lineno
    nkey = norm(key)
    if nkey == "high availability mode":
        sea.ha_mode = value
    elif nkey == "state":
        sea.state = value
    elif nkey == "priority":
        sea.priority = to_int(value)
    elif nkey == "bridge mode":
        sea.bridge_mode = value
    elif nkey == "control channel pvid":
        sea.control_channel_pvid = to_int(value)
    elif nkey == "number of times server became backup":
        sea.times_became_backup = to_int(value)
    elif nkey == "number of times server became primary":
        sea.times_became_primary = to_int(value)
    elif nkey == "vid shared":
        sea.vid_shared = int_list(value) or []
