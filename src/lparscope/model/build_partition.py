"""The partition a host runs in, from ``lparstat -i`` (or an nmon recording's copy of it), or a Linux
partition's ``/proc/ppc64/lparcfg`` (the same settings under the kernel's names).

A host has one partition. When a second ``lparstat -i`` of the same host name is read with other
values, the data holds either two collections of one partition (a DLPAR change between them) or
two partitions that share a host name (``db01`` on two frames). The values read last are kept, as
before, but each difference is said, with where the earlier value was read, so the administrator
knows which collection the report stands on.
"""

from __future__ import annotations

from typing import Any

from ..sources.base import Parsed
from .appliers import applies
from .estate import Evidence, Host, Partition, Sourced

_PARTITION_FIELDS = {
    # Partition field: LparInfo field
    "name": "partition_name", "number": "partition_number", "type": "type", "mode": "mode",
    "entitled_capacity": "entitled_capacity", "online_vps": "online_virtual_cpus",
    "max_vps": "maximum_virtual_cpus", "weight": "variable_capacity_weight",
    "online_memory_mb": "online_memory_mb", "max_memory_mb": "maximum_memory_mb",
    "min_memory_mb": "minimum_memory_mb", "memory_mode": "memory_mode",
    "ame_factor": "target_memory_expansion_factor", "ame_size_mb": "target_memory_expansion_size_mb",
    "shared_pool_id": "shared_pool_id", "pool_cores": "active_cpus_in_pool",
    "system_cores": "active_physical_cpus_in_system",
}

# The fields compared between two readings of one host, with how they are named
_COMPARED = {"number": "partition number", "name": "partition name", "type": "type", "mode": "mode",
             "entitled_capacity": "entitled capacity", "online_vps": "online virtual processors",
             "online_memory_mb": "online memory (MB)"}


def _partition_of(info: Any, path: str, offset: int) -> Partition:
    """The partition an :class:`~lparscope.sources.lparstat_info.LparInfo` describes, each field's evidence at its line."""
    p = Partition()
    lines = getattr(info, "lines", {}) or {}
    for ours, theirs in _PARTITION_FIELDS.items():
        value = getattr(info, theirs, None)
        setattr(p, ours, value)
        if theirs in lines:
            p.evidence[ours] = Evidence(path, offset + lines[theirs])
    for ours, theirs in (("pool_capacity", "maximum_capacity_of_pool"), ("pool_entitled", "entitled_capacity_of_pool")):
        hundredths = getattr(info, theirs, None)
        setattr(p, ours, hundredths / 100 if isinstance(hundredths, (int, float)) else None)
        if theirs in lines:
            p.evidence[ours] = Evidence(path, offset + lines[theirs])
    return p


@applies("lparstat-i")
def _lparstat_info(host: Host, parsed: Parsed, path: str, offset: int) -> list[tuple[int, str]]:
    said: list[tuple[int, str]] = []
    for info in parsed.records:
        p = _partition_of(info, path, offset)
        if host.partition is not None and host.partition.source == "lparstat -i":
            said += _differences(host, host.partition, p, getattr(info, "lines", {}) or {})
        host.partition = p
    return said


@applies("lparcfg")
def _lparcfg(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    """A Linux partition's /proc/ppc64/lparcfg: its settings as lparstat -i's (an lparstat -i read before
    keeps its values, lparcfg fills only what it left unsaid), and the frame serial, model and partition
    id for the frame join (prtconf, read before or after, wins: it is the AIX host's own word)."""
    for rec in parsed.records:
        kind = type(rec).__name__
        if kind == "SystemConfig" and host.system is None:
            host.system = Sourced(rec, path, offset)
        elif kind == "LparInfo":
            p = _partition_of(rec, path, offset)
            p.source = "lparcfg (Linux)"
            before = host.partition
            if before is None or before.source != "lparstat -i":
                host.partition = p
                continue
            for name, ev in p.evidence.items():  # what lparstat -i did not say
                if getattr(before, name) is None:
                    setattr(before, name, getattr(p, name))
                    before.evidence[name] = ev


def _differences(host: Host, before: Partition, now: Partition, lines: dict[str, Any]) -> list[tuple[int, str]]:
    """(line in this output, what differs) for each compared field both readings give."""
    out: list[tuple[int, str]] = []
    for ours, label in _COMPARED.items():
        old, new = getattr(before, ours), getattr(now, ours)
        if old is None or new is None or old == new:
            continue
        where = before.evidence.get(ours)
        why = ("two partitions with one host name, or one collected twice" if ours in ("number", "name")
               else "two collections of one partition, taken before and after a change")
        out.append((lines.get(_PARTITION_FIELDS[ours], 1),
                    f"{host.name}: {label} {new} here, {old} in the lparstat -i read before"
                    f"{f' ({where})' if where else ''}: {why}; the values read last are used"))
    return out


def partition_from_header(cfg: Any, ev: Evidence, command: str = "lparstat") -> Partition | None:
    """The partition settings lparstat's header line gives (type, mode, EC, memory, pool size), for a host
    without lparstat -i (a Linux partition's powerpc-utils lparstat has no -i of the same form).
    lparstat -i, read later, replaces it."""
    if cfg.ent is None and cfg.type is None:
        return None
    smt = int(cfg.smt) if isinstance(cfg.smt, str) and cfg.smt.isdigit() else None
    kind = cfg.type
    if kind and smt and "-" not in kind:
        kind = f"{kind}-SMT-{smt}" if smt > 1 else kind
    ame = (cfg.mmode or "").endswith("-E")
    # no VP count: the logical CPUs over SMT threads is not one when some threads are off
    p = Partition(type=kind, mode=cfg.mode, entitled_capacity=cfg.ent,
                  online_memory_mb=cfg.tmem_mb if ame and cfg.tmem_mb else cfg.mem_mb,
                  memory_mode="Dedicated-Expanded" if ame else None,
                  pool_cores=int(cfg.psize) if cfg.psize and float(cfg.psize).is_integer() else None,
                  source=f"{command} header" + (" (Linux)" if getattr(cfg, "platform", "aix") == "linux" else ""))
    for name in ("type", "mode", "entitled_capacity", "online_memory_mb", "pool_cores"):
        if getattr(p, name) is not None:
            p.evidence[name] = ev
    return p
