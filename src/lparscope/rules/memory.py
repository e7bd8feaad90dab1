"""Memory rules: maximum memory and the hardware page table (000 §3.1, rules-catalogue S4)."""

from __future__ import annotations

from collections.abc import Iterator

from ..model.estate import Host
from .config import Config
from .engine import Commands, Finding, finding, rule
from .processor import MS, PROFILE


def hpt_mb(max_memory_mb: int, ratio: float) -> int:
    """Hardware page table reserved for one partition: max memory / ratio, rounded up to a power of two.

    000 §3.1 gives max memory / 64 (128 for AIX and Linux on POWER7+); rules-catalogue S4 adds that
    the hypervisor allocates it per partition in a power-of-two size.
    """
    raw = max_memory_mb / ratio
    size = 1
    while size < raw:
        size *= 2
    return size


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
    divisor = cfg.t("hpt_ratio")
    suggested = p.online_memory_mb * 2
    now, then = hpt_mb(p.max_memory_mb, divisor), hpt_mb(suggested, divisor)
    fix = Commands(hmc=[
        f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},max_mem={suggested}"',
        "# the new maximum applies at the next activation from the profile",
    ])
    undo = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},max_mem={p.max_memory_mb}"'])
    yield finding(
        max_memory_far_above_online, host, "partition",
        f"{host.name}: maximum memory {p.max_memory_mb} MB is {ratio:.0f}x its online {p.online_memory_mb} MB; "
        f"the HPT for it is about {now} MB (1:{divisor:.0f}), about {then} MB with a maximum of {suggested} MB.",
        evidence=p.ev("max_memory_mb", "online_memory_mb"), fix=fix, rollback=undo, disruption=["restart-needed"],
        values={"current": f"max {p.max_memory_mb} MB, HPT {now} MB", "suggested": f"max {suggested} MB, HPT {then} MB"},
    )
