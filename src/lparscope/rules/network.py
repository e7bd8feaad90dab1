"""Network rules: SEA threading and offloads, link aggregation, virtual Ethernet buffers,
hypervisor failures and client largesend (000 §3.7.10-§3.8, 001, 002, 003)."""

from __future__ import annotations

import math
from collections.abc import Iterator

from ..model.estate import Device, Host
from .config import Config
from .engine import Commands, Finding, finding, rule

# 000 §3.8 item 6: the largest values max_buf_* accepts, per buffer type.
BUFFER_LIMITS = {"tiny": 4096, "small": 4096, "medium": 2048, "large": 256, "huge": 128}
# 000 §3.8 item 7: raise Min Buffers above Max Allocated to the next multiple of these.
BUFFER_STEPS = {"tiny": 256, "small": 256, "medium": 128, "large": 16, "huge": 8}


def _en(ent: str) -> str:
    return "en" + ent[3:] if ent.startswith("ent") else ent


def _interface_down(host: Host, ent: str, change: str) -> list[str]:
    """The down / detach / change / up sequence of 000 Example 3-33."""
    en = _en(ent)
    return [f"chdev -l {en} -a state=down", f"chdev -l {en} -a state=detach", change, f"chdev -l {en} -a state=up"]


def _sea_threaded(dev: Device) -> tuple[bool | None, list]:
    attr = dev.attr("thread")
    if attr is not None:
        return attr.strip() == "1", dev.attr_ev("thread")
    sea = getattr(dev.stats, "sea", None)
    threaded = getattr(sea, "threaded", None) if sea is not None else None
    return threaded, dev.stat_ev("sea_flags")


def _vscsi_served(host: Host) -> bool | None:
    """True when the VIOS maps virtual target devices; None when lsmap -all was not given."""
    if not host.vscsi_mappings:
        return None if not host.by_class("vhost") else False
    return any(getattr(m, "vtd", None) for m in host.vscsi_mappings)


@rule(
    id="NET-SEA-THREAD-NO-VSCSI",
    title="SEA thread mode on a VIOS that serves no virtual SCSI",
    severity="info",
    category="network",
    source="003_034cc79c9b4ed950.txt; 002_17cd08c97e154efa.txt; 000_31a80e54567cd02b.txt §3.8 item 5",
    rationale="""Thread mode queues SEA packets to kernel threads so that virtual SCSI interrupts are not
    starved. On a VIOS that bridges network only (or NPIV only) there is nothing to protect, and the
    longer path costs throughput: 003 measured +16-20% at MTU 1500 and +31-38% with jumbo frames with
    threading off.""",
)
def sea_thread_without_vscsi(host: Host, cfg: Config) -> Iterator[Finding]:
    if not host.is_vios or _vscsi_served(host) is not False:
        return
    for sea in host.by_class("sea"):
        threaded, ev = _sea_threaded(sea)
        if not threaded:
            continue
        yield finding(sea_thread_without_vscsi, host, sea.name,
                      f"SEA {sea.name} on {host.name} runs threaded but the VIOS maps no virtual SCSI devices.",
                      evidence=ev, fix=Commands(padmin=[f"chdev -dev {sea.name} -attr thread=0"],
                                                root=[f"chdev -l {sea.name} -a thread=0"]),
                      rollback=Commands(padmin=[f"chdev -dev {sea.name} -attr thread=1"], root=[f"chdev -l {sea.name} -a thread=1"]),
                      values={"current": "thread=1", "suggested": "thread=0"})


@rule(
    id="NET-SEA-THREAD-OFF-VSCSI",
    title="SEA thread mode off on a VIOS that serves virtual SCSI",
    severity="warning",
    category="network",
    source="002_17cd08c97e154efa.txt; 003_034cc79c9b4ed950.txt",
    rationale="""Without threading the SEA forwards packets at interrupt level, which is cheapest for the
    network but starves the lower-priority virtual SCSI work on the same VIOS: disk response times
    of every client suffer under network load.""",
)
def sea_unthreaded_with_vscsi(host: Host, cfg: Config) -> Iterator[Finding]:
    if not host.is_vios or not _vscsi_served(host):
        return
    for sea in host.by_class("sea"):
        threaded, ev = _sea_threaded(sea)
        if threaded is not False:
            continue
        yield finding(sea_unthreaded_with_vscsi, host, sea.name,
                      f"SEA {sea.name} on {host.name} is not threaded while the VIOS serves virtual SCSI.",
                      evidence=ev, fix=Commands(padmin=[f"chdev -dev {sea.name} -attr thread=1"], root=[f"chdev -l {sea.name} -a thread=1"]),
                      rollback=Commands(padmin=[f"chdev -dev {sea.name} -attr thread=0"], root=[f"chdev -l {sea.name} -a thread=0"]),
                      values={"current": "thread=0", "suggested": "thread=1"})


@rule(
    id="NET-SEA-THREAD-OVERFLOW",
    title="SEA thread queue overflowed (packets dropped)",
    severity="warning",
    category="network",
    source="002_17cd08c97e154efa.txt",
    rationale="""Each SEA thread queues up to 8192 input packets; past that, packets are dropped and counted
    as 'Thread queue overflow packets'. A few can be bursts; many mean the threads do not get CPU often
    enough: the VIOS needs more processor (EC, VPs, uncapped weight).""",
)
def sea_thread_overflow(host: Host, cfg: Config) -> Iterator[Finding]:
    for sea in host.by_class("sea"):
        s = getattr(sea.stats, "sea", None)
        n = getattr(s, "thread_queue_overflow_packets", None) if s is not None else None
        if n is None or n < cfg.t("sea_thread_overflow_min"):
            continue
        yield finding(sea_thread_overflow, host, sea.name,
                      f"SEA {sea.name} on {host.name} dropped {n} packets on full thread queues.",
                      evidence=sea.stat_ev("thread_queue_overflow_packets"),
                      fix=Commands(hmc=[f"chhwres -m <managed-system> -r proc -o a -p {host.name} --procunits 0.5",
                                        "# and check the VIOS is uncapped with a high weight (VIOS-CAPPED)"],
                                   padmin=[f"entstat -all {sea.name} | grep -i 'thread queue overflow'   # watch the counter after the change"]),
                      rollback=Commands(hmc=[f"chhwres -m <managed-system> -r proc -o r -p {host.name} --procunits 0.5"]),
                      disruption=["dlpar"], values={"current": n, "suggested": 0})


@rule(
    id="NET-SEA-LARGESEND",
    title="SEA largesend or large_receive disabled",
    severity="warning",
    category="network",
    source="000_31a80e54567cd02b.txt §3.7.12, §3.8 item 5; 001_56ba1d0866fd4e65.txt; 003_034cc79c9b4ed950.txt",
    rationale="""largesend lets clients hand 64 KB segments to the SEA, which the physical adapter cuts
    into frames; large_receive aggregates received segments. Both cut VIOS CPU per byte substantially.
    Caveat from 001: with Linux clients, check their kernel supports it before enabling large_receive.""",
)
def sea_offloads(host: Host, cfg: Config) -> Iterator[Finding]:
    for sea in host.by_class("sea"):
        off = []
        if sea.attr("largesend") is not None and sea.attr("largesend") in ("0", "no"):
            off.append(("largesend", "1", sea.attr("largesend")))
        if sea.attr("large_receive") is not None and sea.attr("large_receive") == "no":
            off.append(("large_receive", "yes", "no"))
        if not off:
            continue
        attrs = " ".join(f"{a}={v}" for a, v, _ in off)
        old = " ".join(f"{a}={o}" for a, _, o in off)
        yield finding(sea_offloads, host, sea.name,
                      f"SEA {sea.name} on {host.name}: {', '.join(a for a, _, _ in off)} off. "
                      "If Linux clients use this SEA, confirm their support first (001).",
                      evidence=sea.attr_ev(*[a for a, _, _ in off]),
                      fix=Commands(padmin=[f"chdev -dev {sea.name} -attr {attrs}"], root=[f"chdev -l {sea.name} -a " + " -a ".join(attrs.split())]),
                      rollback=Commands(padmin=[f"chdev -dev {sea.name} -attr {old}"], root=[f"chdev -l {sea.name} -a " + " -a ".join(old.split())]),
                      values={"current": old, "suggested": attrs})


@rule(
    id="NET-LAGG-MODE",
    title="Link aggregation not in 802.3ad mode with src_dst_port hashing",
    severity="warning",
    category="network",
    source="000_31a80e54567cd02b.txt §3.7.12 (Example 3-34), §3.8 item 4; 001; 003",
    rationale="""mode=8023ad negotiates the aggregation with the switch (LACP) and detects a bad link;
    hash_mode=src_dst_port spreads connections over all members. With the default hash, Table 3-12
    shows one member carrying 65% of transmit traffic and two almost none.""",
)
def lagg_mode(host: Host, cfg: Config) -> Iterator[Finding]:
    for ec in host.by_class("etherchannel"):
        mode, hmode = ec.attr("mode"), ec.attr("hash_mode")
        wrong = []
        if mode is not None and mode != "8023ad":
            wrong.append(("mode", "8023ad", mode))
        if hmode is not None and hmode != "src_dst_port":
            wrong.append(("hash_mode", "src_dst_port", hmode))
        if not wrong:
            continue
        new = " ".join(f"{a}={v}" for a, v, _ in wrong)
        old = " ".join(f"{a}={o}" for a, _, o in wrong)
        on_sea = [s.name for s in host.by_class("sea") if s.attr("real_adapter") == ec.name]
        note = f" It carries SEA {', '.join(on_sea)}: change it in a maintenance window, failover first." if on_sea else ""
        yield finding(lagg_mode, host, ec.name,
                      f"EtherChannel {ec.name} on {host.name} uses {old}.{note} The switch ports must be set to LACP too.",
                      evidence=ec.attr_ev("mode", "hash_mode"),
                      fix=Commands(padmin=[f"chdev -dev {ec.name} -attr {new}"],
                                   root=[f"chdev -l {ec.name} -a " + " -a ".join(new.split())]),
                      rollback=Commands(padmin=[f"chdev -dev {ec.name} -attr {old}"], root=[f"chdev -l {ec.name} -a " + " -a ".join(old.split())]),
                      disruption=["interface-down"], values={"current": old, "suggested": new})


def _buffer_rows(dev: Device) -> dict[str, dict[str, int]]:
    rows = getattr(dev.stats, "receive_buffers", None) or {}
    return {str(k).lower(): v for k, v in rows.items()}


def _next_multiple(value: int, step: int) -> int:
    return int(math.floor(value / step) + 1) * step


@rule(
    id="NET-VETH-BUFFERS",
    title="Virtual Ethernet receive buffers exhausted or growing on demand",
    severity="warning",
    category="network",
    source="000_31a80e54567cd02b.txt §3.7.11 (Example 3-32, 3-33), §3.8 items 6-7",
    rationale="""When a buffer pool's Max Allocated reaches Max Buffers the adapter ran out and dropped
    packets. When Max Allocated is above Min Buffers the pool grew and shrank on demand, which adds
    latency. The fix raises Min above Max Allocated (to the next multiple of 256 for tiny/small, 128
    medium, 16 large, 8 huge) and Max where it was reached, within the adapter's limits.""",
)
def veth_buffers(host: Host, cfg: Config) -> Iterator[Finding]:
    for dev in sorted(host.by_class("virtual", "trunk"), key=lambda d: d.name):
        changes: list[tuple[str, int, int, int, int]] = []  # type, old min, new min, old max, new max
        exhausted = False
        for btype, row in _buffer_rows(dev).items():
            if btype not in BUFFER_LIMITS:
                continue
            mn, mx, peak = row.get("min_buffers"), row.get("max_buffers"), row.get("max_allocated")
            if mn is None or mx is None or peak is None or peak <= mn:
                continue
            new_max = mx
            if peak >= mx:
                exhausted = True
                new_max = min(BUFFER_LIMITS[btype], max(mx * 2, _next_multiple(peak, BUFFER_STEPS[btype])))
            new_min = min(_next_multiple(peak, BUFFER_STEPS[btype]), new_max)
            if (new_min, new_max) != (mn, mx):
                changes.append((btype, mn, new_min, mx, new_max))
        if not changes:
            continue
        new = " ".join(f"-a min_buf_{t}={nmin} -a max_buf_{t}={nmax}" for t, _, nmin, _, nmax in changes)
        old = " ".join(f"-a min_buf_{t}={omin} -a max_buf_{t}={omax}" for t, omin, _, omax, _ in changes)
        desc = "; ".join(f"{t}: min {omin}->{nmin}, max {omax}->{nmax}" for t, omin, nmin, omax, nmax in changes)
        yield finding(veth_buffers, host, dev.name,
                      f"{dev.name} on {host.name}: {'buffers ran out' if exhausted else 'buffer pools grew on demand'} ({desc}).",
                      evidence=dev.stat_ev("receive_buffers.min_buffers", "receive_buffers.max_buffers", "receive_buffers.max_allocated"),
                      fix=Commands(root=_interface_down(host, dev.name, f"chdev -l {dev.name} {new}")
                                   + [f"# or: chdev -l {dev.name} {new} -P   (applies at next boot)"],
                                   padmin=[f"chdev -dev {dev.name} " + new.replace("-a ", "-attr ", 1).replace(" -a ", " ") + " -perm",
                                           "# -perm: applies at the next VIOS restart (trunk adapters carry the SEA)"] if host.is_vios else []),
                      rollback=Commands(root=_interface_down(host, dev.name, f"chdev -l {dev.name} {old}"),
                                        padmin=[f"chdev -dev {dev.name} " + old.replace("-a ", "-attr ", 1).replace(" -a ", " ") + " -perm"] if host.is_vios else []),
                      disruption=["interface-down"] if not host.is_vios else ["reboot"],
                      severity=None if exhausted else "info",
                      values={"current": old.replace("-a ", ""), "suggested": new.replace("-a ", "")})


@rule(
    id="NET-VETH-HYPERVISOR-FAILURES",
    title="Hypervisor send/receive failures or no-resource errors on a virtual adapter",
    severity="warning",
    category="network",
    source="000_31a80e54567cd02b.txt §3.7.11 (Example 3-32)",
    rationale="""Hypervisor Receive Failures count packets the hypervisor could not deliver because the
    partition's receive queue was full; Send Failures count sends refused for lack of buffers; No
    Resource Errors count receives lost for lack of buffers. Each is a dropped packet and a TCP
    retransmission. Look at the receive buffer table (NET-VETH-BUFFERS) and at the partition's CPU.""",
)
def veth_hypervisor_failures(host: Host, cfg: Config) -> Iterator[Finding]:
    keys = ("hypervisor_send_failures", "hypervisor_receive_failures", "no_resource_errors")
    for dev in sorted(host.by_class("virtual", "trunk"), key=lambda d: d.name):
        s = dev.stats
        if s is None:
            continue
        counts = {k: _counter(s, k) for k in keys}
        bad = {k: v for k, v in counts.items() if v}
        if not bad:
            continue
        text = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in bad.items())
        yield finding(veth_hypervisor_failures, host, dev.name, f"{dev.name} on {host.name}: {text}.",
                      evidence=dev.stat_ev(*bad.keys()),
                      fix=Commands(root=[f"netstat -v {dev.name} | egrep -i 'failures|no resource|max allocated|max buffers'",
                                         "# raise the receive buffers as NET-VETH-BUFFERS suggests, and check the partition's CPU entitlement"],
                                   padmin=[f"entstat -all {dev.name} | grep -i failures"] if host.is_vios else []),
                      rollback=Commands(root=["# the commands above only read counters: nothing to roll back"]),
                      values={k: v for k, v in bad.items()})


def _counter(stats: object, key: str) -> int | None:
    for holder in (stats, getattr(stats, "counters", None), getattr(stats, "virtual", None)):
        if holder is None:
            continue
        value = holder.get(key) if isinstance(holder, dict) else getattr(holder, key, None)
        if isinstance(value, int):
            return value
    return None


@rule(
    id="NET-CLIENT-MTU-BYPASS",
    title="Client interface without mtu_bypass (largesend) on a virtual adapter",
    severity="warning",
    category="network",
    source="000_31a80e54567cd02b.txt §3.7.10 (Example 3-30), §3.8 item 8; 001_56ba1d0866fd4e65.txt",
    rationale="""mtu_bypass turns on largesend for a virtual Ethernet interface (AIX 6.1 TL7 SP1, 7.1 SP1
    and later), so TCP hands 64 KB segments to the adapter instead of MTU-sized packets. In the
    Redbook test it was part of a change that gave over 7x the throughput.""",
)
def client_mtu_bypass(host: Host, cfg: Config) -> Iterator[Finding]:
    if host.is_vios:
        return
    for en in sorted(host.by_class("interface"), key=lambda d: d.name):
        value = en.attr("mtu_bypass")
        if value is None or value == "on":
            continue
        ent = host.devices.get("ent" + en.name[2:])
        if ent is not None and ent.cls not in ("virtual", "other"):
            continue
        yield finding(client_mtu_bypass, host, en.name, f"{en.name} on {host.name} has mtu_bypass={value}.",
                      evidence=en.attr_ev("mtu_bypass"),
                      fix=Commands(root=[f"chdev -l {en.name} -a mtu_bypass=on"]),
                      rollback=Commands(root=[f"chdev -l {en.name} -a mtu_bypass={value}"]),
                      values={"current": value, "suggested": "on"})
