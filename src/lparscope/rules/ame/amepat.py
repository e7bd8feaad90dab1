"""What the amepat report advises: its recommended configuration, the deficit it saw and the
oversized partition (000 §3.2.2, §3.2.4, §3.2.9; rules-catalogue AME-02, AME-03).

``amepat_report`` and ``ame_on`` read the report the same way for every AME rule.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from ...model.estate import Host, Sourced
from ..changes import MS, PROFILE, partition_change
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule

OVERSIZE_FACTOR = threshold(
    "ame_oversize_factor", 2.25,
    "amepat recommending a factor above this is beyond the expansion IBM quotes for real workloads "
    "(up to 125% = 2.25, rules-catalogue S12 / AME-02); with mostly free memory it means the LPAR is oversized "
    "(000 §3.2.9: 8.00 recommended with 66% available)")
OVERSIZE_AVAILABLE = threshold(
    "ame_oversize_available_pct", 50.0,
    "amepat Available Memory average (% of true memory) at or above which memory is 'mostly free' (000 §3.2.9)")
OVERSIZE_HEADROOM = threshold(
    "ame_oversize_headroom", 0.3,
    "headroom over the amepat True Memory In-Use peak when resizing an oversized LPAR, rounded up to 1 GB "
    "(000 §3.2.9: 2841 MB in use -> a 4 GB LPAR)")


def amepat_report(host: Host) -> Sourced | None:
    found = host.of_kind("amepat", "AmepatReport")
    return found[-1] if found else None


def ame_on(host: Host, rep: Any | None = None) -> bool:
    p = host.partition
    if p is not None and p.memory_mode:
        return p.ame_enabled
    if rep is not None and rep.ame_enabled is not None:
        return bool(rep.ame_enabled)
    return any((s.record.mmode or "").endswith("-E") for s in host.of_kind("lparstat", "LparstatConfig"))


def current_ame(host: Host, rep: Any) -> tuple[int | None, float]:
    """(true memory MB, expansion factor) now."""
    p = host.partition
    mem = rep.true_memory_mb or (p.online_memory_mb if p else None)
    factor = rep.target_expansion_factor if ame_on(host, rep) and rep.target_expansion_factor else 1.0
    if p is not None and p.ame_enabled and p.ame_factor:
        factor = p.ame_factor
    return (round(mem) if mem else None), factor


def _modeled_table(rep: Any) -> str:
    return "; ".join(
        f"{r.expansion_factor:.2f}: true {r.true_memory_mb / 1024:.2f} GB, gain {r.memory_gain_mb / 1024:.2f} GB, "
        f"AME CPU {r.cpu_usage if r.cpu_usage is not None else '?'}" + (" (current)" if r.current else "")
        for r in rep.modeled)


def _apply_commands(host: Host, mem: int, factor: float, new_mem: int, new_factor: float) -> tuple[Commands, Commands, list[str]]:
    """HMC commands that move the LPAR from (mem, factor) to (new_mem, new_factor)."""
    lpar = host.name
    on = ame_on(host)

    def prof(m: int, f: float) -> str:
        return f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={lpar},desired_mem={m},mem_expansion={f if f > 1 else 0}"'

    if not on:  # AME is switched on in the profile and takes effect at activation (000 §3.2.4)
        fix = Commands(hmc=[prof(new_mem, new_factor), "# reactivate the partition from the profile"])
        fix.changes = [partition_change(host, "desired_mem", mem, new_mem, method="profile", basis="measured"),
                       partition_change(host, "mem_expansion", 0.0, new_factor if new_factor > 1 else 0.0,
                                        method="profile", basis="measured")]
        return (fix, Commands(hmc=[prof(mem, 1.0), "# reactivate the partition from the profile"]), ["restart-needed"])
    fix, undo = [], []
    delta = new_mem - mem
    if delta:
        op, back = ("a", "r") if delta > 0 else ("r", "a")
        fix.append(f"chhwres -m {MS} -r mem -o {op} -p {lpar} -q {abs(delta)}")
        undo.append(f"chhwres -m {MS} -r mem -o {back} -p {lpar} -q {abs(delta)}")
    if abs(new_factor - factor) >= 0.005:
        fix.append(f"chhwres -m {MS} -r mem -o s -p {lpar} -a mem_expansion={new_factor:.2f}")
        undo.append(f"chhwres -m {MS} -r mem -o s -p {lpar} -a mem_expansion={factor:.2f}")
    fix.append(prof(new_mem, new_factor))
    undo.append(prof(mem, factor))
    cmds = Commands(hmc=fix)
    cmds.changes = [partition_change(host, "desired_mem", mem, new_mem, basis="measured"),
                    partition_change(host, "mem_expansion", round(factor, 2), round(new_factor, 2), basis="measured")]
    return cmds, Commands(hmc=undo), ["dlpar"]


def _oversized(rep: Any, cfg: Config) -> bool:
    avail = rep.resource_stats.get("available_memory")
    return bool(rep.recommended_expansion_factor and rep.recommended_expansion_factor > cfg.t(OVERSIZE_FACTOR)
                and avail is not None and avail.average_pct is not None
                and avail.average_pct >= cfg.t(OVERSIZE_AVAILABLE))


@rule(
    id="AME-AMEPAT-RECOMMENDATION",
    title="amepat recommends a different memory size and expansion factor",
    severity="info",
    category="ame",
    source="000_31a80e54567cd02b.txt §3.2.2, §3.2.4 (Example 3-6); rules-catalogue AME-02",
    rationale="""amepat models, from the memory it watched, how much true memory each expansion factor would
    need and what compression would cost in processor. Its recommendation is the best trade it saw for that
    period only: run it over the full peak, and again after a change, because the workload moves. The
    modeled table is kept with the finding so the trade-off can be read, not just the pick.""",
)
def amepat_recommendation(host: Host, cfg: Config) -> Iterator[Finding]:
    s = amepat_report(host)
    if s is None:
        return
    rep = s.record
    if not rep.recommended_expansion_factor or not rep.recommended_true_memory_mb or _oversized(rep, cfg):
        return
    mem, factor = current_ame(host, rep)
    new_mem, new_factor = round(rep.recommended_true_memory_mb), rep.recommended_expansion_factor
    if mem is None or (abs(new_factor - factor) < 0.005 and abs(new_mem - mem) < 256):
        return
    fix, undo, disruption = _apply_commands(host, mem, factor, new_mem, new_factor)
    cpu = f"; modeled AME CPU {rep.recommended_ame_cpu:.2f} cores" if rep.recommended_ame_cpu is not None else ""
    high = " A factor above 2.0 is high for real workloads (catalogue AME-02)." if new_factor > 2.0 else ""
    yield finding(amepat_recommendation, host, "amepat",
                  f"{host.name}: amepat recommends {new_mem} MB true memory with factor {new_factor:.2f} "
                  f"(now {mem} MB, factor {factor:.2f}){cpu}.{high}",
                  evidence=[s.ev("recommendation"), s.ev("true_memory_mb"), s.ev("target_expansion_factor"), s.ev("modeled")],
                  fix=fix, rollback=undo, disruption=disruption,
                  values={"current": f"{mem} MB x {factor:.2f}", "suggested": f"{new_mem} MB x {new_factor:.2f}",
                          "modeled": _modeled_table(rep)})


@rule(
    id="AME-AMEPAT-DEFICIT",
    title="amepat reports a memory deficit",
    severity="warning",
    category="ame",
    source="000_31a80e54567cd02b.txt §3.2.9 (Example 3-14), §3.2 (Table 3-4, memory deficit); rules-catalogue AME-03",
    rationale="""A memory deficit is expanded memory the partition was promised but compression could not
    deliver, because the expansion factor is too high for how well the data compresses. The shortfall is
    paged out. amepat names its size; reconfigure to one of its modeled configurations.""",
)
def amepat_deficit(host: Host, cfg: Config) -> Iterator[Finding]:
    s = amepat_report(host)
    if s is None:
        return
    rep = s.record
    stat = rep.ame_stats.get("deficit_memory_size")
    deficit = rep.deficit_memory_mb or (stat.average if stat is not None else None)
    if not deficit or deficit <= 0:
        return
    ev = [s.ev("deficit_memory_mb"), s.ev("deficit_memory_size"), s.ev("target_expansion_factor")]
    mem, factor = current_ame(host, rep)
    if rep.recommended_expansion_factor and rep.recommended_true_memory_mb and mem:
        new_mem, new_factor = round(rep.recommended_true_memory_mb), rep.recommended_expansion_factor
    elif mem:
        new_mem, new_factor = mem, max(1.0, round(factor * (1 - deficit / (mem * factor)), 2))
    else:
        return
    fix, undo, disruption = _apply_commands(host, mem, factor, new_mem, new_factor)
    yield finding(amepat_deficit, host, "amepat",
                  f"{host.name}: amepat measured a memory deficit of {deficit:.0f} MB at factor {factor:.2f}.",
                  evidence=ev + [s.ev("recommendation")], fix=fix, rollback=undo, disruption=disruption,
                  values={"current": f"{mem} MB x {factor:.2f}, deficit {deficit:.0f} MB",
                          "suggested": f"{new_mem} MB x {new_factor:.2f}"})


@rule(
    id="AME-LPAR-OVERSIZED",
    title="amepat recommends a very high factor because most memory is unused",
    severity="warning",
    category="ame",
    source="000_31a80e54567cd02b.txt §3.2.9 (Examples 3-13 to 3-20); rules-catalogue S12, AME-02",
    rationale="""When a partition has far more memory than its workload touches, amepat projects its model
    on the idle memory and recommends extreme factors (the Redbook saw 8.00 for an 8 GB LPAR using a third
    of it) that flip between iterations. Size the true memory to what is used first, then run amepat again
    on the right-sized partition.""",
)
def lpar_oversized(host: Host, cfg: Config) -> Iterator[Finding]:
    s = amepat_report(host)
    if s is None or not _oversized(s.record, cfg):
        return
    rep = s.record
    avail = rep.resource_stats["available_memory"]
    inuse = rep.resource_stats.get("true_memory_in_use")
    mem, factor = current_ame(host, rep)
    used = (inuse.max or inuse.average) if inuse is not None else None
    if not mem or not used:
        return
    new_mem = math.ceil(used * (1 + cfg.t(OVERSIZE_HEADROOM)) / 1024) * 1024
    if new_mem >= mem:
        return
    fix, undo, disruption = _apply_commands(host, mem, factor, new_mem, 1.0)
    fix.hmc.append("# then run amepat again over the peak before choosing an expansion factor")
    yield finding(lpar_oversized, host, "amepat",
                  f"{host.name}: amepat recommends factor {rep.recommended_expansion_factor:.2f} while "
                  f"{avail.average_pct:.0f}% of its {mem} MB is available and at most {used:.0f} MB is in use: "
                  f"size the memory to about {new_mem} MB first.",
                  evidence=[s.ev("recommendation"), s.ev("available_memory"), s.ev("true_memory_in_use")],
                  fix=fix, rollback=undo, disruption=disruption,
                  values={"current": f"{mem} MB, amepat factor {rep.recommended_expansion_factor:.2f}",
                          "suggested": f"{new_mem} MB without AME, then amepat again"})
