"""Active Memory Expansion: the expanded memory the partition could not reach (000 §3.2.6).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host
from ..changes import MS, PROFILE, partition_change
from ..config import Config
from ..engine import Commands, Finding, finding, rule


@rule(
    id="AME-MEMORY-DEFICIT",
    title="Active Memory Expansion cannot reach its target (memory deficit)",
    severity="warning",
    category="ame",
    source="000_31a80e54567cd02b.txt §3.2.6 (lparstat -c dxm)",
    rationale="""dxm is the expanded memory deficit, in 4 KB pages: memory the partition was promised by the
    expansion factor but that compression could not deliver, because the data does not compress well enough.
    The partition then pages. Lower the expansion factor or add true memory, guided by amepat.""",
)
def ame_deficit(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    cpu = host.cpu
    if cpu is None:
        return
    dxm = cpu.values("dxm")
    if not dxm or max(dxm) <= 0:
        return
    positive = [v for v in dxm if v > 0]
    peak_mb = max(dxm) * 4 / 1024  # dxm counts 4 KB pages (000 §3.2.6)
    factor = p.ame_factor if p else None
    achieved = host.vmstat.get("achieved_memory_expansion_factor")
    reached = f"; vmstat -vc shows an achieved factor of {achieved.value}" if achieved is not None else ""
    lower = f"{max(1.0, round((factor or 1.0) - 0.2, 2)):.2f}" if factor else "<lower factor>"
    fix = Commands(hmc=[f"chhwres -m {MS} -r mem -o s -p {host.lpar_name} -a mem_expansion={lower}",
                        f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.lpar_name},mem_expansion={lower}"',
                        "# or add true memory with chhwres -r mem -o a; run amepat on the live workload to choose"])
    undo = Commands(hmc=[f"chhwres -m {MS} -r mem -o s -p {host.lpar_name} -a mem_expansion={factor}"] if factor else [])
    if factor:
        fix.changes = [partition_change(host, "mem_expansion", round(factor, 2), float(lower))]
    yield finding(ame_deficit, host, "partition",
                  f"{host.name}: expanded memory deficit in {len(positive)} of {len(dxm)} samples "
                  f"(peak {max(dxm):.0f} pages = {peak_mb:.0f} MB)"
                  + (f" with target factor {factor:.2f}" if factor else "") + reached + ".",
                  evidence=(p.ev("ame_factor") if p else []) + cpu.evidence[:1] + cpu.evidence[-1:]
                  + ([achieved.evidence] if achieved is not None else []),
                  fix=fix, rollback=undo, disruption=["dlpar"],
                  values={"current": f"factor {factor}" if factor else "deficit", "suggested": f"factor {lower}"})
