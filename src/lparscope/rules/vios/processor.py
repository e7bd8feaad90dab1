"""VIOS processor settings: capped, folding on, dedicated processors, a weight below its
clients' (000 §3.5.1 Table 3-9; rules-catalogue VIOS-06).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Estate, Host
from ..changes import MS, PROFILE, hmc_filter, partition_change, propose, tunable_change
from ..config import Config
from ..engine import Commands, Finding, finding, rule


@rule(
    id="VIOS-CAPPED",
    title="VIOS runs capped",
    severity="warning",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.1 (Table 3-9)",
    rationale="""Every client's disk and network I/O passes through the VIOS. A capped VIOS cannot take
    spare pool cycles at peak, and when it is starved all its clients slow down. Table 3-9 suggests
    shared, uncapped, and a weight above every other partition.""",
)
def vios_capped(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if not host.is_vios or p is None or not p.capped:
        return
    fix, undo = propose(
        partition_change(host, "sharing_mode", "cap", "uncap", method="profile"),
        partition_change(host, "uncap_weight", p.weight if p.weight is not None else 0, 255, method="profile"),
        fix_notes=["# applies at the next activation of the VIOS from its profile; restart one VIOS of the pair at a time"])
    yield finding(vios_capped, host, "partition", f"VIOS {host.name} is capped at EC {p.entitled_capacity}.",
                  evidence=p.ev("mode", "entitled_capacity"), fix=fix, rollback=undo, disruption=["restart-needed"],
                  values={"current": "capped", "suggested": "uncapped, weight 255"})


@rule(
    id="VIOS-FOLDING-ENABLED",
    title="Processor folding enabled on a VIOS",
    severity="warning",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.1 (Examples 3-21, 3-22)",
    rationale="""Processor folding is not supported on a VIOS. Installs from 2.1.0.13-FP23 disable it,
    but a VIOS upgraded from an older level can keep it on (vpm_fold_policy other than 4), adding
    unfolding delay to every client's I/O. The change is dynamic: no reboot.""",
)
def vios_folding(host: Host, cfg: Config) -> Iterator[Finding]:
    t = host.tunables.get("vpm_fold_policy")
    if not host.is_vios or t is None or str(t.value).strip() == "4":
        return
    fix, undo = propose(tunable_change(host, "schedo", "vpm_fold_policy", t.value, 4, basis="limit"))
    yield finding(vios_folding, host, "schedo vpm_fold_policy",
                  f"VIOS {host.name} has vpm_fold_policy = {t.value}; 4 disables folding.",
                  evidence=[t.evidence], fix=fix, rollback=undo, values={"current": t.value, "suggested": 4})


@rule(
    id="VIOS-WEIGHT-NOT-HIGHEST",
    title="VIOS uncapped weight not above its clients'",
    severity="warning",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.1 (Table 3-9, Weight); §3.1 Table 3-1; rules-catalogue S1, S2",
    rationale="""When the shared pool is contended, spare cycles go to uncapped partitions in proportion to
    their weight. A VIOS that loses that contest delays the I/O of every client, so Table 3-9 puts its
    weight above all other partitions, in the upper part of the 0-255 range (255 is common).""",
    scope="estate",
)
def vios_weight(estate: Estate, cfg: Config) -> Iterator[Finding]:
    clients = [h for h in estate.hosts.values() if not h.is_vios and h.partition and h.partition.uncapped
               and h.partition.weight is not None]
    top = max((h.partition.weight for h in clients), default=None)  # type: ignore[union-attr]
    for host in estate.vios:
        p = host.partition
        if p is None or not p.uncapped or p.weight is None:
            continue
        beaten = top is not None and p.weight <= top
        if not beaten and p.weight >= 128:
            continue
        rival = max(clients, key=lambda h: h.partition.weight) if beaten else None  # type: ignore[union-attr]
        why = (f"the client {rival.name} has weight {top}" if rival else "below the upper half of the 0-255 range")
        fix, undo = propose(partition_change(host, "uncap_weight", p.weight, 255))
        yield finding(vios_weight, host, "partition", f"VIOS {host.name} has uncapped weight {p.weight}; {why}.",
                      evidence=p.ev("weight") + (rival.partition.ev("weight") if rival else []),  # type: ignore[union-attr]
                      fix=fix, rollback=undo, disruption=["dlpar"],
                      values={"current": p.weight, "suggested": 255})


@rule(
    id="VIOS-DEDICATED-PROCESSORS",
    title="VIOS uses dedicated processors",
    severity="info",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.1 (Table 3-9, processing mode); rules-catalogue VIOS-02",
    rationale="""Table 3-9 suggests shared processors for a VIOS in most cases, so that it can take spare pool
    capacity at I/O peaks (uncapped, high weight). A dedicated VIOS is acceptable only when it donates
    its idle cycles; one that keeps them idle is reported as a warning.""",
)
def vios_dedicated(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if not host.is_vios or p is None or not p.dedicated:
        return
    donating = bool(p.mode and p.mode.lower() == "donating")
    n = p.online_vps or 1
    fix = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.lpar_name},proc_mode=shared,'
                        f'sharing_mode=uncap,uncap_weight=255,min_proc_units=0.5,desired_proc_units={n}.0,'
                        f'max_proc_units={n + 1}.0,min_procs=1,desired_procs={n + 1},max_procs={n + 2}"',
                        "# takes effect when the VIOS is activated from the profile; restart one VIOS of a pair at a time"])
    fix.hmc.insert(0, f"lssyscfg -r prof -m {MS} --filter {hmc_filter('lpar_names', host.lpar_name)} "
                      "-F name,proc_mode,sharing_mode,min_procs,desired_procs,max_procs   # note the current values")
    # lparstat -i says Donating for share_idle_procs_active and _always alike, and Capped for
    # share_idle_procs (lends only while shut down) and keep_idle_procs alike: the rollback takes the
    # one that keeps the mode lparstat shows, and names the other
    mode, other = ("share_idle_procs_active", "share_idle_procs_always") if donating else ("share_idle_procs", "keep_idle_procs")
    undo = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.lpar_name},proc_mode=ded,'
                         f'sharing_mode={mode},min_procs=1,desired_procs={n},max_procs={n}"',
                         f"# or sharing_mode={other} and the processor counts lssyscfg showed before the change"])
    yield finding(vios_dedicated, host, "partition",
                  f"VIOS {host.name} runs on {n} dedicated processor(s), mode {p.mode or 'unknown'}.",
                  evidence=p.ev("type", "mode", "online_vps"), fix=fix, rollback=undo, disruption=["restart-needed"],
                  severity=None if donating else "warning",
                  values={"current": f"dedicated ({p.mode or '?'})", "suggested": "shared uncapped, weight 255"})
