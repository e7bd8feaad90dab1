"""Feasibility of the merged targets against the frame as the data shows it.

Checked, in this order, for every partition with HMC changes:

1. **Maxima and minima.** DLPAR cannot move a value past the partition's running maximum /
   minimum (``curr_max_proc_units``, ``curr_max_procs``, ``curr_max_mem`` ...): such a change goes
   the profile path (the profile's maximum is raised with it, the value applies at the next
   activation, a partition restart).
2. **Measured peak.** VPs are never cut below the peak the HMC measured for the partition
   (lslparutil, at least 12 samples) plus one of headroom (rules-catalogue S2): a VP count sized
   from a short series must not starve it.
3. **Pool capacity.** Processor additions must fit the pool's free processing units after the
   plan's own reductions (reductions are ordered first): free = the pool's size minus the
   entitlement of its running partitions, and never more than the system's unassigned units
   (``curr_avail_sys_proc_units``). An addition that does not fit is infeasible, with what
   blocks it. Memory additions likewise fit the system's free memory. A partition with no HMC
   output of its frame is checked against the pool room its own ``lparstat -i`` showed
   (``plan.pool_seen``); with neither, the addition is marked unverified.
4. **Virtual processor limits.** VPs never above the pool's cores; VPs within what the final
   entitlement allows on the frame's POWER generation (``lparscope.model.generation``): a VP count
   outside is moved inside (the limit wins).
5. **Profiles against the pool.** The profiles' desired processing units of a pool's partitions,
   with the plan applied, must fit the pool, or they cannot all be activated together.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..model.estate import Estate
from ..model.frame import Frame, FramePartition
from ..model.generation import generation_of, label, vp_range
from .merge import _num
from .model import PlannedChange
from .capacity import memory_capacity, pool_capacity
from .sequence import dlpar_path

NewChange = Callable[[PlannedChange, str, Any, str, str], PlannedChange]

# (attribute, profile maximum, running maximum field of FramePartition, minimum attr, running minimum field)
_LIMITS = (("desired_proc_units", "max_proc_units", "max_ec", "min_proc_units", "min_ec"),
           ("desired_procs", "max_procs", "max_vps", "min_procs", "min_vps"),
           ("desired_mem", "max_mem", "mem_max", "min_mem", "mem_min"))


def _value(c: PlannedChange | None, fallback: Any) -> float | None:
    if c is not None and c.status == "planned":
        return _num(c.change.target)
    return _num(fallback)


def check(changes: list[PlannedChange], estate: Estate, fps: dict[str, tuple[Frame | None, FramePartition | None]],
          new_change: NewChange) -> list[str]:
    """Adjust or block ``changes`` in place (new limit changes are appended); return frame-wide problems."""
    checks: list[str] = []
    groups: dict[tuple[str | None, str], dict[str, PlannedChange]] = {}
    for c in changes:
        if c.change.on_hmc and c.change.kind in ("partition", "profile"):
            groups.setdefault((c.frame, c.lpar or c.change.object), {})[c.change.attribute] = c
    for attrs in groups.values():
        _maxima(attrs, estate, fps, changes, new_change)
    _measured_vp_floor(changes, fps, estate)
    waiting: dict[int, tuple[PlannedChange, str]] = {}  # a VP change moved to the profile with the EC one: its note
    for attrs in groups.values():
        moved = _vp_limits(attrs, estate, fps, changes, new_change)
        if moved is not None:
            waiting[id(attrs)] = moved
        _dlpar_or_profile(attrs, fps)
    pool_capacity(changes, fps, estate)
    memory_capacity(changes, fps)
    for attrs in groups.values():  # an EC addition the pool cannot take leaves the EC as it is: VPs again
        ec = attrs.get("desired_proc_units")
        if ec is not None and ec.status == "infeasible":
            if id(attrs) in waiting and waiting[id(attrs)][0] is attrs.get("desired_procs"):
                vp, note = waiting[id(attrs)]
                vp.change.method = "dlpar"  # it waited for that EC change's restart, which will not come
                vp.notes.remove(note)
            _vp_limits(attrs, estate, fps, changes, new_change)
    checks += _profiles_fit(changes, fps)
    return checks


def _first(attrs: dict[str, PlannedChange]) -> PlannedChange:
    return next(iter(attrs.values()))


def _maxima(attrs: dict[str, PlannedChange], estate: Estate, fps: dict, changes: list[PlannedChange],
            new_change: NewChange) -> None:
    any_c = _first(attrs)
    fr, fp = fps.get(any_c.id, (None, None))
    host = estate.hosts.get(any_c.host)
    host_p = host.partition if host is not None else None
    for attr, max_attr, max_field, min_attr, min_field in _LIMITS:
        c = attrs.get(attr)
        if c is None or c.status != "planned":
            continue
        t = _num(c.change.target)
        run_max = _num(getattr(fp, max_field, None)) if fp is not None else None
        run_min = _num(getattr(fp, min_field, None)) if fp is not None else None
        if fp is None:
            if host_p is not None and attr == "desired_procs":
                run_max = _num(host_p.max_vps)
            if host_p is not None and attr == "desired_mem":
                run_max = _num(host_p.max_memory_mb)
                run_min = _num(host_p.min_memory_mb)
        for bound_attr, run, above in ((max_attr, run_max, True), (min_attr, run_min, False)):
            if t is None or run is None or (t <= run + 1e-9 if above else t >= run - 1e-9):
                continue
            word = "maximum" if above else "minimum"
            if c.change.method == "dlpar":
                c.change.method = "profile"
            c.notes.append(f"{t:g} is {'above' if above else 'below'} the running {word} {run:g}: DLPAR refuses it, "
                           f"so the profile's {bound_attr} changes with it and the value applies at the next "
                           f"activation from the profile (partition restart)")
            existing = attrs.get(bound_attr)
            if existing is not None and existing.status == "planned":
                et = _num(existing.change.target)
                if et is not None and ((above and et < t) or (not above and et > t)):
                    existing.notes.append(f"moved from {et:g} to {t:g} so that {attr} {t:g} fits")
                    existing.change.target = c.change.target
            else:
                extra = new_change(c, bound_attr, c.change.target, "profile",
                                   f"profile {word} so that {attr} {t:g} can be activated")
                extra.change.current = run
                extra.serves = c.id  # without that value, no reason to move the limit
                attrs[bound_attr] = extra
                changes.append(extra)
    # a lowered maximum never goes below the value the plan sets
    for attr, max_attr, _mf, _ma, _mi in _LIMITS:
        mx, c = attrs.get(max_attr), attrs.get(attr)
        if mx is None or mx.status != "planned":
            continue
        floor = _value(c, None)
        if floor is None and fp is not None:
            floor = _num({"desired_proc_units": fp.ec, "desired_procs": fp.vps, "desired_mem": fp.mem}[attr])
        if floor is not None and _num(mx.change.target) is not None and _num(mx.change.target) < floor:  # type: ignore[operator]
            mx.notes.append(f"raised from {mx.change.target} to {floor:g}: the maximum cannot be below {attr}")
            mx.change.target = floor


def _vp_limits(attrs: dict[str, PlannedChange], estate: Estate, fps: dict, changes: list[PlannedChange],
               new_change: NewChange) -> tuple[PlannedChange, str] | None:
    """VPs within what the EC allows; returns the change _one_moment moved to the profile, with its note."""
    gen = _vp_range_fit(attrs, estate, fps, changes, new_change)
    any_c = _first(attrs)
    fr, fp = fps.get(any_c.id, (None, None))
    host = estate.hosts.get(any_c.host)
    if fp is None or fp.shared:
        return _one_moment(attrs.get("desired_proc_units"), attrs.get("desired_procs"), fp,
                           host.partition if host is not None else None, gen)
    return None


def _vp_range_fit(attrs: dict[str, PlannedChange], estate: Estate, fps: dict, changes: list[PlannedChange],
                  new_change: NewChange) -> float | None:
    """VPs moved within what the final EC allows; the frame's (or host's) POWER generation."""
    any_c = _first(attrs)
    fr, fp = fps.get(any_c.id, (None, None))
    host = estate.hosts.get(any_c.host)
    hp = host.partition if host is not None else None
    if fp is not None and not fp.shared:
        return None
    if fp is None and (hp is None or not hp.shared):
        return None
    ec_c, vp_c = attrs.get("desired_proc_units"), attrs.get("desired_procs")
    ec = _value(ec_c, fp.ec if fp is not None else hp.entitled_capacity)  # type: ignore[union-attr]
    vp = _value(vp_c, fp.vps if fp is not None else hp.online_vps)  # type: ignore[union-attr]
    gen = generation_of(fr.model) if fr is not None else None
    gen_from = f"{fr.name} is a {fr.model} ({label(gen)})" if gen is not None and fr is not None else ""
    if gen is None and host is not None:
        gen, gen_from = _host_generation(host)
    if ec is None or vp is None:
        return gen
    pool_cores = None
    if fr is not None and fp is not None:
        size, _ = fr.pool_size(fp.pool_id or 0)
        pool_cores = math.floor(size + 1e-9) if size else None
    elif hp is not None:
        pool_cores = hp.pool_cores
    lo, hi = vp_range(ec, gen)
    why = f"EC {ec:.2f} allows {lo}..{hi} VPs" + (f" ({gen_from})" if gen_from else " (generation unknown: POWER7+ limit)")
    if pool_cores:
        if hi > pool_cores:
            hi, why = pool_cores, why + f"; the pool has {pool_cores} cores"
        lo = min(lo, hi)
    if lo <= vp <= hi:
        return gen
    want = hi if vp > hi else lo
    if vp_c is not None and vp_c.status == "planned":
        vp_c.notes.append(f"moved from {vp:g} to {want}: {why}")
        vp_c.change.target = want
        if vp_c.change.basis != "limit":
            vp_c.change.basis = "limit"
        return gen
    base = ec_c or any_c
    extra = new_change(base, "desired_procs", want, "dlpar", why)
    extra.change.current = int(vp)
    attrs["desired_procs"] = extra
    changes.append(extra)
    return gen


def _dlpar_or_profile(attrs: dict[str, PlannedChange], fps: dict) -> None:
    """A partition's processor changes that no order of DLPAR commands can make (each must leave the
    partition valid) are made in its profile together, applied at the restart."""
    fr, fp = fps.get(_first(attrs).id, (None, None))
    procs = [c for a, c in attrs.items() if a in ("desired_proc_units", "desired_procs")]
    if dlpar_path(procs, fr, fp):
        return
    for c in procs:
        if c.status == "planned" and c.change.method == "dlpar":
            c.change.method = "profile"
            c.notes.append("no order of DLPAR commands keeps the partition valid on the way (each VP carries "
                           "between its minimum share and one processing unit): set in the profile with the "
                           "other processor values and applied at the restart")


def _one_moment(ec_c: PlannedChange | None, vp_c: PlannedChange | None, fp: FramePartition | None, hp: Any,
                gen: float | None) -> tuple[PlannedChange, str] | None:
    """An EC and a VP change of one partition applied at different moments (one by DLPAR now, the other
    with the profile at the restart): the DLPAR one must hold with the other's running value, else it
    goes with the profile too (the HMC refuses, e.g., 1 VP while the EC is still 4.0)."""
    if ec_c is None or vp_c is None or ec_c.status != "planned" or vp_c.status != "planned":
        return None
    if ec_c.change.method == vp_c.change.method:
        return None  # applied in one step, in an order that holds (plan/sequence.py)
    now, later = (ec_c, vp_c) if ec_c.change.method == "dlpar" else (vp_c, ec_c)
    run_ec = _num(fp.ec if fp is not None else getattr(hp, "entitled_capacity", None))
    run_vp = _num(fp.vps if fp is not None else getattr(hp, "online_vps", None))
    ec = _num(ec_c.change.target) if now is ec_c else run_ec
    vp = _num(vp_c.change.target) if now is vp_c else run_vp
    if ec is None or vp is None:
        return None
    lo, hi = vp_range(ec, gen)
    if lo <= vp <= hi:
        return None
    now.change.method = "profile"
    running = run_ec if later is ec_c else run_vp
    note = (f"goes with the profile change of {later.change.attribute}: while it stays {running:g} until the "
            f"restart, {now.change.attribute} {_num(now.change.target):g} is outside what the HMC allows "
            f"(EC {ec:.2f} allows {lo}..{hi} VPs), so DLPAR would refuse it now")
    now.notes.append(note)
    return now, note


def _host_generation(host: Any) -> tuple[float | None, str]:
    try:
        from ..rules.host_facts import power_generation
    except ImportError:  # pragma: no cover - the rules package moves; generation then comes from the frame only
        return None, ""
    gen, what, _ev = power_generation(host)
    return gen, what


def _profiles_fit(changes: list[PlannedChange], fps: dict) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    planned: dict[tuple[str, str], float] = {}
    frames: dict[str, Frame] = {}
    for c in changes:
        fr, _fp = fps.get(c.id, (None, None))
        if fr is None:
            continue
        frames[fr.name] = fr
        if c.change.attribute == "desired_proc_units" and c.status == "planned" and c.lpar:
            planned[(fr.name, c.lpar)] = float(_num(c.change.target) or 0.0)
    for fr in frames.values():
        if fr.name in seen:
            continue
        seen.add(fr.name)
        by_pool: dict[int, float] = {}
        for p in fr.partitions.values():
            if not p.shared:
                continue
            units = planned.get((fr.name, p.name))
            if units is None:
                units = _num(p.profile.get("desired_proc_units")) or p.ec or 0.0
            by_pool[p.pool_id or 0] = by_pool.get(p.pool_id or 0, 0.0) + units
        for pid, total in sorted(by_pool.items()):
            size, _ = fr.pool_size(pid)
            if size is not None and total > size + 1e-9:
                out.append(f"{fr.name} pool {pid}: the profiles ask {total:.2f} processing units with the plan applied, "
                           f"the pool has {size:.2f}: not every partition can be activated from its profile at once")
    return out


def frame_totals(changes: list[PlannedChange], estate: Estate) -> list[dict[str, Any]]:
    """Per frame and pool: entitlement, virtual processors and memory before and after the plan
    (planned changes only, DLPAR and profile alike), and the pool's free units."""
    out: list[dict[str, Any]] = []
    planned = {(c.frame, c.lpar, c.change.attribute): _num(c.change.target)
               for c in changes if c.status == "planned" and c.change.on_hmc}
    for fr in sorted(estate.frames.values(), key=lambda f: f.name):
        pools: dict[int, dict[str, float]] = {}
        mem_before = mem_after = 0.0
        for p in fr.partitions.values():
            if p.mem:
                mem_before += p.mem
                mem_after += planned.get((fr.name, p.name, "desired_mem")) or p.mem
            if not p.shared or not p.running_now:
                continue
            t = pools.setdefault(p.pool_id or 0, {"ec_before": 0.0, "ec_after": 0.0, "vp_before": 0.0, "vp_after": 0.0})
            t["ec_before"] += p.ec or 0.0
            t["ec_after"] += planned.get((fr.name, p.name, "desired_proc_units")) or p.ec or 0.0
            t["vp_before"] += p.vps or 0
            t["vp_after"] += planned.get((fr.name, p.name, "desired_procs")) or p.vps or 0
        for pid, t in sorted(pools.items()):
            size, _ = fr.pool_size(pid)
            free = fr.pool_free(pid)  # the one computation of a pool's free units (model/frame.py)
            pool = fr.pools.get(pid)
            out.append({"frame": fr.name, "model": fr.model, "generation": label(generation_of(fr.model)),
                        "pool_id": pid, "pool": (pool.name if pool is not None and pool.name else None)
                        or ("DefaultPool" if pid == 0 else f"pool {pid}"), "pool_size": size,
                        "ec_before": round(t["ec_before"], 2), "ec_after": round(t["ec_after"], 2),
                        "vp_before": int(t["vp_before"]), "vp_after": int(t["vp_after"]),
                        "free_before": None if free is None else round(free, 2),
                        "free_after": None if free is None else round(free - (t["ec_after"] - t["ec_before"]), 2),
                        "memory_mb_before": int(mem_before), "memory_mb_after": int(mem_after),
                        "memory_mb_free_before": fr.mem_available,
                        "memory_mb_free_after": None if fr.mem_available is None
                        else int(fr.mem_available - (mem_after - mem_before))})
    return out


#: fewest HMC utilisation samples (lslparutil) that make a partition's measured peak a floor for its VPs
MIN_USE_SAMPLES = 12


def _measured_vp_floor(changes: list[PlannedChange], fps: dict, estate: Estate) -> None:
    """Never cut virtual processors below the peak the HMC measured (lslparutil): a VP count from a
    short series (a few lparstat samples) must not starve a partition the frame saw busier. A host
    the sizing stage sized (from its longest series, the HMC samples included) keeps that sizing."""
    for c in changes:
        if c.change.attribute != "desired_procs" or c.status != "planned":
            continue
        _fr, fp = fps.get(c.id, (None, None))
        if fp is None or len(fp.use) < MIN_USE_SAMPLES:
            continue
        host = estate.hosts.get(fp.host or "")
        sz = getattr(host, "sizing", None)
        if sz is not None and sz.recommended_vp is not None and sz.n_samples >= len(fp.use):
            continue
        peak = fp.peak_use()
        t, cur = _num(c.change.target), _num(c.change.current)
        if peak is None or t is None or cur is None or t >= cur:
            continue
        floor = min(int(cur), math.ceil(peak - 1e-9) + 1)  # peak plus one VP of headroom (rules-catalogue S2)
        if t < floor:
            c.notes.append(f"raised from {t:g} to {floor}: the HMC's {len(fp.use)} utilisation samples (lslparutil) "
                           f"peak at {peak:.2f} cores, more than the series the target came from")
            c.change.target = floor
            c.change.basis = "limit"
            if floor >= cur:
                c.status = "in-place"
