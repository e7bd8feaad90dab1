"""Changes to replay: ``--change aix1.ec=1.2``, a changes file, or a plan's partition changes.

Names are the HMC attribute names the plan uses (``desired_proc_units``, ``desired_procs``,
``uncap_weight``, ``sharing_mode``, ``shared_proc_pool_id``, ``desired_mem``, ``max_mem``) or short
aliases (``ec``, ``vp``, ``weight``, ``mode``, ``pool``, ``mem``). A pool is named ``pool<ID>``
with ``max`` (``max_pool_proc_units``) and ``reserved`` (``reserved_pool_proc_units``).

A changes file is JSON (``{"aix1": {"ec": 1.2, "vp": 3}}``) or the small YAML subset of that
shape: one ``host:`` line per partition followed by indented ``key: value`` lines, or
``host: {ec: 1.2, vp: 3}`` on one line; ``#`` starts a comment.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .pool import FrameSettings, PartitionSettings, PoolSettings

ALIASES = {
    "ec": "desired_proc_units", "proc_units": "desired_proc_units", "curr_proc_units": "desired_proc_units",
    "vp": "desired_procs", "vps": "desired_procs", "procs": "desired_procs",
    "weight": "uncap_weight", "mode": "sharing_mode", "pool": "shared_proc_pool_id",
    "mem": "desired_mem", "memory": "desired_mem",
    "max": "max_pool_proc_units", "reserved": "reserved_pool_proc_units",
}
PARTITION_ATTRS = {"desired_proc_units", "desired_procs", "uncap_weight", "sharing_mode",
                   "shared_proc_pool_id", "desired_mem", "max_mem"}
POOL_ATTRS = {"max_pool_proc_units", "reserved_pool_proc_units"}


class ChangeError(ValueError):
    """A change that cannot be read; the message names where (file:line or the option)."""


@dataclass(frozen=True)
class Change:
    target: str  # partition label, or "pool<ID>"
    attr: str  # HMC attribute name
    value: str
    origin: str = ""  # "--change", "file:line" or "plan step N"


def canonical(attr: str) -> str:
    a = attr.strip().lower()
    return ALIASES.get(a, a)


def _make(target: str, attr: str, value: str, origin: str) -> Change:
    a = canonical(attr)
    is_pool = re.fullmatch(r"pool\d+", target.strip().lower()) is not None
    if a not in (POOL_ATTRS if is_pool else PARTITION_ATTRS):
        known = sorted(POOL_ATTRS if is_pool else PARTITION_ATTRS)
        raise ChangeError(f"{origin}: unknown attribute {attr!r} (known: {', '.join(known)} and ec, vp, weight, mode, pool)")
    v = str(value).strip().strip("'\"")
    if a == "sharing_mode":
        if v.lower() not in ("cap", "uncap", "capped", "uncapped"):
            raise ChangeError(f"{origin}: sharing_mode must be cap or uncap, not {v!r}")
        v = "uncap" if v.lower().startswith("uncap") else "cap"
    else:
        try:
            x = float(v)
        except ValueError:
            raise ChangeError(f"{origin}: {attr} needs a number, not {v!r}") from None
        if x != x:  # float() reads "nan": no value to set
            raise ChangeError(f"{origin}: {attr} needs a number, and {v!r} is not a number")
        if x in (float("inf"), float("-inf")):
            raise ChangeError(f"{origin}: {attr} needs a number, and {v!r} is not a finite number")
        if x < 0:
            raise ChangeError(f"{origin}: {attr} must not be negative")
    return Change(target.strip(), a, v, origin)


def parse_option(text: str) -> Change:
    """``aix1.ec=1.2`` -> Change("aix1", "desired_proc_units", "1.2")."""
    m = re.fullmatch(r"\s*(.+)\.([A-Za-z_]+)\s*=\s*(\S+)\s*", text)
    if not m:
        raise ChangeError(f"--change {text!r}: expected HOST.ATTRIBUTE=VALUE, e.g. aix1.ec=1.2")
    return _make(m.group(1), m.group(2), m.group(3), f"--change {text}")


def parse_file(text: str, name: str) -> list[Change]:
    """A JSON or small-YAML mapping of host -> {attribute: value}."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ChangeError(f"{name}:{exc.lineno}: not valid JSON: {exc.msg}") from None
        if not isinstance(data, dict):
            raise ChangeError(f"{name}:1: expected a mapping of host -> settings")
        out = []
        for host, attrs in data.items():
            if not isinstance(attrs, dict):
                raise ChangeError(f"{name}: {host}: expected a mapping of attribute -> value")
            out += [_make(str(host), str(k), str(v), f"{name} ({host})") for k, v in attrs.items()]
        return out
    return _parse_yaml(text, name)


def _parse_yaml(text: str, name: str) -> list[Change]:
    out: list[Change] = []
    host: str | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip() or line.strip() == "---":
            continue
        where = f"{name}:{n}"
        indented = line[0] in " \t"
        m = re.fullmatch(r"\s*([^:\s](?:[^:]*[^:\s])?)\s*:\s*(.*)", line)
        if not m:
            raise ChangeError(f"{where}: expected 'host:' or 'attribute: value'")
        key, rest = m.group(1).strip().strip("'\""), m.group(2).strip()
        if not indented:
            host = key
            if rest:
                inner = re.fullmatch(r"\{(.*)\}", rest)
                if not inner:
                    raise ChangeError(f"{where}: expected '{key}: {{ec: 1.2, vp: 3}}' or attributes on the next lines")
                for item in filter(None, (x.strip() for x in inner.group(1).split(","))):
                    k, sep, v = item.partition(":")
                    if not sep:
                        raise ChangeError(f"{where}: expected 'attribute: value' in {item!r}")
                    out.append(_make(host, k, v, where))
            continue
        if host is None:
            raise ChangeError(f"{where}: attribute before any host line")
        if not rest:
            raise ChangeError(f"{where}: {key} has no value")
        out.append(_make(host, key, rest, where))
    return out


def apply(settings: FrameSettings, changes: list[Change]) -> tuple[FrameSettings, list[Change], list[str]]:
    """Settings with the changes that name this frame's partitions or pools applied.

    Returns the new settings, the changes used and notes (memory changes do not move the
    processor replay; they are checked by the consolidation planner).
    """
    new = settings.copy()
    by_name = {p.name.lower(): p for p in new.partitions}
    used: list[Change] = []
    notes: list[str] = []
    made_uncapped: dict[str, PartitionSettings] = {}  # by name: a partition named twice is noted once
    for c in changes:
        t = c.target.lower()
        if t.startswith("pool") and t[4:].isdigit():
            pid = int(t[4:])
            if not any(p.pool == pid for p in new.partitions):
                continue
            pl = new.pools.setdefault(pid, PoolSettings(pid))
            if c.attr == "max_pool_proc_units":
                pl.max_units = float(c.value)
            else:
                pl.reserved_units = float(c.value)
            used.append(c)
            continue
        p = by_name.get(t) or by_name.get(t.split(".")[0])
        if p is None:
            continue
        used.append(c)
        if c.attr == "desired_proc_units":
            p.ec = float(c.value)
        elif c.attr == "desired_procs":
            p.vp = float(c.value)
        elif c.attr == "uncap_weight":
            p.weight = float(c.value)
        elif c.attr == "sharing_mode":
            p.uncapped = c.value == "uncap"
            if p.uncapped:
                made_uncapped[p.name] = p
        elif c.attr == "shared_proc_pool_id":
            p.pool = int(float(c.value))
        else:
            notes.append(f"{p.name}: {c.attr}={c.value} does not change the processor replay")
    # Once every change is in (a weight set beside the mode counts, whatever their order):
    for p in made_uncapped.values():
        if p.uncapped and p.weight <= 0:
            p.weight = 128.0
            notes.append(f"{p.name}: uncapped with weight 0 gets no spare capacity; replayed with weight 128 (the HMC default)")
    return new, used, notes


def unmatched(changes: list[Change], names: set[str]) -> list[Change]:
    """Changes whose target names no partition or pool of any replayed frame."""
    low = {n.lower() for n in names}
    return [c for c in changes if c.target.lower() not in low and c.target.lower().split(".")[0] not in low]
