"""Virtual Ethernet adapters: receive buffers, hypervisor send/receive failures, largesend with
mtu_bypass, dcbflush_local and trunk-adapter buffer pinning (000 §3.7.10 Table 3-11, §3.7.11,
§3.8 items 6-7; 001; 003).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ...model.estate import Device, Host
from ..changes import chdev_perm, device_change, propose
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from .adapters import is_off

# 000 §3.8 item 6: the largest values max_buf_* accepts, per buffer type.
BUFFER_LIMITS = {"tiny": 4096, "small": 4096, "medium": 2048, "large": 256, "huge": 128}
# 000 §3.8 item 7: raise Min Buffers above Max Allocated to the next multiple of these.
BUFFER_STEPS = {"tiny": 256, "small": 256, "medium": 128, "large": 16, "huge": 8}


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
        new = " ".join(f"min_buf_{t}={nmin} max_buf_{t}={nmax}" for t, _, nmin, _, nmax in changes)
        old = " ".join(f"min_buf_{t}={omin} max_buf_{t}={omax}" for t, omin, _, omax, _ in changes)
        fix, undo = propose(*[device_change(host, dev.name, f"{k}_buf_{t}", o, n,
                                            method="chdev-reboot" if host.is_vios else "device-cycle")
                              for t, omin, nmin, omax, nmax in changes
                              for k, o, n in (("min", omin, nmin), ("max", omax, nmax)) if o != n])
        if host.is_vios:
            fix.padmin.append("# -perm: applies at the next VIOS restart (trunk adapters carry the SEA)")
        else:
            fix.root += [f"# or: {line} -P   (applies at next boot)" for line in fix.root
                         if line.startswith(f"chdev -l {dev.name} ")]
        desc = "; ".join(f"{t}: min {omin}->{nmin}, max {omax}->{nmax}" for t, omin, nmin, omax, nmax in changes)
        yield finding(veth_buffers, host, dev.name,
                      f"{dev.name} on {host.name}: {'buffers ran out' if exhausted else 'buffer pools grew on demand'} ({desc}).",
                      evidence=dev.stat_ev("receive_buffers.min_buffers", "receive_buffers.max_buffers", "receive_buffers.max_allocated"),
                      fix=fix, rollback=undo, disruption=["interface-down"] if not host.is_vios else ["reboot"],
                      severity=None if exhausted else "info",
                      values={"current": old, "suggested": new})


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
        receivers = _counter(s, "receiver_failures") or 0
        theirs = bool(counts["hypervisor_send_failures"]) and receivers >= (counts["hypervisor_send_failures"] or 0) \
            and not counts["hypervisor_receive_failures"] and not counts["no_resource_errors"]
        if theirs:  # every send failure was the receiving partitions' shortage (000 §3.7.11: "Receiver Failures")
            text += f" (all of them receiver failures: the partitions {dev.name} sends to ran out of receive buffers)"
        where = ("# the receivers' buffers: netstat -v on the partitions this adapter sends to, and raise their "
                 "receive buffers as NET-VETH-BUFFERS suggests there" if theirs else
                 "# raise the receive buffers as NET-VETH-BUFFERS suggests, and check the partition's CPU entitlement")
        yield finding(veth_hypervisor_failures, host, dev.name, f"{dev.name} on {host.name}: {text}.",
                      evidence=dev.stat_ev(*bad.keys()),
                      fix=Commands(root=[f"netstat -v {dev.name} | egrep -i 'failures|no resource|max allocated|max buffers'",
                                         where],
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
                      changes=[device_change(host, en.name, "mtu_bypass", value, "on")],
                      values={"current": value, "suggested": "on"})


DCB_CORES = threshold("dcbflush_frame_cores_min", 32.0,
                      "'Active Physical CPUs in system' from which the frame is treated as high end for "
                      "dcbflush_local (001 names large fabric-bus P7 frames, 770-795; 32 cores means several "
                      "CEC drawers/nodes: a proxy, the model knows no machine type)")


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
        if value is None or not is_off(value):
            continue
        if host.is_vios or dev.cls == "trunk":
            fix, back = (chdev_perm(host, dev.name, {"dcbflush_local": "yes"}),
                         chdev_perm(host, dev.name, {"dcbflush_local": value}))
            disruption = ["reboot"]
        else:  # the interface must be detached for the change (000 Example 3-30)
            fix, back = propose(device_change(host, dev.name, "dcbflush_local", value, "yes", method="device-cycle"),
                                fix_notes=[f"# or: chdev -l {dev.name} -a dcbflush_local=yes -P   (applies at next boot)"])
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
