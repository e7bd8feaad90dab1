"""Ethernet adapter rules: physical port flow control, offloads, link speed and error counters;
virtual adapter dcbflush_local and trunk-adapter buffer pinning
(000 §3.7.10 Table 3-11, §3.8 items 2, 3, 6; 001; 003; rules-catalogue NET-13, NET-14).

Helpers here (``link_mbps``, ``port_capability_mbps``) are also used by ``network_tcpip``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..model.estate import Device, Evidence, Host
from .config import Config, threshold
from .engine import Commands, Finding, finding, rule

RX_WARN = threshold("phys_rx_error_ratio_warning", 0.00001,
                    "physical-port receive/CRC/no-resource errors per received packet from which NET-13 is a "
                    "warning (10 per million; below it the counters are reported as info). Heuristic: "
                    "rules-catalogue NET-13 only says 'increasing'; entstat counts since the last reset")
RX_CRIT = threshold("phys_rx_error_ratio_critical", 0.001,
                    "errors per received packet from which NET-13 is critical (0.1 %: TCP throughput "
                    "visibly suffers from loss at this rate; domain knowledge, not from the seeds)")
TXQ_MIN = threshold("sw_tx_queue_overflow_min", 1.0,
                    "S/W Transmit Queue Overflow at or above this is reported (rules-catalogue NET-14: > 0)")
DCB_CORES = threshold("dcbflush_frame_cores_min", 32.0,
                      "'Active Physical CPUs in system' from which the frame is treated as high end for "
                      "dcbflush_local (001 names large fabric-bus P7 frames, 770-795; 32 cores means several "
                      "CEC drawers/nodes: a proxy, the model knows no machine type)")

_OFF = {"no", "off", "0", "disable", "disabled", "false"}
# 000 §3.8 item 6: the largest values the max_buf_* attributes accept.
BUFFER_LIMITS = {"tiny": 4096, "small": 4096, "medium": 2048, "large": 256, "huge": 128}


# --- helpers -------------------------------------------------------------------------------

def _is_off(value: str | None) -> bool:
    return value is not None and value.strip().lower() in _OFF


def _members_of_aggregates(host: Host) -> set[str]:
    """Physical adapters a SEA or EtherChannel uses (changing them touches the bridge)."""
    used: set[str] = set()
    for d in host.devices.values():
        for attr in ("real_adapter", "adapter_names", "backup_adapter"):
            v = d.attr(attr)
            if v:
                used.update(x.strip() for x in v.split(",") if x.strip())
        if d.parent:
            used.add(d.name)
    return used


def chdev_perm(host: Host, dev: str, changes: dict[str, str], note: str = "") -> Commands:
    """A device attribute change written to the ODM for the next boot (root and padmin forms)."""
    root = f"chdev -l {dev} " + " ".join(f"-a {k}={v}" for k, v in changes.items()) + " -P"
    cmds = Commands(root=[root, "# -P: applies at the next reboot; or detach what uses the adapter (en/SEA/"
                                "EtherChannel) and run without -P"])
    if host.is_vios:
        cmds.padmin = [f"chdev -dev {dev} -attr " + " ".join(f"{k}={v}" for k, v in changes.items()) + " -perm",
                       "# -perm: applies at the next VIOS restart (fail the SEA over to the partner VIOS first)"]
    if note:
        cmds.root.append(note)
    return cmds


_GB_RE = re.compile(r"(?<![\w.])(\d+(?:/\d+)*)\s?G(?:bE|b/s|bps|b|igabit)(?![a-z])", re.I)


def port_capability_mbps(dev: Device) -> int | None:
    """The port speed the adapter's description names (10GbE -> 10000); None when absent or mixed."""
    texts = [dev.description or "", getattr(dev.stats, "device_type", None) or ""]
    speeds: set[int] = set()
    for text in texts:
        for m in _GB_RE.finditer(text):
            speeds.update(int(x) * 1000 for x in m.group(1).split("/"))
        rest = _GB_RE.sub(" ", text)
        if re.search(r"10/100/1000\b", rest) or "gigabit" in rest.lower():
            speeds.add(1000)
    if len(speeds) != 1:  # none named, or a mixed card (10Gb + 1GbE ports, 100/25GbE): cannot tell the port
        return None
    return speeds.pop()


def running_mbps(dev: Device) -> tuple[int | None, list[Evidence]]:
    """The speed the port runs at: Media Speed Running / Physical Port Speed, else Adapter Data Rate / 2.

    AIX prints Adapter Data Rate as the sum of both directions on a full-duplex link
    (10 Gbps Full Duplex shows 20000; 1000 Mbps Full Duplex shows 2000).
    """
    s = dev.stats
    if s is None:
        return None, []
    m = re.search(r"(?<!\d)(\d+(?:\.\d+)?)\s*([GM])\s*bps", getattr(s, "media_speed_running", None) or "", re.I)
    if m:
        mbps = float(m.group(1)) * (1000 if m.group(2).upper() == "G" else 1)
        return int(mbps), dev.stat_ev("media_speed_running")
    rate = getattr(s, "adapter_data_rate", None)
    if isinstance(rate, int) and rate > 0:
        return rate // 2, dev.stat_ev("adapter_data_rate")
    return None, []


def link_mbps(host: Host, dev: Device) -> tuple[int | None, list[Evidence]]:
    """Best link speed for an adapter of any class (an SEA takes its real adapter's)."""
    if dev.cls == "sea":
        real = dev.attr("real_adapter")
        if real and real in host.devices and real != dev.name:
            return link_mbps(host, host.devices[real])
    speed, ev = running_mbps(dev)
    if speed:
        return speed, ev
    if dev.cls == "physical":
        cap = port_capability_mbps(dev)
        if cap:
            return cap, [dev.evidence] if dev.evidence else []
    return None, []


def _counter(dev: Device, key: str) -> int | None:
    v = (getattr(dev.stats, "counters", None) or {}).get(key)
    return v if isinstance(v, int) else None


def _physical(host: Host) -> list[Device]:
    return sorted(host.by_class("physical"), key=lambda d: d.name)


# --- physical adapters -------------------------------------------------------------------

@rule(
    id="NET-PHYS-FLOW-CONTROL",
    title="Flow control disabled on a physical Ethernet port",
    severity="warning",
    category="network",
    source="000_31a80e54567cd02b.txt §3.8 items 2-3; 001_56ba1d0866fd4e65.txt (Physical Ethernet Adapters); "
           "rules-catalogue NET-13",
    rationale="""With 802.3x link flow control a receiver that falls behind asks its peer to pause instead of
    discarding frames. The Redbook checklist wants flow_ctrl enabled on every VIOS physical port and on the
    switch port; 001 shows that the adapter attribute alone is not enough: entstat's 'Transmit and Receive
    Flow Control Status' stays Disabled when the switch side refuses it. Attribute off is fixed on the
    host; status Disabled with the attribute on is fixed on the switch.""",
)
def phys_flow_control(host: Host, cfg: Config) -> Iterator[Finding]:
    for dev in _physical(host):
        attr = dev.attr("flow_ctrl")
        status = getattr(dev.stats, "flow_control", None) if dev.stats is not None else None
        if _is_off(attr):
            yield finding(phys_flow_control, host, dev.name,
                          f"{dev.name} on {host.name} has flow_ctrl={attr}"
                          + (f" (entstat flow control status: {status})" if status else "") + ".",
                          evidence=dev.attr_ev("flow_ctrl") + dev.stat_ev("flow_control"),
                          fix=chdev_perm(host, dev.name, {"flow_ctrl": "yes"},
                                         "# and enable flow control (802.3x) on the switch port"),
                          rollback=chdev_perm(host, dev.name, {"flow_ctrl": attr or "no"}),
                          disruption=["reboot"], values={"current": f"flow_ctrl={attr}", "suggested": "flow_ctrl=yes"})
        elif status is not None and status.strip().lower().startswith("disabled"):
            yield finding(phys_flow_control, host, dev.name,
                          f"{dev.name} on {host.name}: entstat reports flow control {status}"
                          + (f" although flow_ctrl={attr}" if attr else "")
                          + ": the switch port does not negotiate it (001). Enable it on the switch port.",
                          evidence=dev.stat_ev("flow_control") + dev.attr_ev("flow_ctrl"),
                          fix=Commands(root=["# on the switch port: enable 802.3x flow control (send/receive on)",
                                             f"entstat -d {dev.name} | grep -i 'flow control'   # should then read Enabled"]
                                       + ([] if attr else [f"chdev -l {dev.name} -a flow_ctrl=yes -P"]),
                                       padmin=[f"entstat -all {dev.name} | grep -i 'flow control'"] if host.is_vios else []),
                          rollback=Commands(root=["# on the switch port: restore the previous flow control setting"]),
                          values={"current": f"status {status}", "suggested": "Enabled"})


_OFFLOADS = (("chksum_offload", "yes"), ("large_send", "yes"), ("largesend", "1"), ("large_receive", "yes"))


@rule(
    id="NET-PHYS-OFFLOADS",
    title="Checksum offload, large send or large receive off on a physical port",
    severity="warning",
    category="network",
    source="000_31a80e54567cd02b.txt §3.8 item 3; 000 §3.7.10 (Table 3-11)",
    rationale="""The port can compute TCP checksums, cut 64 KB sends into frames (large send / TSO) and
    merge received segments (large receive / LRO); with these off the VIOS or LPAR CPU does that work per
    packet. The Redbook 10 Gb checklist asks for chksum_offload (default) and prefers large_send and
    large_receive on every VIOS physical port. Attribute names differ by adapter (large_send or largesend).
    Where the port sits under an SEA whose clients include Linux, confirm their large-receive support first
    (001).""",
)
def phys_offloads(host: Host, cfg: Config) -> Iterator[Finding]:
    used = _members_of_aggregates(host)
    for dev in _physical(host):
        off = {name: dev.attr(name) for name, _ in _OFFLOADS if _is_off(dev.attr(name))}
        if not off:
            continue
        new = {name: on for name, on in _OFFLOADS if name in off}
        old = {name: str(v) for name, v in off.items()}
        where = " It carries an SEA/EtherChannel: change it in a maintenance window." if dev.name in used else ""
        yield finding(phys_offloads, host, dev.name,
                      f"{dev.name} on {host.name}: " + ", ".join(f"{k}={v}" for k, v in old.items()) + "." + where,
                      evidence=dev.attr_ev(*off), fix=chdev_perm(host, dev.name, new),
                      rollback=chdev_perm(host, dev.name, old), disruption=["reboot"],
                      values={"current": " ".join(f"{k}={v}" for k, v in old.items()),
                              "suggested": " ".join(f"{k}={v}" for k, v in new.items())})


@rule(
    id="NET-PHYS-SPEED-BELOW-PORT",
    title="Physical port running below its rated speed",
    severity="warning",
    category="network",
    source="000_31a80e54567cd02b.txt §3.8 item 3 (verify Adapter Data Rate with entstat -d / netstat -v)",
    rationale="""The checklist asks to verify each physical port's Adapter Data Rate. A 10 Gb port that
    negotiated 1 Gb (a forced media_speed, a 1 Gb switch port, wrong cable or transceiver) gives a tenth of
    the bandwidth without any error. AIX prints Adapter Data Rate as both directions added on a full-duplex
    link (10 Gbps Full Duplex shows 20000), so the rule compares Media Speed Running (or the data rate
    halved) with the speed the adapter's description names.""",
)
def phys_speed(host: Host, cfg: Config) -> Iterator[Finding]:
    for dev in _physical(host):
        cap = port_capability_mbps(dev)
        run, ev = running_mbps(dev)
        if cap is None or run is None or run >= cap:
            continue
        speed_attr = dev.attr("media_speed")
        forced = speed_attr is not None and "auto" not in speed_attr.lower()
        fix = Commands(root=[f"entstat -d {dev.name} | egrep -i 'Media Speed|Port Speed|Data Rate'"],
                       padmin=[f"entstat -all {dev.name} | grep -i speed"] if host.is_vios else [])
        rollback = Commands()
        if forced:
            ch = chdev_perm(host, dev.name, {"media_speed": "Auto_Negotiation"})
            fix.root += ch.root
            fix.padmin += ch.padmin
            rollback = chdev_perm(host, dev.name, {"media_speed": str(speed_attr)})
        fix.root.append("# check the switch port speed and auto-negotiation, the cable and the transceiver (SFP)")
        yield finding(phys_speed, host, dev.name,
                      f"{dev.name} on {host.name} runs at {run} Mbit/s; the adapter "
                      f"({dev.description or getattr(dev.stats, 'device_type', '')}) is a {cap} Mbit/s port"
                      + (f"; media_speed is forced to {speed_attr}" if forced else "") + ".",
                      evidence=ev + dev.stat_ev("device_type") + dev.attr_ev("media_speed"),
                      fix=fix, rollback=rollback, disruption=["reboot"] if forced else [],
                      values={"current": f"{run} Mbit/s", "suggested": f"{cap} Mbit/s"})


@rule(
    id="NET-PHYS-TX-QUEUE-OVERFLOW",
    title="Software transmit queue overflowed on a physical port",
    severity="warning",
    category="network",
    source="rules-catalogue NET-14",
    rationale="""When the adapter's transmit queue is full the driver queues packets in software; when that
    queue overflows too, packets are dropped ('S/W Transmit Queue Overflow'). The remedy is a larger
    tx_que_sz (the maximum the adapter accepts, see lsattr -Rl) or removing what slows the link (pause
    frames, a slower port). Catalogue NET-14 is tagged P: the mechanism is documented, the counter names
    come from domain knowledge.""",
)
def phys_tx_queue_overflow(host: Host, cfg: Config) -> Iterator[Finding]:
    for dev in _physical(host):
        n = _counter(dev, "sw_tx_queue_overflow")
        if n is None or n < cfg.t(TXQ_MIN):
            continue
        peak = _counter(dev, "max_sw_tx_queue_packets")
        cur = dev.attr("tx_que_sz")
        fix = chdev_perm(host, dev.name, {"tx_que_sz": "<maximum listed by lsattr -Rl>"})
        fix.root.insert(0, f"lsattr -Rl {dev.name} -a tx_que_sz   # the allowed values; take the largest")
        yield finding(phys_tx_queue_overflow, host, dev.name,
                      f"{dev.name} on {host.name}: S/W Transmit Queue Overflow {n}"
                      + (f", Max Packets on S/W Transmit Queue {peak}" if peak is not None else "")
                      + (f", tx_que_sz={cur}" if cur else "") + ".",
                      evidence=dev.stat_ev("sw_tx_queue_overflow", "max_sw_tx_queue_packets") + dev.attr_ev("tx_que_sz"),
                      fix=fix, rollback=chdev_perm(host, dev.name, {"tx_que_sz": cur or "<previous value>"}),
                      disruption=["reboot"], values={"current": n, "suggested": 0})


_RX_KEYS = ("rx_errors", "crc_errors", "alignment_errors", "no_resource_errors", "dma_overrun")
_RXQ_ATTRS = ("rxdesc_que_sz", "rx_queue_size", "rxbuf_pool_sz", "rx_que_sz")


@rule(
    id="NET-PHYS-RX-ERRORS",
    title="Receive, CRC or no-resource errors on a physical port",
    severity="warning",
    category="network",
    source="rules-catalogue NET-13 (and §9 counter glossary)",
    rationale="""CRC and alignment errors point at the physical layer (cable, optics, duplex mismatch); No
    Resource Errors and DMA overruns mean the receive ring or buffers were full, so frames were dropped
    (too small a receive queue, or the partition did not get CPU in time). Counters run since the last
    reset, so the severity follows their share of received packets: info below
    phys_rx_error_ratio_warning, critical from phys_rx_error_ratio_critical.""",
)
def phys_rx_errors(host: Host, cfg: Config) -> Iterator[Finding]:
    for dev in _physical(host):
        if dev.stats is None:
            continue
        bad = {k: v for k in _RX_KEYS if (v := _counter(dev, k))}
        if not bad:
            continue
        rx = _counter(dev, "rx_packets")
        worst = max(bad.values())
        ratio = worst / rx if rx else None
        if ratio is None or ratio >= cfg.t(RX_CRIT):
            level = "critical" if ratio is not None else "warning"
        elif ratio >= cfg.t(RX_WARN):
            level = "warning"
        else:
            level = "info"
        fix = Commands(root=[f"entstat -d {dev.name} | egrep -i 'No Resource|Overrun|Receive Errors|CRC|Alignment'",
                             f"entstat -r {dev.name}   # reset the counters, then re-check after a busy period"],
                       padmin=[f"entstat -all {dev.name} | grep -i error"] if host.is_vios else [])
        rollback = Commands()
        if "crc_errors" in bad or "alignment_errors" in bad:
            fix.root.append("# CRC/alignment errors: check the cable, the transceiver and the switch port's speed/duplex")
        if "no_resource_errors" in bad or "dma_overrun" in bad:
            qattr = next((a for a in _RXQ_ATTRS if dev.attr(a) is not None), "rxdesc_que_sz")
            cur = dev.attr(qattr)
            fix.root.append(f"lsattr -Rl {dev.name} -a {qattr}   # the allowed receive queue sizes")
            ch = chdev_perm(host, dev.name, {qattr: "<largest value lsattr -Rl lists>"})
            fix.root += ch.root
            fix.padmin += ch.padmin
            rollback = chdev_perm(host, dev.name, {qattr: cur or "<previous value>"})
        share = f" ({ratio:.4%} of {rx} received packets)" if ratio is not None else ""
        yield finding(phys_rx_errors, host, dev.name,
                      f"{dev.name} on {host.name}: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in bad.items())
                      + share + ".",
                      evidence=dev.stat_ev(*bad.keys(), "rx_packets"), fix=fix, rollback=rollback,
                      disruption=["reboot"] if rollback else [], severity=level,
                      values={**{k: v for k, v in bad.items()}, "rx_packets": rx if rx is not None else "unknown",
                              "current": f"{ratio:.6f}" if ratio is not None else "unknown", "suggested": 0})


# --- virtual adapters ----------------------------------------------------------------------

@rule(
    id="NET-VETH-DCBFLUSH",
    title="dcbflush_local off on a virtual Ethernet adapter of a large frame",
    severity="info",
    category="network",
    source="000_31a80e54567cd02b.txt §3.7.10 (Table 3-11, Example 3-30), §3.8 item 6; 001_56ba1d0866fd4e65.txt "
           "(AIX Virtual Ethernet adapter); 003_034cc79c9b4ed950.txt (trunk adapter)",
    rationale="""dcbflush_local lets the virtual Ethernet driver flush received data from the local
    processor's data cache. 001 recommends it for virtual adapters on high-end frames (large fabric bus,
    770-795), 003 on the SEA trunk adapter, and the Redbook used it in its 7x throughput test. The model has
    no machine type, so 'high end' is approximated by the active cores in the frame
    (dcbflush_frame_cores_min); advisory only. Changing it needs the interface detached.""",
)
def veth_dcbflush(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    cores = p.system_cores if p is not None else None
    if cores is None or cores < cfg.t(DCB_CORES):
        return
    for dev in sorted(host.by_class("virtual", "trunk"), key=lambda d: d.name):
        value = dev.attr("dcbflush_local")
        if value is None or not _is_off(value):
            continue
        if host.is_vios or dev.cls == "trunk":
            fix, back = (chdev_perm(host, dev.name, {"dcbflush_local": "yes"}),
                         chdev_perm(host, dev.name, {"dcbflush_local": value}))
            disruption = ["reboot"]
        else:  # the interface must be detached for the change (000 Example 3-30)
            en = "en" + dev.name[3:]
            seq = [f"chdev -l {en} -a state=down", f"chdev -l {en} -a state=detach"]
            fix = Commands(root=seq + [f"chdev -l {dev.name} -a dcbflush_local=yes", f"chdev -l {en} -a state=up",
                                       f"# or: chdev -l {dev.name} -a dcbflush_local=yes -P   (applies at next boot)"])
            back = Commands(root=seq + [f"chdev -l {dev.name} -a dcbflush_local={value}", f"chdev -l {en} -a state=up"])
            disruption = ["interface-down"]
        yield finding(veth_dcbflush, host, dev.name,
                      f"{dev.name} ({dev.cls}) on {host.name} has dcbflush_local={value} on a frame with {cores} active cores.",
                      evidence=dev.attr_ev("dcbflush_local") + p.ev("system_cores"),  # type: ignore[union-attr]
                      fix=fix, rollback=back, disruption=disruption,
                      values={"current": f"dcbflush_local={value}", "suggested": "dcbflush_local=yes",
                              "system_cores": cores})


@rule(
    id="NET-TRUNK-BUFFERS-MIN-MAX",
    title="VIOS trunk adapter under load with Min Buffers below Max Buffers",
    severity="info",
    category="network",
    source="000_31a80e54567cd02b.txt §3.8 item 6; 003_034cc79c9b4ed950.txt",
    rationale="""Under high load, growing and shrinking a virtual adapter's buffer pools on demand adds
    latency and can end in Hypervisor Receive Failures. For the trunk adapters that carry an SEA the
    Redbook advises setting Min Buffers equal to Max Buffers, which pins more memory but removes the
    resizing. This rule asks for that once the trunk shows load (a pool grew past its minimum, or the
    hypervisor failed sends or receives); NET-VETH-BUFFERS handles pools that ran out. Limits per pool:
    tiny 4096, small 4096, medium 2048, large 256, huge 128.""",
)
def trunk_min_max(host: Host, cfg: Config) -> Iterator[Finding]:
    if not host.is_vios:
        return
    for dev in sorted(host.by_class("trunk"), key=lambda d: d.name):
        rows = {str(k).lower(): v for k, v in (getattr(dev.stats, "receive_buffers", None) or {}).items()}
        failures = {k: v for k in ("hypervisor_receive_failures", "hypervisor_send_failures")
                    if isinstance(v := getattr(dev.stats, k, None), int) and v > 0}
        grew = [t for t, r in rows.items() if t in BUFFER_LIMITS and r.get("max_allocated") is not None
                and r.get("min_buffers") is not None and r["max_allocated"] > r["min_buffers"]]
        if not grew and not failures:
            continue
        changes = {t: (r["min_buffers"], min(r["max_buffers"], BUFFER_LIMITS[t])) for t, r in rows.items()
                   if t in BUFFER_LIMITS and r.get("min_buffers") is not None and r.get("max_buffers") is not None
                   and r["min_buffers"] < r["max_buffers"]}
        if not changes:
            continue
        new = {f"min_buf_{t}": str(mx) for t, (_, mx) in changes.items()}
        old = {f"min_buf_{t}": str(mn) for t, (mn, _) in changes.items()}
        load = []
        if grew:
            load.append("Max Allocated above Min Buffers for " + ", ".join(grew))
        load += [f"{k.replace('_', ' ')} {v}" for k, v in failures.items()]
        note = ("# buf_mode=max_min does the same for every pool" if dev.attr("buf_mode") is not None else "")
        yield finding(trunk_min_max, host, dev.name,
                      f"Trunk adapter {dev.name} on {host.name} shows load ({'; '.join(load)}) while its pools resize "
                      f"on demand: " + ", ".join(f"{t} min {mn} < max {mx}" for t, (mn, mx) in changes.items()) + ".",
                      evidence=dev.stat_ev("receive_buffers.min_buffers", "receive_buffers.max_buffers",
                                           "receive_buffers.max_allocated", *failures),
                      fix=chdev_perm(host, dev.name, new, note), rollback=chdev_perm(host, dev.name, old),
                      disruption=["reboot"],
                      values={"current": " ".join(f"{k}={v}" for k, v in old.items()),
                              "suggested": " ".join(f"{k}={v}" for k, v in new.items())})
