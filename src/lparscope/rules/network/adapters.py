"""Physical Ethernet ports: flow control, offloads, link speed against the port, transmit queue
overflows and receive errors (000 §3.8 items 2-3; 001; 003; rules-catalogue NET-13, NET-14).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Device, Host
from ..changes import chdev_perm, chdev_root, lsattr_root
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from .link_speed import port_capability_mbps, running_mbps

RX_WARN = threshold("phys_rx_error_ratio_warning", 0.00001,
                    "physical-port receive/CRC/no-resource errors per received packet from which NET-13 is a "
                    "warning (10 per million; below it the counters are reported as info). Heuristic: "
                    "rules-catalogue NET-13 only says 'increasing'; entstat counts since the last reset")
RX_CRIT = threshold("phys_rx_error_ratio_critical", 0.001,
                    "errors per received packet from which NET-13 is critical (0.1 %: TCP throughput "
                    "visibly suffers from loss at this rate; domain knowledge, not from the seeds)")
TXQ_MIN = threshold("sw_tx_queue_overflow_min", 1.0,
                    "S/W Transmit Queue Overflow at or above this is reported (rules-catalogue NET-14: > 0)")


_OFF = {"no", "off", "0", "disable", "disabled", "false"}


def is_off(value: str | None) -> bool:
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


def _counter(dev: Device, key: str) -> int | None:
    v = (getattr(dev.stats, "counters", None) or {}).get(key)
    return v if isinstance(v, int) else None


def _physical(host: Host) -> list[Device]:
    return sorted(host.by_class("physical"), key=lambda d: d.name)


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
        if is_off(attr):
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
                                       + ([] if attr else [chdev_root(dev.name, {"flow_ctrl": "yes"}, perm=True)]),
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
        off = {name: dev.attr(name) for name, _ in _OFFLOADS if is_off(dev.attr(name))}
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
            fix.changes = ch.changes
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
        fix.root.insert(0, lsattr_root(dev.name, "tx_que_sz", allowed=True) + "   # the allowed values; take the largest")
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
            fix.root.append(lsattr_root(dev.name, qattr, allowed=True) + "   # the allowed receive queue sizes")
            ch = chdev_perm(host, dev.name, {qattr: "<largest value lsattr -Rl lists>"})
            fix.root += ch.root
            fix.padmin += ch.padmin
            fix.changes = ch.changes
            rollback = chdev_perm(host, dev.name, {qattr: cur or "<previous value>"})
        share = f" ({ratio:.4%} of {rx} received packets)" if ratio is not None else ""
        yield finding(phys_rx_errors, host, dev.name,
                      f"{dev.name} on {host.name}: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in bad.items())
                      + share + ".",
                      evidence=dev.stat_ev(*bad.keys(), "rx_packets"), fix=fix, rollback=rollback,
                      disruption=["reboot"] if rollback else [], severity=level,
                      values={**{k: v for k, v in bad.items()}, "rx_packets": rx if rx is not None else "unknown",
                              "current": f"{ratio:.6f}" if ratio is not None else "unknown", "suggested": 0})
