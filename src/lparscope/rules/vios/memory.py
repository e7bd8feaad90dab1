"""VIOS memory against the estimate from its adapters and clients (000 §3.5.2), and whether its
maximum memory lets DLPAR add what is missing.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ...model.estate import Estate
from ...model.frame import frame_of_host
from ...sizing.vios import size_vios
from ..changes import partition_change, propose
from ..config import Config
from ..engine import Finding, finding, rule


@rule(
    id="VIOS-MEMORY-BELOW-ESTIMATE",
    title="VIOS memory below the sizing estimate",
    severity="warning",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.2",
    rationale="""A VIOS needs memory for each adapter it drives: buffers for Ethernet ports, Fibre Channel
    ports, NPIV and virtual Ethernet adapters. The Redbook estimate is 2 GB per 16 cores in the frame,
    or 768 MB plus a fixed amount per adapter; the larger is used here. Base it on the intended
    scale, even for adapters not yet in use. DLPAR can add memory only up to the partition's maximum:
    when the estimate is above it, the finding says so and the fix raises the profile's maximum first
    (it applies at the next activation from the profile).""",
    scope="estate",
)
def vios_memory(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for host in estate.vios:
        p = host.partition
        if p is None or not p.online_memory_mb or not host.devices:
            continue  # without an adapter inventory there is nothing to size from
        on = frame_of_host(estate, host.name)
        s = size_vios(host, on[1] if on else None, on[0] if on else None)  # the one VIOS sizing (sizing/vios.py)
        need = s.memory_estimate_mb
        if not need or p.online_memory_mb >= need:
            continue
        parts = s.memory_parts[:-1] if s.memory_floor_mb else s.memory_parts  # the estimate's inputs, not the S10 floor
        suggested = int(math.ceil(need / 256) * 256)
        changes = [partition_change(host, "desired_mem", p.online_memory_mb, suggested)]
        blocked = bool(p.max_memory_mb and p.max_memory_mb < suggested)
        note = ""
        if blocked:
            changes.insert(0, partition_change(host, "max_mem", p.max_memory_mb, suggested, method="profile"))
            note = (f" Its maximum memory {p.max_memory_mb} MB blocks a DLPAR add to {suggested} MB: raise max_mem in the "
                    f"profile first (applies at the next activation of the VIOS; restart one VIOS of the pair at a time).")
        fix, undo = propose(*changes)
        yield finding(vios_memory, host, "partition",
                      f"VIOS {host.name} has {p.online_memory_mb} MB; the §3.5.2 estimate is {need} MB "
                      f"({'; '.join(parts)}).{note}",
                      evidence=p.ev("online_memory_mb", "system_cores", *(("max_memory_mb",) if blocked else ())),
                      fix=fix, rollback=undo, disruption=["dlpar", *(["restart-needed"] if blocked else [])],
                      values={"current": f"{p.online_memory_mb} MB", "suggested": f"{suggested} MB",
                              **({"maximum": f"{p.max_memory_mb} MB (blocks the DLPAR add)"} if blocked else {})},
                      facts={(host.name, "memory_estimate_mb"): need})
