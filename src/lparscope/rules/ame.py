"""Active Memory Expansion rules (000 §3.2)."""

from __future__ import annotations

from collections.abc import Iterator

from ..model.estate import Host
from .config import Config
from .engine import Commands, Finding, finding, rule
from .processor import MS, PROFILE


@rule(
    id="AME-MEMORY-DEFICIT",
    title="Active Memory Expansion cannot reach its target (memory deficit)",
    severity="warning",
    category="ame",
    source="000_31a80e54567cd02b.txt §3.2.6 (lparstat -c dxm)",
    rationale="""dxm is the expanded memory deficit: memory the partition was promised by the expansion
    factor but that compression could not deliver, because the data does not compress well enough.
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
    factor = p.ame_factor if p else None
    lower = f"{max(1.0, round((factor or 1.0) - 0.2, 2)):.2f}" if factor else "<lower factor>"
    fix = Commands(hmc=[f"chhwres -m {MS} -r mem -o s -p {host.name} -a mem_expansion={lower}",
                        f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},mem_expansion={lower}"',
                        "# or add true memory with chhwres -r mem -o a; run amepat on the live workload to choose"])
    undo = Commands(hmc=[f"chhwres -m {MS} -r mem -o s -p {host.name} -a mem_expansion={factor}"] if factor else [])
    yield finding(ame_deficit, host, "partition",
                  f"{host.name}: expanded memory deficit in {len(positive)} of {len(dxm)} samples (max {max(dxm):.0f} MB)"
                  + (f" with target factor {factor:.2f}." if factor else "."),
                  evidence=(p.ev("ame_factor") if p else []) + cpu.evidence[:1] + cpu.evidence[-1:],
                  fix=fix, rollback=undo, disruption=["dlpar"],
                  values={"current": f"factor {factor}" if factor else "deficit", "suggested": f"factor {lower}"})
