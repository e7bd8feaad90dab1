"""Entitled capacity and virtual processors of one partition: VPs above the pool, EC too small for
the VPs, uncapped use above EC, capped partitions pinned at EC (000 §3.1).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ...model.estate import Host
from ...sizing.cpu import MIN_SAMPLES
from ..changes import dlpar_resize, dlpar_units, partition_change, propose, round_up
from ..config import Config
from ..engine import Commands, Finding, finding, rule


@rule(
    id="CPU-VP-EXCEEDS-POOL",
    title="Virtual processors exceed the cores in the pool or system",
    severity="warning",
    category="processor",
    source="000_31a80e54567cd02b.txt §3.1; rules-catalogue S3",
    rationale="""An uncapped partition can never run on more cores than its pool holds, so virtual
    processors beyond that number add no capacity. They still have to be dispatched, which costs
    context switches and spreads work over more physical cores than it can use.""",
)
def vp_exceeds_pool(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if p is None or not p.shared or p.online_vps is None:
        return
    limit, what, ev = p.pool_cores, "cores in its shared pool", "pool_cores"
    if limit is None:
        limit, what, ev = p.system_cores, "active cores in the system", "system_cores"
    if not limit or p.online_vps <= limit:
        return
    fix, undo = dlpar_resize(host, "proc", "--procs", p.online_vps, limit, "desired_procs", "{}",
                             basis="limit", bound="max")
    yield finding(
        vp_exceeds_pool, host, "partition",
        f"{host.name} has {p.online_vps} online virtual processors but only {limit} {what}.",
        evidence=p.ev("online_vps", ev), fix=fix, rollback=undo, disruption=["dlpar"],
        values={"current": p.online_vps, "suggested": f"<= {limit}"},
    )


@rule(
    id="CPU-EC-BELOW-VP",
    title="Entitled capacity far below the virtual processors (slow unfolding)",
    severity="warning",
    category="processor",
    source="000_31a80e54567cd02b.txt §3.1 (folding test, Figures 3-3 and 3-4)",
    rationale="""When the entitlement is a small share of the virtual processors, AIX keeps most
    of them folded and must unfold them when load arrives. The Redbook measured 30 seconds before a
    workload reached its cores with EC 6.4 and 64 VPs, and 5 seconds with EC 50, a 16% gain. EC should
    be the average use at peak; VPs the peak.""",
)
def ec_below_vp(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if p is None or not p.shared or not p.entitled_capacity or not p.online_vps:
        return
    ratio = p.entitled_capacity / p.online_vps
    if ratio >= cfg.t("ec_to_vp_min_ratio"):
        return
    mean = host.cpu.mean("physc") if host.cpu else None
    peak = max(host.cpu.values("physc"), default=None) if host.cpu else None
    fix_vps: int | None = None
    measured = "measured"
    sz = host.sizing
    if sz is not None and sz.recommended_ec is not None and sz.recommended_vp is not None:
        # A timed series was sized (peak window, Figure 3-1): give the same numbers as that sizing.
        suggested = max(sz.recommended_ec, p.entitled_capacity)
        fix_vps = sz.recommended_vp if sz.recommended_vp < p.online_vps else None
        basis = f"the measured peak window (see CPU-SIZING-MEASURED): average {sz.peak.mean:.2f}, peak {sz.peak.max:.2f}"
    elif mean is not None and peak is not None and len(host.cpu.values("physc")) >= MIN_SAMPLES:
        # Measured: EC = average use at peak, VPs = peak use plus one of headroom (000 §3.1; S2).
        suggested = round_up(max(mean, p.entitled_capacity))
        wanted_vps = max(math.ceil(peak) + 1, math.ceil(suggested))
        fix_vps = wanted_vps if wanted_vps < p.online_vps else None
        basis = f"measured physc: average {mean:.2f}, peak {peak:.2f}"
    else:
        # VPs beyond the pool's cores go (CPU-VP-EXCEEDS-POOL): the ratio is of the VPs that stay
        vps = min(p.online_vps, p.pool_cores) if p.pool_cores else p.online_vps
        suggested = round_up(vps * cfg.t("ec_to_vp_min_ratio"))
        measured = "heuristic"
        why = "no lparstat samples to size from" if mean is None else "too few samples to size from"
        basis = f"{cfg.t('ec_to_vp_min_ratio'):.2f} x {vps} VPs" + (f" (the pool's {p.pool_cores} cores)" if vps < p.online_vps else "") \
            + f" ({why})"
        fix_vps = vps if vps < p.online_vps else None
    fix, undo = propose(
        partition_change(host, "desired_proc_units", p.entitled_capacity, suggested, basis=measured)
        if suggested > p.entitled_capacity else None,
        partition_change(host, "desired_procs", p.online_vps, fix_vps, basis=measured) if fix_vps is not None else None)
    target = f"EC {suggested:.2f}" + (f", {fix_vps} VP" if fix_vps is not None else f", {p.online_vps} VP")
    yield finding(
        ec_below_vp, host, "partition",
        f"{host.name}: EC {p.entitled_capacity:.2f} is {ratio:.0%} of its {p.online_vps} virtual processors "
        f"(threshold {cfg.t('ec_to_vp_min_ratio'):.0%}); suggested {target} from {basis}.",
        evidence=p.ev("entitled_capacity", "online_vps") + (host.cpu.evidence[:1] if host.cpu else []),
        fix=fix, rollback=undo, disruption=["dlpar"],
        values={"current": f"EC {p.entitled_capacity:.2f}, {p.online_vps} VP", "suggested": target},
    )


@rule(
    id="CPU-UNCAPPED-ABOVE-EC",
    title="Uncapped partition runs above its entitlement on average",
    severity="warning",
    category="processor",
    source="000_31a80e54567cd02b.txt §3.1 (EC = average use at peak); Table 3-9",
    rationale="""Capacity above the entitlement is borrowed from the pool and is not guaranteed:
    when the pool is busy the partition falls back to its EC. A partition whose average use is above
    its EC is under-entitled and also loses the memory-affinity reservation that comes with EC.""",
)
def uncapped_above_ec(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    cpu = host.cpu
    if p is None or cpu is None or not p.uncapped:
        return
    entc = cpu.mean("%entc")
    if entc is None or entc <= cfg.t("entc_uncapped_high") or len(cpu.values("%entc")) < MIN_SAMPLES:
        return  # a sample or two is a moment, not an average to size from (sizing's MIN_SAMPLES)
    ec = p.entitled_capacity or _float(cpu.config.get("ent"))
    physc = cpu.mean("physc")
    ev = p.ev("entitled_capacity", "mode") + cpu.evidence[:1] + cpu.evidence[-1:]
    if ec and physc:
        sz = host.sizing  # with a timed series, size from the peak window like CPU-SIZING-MEASURED
        suggested = sz.recommended_ec if sz is not None and sz.recommended_ec else round_up(physc)
        fix, undo = dlpar_units(host, ec, suggested, basis="measured")
        values = {"current": f"EC {ec:.2f}, mean physc {physc:.2f}, mean %entc {entc:.0f}", "suggested": f"EC {suggested:.2f}"}
    else:
        fix, undo, values = Commands(), Commands(), {"current": f"mean %entc {entc:.0f}"}
    yield finding(
        uncapped_above_ec, host, "partition",
        f"{host.name} used on average {entc:.0f}% of its entitlement over {len(cpu.samples)} samples.",
        evidence=ev, fix=fix, rollback=undo, disruption=["dlpar"] if fix else [], values=values,
    )


@rule(
    id="CPU-CAPPED-PINNED",
    title="Capped partition pinned at its entitlement",
    severity="warning",
    category="processor",
    source="000_31a80e54567cd02b.txt §3.1 (Sharing mode, Table 3-1)",
    rationale="""A capped partition cannot use more than its entitlement, even when the pool is idle.
    When it runs at its cap most of the time, work is queueing for processor: make it uncapped (with
    enough virtual processors) or raise its entitlement.""",
)
def capped_pinned(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    cpu = host.cpu
    if p is None or cpu is None or not p.capped or not p.shared:
        return
    entc = cpu.values("%entc")
    if not entc:
        return
    pinned = sum(1 for v in entc if v >= cfg.t("entc_capped_pinned"))
    share = pinned / len(entc)
    if share < cfg.t("capped_pinned_share"):
        return
    # Uncapped, a partition can use at most one core per virtual processor: with VPs no higher than
    # its EC, uncapping alone gives it nothing (000 §3.1, Table 3-1). Ask for one VP above the EC.
    vps_needed = math.ceil(p.entitled_capacity - 1e-9) + 1 if p.entitled_capacity else None
    more_vps = (partition_change(host, "desired_procs", p.online_vps, vps_needed, bound="min")
                if vps_needed is not None and p.online_vps is not None and p.online_vps < vps_needed else None)
    fix, undo = propose(
        partition_change(host, "sharing_mode", "cap", "uncap", method="profile"),
        partition_change(host, "uncap_weight", p.weight if p.weight is not None else 0, 128, method="profile"),
        more_vps,
        fix_notes=["# takes effect when the partition is next activated from the profile; or raise EC now "
                   "with chhwres --procunits"])
    yield finding(
        capped_pinned, host, "partition",
        f"{host.name} is capped and ran at {cfg.t('entc_capped_pinned'):.0f}% or more of its entitlement "
        f"in {pinned} of {len(entc)} samples.",
        evidence=p.ev("mode", "entitled_capacity") + cpu.evidence[:1] + cpu.evidence[-1:],
        fix=fix, rollback=undo, disruption=["restart-needed"],
        values={"current": f"capped, {share:.0%} of samples pinned",
                "suggested": "uncapped" + (f", at least {vps_needed} VP" if more_vps is not None else "")
                             + " (or more EC)"},
    )


def _float(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None
