"""SEA threading against the VIOS's vSCSI load and thread queue overflows (000 §3.7.12; 002).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Device, Host
from ..changes import device_change, partition_change, propose
from ..config import Config
from ..engine import Finding, finding, rule


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
                      evidence=ev,
                      changes=[device_change(host, sea.name, "thread", sea.attr("thread") or "1", "0")],
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
                      evidence=ev,
                      changes=[device_change(host, sea.name, "thread", sea.attr("thread") or "0", "1")],
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
        ec = host.partition.entitled_capacity if host.partition is not None else None
        # The drops are measured: the VIOS must not get less processor than it has now, and half a
        # processing unit more is the first step (a floor the plan keeps above any sizing that would cut it).
        more = partition_change(host, "desired_proc_units", ec, round(ec + 0.5, 2), basis="measured",
                                bound="min") if ec else None
        fix, undo = propose(more, fix_notes=["# and check the VIOS is uncapped with a high weight (VIOS-CAPPED)"],
                            form="hmc")
        fix.padmin.append(f"entstat -all {sea.name} | grep -i 'thread queue overflow'   # watch the counter after the change")
        yield finding(sea_thread_overflow, host, sea.name,
                      f"SEA {sea.name} on {host.name} dropped {n} packets on full thread queues.",
                      evidence=sea.stat_ev("thread_queue_overflow_packets"), fix=fix, rollback=undo,
                      disruption=["dlpar"],
                      values={"current": f"{n} packets dropped",
                              "suggested": f"EC at least {ec + 0.5:.2f}" if ec else "more processor for the VIOS"})
