"""NPIV fan-out: clients per physical port and their spread over the ports (000 §3.6.3;
rules-catalogue S7, S8).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from ...model.estate import Host
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule

MAX_CLIENTS = threshold("npiv_clients_per_port_max", 64,
                        "000 §3.6.3 / catalogue S8, STO-16: at most 64 active vFC clients per physical port (16 Gb or slower)")
IMBALANCE = threshold("npiv_port_imbalance", 2,
                      "NPIV clients are 'unevenly spread' when the busiest NPIV port of a VIOS carries at least this many "
                      "more clients than the least used one (lparscope choice; 000 §3.6.3 asks for an even spread)")


def _mev(m: Any):
    return getattr(m, "_evidence", None)


def _remap(moves: list[tuple[str, str, str]]) -> tuple[list[str], list[str]]:
    fix, undo = [], []
    for vfchost, old, new in moves:
        fix += [f"vfcmap -vadapter {vfchost} -fcp", f"vfcmap -vadapter {vfchost} -fcp {new}"]
        undo += [f"vfcmap -vadapter {vfchost} -fcp", f"vfcmap -vadapter {vfchost} -fcp {old}"]
    return fix, undo


_PATH_NOTE = "# the client loses this path while it is remapped: check on the client (lspath) that another path is Enabled"


@rule(
    id="STO-NPIV-PORT-CLIENTS",
    title="More NPIV clients on one physical FC port than it supports",
    severity="warning",
    category="storage",
    source="000_31a80e54567cd02b.txt §3.6.3; rules-catalogue STO-16, S8",
    rationale="""One physical FC port can be shared by up to 64 virtual FC client adapters (adapters of 16 Gb
    or slower; 32 Gb adapters allow more). Beyond that clients fail to log in, and long before it the
    port can be saturated: add ports and spread the clients.""",
)
def npiv_port_clients(host: Host, cfg: Config) -> Iterator[Finding]:
    limit = int(cfg.t(MAX_CLIENTS))
    by_port: dict[str, list[Any]] = {}
    for m in host.npiv_mappings:
        if m.fc_name:
            by_port.setdefault(m.fc_name, []).append(m)
    for port, maps in sorted(by_port.items()):
        if len(maps) <= limit:
            continue
        extra = sorted(maps, key=lambda m: m.vfchost)[limit:]
        fix, undo = _remap([(m.vfchost, port, "<another NPIV port>") for m in extra])
        yield finding(npiv_port_clients, host, port,
                      f"{port} on {host.name} carries {len(maps)} NPIV client adapters (limit {limit}).",
                      evidence=[_mev(m) for m in maps[:3]],
                      fix=Commands(padmin=["lsnports   # NPIV-capable ports and their free slots (aports)", _PATH_NOTE, *fix]),
                      rollback=Commands(padmin=undo),
                      values={"current": len(maps), "suggested": f"<= {limit}"})


def _npiv_ports(host: Host) -> list[str]:
    """Physical FC ports of a VIOS known from its mappings and device list."""
    ports = {m.fc_name for m in host.npiv_mappings if m.fc_name}
    ports |= {d.name for d in host.by_class("fc") if "virtual" not in d.description.lower()}
    return sorted(ports, key=lambda p: (len(p), p))


@rule(
    id="STO-NPIV-PORT-SPREAD",
    title="NPIV clients unevenly spread over the physical FC ports",
    severity="warning",
    category="storage",
    source="000_31a80e54567cd02b.txt §3.6.3",
    rationale="""Clients sharing one physical port share its bandwidth and its command resources; §3.6.3 asks
    for enough ports on the VIOS and clients spread evenly across them. Uneven: the busiest port has at
    least npiv_port_imbalance more clients than the least used known port. When every client sits on
    the only port the data shows, the finding is informational (other ports may exist but were not
    collected: add lsdev -type adapter or lsnports). An idle port may be reserved for the VIOS's own
    disks or be unable to do NPIV: lsnports tells.""",
)
def npiv_port_spread(host: Host, cfg: Config) -> Iterator[Finding]:
    if not host.is_vios:
        return
    maps = [m for m in host.npiv_mappings if m.fc_name]
    if len(maps) < 2:
        return
    ports = _npiv_ports(host)
    load = Counter({p: 0 for p in ports})
    load.update(m.fc_name for m in maps)
    gap = int(cfg.t(IMBALANCE))
    busiest = max(load.values())
    if len(ports) == 1:
        (port,) = ports
        fix = Commands(padmin=["lsdev -type adapter   # look for other fcs ports", "lsnports",
                               _PATH_NOTE, *_remap([(m.vfchost, port, "<another NPIV port>") for m in maps[len(maps) // 2:]])[0]])
        undo = Commands(padmin=_remap([(m.vfchost, port, "<another NPIV port>") for m in maps[len(maps) // 2:]])[1])
        yield finding(npiv_port_spread, host, port,
                      f"All {len(maps)} NPIV client adapters of {host.name} use {port}; no other FC port of this VIOS "
                      f"is in the data.", evidence=[_mev(m) for m in maps[:4]], fix=fix, rollback=undo,
                      severity="info", values={"current": f"{len(maps)} on {port}", "suggested": "spread over the ports"})
        return
    if busiest - min(load.values()) < gap:
        return
    # greedy moves from the busiest to the least used port until the spread is even (difference <= 1)
    current = dict(load)
    moves: list[tuple[str, str, str]] = []
    pool = {p: sorted((m for m in maps if m.fc_name == p), key=lambda m: m.vfchost) for p in ports}
    while True:
        hi = max(current, key=lambda p: (current[p], p))
        lo = min(current, key=lambda p: (current[p], p))
        if current[hi] - current[lo] <= 1 or not pool[hi]:
            break
        m = pool[hi].pop()
        moves.append((m.vfchost, hi, lo))
        current[hi] -= 1
        current[lo] += 1
    fix, undo = _remap(moves)
    spread = ", ".join(f"{p}: {load[p]}" for p in ports)
    yield finding(npiv_port_spread, host, "NPIV ports",
                  f"NPIV clients of {host.name} per physical port: {spread}.",
                  evidence=[_mev(m) for m in maps[:4]] + [host.devices[p].evidence for p in ports if p in host.devices],
                  fix=Commands(padmin=["lsnports   # confirm the target ports are NPIV-capable (fabric=1)", _PATH_NOTE, *fix]),
                  rollback=Commands(padmin=undo),
                  values={"current": spread, "suggested": ", ".join(f"{p}: {current[p]}" for p in ports)})
