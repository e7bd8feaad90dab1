"""Frame-wide processor rules: VIOS weight on the frame, weights that ignore importance, Σ EC
against the pool and the system, virtual processors above the pool, multiple-pool sizing against
the pool's peak (000 §3.1, §3.5.1; rules-catalogue S1, S2, S3).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Estate
from ...model.frame import FramePartition
from ..changes import hmc_word
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from .hmc import S000, frame_ev, frames, host_rule_flags, ms, prof_cmd, running

POOL_PEAK_SHARE = threshold("frame_pool_peak_share", 0.95,
                            "a shared pool whose measured peak reaches this share of its maximum is saturated at peak (000 §3.1)")
FLAT_WEIGHT_MIN = threshold("frame_flat_weight_min_partitions", 3.0,
                            "uncapped partitions on one frame, all with one weight, from this count on (000 §3.1 Table 3-1)")


@rule(
    id="FRAME-VIOS-WEIGHT",
    title="VIOS weight not the highest of the uncapped partitions on its frame (HMC view)",
    severity="warning",
    category="vios",
    source=f"{S000} §3.5.1 (Table 3-9, Weight); §3.1 Table 3-1; rules-catalogue S1, S2",
    rationale="""When the shared pool is contended, spare cycles go to uncapped partitions in proportion to
    their weight, and a starved VIOS delays every client's I/O. The HMC lists every partition of the frame,
    including those whose own outputs were not collected, so this rule compares each uncapped VIOS with all
    uncapped partitions of its frame. VIOS that the host-level VIOS-WEIGHT-NOT-HIGHEST already reports from
    their own lparstat -i are left to that rule; a capped VIOS is left to VIOS-CAPPED.""",
    scope="estate",
)
def frame_vios_weight(estate: Estate, cfg: Config) -> Iterator[Finding]:
    already = host_rule_flags(estate, cfg)
    for fr in frames(estate):
        for v in fr.vios:
            if not v.uncapped or v.weight is None or v.label in already or not v.running_now:
                continue
            rivals = [p for p in fr.partitions.values() if not p.is_vios and p.uncapped and p.weight is not None
                      and p.running_now and (p.pool_id or 0) == (v.pool_id or 0)]
            top = max(rivals, key=lambda p: p.weight or 0, default=None)
            if top is None or (top.weight or 0) < v.weight:
                continue
            fix = Commands(hmc=[f"chhwres -m {ms(fr)} -r proc -o s -p {hmc_word(v.name)} -a uncap_weight=255",
                                prof_cmd(fr, v, uncap_weight=255)])
            undo = Commands(hmc=[f"chhwres -m {ms(fr)} -r proc -o s -p {hmc_word(v.name)} -a uncap_weight={v.weight}",
                                 prof_cmd(fr, v, uncap_weight=v.weight)])
            yield finding(frame_vios_weight, v.label, "partition",
                          f"VIOS {v.name} on {fr.name} has uncapped weight {v.weight}; the partition {top.name} "
                          f"has {top.weight}.",
                          evidence=v.ev("weight") + top.ev("weight"), fix=fix, rollback=undo, disruption=["dlpar"],
                          values={"current": v.weight, "suggested": 255, "highest_client": f"{top.name} {top.weight}"})


@rule(
    id="FRAME-WEIGHTS-FLAT",
    title="Every uncapped partition of the frame has the same weight",
    severity="info",
    category="processor",
    source=f"{S000} §3.1 (Table 3-1, Uncapped Weight); rules-catalogue S1, S2",
    rationale="""The uncapped weight decides who gets spare pool cycles under contention, and Table 3-1 says
    to set it by the partition's importance, with the VIOS highest. When every uncapped partition of a
    frame carries the same weight (typically the default 128), nobody chose: production, test and the
    VIOS compete as equals. Advisory: a deliberate flat policy is possible. A set made only of VIOS is
    left alone: equal weights inside a VIOS pair are normal.""",
    scope="estate",
)
def frame_weights_flat(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        up = [p for p in running(fr) if p.uncapped and p.weight is not None]
        if len(up) < cfg.t(FLAT_WEIGHT_MIN) or len({p.weight for p in up}) != 1:
            continue
        if all(p.is_vios for p in up):
            continue  # equal weights among VIOS only (a pair, or two pairs) are normal: nobody to rank them against
        w = up[0].weight
        vios = [p for p in up if p.is_vios]
        fix = Commands(hmc=["# set weights by importance, for example VIOS 255, production 200, test 50 (rules-catalogue S2):"]
                       + [f"chhwres -m {ms(fr)} -r proc -o s -p {hmc_word(v.name)} -a uncap_weight=255" for v in vios]
                       + [prof_cmd(fr, v, uncap_weight=255) for v in vios]
                       + [f"chhwres -m {ms(fr)} -r proc -o s -p <partition> -a uncap_weight=<by importance>"])
        undo = Commands(hmc=[f"chhwres -m {ms(fr)} -r proc -o s -p {hmc_word(p.name)} -a uncap_weight={w}" for p in up])
        yield finding(frame_weights_flat, fr.name, "uncapped weights",
                      f"All {len(up)} uncapped partitions of {fr.name} have weight {w} "
                      f"({', '.join(p.name for p in up[:8])}{'...' if len(up) > 8 else ''}).",
                      evidence=[e for p in up[:6] for e in p.ev("weight")], fix=fix, rollback=undo, disruption=["dlpar"],
                      values={"current": f"all {w}", "suggested": "by importance, VIOS highest"})


@rule(
    id="FRAME-EC-ABOVE-POOL",
    title="Sum of entitled capacity above the pool or the system's cores",
    severity="warning",
    category="processor",
    source=f"{S000} §3.1",
    rationale="""The sum of the entitled capacity of all partitions should not exceed the physical processors of
    the system or of the shared processor pool. Entitlement is a guarantee: when the sum exceeds what the
    pool holds, the hypervisor cannot honour it at peak and partitions run below their entitlement, which
    the sizing of each partition assumed. Computed per pool from the running partitions (shared partitions'
    EC in their pool; dedicated partitions' processors against the system's configurable cores).""",
    scope="estate",
)
def frame_ec_above_pool(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        live = running(fr)
        for pid in sorted({p.pool_id or 0 for p in live if p.shared}):
            members = [p for p in live if p.shared and (p.pool_id or 0) == pid and p.ec is not None]
            size, size_ev = fr.pool_size(pid)
            total = round(sum(p.ec or 0 for p in members), 2)
            if not size or total <= size + 1e-9:
                continue
            pool = fr.pools.get(pid)
            pname = (pool.name if pool and pool.name else ("DefaultPool" if pid == 0 else f"pool {pid}"))
            big = sorted(members, key=lambda p: -(p.ec or 0))[:5]
            fix = Commands(hmc=["# lower the EC of partitions that do not use it (EC = average use at peak, 000 §3.1), for example:"]
                           + [f"chhwres -m {ms(fr)} -r proc -o r -p {hmc_word(p.name)} --procunits <units>" for p in big[:2]]
                           + ([f"chhwres -m {ms(fr)} -r procpool -o s --poolname {pname} -a max_pool_proc_units={int(-(-total // 1))}"]
                              if pid else []))
            undo = Commands(hmc=[f"chhwres -m {ms(fr)} -r proc -o a -p {hmc_word(p.name)} --procunits <units>" for p in big[:2]])
            yield finding(frame_ec_above_pool, fr.name, f"{pname} (pool {pid})",
                          f"{fr.name}: the running partitions of {pname} hold EC {total:g} but the pool has {size:g} "
                          f"cores ({', '.join(f'{p.name} {p.ec:g}' for p in big)}).",
                          evidence=[size_ev, *(e for p in big for e in p.ev("ec"))], fix=fix, rollback=undo,
                          disruption=["dlpar"], values={"current": f"{total:g}", "suggested": f"<= {size:g}"},
                          facts={(f"{fr.name} pool {pid}", "pool_size_units"): size})
        total_cores = fr.cores_configurable or fr.cores_active
        ded = sum(p.vps or 0 for p in live if p.dedicated)
        shared_ec = sum(p.ec or 0 for p in live if p.shared)
        if total_cores and ded + shared_ec > total_cores + 1e-9 and len({p.pool_id or 0 for p in live if p.shared}) > 1:
            yield finding(frame_ec_above_pool, fr.name, "system",
                          f"{fr.name}: dedicated processors {ded} plus shared EC {shared_ec:g} exceed the "
                          f"{total_cores:g} configurable cores.",
                          evidence=frame_ev(fr, "cores_configurable"),
                          fix=Commands(hmc=["# lower entitlements or dedicated processors; see the per-pool findings"]),
                          values={"current": f"{ded + shared_ec:g}", "suggested": f"<= {total_cores:g}"})


def _host_covers_vp(estate: Estate, p: FramePartition) -> bool:
    h = estate.hosts.get(p.host or "")
    return bool(h and h.partition and h.partition.online_vps is not None
                and (h.partition.pool_cores or h.partition.system_cores))


@rule(
    id="FRAME-VP-ABOVE-POOL",
    title="Virtual processors above the cores of the partition's pool (HMC view)",
    severity="warning",
    category="processor",
    source=f"{S000} §3.1; rules-catalogue S3",
    rationale="""Virtual processors of an uncapped partition should not exceed the processors of the system or
    of its shared pool: beyond that they add no capacity, only dispatching and context switches. The HMC
    gives every partition's VPs and every pool's size; partitions whose own lparstat -i is in the analysis
    are left to the host-level CPU-VP-EXCEEDS-POOL, which reads the same numbers.""",
    scope="estate",
)
def frame_vp_above_pool(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        for p in sorted(running(fr), key=lambda x: x.name):
            if not p.shared or p.vps is None or _host_covers_vp(estate, p):
                continue
            size, size_ev = fr.pool_size(p.pool_id or 0)
            if not size or p.vps <= size:
                continue
            limit = int(size)
            fix = Commands(hmc=[f"chhwres -m {ms(fr)} -r proc -o r -p {hmc_word(p.name)} --procs {p.vps - limit}",
                                prof_cmd(fr, p, desired_procs=limit)])
            undo = Commands(hmc=[f"chhwres -m {ms(fr)} -r proc -o a -p {hmc_word(p.name)} --procs {p.vps - limit}",
                                 prof_cmd(fr, p, desired_procs=p.vps)])
            yield finding(frame_vp_above_pool, p.label, "partition",
                          f"{p.name} on {fr.name} has {p.vps} virtual processors; its pool has {size:g} cores.",
                          evidence=[*p.ev("vps"), size_ev], fix=fix, rollback=undo, disruption=["dlpar"],
                          values={"current": p.vps, "suggested": f"<= {limit}"},
                          facts={(f"{fr.name} pool {p.pool_id or 0}", "pool_size_units"): size})


@rule(
    id="FRAME-POOL-PEAK",
    title="Shared processor pool saturated at its peak (multiple pools)",
    severity="warning",
    category="processor",
    source=f"{S000} §3.1 (multiple shared processor pools)",
    rationale="""A shared processor pool other than the default one (often made for per-core licensing) caps
    the processor use of all its partitions together. 000 §3.1: size it to accommodate the peak workload
    of its partitions. The pool's utilisation samples (lslparutil -r procpool) give that peak; a peak at
    the pool's maximum means the pool, not the partitions, limited the work.""",
    scope="estate",
)
def frame_pool_peak(estate: Estate, cfg: Config) -> Iterator[Finding]:
    share = cfg.t(POOL_PEAK_SHARE)
    for fr in frames(estate):
        for pid, pool in sorted(fr.pools.items()):
            if pid == 0 or not pool.max_units or not pool.use:
                continue
            peak = pool.peak_use() or 0.0
            if peak < share * pool.max_units:
                continue
            at = max(pool.use, key=lambda u: u.physc)
            new = int(-(-peak * 1.2 // 1))
            name = pool.name or f"pool {pid}"
            fix = Commands(hmc=[f"chhwres -m {ms(fr)} -r procpool -o s --poolname {name} -a max_pool_proc_units={new}",
                                "# check the licences that the pool's maximum stands for before raising it"])
            undo = Commands(hmc=[f"chhwres -m {ms(fr)} -r procpool -o s --poolname {name} -a max_pool_proc_units={pool.max_units:g}"])
            yield finding(frame_pool_peak, fr.name, name,
                          f"{fr.name}: shared pool {name} peaked at {peak:.2f} of its {pool.max_units:g} processor units "
                          f"({len(pool.use)} samples; partitions {', '.join(pool.partitions) or '?'}).",
                          evidence=[pool.evidence.get("max_units"), at.evidence], fix=fix, rollback=undo,
                          values={"current": f"max {pool.max_units:g}, peak {peak:.2f}", "suggested": f"max {new}"})
