"""VIOS redundancy on a frame: a single VIOS, and VIOS pairs where one VIOS could not carry the
pair's load alone (000 §3.5.3, Table 3-10; rules-catalogue VIOS-01).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.estate import Estate
from ..config import Config, threshold
from ..changes import partition_change, propose
from ..engine import Commands, Finding, finding, rule
from .hmc import S000, frames, ms

BUSY_SHARE = threshold("frame_vios_busy_share", 0.5,
                       "a VIOS of a redundant pair should stay at or below this share of its capacity (000 §3.7.8 Table 3-10)")


@rule(
    id="FRAME-SINGLE-VIOS",
    title="Only one VIOS on a frame with client partitions",
    severity="warning",
    category="vios",
    source=f"{S000} §3.5.3; rules-catalogue VIOS-01",
    rationale="""VIOS are best deployed in redundant pairs: one can be shut down for maintenance or fail while
    the other keeps serving the clients' I/O. The HMC lists every partition of the frame, so a frame with
    client partitions and a single VIOS partition is a frame where every VIOS update stops the clients that
    use virtual I/O.""",
    scope="estate",
)
def frame_single_vios(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        vios = [p for p in fr.vios if p.running_now]
        clients = [p for p in fr.clients if p.running_now and (p.vscsi or p.vfc or p.veth)]
        if len(fr.vios) != 1 or not vios or not clients:
            continue
        v = vios[0]
        units, mem = v.ec or 1, v.mem or 8192
        short = []  # what the new VIOS needs beyond the frame's free capacity
        if fr.cores_available is not None and fr.cores_available < units:
            short.append(f"{units:g} processing units ({fr.cores_available:g} free)")
        if fr.mem_available is not None and fr.mem_available < mem:
            short.append(f"{mem} MB ({fr.mem_available} MB free)")
        first = [f"# the frame has not the room for it now: {' and '.join(short)}; free that capacity first "
                 "(shrink or stop partitions), or the new VIOS cannot be activated"] if short else []
        fix = Commands(hmc=[*first,
                            f'mksyscfg -r lpar -m {ms(fr)} -i "name=<second-vios>,profile_name=default_profile,lpar_env=vioserver,'
                            f'proc_mode=shared,sharing_mode=uncap,uncap_weight=255,min_proc_units=0.5,desired_proc_units={units:g},'
                            f'max_proc_units=4,min_procs=1,desired_procs={v.vps or 2},max_procs=8,min_mem=4096,'
                            f'desired_mem={mem},max_mem={2 * mem},io_slots=<its own adapters>"',
                            "# then install the VIOS, give it its own FC and Ethernet adapters, add server adapters for every "
                            "client and set up SEA failover (ha_mode=auto, different trunk priorities)"])
        undo = Commands(hmc=[f"rmsyscfg -r lpar -m {ms(fr)} -n <second-vios>"])
        yield finding(frame_single_vios, v.label, "frame",
                      f"{fr.name} has one VIOS ({v.name}) serving {len(clients)} client partition(s): "
                      f"{', '.join(c.name for c in clients[:8])}.",
                      evidence=v.ev("lpar_env", "lpar"), fix=fix, rollback=undo,
                      values={"current": "1 VIOS", "suggested": "2 VIOS (redundant pair)"})


@rule(
    id="FRAME-VIOS-FAILOVER-CAPACITY",
    title="One VIOS of the pair could not carry the pair's load alone",
    severity="warning",
    category="vios",
    source=f"{S000} §3.5.3, §3.7.7, §3.7.8 (Table 3-10: no VIOS busy beyond 50%)",
    rationale="""A redundant pair is only redundant if either VIOS can serve all clients when the other is down
    (000 §3.7.7: will each VIOS have sufficient resources to serve the entire workload?). Table 3-10 puts it
    as a rule for balanced designs: no VIOS busier than 50%. The measured peak processor use of both VIOS
    (lparstat physc, or lslparutil samples) is compared with what each can reach (its VPs when uncapped, its
    EC when capped).""",
    scope="estate",
)
def frame_vios_failover(estate: Estate, cfg: Config) -> Iterator[Finding]:
    from ...sizing.vios import failover, size_vios

    for fr in frames(estate):
        sized: dict[str, Any] = {}  # each VIOS sized once, however many pairs it is in

        def size(p):  # type: ignore[no-untyped-def]
            if p.name not in sized:
                sized[p.name] = size_vios(estate.hosts.get(p.host or ""), p, fr)
            return sized[p.name]

        for a, b in [(fr.partitions[x], fr.partitions[y]) for x, y in fr.vios_pairs]:
            sa, sb = size(a), size(b)
            chk = failover(sa, sb)
            if chk is None:
                continue
            busy = chk.busiest_share is not None and chk.busiest_share > cfg.t(BUSY_SHARE)
            if chk.one_can_carry and not busy:
                continue
            small, other = (a, b) if (sa.capacity or 0) <= (sb.capacity or 0) else (b, a)
            need = int(-(-chk.combined_peak // 1)) + 1
            # one VP more than the pair's combined peak, as a floor the plan keeps (a VIOS that is capped must
            # also be uncapped to use them: VIOS-CAPPED); the profile maximum first when it is lower
            fix, undo = propose(
                partition_change(small.label, "max_procs", small.max_vps, need, method="profile", bound="min",
                                 basis="measured", lpar=small.name, frame=fr.name, vios=True)
                if small.max_vps is not None and small.max_vps < need else None,
                partition_change(small.label, "desired_procs", small.vps, need, bound="min", basis="measured",
                                 lpar=small.name, frame=fr.name, vios=True) if small.vps is not None else None,
                fix_notes=["# or move clients' traffic so that each VIOS stays at or below half of its capacity"],
                form="hmc")
            yield finding(frame_vios_failover, small.label, f"pair {a.name}/{b.name}",
                          _failover_message(fr.name, (a.name, sa), (b.name, sb), chk.combined_peak,
                                            None if chk.one_can_carry else (small.name, other.name),
                                            chk.busiest_share if busy else None),
                          evidence=[*a.ev("vps", "ec"), *b.ev("vps", "ec")], fix=fix, rollback=undo, disruption=["dlpar"],
                          values={"current": f"{chk.combined_peak:.2f} vs {sa.capacity}/{sb.capacity}",
                                  "suggested": f">= {need} VP on each"},
                          facts={(a.label, "measured_peak_units"): round(sa.measured_peak, 2),
                                 (b.label, "measured_peak_units"): round(sb.measured_peak, 2),
                                 (a.label, "capacity_units"): sa.capacity, (b.label, "capacity_units"): sb.capacity})


def _failover_message(frame: str, a: tuple[str, Any], b: tuple[str, Any], combined: float,
                      alone: tuple[str, str] | None, busy_share: float | None) -> str:
    """What the pair measured, and what it means: the load one VIOS must carry when the other is
    down (``alone``: the VIOS of smaller capacity and its partner, when one could not carry it),
    against what it can reach; and the busier VIOS's share of its capacity when above half."""
    (na, sa), (nb, sb) = a, b
    text = (f"{frame}: {na} peaks at {sa.measured_peak:.2f} and {nb} at {sb.measured_peak:.2f} processor units "
            f"({sa.measured_from}), together {combined:.2f}")
    if alone is not None:
        nl, nu = alone
        cap = (sa if nl == na else sb).capacity
        text += f"; with {nu} down, {nl} must carry {combined:.2f}" + (
            f" and can reach {cap:.2f} ({100 * combined / cap:.0f}% of it)" if cap else
            f", and what it can reach is not in the data (no virtual processors or entitlement read)")
    if busy_share is not None:
        shares = {n: x.measured_peak / x.capacity for n, x in (a, b) if x.capacity}
        busier = max(shares, key=shares.__getitem__)
        text += f"; {busier} already runs at {100 * busy_share:.0f}% of what it can reach (Table 3-10: at most 50%)"
    return text + "."
