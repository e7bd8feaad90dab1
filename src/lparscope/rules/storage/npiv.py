"""NPIV fan-out: clients per physical port and their spread over the ports, and ports whose switch
does not do NPIV (000 §3.6.3; rules-catalogue S7, S8, STO-16). With the VIOS's lsnports, a port's
own limit (tports) replaces the 64 of the documents and remaps name a real NPIV-capable port.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from ...model.estate import Host
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from ..host_facts import npiv_ports

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
_ANOTHER = "<another NPIV port>"


def _target(host: Host, load: Counter, source: str, wanted: int = 1) -> str:
    """The NPIV-capable port (lsnports fabric=1) on ``source``'s switch with the most free virtual ports
    for ``wanted`` more clients, other than ``source``; a placeholder when lsnports was not collected
    or no port fits."""
    ports = npiv_ports(host)
    fits = [name for name, s in ports.items() if name != source and s.record.fabric == 1
            and (s.record.aports or 0) - load[name] >= wanted and _same_switch(host, source, name)]
    return max(fits, key=lambda p: ((ports[p].record.aports or 0) - load[p], p)) if fits else _ANOTHER


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
    ports = npiv_ports(host)
    by_port: dict[str, list[Any]] = {}
    for m in host.npiv_mappings:
        if m.fc_name:
            by_port.setdefault(m.fc_name, []).append(m)
    load = Counter({p: len(maps) for p, maps in by_port.items()})
    for port, maps in sorted(by_port.items()):
        own = ports.get(port)
        limit = own.record.tports if own is not None and own.record.tports else int(cfg.t(MAX_CLIENTS))
        if len(maps) <= limit:
            continue
        extra = sorted(maps, key=lambda m: m.vfchost)[limit:]
        target = _target(host, load, port, len(extra))
        fix, undo = _remap([(m.vfchost, port, target) for m in extra])
        yield finding(npiv_port_clients, host, port,
                      f"{port} on {host.name} carries {len(maps)} NPIV client adapters (limit {limit}"
                      f"{', lsnports tports' if own is not None and own.record.tports else ''}).",
                      evidence=[_mev(m) for m in maps[:3]] + ([own.ev()] if own is not None else []),
                      fix=Commands(padmin=["lsnports   # NPIV-capable ports and their free slots (aports)", _PATH_NOTE, *fix]),
                      rollback=Commands(padmin=undo),
                      values={"current": len(maps), "suggested": f"<= {limit}"})


def _npiv_ports(host: Host) -> list[str]:
    """Physical FC ports of a VIOS that can take NPIV clients: those lsnports lists with fabric=1 when it
    was collected (a port on a switch without NPIV is STO-NPIV-PORT-NO-FABRIC's), else every port known
    from the mappings and the device list."""
    ports = {m.fc_name for m in host.npiv_mappings if m.fc_name}
    ports |= {d.name for d in host.by_class("fc") if "virtual" not in d.description.lower()}
    listed = npiv_ports(host)
    if listed:
        ports = {p for p in ports | set(listed) if p in listed and listed[p].record.fabric == 1}
    stats = {p: _fc_stats(host, p) for p in ports}
    if any(st is not None for st in stats.values()):  # fcstat was collected: only ports it shows up on a fabric
        ports = {p for p, st in stats.items() if st is not None and _on_fabric(st)}
    return sorted(ports, key=lambda p: (len(p), p))


def _fc_stats(host: Host, port: str) -> Any:
    dev = host.devices.get(port)
    st = getattr(dev, "stats", None) if dev is not None else None
    return st if type(st).__name__ == "FcAdapterStats" else None


def _on_fabric(st: Any) -> bool:
    """The port's link is up on a switch (fcstat Attention Type, Port Type), as far as fcstat says."""
    attention = (st.attributes.get("attention_type") or "").lower()
    return "down" not in attention and (st.port_type or "Fabric").strip().lower() == "fabric"


def _domain(host: Host, port: str) -> str | None:
    """The switch domain of the port's N_Port ID (fcstat Port FC ID 0x086280 -> 08): ports of one domain are on one switch."""
    st = _fc_stats(host, port)
    fc_id = (getattr(st, "port_fc_id", None) or "").lower().removeprefix("0x")
    return fc_id[:2] if len(fc_id) == 6 else None


def _same_switch(host: Host, a: str, b: str) -> bool:
    """Whether a client may move from port ``a`` to ``b`` (its WWPNs are zoned on ``a``'s switch): the same
    switch domain, as far as fcstat tells them."""
    da, db = _domain(host, a), _domain(host, b)
    return da is None or db is None or da == db


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
    ports = _npiv_ports(host)
    maps = [m for m in host.npiv_mappings if m.fc_name in ports]
    if len(maps) < 2:
        return
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
        same = [p for p in current if p != hi and _same_switch(host, hi, p)]
        if not same:
            break
        lo = min(same, key=lambda p: (current[p], p))
        if current[hi] - current[lo] <= 1 or not pool[hi]:
            break
        m = pool[hi].pop()
        moves.append((m.vfchost, hi, lo))
        current[hi] -= 1
        current[lo] += 1
    if not moves:  # even on each switch: the idle ports are on another one (the clients are not zoned there)
        return
    fix, undo = _remap(moves)
    spread = ", ".join(f"{p}: {load[p]}" for p in ports)
    yield finding(npiv_port_spread, host, "NPIV ports",
                  f"NPIV clients of {host.name} per physical port: {spread}.",
                  evidence=[_mev(m) for m in maps[:4]] + [host.devices[p].evidence for p in ports if p in host.devices],
                  fix=Commands(padmin=["lsnports   # confirm the target ports are NPIV-capable (fabric=1)", _PATH_NOTE,
                                       "# each client's WWPNs must be zoned on the switch of its new port", *fix]),
                  rollback=Commands(padmin=undo),
                  values={"current": spread, "suggested": ", ".join(f"{p}: {current[p]}" for p in ports)})


@rule(
    id="STO-NPIV-PORT-NO-FABRIC",
    title="NPIV clients mapped to a port whose switch does not do NPIV",
    severity="critical",
    category="storage",
    source="rules-catalogue STO-16",
    rationale="""A virtual FC client logs in to the SAN through the physical port it is mapped to, and it can
    only do so when the switch port cabled to it supports NPIV: lsnports shows fabric=1. On a port with
    fabric=0 the mapped clients cannot log in, so that VIOS gives them no path to their disks. Map them to
    a port with fabric=1 and free virtual ports, or enable NPIV on the switch port.""",
)
def npiv_port_no_fabric(host: Host, cfg: Config) -> Iterator[Finding]:
    ports = npiv_ports(host)
    load = Counter(m.fc_name for m in host.npiv_mappings if m.fc_name)
    for port in sorted(p for p in load if p in ports and ports[p].record.fabric == 0):
        maps = sorted((m for m in host.npiv_mappings if m.fc_name == port), key=lambda m: m.vfchost)
        own = ports[port]
        target = _target(host, load, port, len(maps))
        if target == _ANOTHER:  # no port can take them: the switch side is the fix
            fix = Commands(padmin=["lsnports", f"# no other port of {host.name} has fabric=1 and {len(maps)} free "
                                   f"virtual ports: enable NPIV on the switch port cabled to {own.record.physloc}"])
            undo = Commands(padmin=["# nothing is changed on the VIOS"])
        else:
            moved, back = _remap([(m.vfchost, port, target) for m in maps])
            fix, undo = Commands(padmin=["lsnports", _PATH_NOTE, *moved]), Commands(padmin=back)
        yield finding(npiv_port_no_fabric, host, port,
                      f"{port} on {host.name} ({own.record.physloc}) reports fabric=0, and {len(maps)} NPIV client "
                      f"adapter{'s are' if len(maps) > 1 else ' is'} mapped to it: "
                      f"{', '.join(m.vfchost for m in maps[:6])}{' ...' if len(maps) > 6 else ''}.",
                      evidence=[own.ev()] + [_mev(m) for m in maps[:3]], fix=fix, rollback=undo,
                      values={"current": f"{port} fabric=0", "suggested": target if target != _ANOTHER
                              else "a switch port with NPIV"})
