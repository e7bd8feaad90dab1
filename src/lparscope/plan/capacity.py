"""Processor and memory additions against the capacity the frame has for them (``feasible`` step 3).

Processor additions must fit their shared pool's free processing units and, all pools together, the
frame's unassigned units (``curr_avail_sys_proc_units``: a user-defined pool's room is no processor of
its own), after the plan's DLPAR reductions, which run first; a reduction that only a restart applies
(a profile change) frees nothing for them. Memory additions fit the frame's free memory likewise, except
an AMS partition's, whose logical memory its shared memory pool backs.
"""

from __future__ import annotations

from ..model.estate import Estate
from ..model.frame_join import host_facts
from ..model.frame import Frame, FramePartition
from .merge import _num
from .model import PlannedChange
from .pool_seen import check_seen_pools


def _pool_of(fr: Frame, fp: FramePartition) -> tuple[int, float | None, float | None, str]:
    pid = fp.pool_id or 0
    size, _ev = fr.pool_size(pid)
    pool = fr.pools.get(pid)
    name = (pool.name if pool is not None and pool.name else None) or ("DefaultPool" if pid == 0 else f"pool {pid}")
    return pid, size, fr.pool_free(pid), name


def pool_capacity(changes: list[PlannedChange], fps: dict, estate: Estate) -> None:
    pools: dict[tuple[str, int], list[PlannedChange]] = {}
    meta: dict[tuple[str, int], tuple[float | None, str]] = {}
    frame_of: dict[str, Frame] = {}
    no_frame: list[PlannedChange] = []  # no HMC output of the partition: lparstat -i's view of its pool
    unknown: list[PlannedChange] = []
    for c in changes:
        if c.change.attribute != "desired_proc_units" or c.status != "planned" or not c.change.on_hmc:
            continue
        fr, fp = fps.get(c.id, (None, None))
        if fr is None or fp is None or not fp.shared:
            if _num(c.change.target) is not None and _num(c.change.current) is not None:
                (no_frame if fp is None else unknown).append(c)
            continue
        pid, _size, free, name = _pool_of(fr, fp)
        pools.setdefault((fr.name, pid), []).append(c)
        meta[(fr.name, pid)] = (free, name)
        frame_of[fr.name] = fr
    no_frame = _on_known_frames(no_frame, estate, pools, meta, frame_of)
    for c in check_seen_pools(no_frame, estate) + unknown:
        if _num(c.change.target) > _num(c.change.current):  # type: ignore[operator]
            c.unverified = ("the pool's free capacity is not in the data (no HMC output of this partition's frame, "
                            "no pool figures in its lparstat -i): check lshwres -r proc --level pool before adding")
    for frame_name, fr in frame_of.items():
        _frame_capacity(fr, {k: cs for k, cs in pools.items() if k[0] == frame_name}, meta)


def _on_known_frames(cs: list[PlannedChange], estate: Estate, pools: dict[tuple[str, int], list[PlannedChange]],
                     meta: dict[tuple[str, int], tuple[float | None, str]], frame_of: dict[str, Frame]) -> list[PlannedChange]:
    """Changes of partitions the HMC listing of their frame does not name, but whose frame serial
    (prtconf, nmon, sys0) is a frame in the data: they draw on that frame's pool like the others (the
    pool room their own lparstat -i shows would count the same units twice). Return the others."""
    by_serial = {fr.serial.upper(): fr for fr in estate.frames.values() if fr.serial}
    rest: list[PlannedChange] = []
    for c in cs:
        host = estate.hosts.get(c.host)
        serial = host_facts(host).serial if host is not None else None
        fr = by_serial.get(serial.upper()) if serial else None
        part = host.partition if host is not None else None
        if fr is None or part is None or not part.shared:
            rest.append(c)
            continue
        pid = part.shared_pool_id or 0
        pool = fr.pools.get(pid)
        name = (pool.name if pool is not None and pool.name else None) or ("DefaultPool" if pid == 0 else f"pool {pid}")
        pools.setdefault((fr.name, pid), []).append(c)
        meta[(fr.name, pid)] = (fr.pool_free(pid), name)
        frame_of[fr.name] = fr
        c.notes.append(f"on {fr.name} by its frame serial {serial} (its HMC listing does not name this partition)")
    return rest


def _released(c: PlannedChange) -> float:
    """Processing units a reduction gives back before the additions: a DLPAR reduction runs in the first
    step; a profile reduction only when its partition restarts, after the DLPAR steps."""
    if c.change.method != "dlpar":
        return 0.0
    return max(_num(c.change.current) - _num(c.change.target), 0.0)  # type: ignore[operator]


def _frame_capacity(fr: Frame, pools: dict[tuple[str, int], list[PlannedChange]],
                    meta: dict[tuple[str, int], tuple[float | None, str]]) -> None:
    """Additions of every pool of one frame against their pool's room and the frame's unassigned units,
    which all pools draw on (a user-defined pool's room is no processor of its own)."""
    rank = {"limit": 0, "measured": 1, "heuristic": 2}
    released = {k: sum(_released(c) for c in cs if _num(c.change.target) < _num(c.change.current))  # type: ignore[operator]
                for k, cs in pools.items()}
    budget = None if fr.cores_available is None else fr.cores_available + sum(released.values())
    avail: dict[tuple[str, int], float | None] = {}
    additions: list[tuple[tuple[str, int], PlannedChange]] = []
    for k, cs in pools.items():
        free, name = meta[k]
        avail[k] = None if free is None else free + released[k]
        for c in cs:
            if _num(c.change.target) > _num(c.change.current):  # type: ignore[operator]
                if free is None:
                    c.unverified = f"the free capacity of {name} on {k[0]} is not in the data"
                else:
                    additions.append((k, c))
    for k, c in sorted(additions, key=lambda kc: (rank[kc[1].change.basis], not kc[1].change.vios, kc[1].host)):
        free, name = meta[k]
        need = _num(c.change.target) - _num(c.change.current)  # type: ignore[operator]
        room = avail[k]
        assert room is not None
        if need <= room + 1e-9 and (budget is None or need <= budget + 1e-9):
            avail[k] = room - need
            if budget is not None:
                budget -= need
            c.notes.append(f"fits {name} on {k[0]}: {room:.2f} processing units free before it, {room - need:.2f} after"
                           + (f" ({budget:.2f} unassigned on the frame after it)" if budget is not None and k[1] else ""))
        else:
            c.status = "infeasible"
            taken = (free or 0.0) + released[k] - room  # what the additions placed before this one took
            short = (f"{name} on {k[0]} has {room:.2f} processing units left for it ({free:.2f} free now + "
                     f"{released[k]:.2f} released by the plan's DLPAR reductions"
                     + (f" - {taken:.2f} taken by its additions placed first" if taken > 1e-9 else "") + ")"
                     if need > room + 1e-9 else
                     f"{k[0]} has {budget:.2f} unassigned processing units left for all its pools after the plan's "
                     f"other additions and DLPAR reductions")
            c.blocked = (f"{short} and this needs {need:.2f}: free capacity first (reduce another partition's "
                         f"entitlement or add cores)")


def memory_capacity(changes: list[PlannedChange], fps: dict) -> None:
    frames: dict[str, list[PlannedChange]] = {}
    fobj: dict[str, Frame] = {}
    for c in changes:
        if c.change.attribute != "desired_mem" or c.status != "planned" or not c.change.on_hmc:
            continue
        fr, fp = fps.get(c.id, (None, None))
        if fp is not None and (fp.mem_mode or "").lower() == "shared":
            # Active Memory Sharing: logical memory, backed by the shared memory pool, not by free memory
            c.notes.append("an AMS partition's logical memory comes from its shared memory pool, not from the "
                           "frame's free memory")
            if _num(c.change.target) is not None and _num(c.change.current) is not None and \
                    _num(c.change.target) > _num(c.change.current):  # type: ignore[operator]
                c.unverified = ("the shared memory pool's room and overcommitment are not checked: look at "
                                "lshwres -r mempool before adding (the pool pages to its paging devices when short)")
            continue
        if fr is None or fr.mem_available is None:
            continue
        frames.setdefault(fr.name, []).append(c)
        fobj[fr.name] = fr
    for name, cs in frames.items():
        avail = float(fobj[name].mem_available or 0)
        avail += sum(_num(c.change.current) - _num(c.change.target) for c in cs  # type: ignore[operator,misc]
                     if _num(c.change.target) < _num(c.change.current) and c.change.method == "dlpar")  # type: ignore[operator]
        for c in sorted(cs, key=lambda c: c.host):
            need = _num(c.change.target) - _num(c.change.current)  # type: ignore[operator]
            if need <= 0:
                continue
            if need <= avail:
                avail -= need
            else:
                c.status = "infeasible"
                c.blocked = f"{name} has {avail:.0f} MB of memory free after the plan's reductions and this needs {need:.0f} MB"
