"""VIOS memory against the estimate from its adapters and clients (000 §3.5.2).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from ...model.estate import Device, Host
from ..changes import dlpar_resize
from ..config import Config
from ..engine import Finding, finding, rule

_TEN_GIG = re.compile(r"10\s?G(b|bE|igabit)|10000", re.I)


def port_speed_10g(dev: Device) -> bool:
    stats = dev.stats
    rate = getattr(stats, "adapter_data_rate", None) if stats is not None else None
    if rate:
        return int(rate) >= 10000
    return bool(_TEN_GIG.search(dev.description))


def vios_memory_estimate(host: Host) -> tuple[int, list[str]]:
    """Suggested VIOS memory in MB and how it was reached (000 §3.5.2)."""
    parts: list[str] = []
    lhea = [d for d in host.devices.values() if re.search(r"Logical Host Ethernet Adapter", d.description, re.I)]
    lhea_ports = [d for d in host.devices.values() if re.search(r"Logical Host Ethernet Port", d.description, re.I)]
    physical = [d for d in host.by_class("physical") if d not in lhea_ports]
    ten = [d for d in physical if port_speed_10g(d)]
    one = [d for d in physical if d not in ten]
    fc = host.by_class("fc")
    vfc = host.by_class("vfchost")
    veth = host.by_class("virtual", "trunk")
    total = 768
    parts.append("768 MB base")
    for count, each, label in ((len(lhea), 512, "LHEA"), (len(lhea_ports), 102, "LHEA port"),
                               (len(one), 102, "1 Gb Ethernet port"), (len(ten), 512, "10 Gb Ethernet port"),
                               (len(fc), 512, "FC port"), (len(vfc), 140, "virtual FC (NPIV) adapter"),
                               (len(veth), 16, "virtual Ethernet adapter")):
        if count:
            total += count * each
            parts.append(f"{count} x {label} x {each} MB")
    cores = host.partition.system_cores if host.partition else None
    if cores:
        by_cores = 2048 * math.ceil(cores / 16)
        parts.append(f"or 2 GB per 16 cores: {cores} cores -> {by_cores} MB")
        total = max(total, by_cores)
    return total, parts


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
