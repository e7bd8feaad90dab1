"""VIOS memory against the estimate from its adapters and clients (000 §3.5.2).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ...model.estate import Host
from ...sizing.vios import vios_memory_estimate
from ..changes import dlpar_resize
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
    scale, even for adapters not yet in use.""",
)
def vios_memory(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if not host.is_vios or p is None or not p.online_memory_mb:
        return
    if not host.devices:
        return  # without an adapter inventory there is nothing to size from
    need, parts = vios_memory_estimate(host)
    if p.online_memory_mb >= need:
        return
    suggested = int(math.ceil(need / 256) * 256)
    fix, undo = dlpar_resize(host.name, "mem", "-q", p.online_memory_mb, suggested, "desired_mem", "{}")
    yield finding(vios_memory, host, "partition",
                  f"VIOS {host.name} has {p.online_memory_mb} MB; the §3.5.2 estimate is {need} MB ({'; '.join(parts)}).",
                  evidence=p.ev("online_memory_mb", "system_cores"), fix=fix, rollback=undo, disruption=["dlpar"],
                  values={"current": f"{p.online_memory_mb} MB", "suggested": f"{suggested} MB"})
