"""Virtual I/O Server rules: processor mode, folding, memory sizing (000 §3.5)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from ..model.estate import Device, Estate, Host
from .config import Config
from .engine import Commands, Finding, finding, rule
from .processor import MS, PROFILE, dlpar_resize, weight_change


@rule(
    id="VIOS-CAPPED",
    title="VIOS runs capped",
    severity="warning",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.1 (Table 3-9)",
    rationale="""Every client's disk and network I/O passes through the VIOS. A capped VIOS cannot take
    spare pool cycles at peak, and when it is starved all its clients slow down. Table 3-9 suggests
    shared, uncapped, and a weight above every other partition.""",
)
def vios_capped(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if not host.is_vios or p is None or not p.capped:
        return
    fix = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},sharing_mode=uncap,uncap_weight=255"',
                        "# applies at the next activation of the VIOS from its profile; restart one VIOS of the pair at a time"])
    undo = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},sharing_mode=cap"'])
    yield finding(vios_capped, host, "partition", f"VIOS {host.name} is capped at EC {p.entitled_capacity}.",
                  evidence=p.ev("mode", "entitled_capacity"), fix=fix, rollback=undo, disruption=["restart-needed"],
                  values={"current": "capped", "suggested": "uncapped, weight 255"})


@rule(
    id="VIOS-FOLDING-ENABLED",
    title="Processor folding enabled on a VIOS",
    severity="warning",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.1 (Examples 3-21, 3-22)",
    rationale="""Processor folding is not supported on a VIOS. Installs from 2.1.0.13-FP23 disable it,
    but a VIOS upgraded from an older level can keep it on (vpm_fold_policy other than 4), adding
    unfolding delay to every client's I/O. The change is dynamic: no reboot.""",
)
def vios_folding(host: Host, cfg: Config) -> Iterator[Finding]:
    t = host.tunables.get("vpm_fold_policy")
    if not host.is_vios or t is None or str(t.value).strip() == "4":
        return
    fix = Commands(padmin=["oem_setup_env", "schedo -p -o vpm_fold_policy=4", "exit"],
                   root=["schedo -p -o vpm_fold_policy=4"])
    undo = Commands(padmin=["oem_setup_env", f"schedo -p -o vpm_fold_policy={t.value}", "exit"],
                    root=[f"schedo -p -o vpm_fold_policy={t.value}"])
    yield finding(vios_folding, host, "schedo vpm_fold_policy",
                  f"VIOS {host.name} has vpm_fold_policy = {t.value}; 4 disables folding.",
                  evidence=[t.evidence], fix=fix, rollback=undo, values={"current": t.value, "suggested": 4})


_TEN_GIG = re.compile(r"10\s?G(b|bE|igabit)|10000", re.I)


def _port_speed_10g(dev: Device) -> bool:
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
    ten = [d for d in physical if _port_speed_10g(d)]
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


@rule(
    id="VIOS-WEIGHT-NOT-HIGHEST",
    title="VIOS uncapped weight not above its clients'",
    severity="warning",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.1 (Table 3-9, Weight); §3.1 Table 3-1; rules-catalogue S1, S2",
    rationale="""When the shared pool is contended, spare cycles go to uncapped partitions in proportion to
    their weight. A VIOS that loses that contest delays the I/O of every client, so Table 3-9 puts its
    weight above all other partitions, in the upper part of the 0-255 range (255 is common).""",
    scope="estate",
)
def vios_weight(estate: Estate, cfg: Config) -> Iterator[Finding]:
    clients = [h for h in estate.hosts.values() if not h.is_vios and h.partition and h.partition.uncapped
               and h.partition.weight is not None]
    top = max((h.partition.weight for h in clients), default=None)  # type: ignore[union-attr]
    for host in estate.vios:
        p = host.partition
        if p is None or not p.uncapped or p.weight is None:
            continue
        beaten = top is not None and p.weight <= top
        if not beaten and p.weight >= 128:
            continue
        rival = max(clients, key=lambda h: h.partition.weight) if beaten else None  # type: ignore[union-attr]
        why = (f"the client {rival.name} has weight {top}" if rival else "below the upper half of the 0-255 range")
        fix, undo = weight_change(host.name, p.weight, 255)
        yield finding(vios_weight, host, "partition", f"VIOS {host.name} has uncapped weight {p.weight}; {why}.",
                      evidence=p.ev("weight") + (rival.partition.ev("weight") if rival else []),  # type: ignore[union-attr]
                      fix=fix, rollback=undo, disruption=["dlpar"],
                      values={"current": p.weight, "suggested": 255})
