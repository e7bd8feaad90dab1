"""Entitlement additions checked against the shared pool as the partitions themselves saw it.

With no HMC output of a partition's frame, the plan still knows something of its pool: ``lparstat -i``
prints the pool's size ("Maximum Capacity of Pool") and the entitlement of the partitions in it
("Entitled Capacity of Pool"), both in hundredths of a core, when the partition may collect pool
information. Their difference is the entitlement the pool had left when the output was taken.

Additions of the partitions in one pool (same frame serial and shared pool ID; a partition whose
frame serial is unknown is a pool of its own) share that room, after the plan's own reductions in
the pool, exactly as with HMC data: an addition that does not fit is infeasible. The readings of
several partitions of one pool may have been taken at different times: the smallest room wins.

Pool 0 (the default pool) holds every shared core the frame has not given to a user-defined pool,
so its room is what a DLPAR addition draws on. A user-defined pool's room is only half the check:
the frame's unassigned processing units (``lshwres -r proc --level sys``) are not in lparstat, so
such an addition stays unverified for that part.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.estate import Estate, Host
from ..model.frame_join import host_facts
from .merge import _num
from .model import PlannedChange

_RANK = {"limit": 0, "measured": 1, "heuristic": 2}


@dataclass
class _Pool:
    name: str
    room: float | None = None  # smallest pool size minus pool entitlement among its readings
    seen: str = ""  # which host's reading gave it, with the lines
    changes: list[PlannedChange] = field(default_factory=list)


def _reading(host: Host) -> tuple[float, str] | None:
    p = host.partition
    if p is None or not p.shared or p.pool_capacity is None or p.pool_entitled is None:
        return None
    where = " and ".join(str(e) for e in p.ev("pool_capacity", "pool_entitled"))
    return p.pool_capacity - p.pool_entitled, (f"lparstat -i of {host.name}{' at ' + where if where else ''}: "
                                               f"pool size {p.pool_capacity:.2f}, entitled {p.pool_entitled:.2f}")


def check_seen_pools(changes: list[PlannedChange], estate: Estate) -> list[PlannedChange]:
    """Check the entitlement changes of partitions with no frame data against the room their
    ``lparstat -i`` shows; return the additions it could not check (no reading)."""
    pools: dict[tuple[str, int], _Pool] = {}
    unchecked: list[PlannedChange] = []
    for c in changes:
        host = estate.hosts.get(c.host)
        seen = _reading(host) if host is not None else None
        if seen is None:
            unchecked.append(c)
            continue
        pid = host.partition.shared_pool_id or 0  # type: ignore[union-attr]
        serial = host_facts(host).serial
        key = (serial.upper() if serial else f"host {host.name}", pid)  # type: ignore[union-attr]
        name = "DefaultPool" if pid == 0 else f"shared pool {pid}"
        pool = pools.setdefault(key, _Pool(name + (f" of frame {serial}" if serial else "")))
        pool.changes.append(c)
        if pool.room is None or seen[0] < pool.room:
            pool.room, pool.seen = seen
    for (_frame, pid), pool in pools.items():
        _fit(pool, pid)
    return [c for c in unchecked if _num(c.change.target) > _num(c.change.current)]  # type: ignore[operator]


def _fit(pool: _Pool, pid: int) -> None:
    cs = pool.changes
    reductions = [c for c in cs if _num(c.change.target) < _num(c.change.current)]  # type: ignore[operator]
    additions = [c for c in cs if _num(c.change.target) > _num(c.change.current)]  # type: ignore[operator]
    # a DLPAR reduction gives its units back before the additions; a profile one only at its restart
    released = sum(_num(c.change.current) - _num(c.change.target) for c in reductions  # type: ignore[operator,misc]
                   if c.change.method == "dlpar")
    room = max(pool.room or 0.0, 0.0)
    avail = room + released
    for c in sorted(additions, key=lambda c: (_RANK.get(c.change.basis, 3), not c.change.vios, c.host)):
        need = _num(c.change.target) - _num(c.change.current)  # type: ignore[operator]
        if need <= avail + 1e-9:
            avail -= need
            c.notes.append(f"fits {pool.name}: {avail + need:.2f} processing units of room before it, {avail:.2f} "
                           f"after, as the partitions saw the pool when collected ({pool.seen})")
            if pid != 0:
                c.unverified = ("the frame's unassigned processing units are not in the data (a user-defined pool "
                                "draws on them too): check lshwres -r proc --level sys before adding")
        else:
            c.status = "infeasible"
            c.blocked = (f"{pool.name} had {room:.2f} processing units of room when collected ({pool.seen}); "
                         f"{avail:.2f} after the plan's reductions ({released:.2f} released) and this needs "
                         f"{need:.2f}: free capacity first (reduce another partition's entitlement or add cores "
                         f"to the pool), or collect lshwres -r proc --level pool if the pool has changed since")

