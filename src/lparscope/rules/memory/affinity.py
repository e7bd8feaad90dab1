"""Processor-memory affinity seen from inside AIX: SRADs that hold memory and no processor
(``lssrad -av``; rules-catalogue MEM-05).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host
from ..changes import MS
from ..config import Config
from ..engine import Commands, Finding, finding, rule


@rule(
    id="MEM-SRAD-MEMORY-WITHOUT-CPU",
    title="Partition memory in an affinity domain with none of its processors",
    severity="info",
    category="memory",
    source="rules-catalogue MEM-05 (K)",
    rationale="""lssrad -av lists the partition's scheduler resource allocation domains (SRADs): the
    memory and the logical processors the hypervisor placed in each. Memory in an SRAD that holds
    none of the partition's processors is remote to every one of them, so each access to it is a
    far access. This is typical after many DLPAR or partition mobility operations; the HMC's
    dynamic platform optimizer (DPO) can place memory and processors together again. The catalogue
    states this placement reading from domain knowledge (K), so it is advisory: check the affinity
    score the HMC computes before running DPO.""",
)
def srad_memory_without_cpu(host: Host, cfg: Config) -> Iterator[Finding]:
    srads = host.of_kind("lssrad", "Srad")
    if not any(s.record.cpus for s in srads):
        return  # no SRAD with processors read: nothing to compare against
    # an SRAD whose processor list could not be read (cpu_text kept, warned) is not taken for one without any
    lonely = [s for s in srads if not s.record.cpus and not s.record.cpu_text and (s.record.memory_mb or 0) > 0]
    if not lonely:
        return
    remote = sum(s.record.memory_mb or 0 for s in lonely)
    total = sum(s.record.memory_mb or 0 for s in srads)
    names = ", ".join(f"SRAD {s.record.srad} ({s.record.memory_mb:.0f} MB)" for s in lonely)
    share = 100.0 * remote / total if total else 0.0
    fix = Commands(hmc=[
        f"lsmemopt -m {MS} -o currscore   # the frame's affinity score now (0-100)",
        f"lsmemopt -m {MS} -o calcscore   # the score DPO would reach",
        f"optmem -m {MS} -o start -t affinity   # only when calcscore is clearly above currscore",
        "# while DPO runs, partition mobility and memory DLPAR are refused on the frame",
    ])
    rollback = Commands(hmc=[f"optmem -m {MS} -o stop   # stops a DPO run; what it already moved stays where it is"])
    yield finding(srad_memory_without_cpu, host, "memory affinity",
                  f"{host.name}: {names} hold{'s' if len(lonely) == 1 else ''} {remote:.0f} MB of memory "
                  f"({share:.1f}% of {total:.0f} MB) and none of the partition's processors: that memory is "
                  "remote to every processor.",
                  evidence=[s.ev("memory_mb") for s in lonely] + [s.ev("cpus") for s in srads if s.record.cpus][:2],
                  fix=fix, rollback=rollback,
                  values={"current": f"{remote:.0f} MB in SRADs without processors",
                          "suggested": "memory in SRADs with the partition's processors"})
