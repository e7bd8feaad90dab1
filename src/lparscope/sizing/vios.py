"""VIOS sizing, each number shown with the inputs it came from.

Memory (000 §3.5.2, via :func:`vios_memory_estimate`): 2 GB per 16 cores of the
frame, or 768 MB plus a fixed amount per adapter; the larger of the two. rules-catalogue S10 adds a
floor for VIOS 3.x: below 4 GB is a warning, below 8 GB advisory with many mappings.

Processor, from the traffic the VIOS carries:

- SEA over 1 Gbit (002, POWER5 1.65 GHz, one CPU partition with SMT): one Gigabit link streamed at line
  rate costs 63% of a CPU simplex and 80% duplex without threading, 72% / 87% with threading (table:
  "TCP, Simplex streaming | 72% CPU at 940 Mbits/sec | 63% ...", "Duplex | 87% at 1420 | 80% ...").
  These are POWER5 figures: newer cores need less, so they are an upper bound (rules-catalogue SZ-07).
- SEA over 10 Gbit (003): about one CPU per 10 Gbit port on a tuned SEA; for a link aggregation of
  2 x 10 Gbit, 2 CPU (entitlement) with 3 virtual processors.
- vSCSI (002): about 20% of a CPU for large-block streaming up to 70% for small-block, high-transaction
  work, for a dual disk adapter environment.

Against the VIOS's EC / VP and its measured use (lparstat physc, or lslparutil), and the failover case
(000 §3.5.3, §3.7.7; Table 3-10): can one VIOS of a pair carry the pair's load alone?
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..model.estate import Device, Host, Partition

# 002 table: CPU share of one POWER5 CPU for one 1 Gbit SEA link at line rate
SEA_1G_CPU = {("simplex", False): 0.63, ("simplex", True): 0.72, ("duplex", False): 0.80, ("duplex", True): 0.87}
SEA_1G_RATE_MBIT = {"simplex": 940, "duplex": 1420}  # the throughput those shares were measured at (002)
CPU_PER_10G_PORT = 1.0  # 003: "about 1 CPU for each 10Gbit port running on the properly tuned SEA"
LAGG_2X10G = (2.0, 3)  # 003: 2 CPU entitled, 3 virtual processors for an SEA on a 2 x 10 Gbit aggregation
VSCSI_CPU = (0.20, 0.70)  # 002: large-block streaming .. small-block high-transaction (dual disk adapter)
VIOS3_MEMORY_FLOOR_MB = 4096  # rules-catalogue S10 (K): < 4 GB on VIOS 3.x is a warning
VIOS3_MEMORY_BUSY_MB = 8192  # rules-catalogue S10 (K): < 8 GB with SSP, many mappings or LPM is advisory


def sea_cpu_1g(links: float, duplex: bool = False, threaded: bool = True) -> float:
    """CPUs (POWER5 1.65 GHz) for ``links`` Gigabit SEA links streamed at line rate (002 table)."""
    return round(links * SEA_1G_CPU[("duplex" if duplex else "simplex", threaded)], 3)


def sea_cpu_for_traffic(mbit_s: float, duplex: bool = False, threaded: bool = True) -> float:
    """CPUs for a measured SEA throughput, scaled linearly from the 002 table's measured rate."""
    mode = "duplex" if duplex else "simplex"
    return mbit_s / SEA_1G_RATE_MBIT[mode] * SEA_1G_CPU[(mode, threaded)]


def sea_cpu_10g(ports: int, aggregated: bool = False) -> tuple[float, int]:
    """(CPUs, virtual processors) for an SEA on ``ports`` 10 Gbit ports (003)."""
    if aggregated and ports == 2:
        return LAGG_2X10G
    cpu = ports * CPU_PER_10G_PORT
    return cpu, max(1, math.ceil(cpu) + (1 if aggregated else 0))


@dataclass
class ViosSizing:
    name: str
    frame: str | None = None
    memory_mb: int | None = None  # current
    memory_estimate_mb: int | None = None
    memory_parts: list[str] = field(default_factory=list)
    memory_floor_mb: int | None = None  # S10 for VIOS 3.x
    ioslevel: str | None = None
    ec: float | None = None
    vps: int | None = None
    capped: bool | None = None
    cpu_low: float = 0.0
    cpu_high: float = 0.0
    cpu_vps: int | None = None  # VPs the traffic calls for (003)
    cpu_parts: list[str] = field(default_factory=list)
    sea_peak_gbit: float | None = None  # measured SEA traffic at its peak (nmon SEA, read + write)
    sea_need_ec: float | None = None  # entitled capacity the SEA ports and traffic call for (002, 003)
    sea_need_vps: int | None = None
    sea_need_parts: list[str] = field(default_factory=list)
    measured_peak: float | None = None
    measured_mean: float | None = None
    measured_from: str | None = None
    inputs: dict[str, Any] = field(default_factory=dict)

    @property
    def capacity(self) -> float | None:
        """Processor units this VIOS can reach: EC when capped, its VPs when uncapped."""
        if self.capped:
            return self.ec
        return float(self.vps) if self.vps else self.ec

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "frame": self.frame, "ioslevel": self.ioslevel,
                "memory_mb": self.memory_mb, "memory_estimate_mb": self.memory_estimate_mb,
                "memory_floor_mb": self.memory_floor_mb, "memory_inputs": list(self.memory_parts),
                "ec": self.ec, "vps": self.vps, "capped": self.capped, "capacity": self.capacity,
                "cpu_estimate": [round(self.cpu_low, 2), round(self.cpu_high, 2)], "cpu_vps": self.cpu_vps,
                "cpu_inputs": list(self.cpu_parts), "sea_peak_gbit": self.sea_peak_gbit,
                "sea_need_ec": self.sea_need_ec, "sea_need_vps": self.sea_need_vps,
                "sea_need_inputs": list(self.sea_need_parts), "measured_peak": self.measured_peak,
                "measured_mean": self.measured_mean, "measured_from": self.measured_from,
                "inputs": {k: str(v) for k, v in self.inputs.items()}}


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


def _level(text: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", str(text or ""))[:4])


def _sea_layout(host: Host) -> tuple[int, int, bool, bool]:
    """(1 Gbit ports, 10 Gbit ports, aggregated, threaded) of the ports under this VIOS's SEAs."""
    seas = host.by_class("sea")
    if not seas:
        return 0, 0, False, True
    threaded = all((s.attr("thread") or "1").strip() != "0" for s in seas)
    names: set[str] = set()
    aggregated = False
    for s in seas:
        real = s.attr("real_adapter")
        if not real:
            continue
        dev = host.devices.get(real)
        if dev is not None and dev.cls == "etherchannel":
            aggregated = True
            members = re.split(r"[,\s]+", dev.attr("adapter_names") or "")
            members += [d.name for d in host.devices.values() if d.parent == real]
            names |= {m for m in members if m}
        else:
            names.add(real)
    ports = [host.devices[n] for n in names if n in host.devices]
    ten = sum(1 for d in ports if port_speed_10g(d))
    return len(ports) - ten, ten, aggregated, threaded


def sea_peak_gbit(host: Host | None) -> float | None:
    """Peak SEA traffic of a VIOS in Gbit/s: the nmon SEA table's read + write KB/s of all its SEAs,
    summed per snapshot (KB = 1024 bytes, as nmon reports)."""
    rec = getattr(host, "nmon", None) if host is not None else None
    table = rec.tables.get("SEA") if rec is not None else None
    if table is None:
        return None
    cols = [c for c in table.columns if c.endswith("-read-KB/s") or c.endswith("-write-KB/s")]
    if not cols:
        return None
    total = sum(np.nan_to_num(np.asarray(table.column(c), dtype=float)) for c in cols)
    peak = float(np.max(total)) * 1024 * 8 / 1e9 if len(total) else 0.0
    return peak if peak > 0 else None


def sea_need(ten_g_ports: int, aggregated: bool, threaded: bool, peak_gbit: float | None) -> tuple[float, int, list[str]]:
    """(EC, VPs, how) the SEA of a VIOS calls for: about one core per 10 Gbit port, 2 EC / 3 VP for a
    2 x 10 Gbit aggregation (003); and the measured peak traffic at 002's cost per Gbit (duplex,
    threaded or not), the larger of the two. 1 Gbit ports count through their measured traffic only:
    002's per-port figures are for streaming at line rate."""
    ec, vps, parts = 0.0, 0, []
    if ten_g_ports:
        ec, vps = sea_cpu_10g(ten_g_ports, aggregated=aggregated)
        parts.append(f"{ten_g_ports} x 10 Gbit SEA port(s){' aggregated' if aggregated else ''}: {ec:g} EC, {vps} VP (003)")
    if peak_gbit:
        cpu = sea_cpu_for_traffic(peak_gbit * 1000, duplex=True, threaded=threaded)
        parts.append(f"peak SEA traffic {peak_gbit:.2f} Gbit/s, {'threaded' if threaded else 'not threaded'}: "
                     f"{cpu:.2f} CPU at 002's duplex cost (POWER5, an upper bound)")
        if cpu > ec:
            ec, vps = cpu, max(vps, math.ceil(cpu - 1e-9))
    return round(ec, 2), vps, parts


def _measured(host: Host | None, part: Any) -> tuple[float | None, float | None, str | None]:
    if host is not None and host.cpu is not None:
        v = host.cpu.values("physc")
        if v:
            return max(v), sum(v) / len(v), "lparstat physc"
    if part is not None and getattr(part, "use", None):
        return part.peak_use(), part.mean_use(), "lslparutil"
    return None, None, None


def size_vios(host: Host | None, part: Any = None, frame: Any = None, duplex: bool = True) -> ViosSizing:
    """Sizing of one VIOS from its own outputs (``host``) and/or the HMC's view (``part`` of ``frame``)."""
    name = host.name if host is not None else part.name
    s = ViosSizing(name, frame=getattr(frame, "name", None))
    p = host.partition if host is not None else None
    cores = (p.system_cores if p else None) or (int(frame.cores_configurable) if frame is not None and frame.cores_configurable else None)
    probe = host
    if probe is None or (probe.partition is None or not probe.partition.system_cores) and cores:
        probe = Host(name, role="vios")
        if host is not None:
            probe.devices = host.devices
        probe.partition = Partition(system_cores=cores)
    s.memory_estimate_mb, s.memory_parts = vios_memory_estimate(probe)
    s.memory_mb = (p.online_memory_mb if p else None) or (part.mem if part is not None else None)
    s.ec = (p.entitled_capacity if p else None) or (part.ec if part is not None else None)
    s.vps = (p.online_vps if p else None) or (part.vps if part is not None else None)
    if p is not None and p.mode:
        s.capped = p.capped
    elif part is not None and part.sharing_mode:
        s.capped = not part.uncapped
    lv = host.levels.get("ioslevel") if host is not None else None
    s.ioslevel = str(lv.value) if lv is not None else None
    if s.ioslevel and _level(s.ioslevel)[:1] >= (3,):
        s.memory_floor_mb = VIOS3_MEMORY_FLOOR_MB
        s.memory_parts.append(f"VIOS {s.ioslevel}: at least {VIOS3_MEMORY_FLOOR_MB} MB (rules-catalogue S10)")
    s.inputs.update(cores=cores, ioslevel=s.ioslevel)
    # processor from the traffic it carries
    if host is not None:
        one, ten, agg, threaded = _sea_layout(host)
        s.inputs.update(sea_1g_ports=one, sea_10g_ports=ten, aggregated=agg, threaded=threaded)
        if one:
            cpu = sea_cpu_1g(one, duplex=duplex, threaded=threaded)
            s.cpu_low += cpu
            s.cpu_high += cpu
            s.cpu_parts.append(f"SEA {one} x 1 Gbit {'duplex' if duplex else 'simplex'}, "
                               f"{'threaded' if threaded else 'not threaded'}: {cpu:.2f} CPU (002, POWER5 upper bound)")
        if ten:
            cpu, vps = sea_cpu_10g(ten, aggregated=agg)
            s.cpu_low += cpu
            s.cpu_high += cpu
            s.cpu_vps = vps
            s.cpu_parts.append(f"SEA {ten} x 10 Gbit{' aggregated' if agg else ''}: {cpu:g} CPU, {vps} VP (003)")
        s.sea_peak_gbit = sea_peak_gbit(host)
        if ten or s.sea_peak_gbit:
            s.sea_need_ec, s.sea_need_vps, s.sea_need_parts = sea_need(ten, agg, threaded, s.sea_peak_gbit)
        if any(m.vtd for m in host.vscsi_mappings):
            s.cpu_low += VSCSI_CPU[0]
            s.cpu_high += VSCSI_CPU[1]
            s.cpu_parts.append(f"vSCSI serving: {VSCSI_CPU[0]:.2f}-{VSCSI_CPU[1]:.2f} CPU (002)")
    s.measured_peak, s.measured_mean, s.measured_from = _measured(host, part)
    return s


@dataclass
class FailoverCheck:
    a: str
    b: str
    combined_peak: float
    capacity_a: float | None
    capacity_b: float | None
    busiest_share: float | None  # highest peak / capacity of the two (Table 3-10: keep at or below 50%)

    @property
    def one_can_carry(self) -> bool:
        caps = [c for c in (self.capacity_a, self.capacity_b) if c]
        return bool(caps) and self.combined_peak <= min(caps) + 1e-9

    def to_dict(self) -> dict[str, Any]:
        return {"pair": [self.a, self.b], "combined_peak": round(self.combined_peak, 2),
                "capacity": [self.capacity_a, self.capacity_b], "one_can_carry": self.one_can_carry,
                "busiest_share": None if self.busiest_share is None else round(self.busiest_share, 2)}


def failover(a: ViosSizing, b: ViosSizing) -> FailoverCheck | None:
    """Can either VIOS of a pair carry both VIOS's measured peak alone (000 §3.5.3, §3.7.7, Table 3-10)?"""
    if a.measured_peak is None or b.measured_peak is None:
        return None
    shares = [x.measured_peak / x.capacity for x in (a, b) if x.capacity and x.measured_peak is not None]
    return FailoverCheck(a.name, b.name, a.measured_peak + b.measured_peak, a.capacity, b.capacity,
                         max(shares) if shares else None)
