"""How a partition shares processors: an uncapped weight of 0, dedicated processors that do not
donate idle cycles (000 §3.1; rules-catalogue CPU-05, CPU-06).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host
from ..changes import MS, PROFILE, hmc_filter, partition_change, propose, weight_change
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from ..host_facts import power_generation


@rule(
    id="CPU-UNCAPPED-WEIGHT-ZERO",
    title="Uncapped partition with uncapped weight 0",
    severity="warning",
    category="processor",
    source="000_31a80e54567cd02b.txt §3.1 (Table 3-1, Uncapped Weight); rules-catalogue CPU-14, S1",
    rationale="""Spare pool cycles go to uncapped partitions in proportion to their weight. With a weight
    of 0 the partition gets spare cycles only when no other uncapped partition wants them, so in a busy
    pool it behaves as if it were capped at its entitlement while still looking uncapped. The HMC default
    weight is 128; set the weight from the partition's importance. (A VIOS is left to the VIOS rules.)""",
)
def uncapped_weight_zero(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if p is None or host.is_vios or not p.shared or not p.uncapped or p.weight != 0:
        return
    fix, undo = weight_change(host, 0, 128)
    yield finding(uncapped_weight_zero, host, "partition",
                  f"{host.name} is uncapped with Variable Capacity Weight 0: it only gets spare pool cycles "
                  f"nobody else asks for.",
                  evidence=p.ev("mode", "weight"), fix=fix, rollback=undo, disruption=["dlpar"],
                  values={"current": "uncapped, weight 0", "suggested": "weight 128 (HMC default), higher for important LPARs"})


@rule(
    id="CPU-DEDICATED-NOT-DONATING",
    title="Dedicated-processor partition does not donate idle cycles",
    severity="info",
    category="processor",
    source="000_31a80e54567cd02b.txt §3.1 (Figure 3-2, dedicated LPAR sharing); rules-catalogue CPU-15",
    rationale="""A partition with dedicated processors can lend its idle cycles to the shared pool while it
    runs, but that is not the default: by default it only shares them while it is shut down. Unless
    licensing or latency forbids it, donating lets the shared-pool partitions use cycles that would
    otherwise be wasted. Advisory: the right choice depends on the workload.""",
)
def dedicated_not_donating(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if p is None or not p.dedicated or not p.mode or p.mode.lower() == "donating":
        return
    if p.system_cores and p.entitled_capacity and p.entitled_capacity >= p.system_cores:
        return  # it holds every core of the frame: no shared pool is left to lend the cycles to
    gen, _what, _ev = power_generation(host)
    if gen is not None and gen < 6:  # donating mode came with POWER6 (rules-catalogue CPU-15)
        return
    fix, _undo = propose(partition_change(host, "sharing_mode", None, "share_idle_procs_active", method="profile"),
                         fix_notes=["# takes effect at the next activation from the profile"])
    fix.hmc.insert(0, f"lssyscfg -r prof -m {MS} --filter {hmc_filter('lpar_names', host.lpar_name)} -F name,sharing_mode   # note the current value")
    undo = Commands(hmc=[
        f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.lpar_name},sharing_mode=share_idle_procs"',
        "# or keep_idle_procs, whichever lssyscfg showed before the change",
    ])
    yield finding(dedicated_not_donating, host, "partition",
                  f"{host.name} has dedicated processors in mode {p.mode}: its idle cycles are not lent to the "
                  f"shared pool while it runs.",
                  evidence=p.ev("type", "mode"), fix=fix, rollback=undo, disruption=["restart-needed"],
                  values={"current": f"{p.type}, {p.mode}", "suggested": "Donating (share_idle_procs_active)"})
