"""Dedicated-processor partitions seen through the HMC that do not lend their idle cycles while they run
(000 §3.1; rules-catalogue CPU-15).

The HMC names the sharing mode of a dedicated partition: ``keep_idle_procs`` (never shares),
``share_idle_procs`` (shares only while the partition is shut down), ``share_idle_procs_active``
(only while it runs), ``share_idle_procs_always``. Only the last two lend idle cycles to the shared
pool while the partition runs; ``share_idle_procs`` is the default and does not.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Estate
from ...model.generation import generation_of
from ..changes import partition_change
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .hmc import S000, frames, prof_cmd

#: The mode that lends idle cycles while the partition runs, keeping what it already lends when shut down.
_DONATING = {"keep_idle_procs": "share_idle_procs_active", "share_idle_procs": "share_idle_procs_always"}


@rule(
    id="FRAME-DEDICATED-NOT-DONATING",
    title="Dedicated-processor partition does not lend idle cycles while it runs (HMC view)",
    severity="info",
    category="processor",
    source=f"{S000} §3.1 (Figure 3-2, dedicated LPAR sharing); rules-catalogue CPU-15",
    rationale="""The HMC's view of CPU-DEDICATED-NOT-DONATING, for partitions whose own lparstat -i is not in
    the data: a dedicated partition in sharing mode keep_idle_procs, or share_idle_procs (the default,
    which lends its processors only while the partition is shut down), leaves its idle cycles unused while
    it runs. share_idle_procs_active lends them while it runs; share_idle_procs_always also while it is
    shut down. Unless licensing or latency forbids it, lending lets the shared pool use them. Advisory.""",
    scope="estate",
)
def frame_dedicated_not_donating(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        gen = generation_of(fr.model)
        if gen is not None and gen < 6:  # donating mode came with POWER6 (rules-catalogue CPU-15)
            continue
        for p in sorted(fr.partitions.values(), key=lambda x: x.name):
            mode = (p.sharing_mode or "").lower()
            if not p.dedicated or p.is_vios or not p.running_now or mode not in _DONATING:
                continue
            host = estate.hosts.get(p.host or "")
            if host is not None and host.partition is not None and host.partition.mode:
                continue  # its own lparstat -i is in the data: CPU-DEDICATED-NOT-DONATING judges it
            if fr.cores_configurable and p.vps and p.vps >= fr.cores_configurable:
                continue  # it holds every core of the frame: no shared pool to lend to
            target = _DONATING[mode]
            fix = Commands(hmc=[prof_cmd(fr, p, sharing_mode=target), "# takes effect at the next activation from the profile"])
            fix.changes = [partition_change(p.label, "sharing_mode", mode, target, method="profile", lpar=p.name,
                                            frame=fr.name if fr.named else None)]
            undo = Commands(hmc=[prof_cmd(fr, p, sharing_mode=mode)])
            yield finding(frame_dedicated_not_donating, p.label, "partition",
                          f"{p.name} on {fr.name} has {p.vps or '?'} dedicated processor(s) in sharing mode {mode}: "
                          f"its idle cycles are not lent to the shared pool while it runs.",
                          evidence=p.ev("sharing_mode", "proc_mode"), fix=fix, rollback=undo,
                          disruption=["restart-needed"],
                          values={"current": mode, "suggested": target})
