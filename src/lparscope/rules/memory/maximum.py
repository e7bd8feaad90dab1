"""Maximum memory: the hardware page table it costs and how far DLPAR can grow a partition from its
minimum (000 §3.1 Table 3-2; rules-catalogue S4, MEM-02).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ...model.estate import Evidence, Host
from ...model.hpt import hpt_mb
from ..changes import MS, PROFILE, partition_change, propose
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from ..host_facts import host_hpt_divisor


@rule(
    id="MEM-MAX-FAR-ABOVE-ONLINE",
    title="Maximum memory far above online memory (HPT overhead)",
    severity="warning",
    category="memory",
    source="000_31a80e54567cd02b.txt §3.1 (Table 3-2, HPT); rules-catalogue S4",
    rationale="""The hypervisor reserves a hardware page table sized from each partition's MAXIMUM
    memory, not from what it uses. A maximum set far above what the partition will ever be given
    wastes frame memory that no partition can use.""",
)
def max_memory_far_above_online(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if p is None or not p.max_memory_mb or not p.online_memory_mb:
        return
    ratio = p.max_memory_mb / p.online_memory_mb
    if ratio <= cfg.t("max_mem_to_online_ratio"):
        return
    divisor, basis = host_hpt_divisor(host, cfg.t("hpt_ratio"))
    suggested = p.online_memory_mb * 2
    now, then = hpt_mb(p.max_memory_mb, divisor), hpt_mb(suggested, divisor)
    fix, undo = propose(partition_change(host, "max_mem", p.max_memory_mb, suggested, method="profile"),
                        fix_notes=["# the new maximum applies at the next activation from the profile"])
    yield finding(
        max_memory_far_above_online, host, "partition",
        f"{host.name}: maximum memory {p.max_memory_mb} MB is {ratio:.0f}x its online {p.online_memory_mb} MB; "
        f"the HPT for it is {now} MB (1:{divisor}, {basis}), {then} MB with a maximum of {suggested} MB.",
        evidence=p.ev("max_memory_mb", "online_memory_mb"), fix=fix, rollback=undo, disruption=["restart-needed"],
        values={"current": f"max {p.max_memory_mb} MB, HPT {now} MB", "suggested": f"max {suggested} MB, HPT {then} MB"},
        facts={(host.name, "hpt_divisor"): divisor, (host.name, "hpt_mb"): now},
    )


def hmc_memory_change(host: Host, op: str, mb: int) -> str:
    return f"chhwres -m {MS} -r mem -o {op} -p {host.lpar_name} -q {mb}"


def _initial_memory(host: Host) -> tuple[int | None, Evidence | None]:
    """The memory the partition was activated with: lparstat -i Desired Memory, else Online Memory."""
    for s in reversed(host.of_kind("lparstat-i")):
        mb = getattr(s.record, "desired_memory_mb", None)
        if mb:
            return int(mb), s.ev("desired_memory_mb")
    p = host.partition
    if p is not None and p.online_memory_mb:
        ev = p.ev("online_memory_mb")
        return p.online_memory_mb, ev[0] if ev else None
    return None, None


def _reach(mb: int) -> tuple[int, int]:
    factor = 16 if mb < 256 else 64
    return factor, mb * factor


@rule(
    id="MEM-MAX-OVER-64X-MIN",
    title="Maximum memory beyond what DLPAR can reach (64 x the initial memory)",
    severity="warning",
    category="memory",
    source="rules-catalogue MEM-02, SZ-09; 000_31a80e54567cd02b.txt §3.1 (Table 3-2)",
    rationale="""Dynamic LPAR can grow a partition to at most 64 times the memory it was activated with (16
    times when that is below 256 MB). A maximum above that can never be reached by DLPAR, yet the
    hypervisor still sizes the page table from it. The catalogue reads the initial size as the minimum
    memory: a partition activated at its minimum is limited to 64 x minimum. So the finding is a warning
    when the maximum is out of reach from the desired (activation) memory, and advisory when it is out of
    reach only from the minimum.""",
)
def max_over_64x_min(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if p is None or not p.max_memory_mb or not p.min_memory_mb:
        return
    initial, i_ev = _initial_memory(host)
    f_min, reach_min = _reach(p.min_memory_mb)
    f_init, reach_init = _reach(initial) if initial else (f_min, reach_min)
    if p.max_memory_mb <= reach_min:
        return
    sev = "warning" if initial and p.max_memory_mb > reach_init else "info"
    online = p.online_memory_mb or initial or 0
    if reach_min >= online:
        fix = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.lpar_name},max_mem={reach_min}"'])
        undo = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.lpar_name},max_mem={p.max_memory_mb}"'])
        suggested = f"max {reach_min} MB"
    else:
        new_min = math.ceil(p.max_memory_mb / 64 / 256) * 256
        fix = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.lpar_name},min_mem={new_min}"'])
        undo = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.lpar_name},min_mem={p.min_memory_mb}"'])
        suggested = f"min {new_min} MB"
    fix.hmc.append("# profile change: applies at the next activation from the profile")
    msg = (f"{host.name}: maximum memory {p.max_memory_mb} MB; from its minimum {p.min_memory_mb} MB DLPAR reaches "
           f"at most {f_min}x = {reach_min} MB")
    if sev == "warning":
        msg += f", and from its initial {initial} MB at most {f_init}x = {reach_init} MB."
    else:
        msg += f" (from its initial {initial} MB: {reach_init} MB); this matters if it is activated at its minimum."
    yield finding(max_over_64x_min, host, "partition", msg,
                  evidence=p.ev("max_memory_mb", "min_memory_mb") + [i_ev], fix=fix, rollback=undo,
                  disruption=["restart-needed"], severity=None if sev == "warning" else "info",
                  values={"current": f"min {p.min_memory_mb} MB, initial {initial} MB, max {p.max_memory_mb} MB",
                          "suggested": suggested})
