"""Shared Ethernet Adapter settings: accounting, jumbo frames along the SEA -> EtherChannel -> port
chain, an address to ping, largesend and Linux clients (000 §3.7.12, §3.8; 001; rules-catalogue
NET-04, NET-06).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Device, Evidence, Host
from ..changes import device_change, propose
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .devices import (
    S000,
    S001,
    aggregation_members,
    interface_of,
    is_aggregation,
    is_set,
    real_adapter,
    switched_on,
)


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
                      changes=[device_change(host, sea.name, a, o, v) for a, v, o in off],
                      values={"current": old, "suggested": attrs})


@rule(
    id="NET-SEA-ACCOUNTING",
    title="SEA per-client accounting disabled",
    severity="info",
    category="network",
    source=f"{S000} §3.7.12 (Example 3-36); rules-catalogue NET-10",
    rationale="""With accounting off the SEA keeps no per-client counters, so seastat -d cannot say
    which client partition moves how much traffic through the VIOS; that is the first question
    when a bridge gets busy. The Redbook suggests turning it on (it is off by default); the change
    is dynamic.""",
)
def sea_accounting(host: Host, cfg: Config) -> Iterator[Finding]:
    for sea in sorted(host.by_class("sea"), key=lambda d: d.name):
        if switched_on(sea.attr("accounting")) is not False:
            continue
        fix, undo = propose(device_change(host, sea.name, "accounting", sea.attr("accounting"), "enabled"),
                            fix_notes=[f"seastat -d {sea.name}   # per-client statistics from now on"], form="padmin")
        yield finding(sea_accounting, host, sea.name,
                      f"SEA {sea.name} on {host.name} has accounting disabled: seastat -d {sea.name} cannot show per-client traffic.",
                      evidence=sea.attr_ev("accounting"), fix=fix, rollback=undo,
                      values={"current": "accounting=disabled", "suggested": "accounting=enabled"})


def _jumbo_chain(host: Host, sea: Device) -> list[tuple[str, str, bool, list[Evidence]]]:
    """(device, attribute, jumbo on?, evidence) along SEA -> aggregation -> ports, where known."""
    chain: list[tuple[str, str, bool, list[Evidence]]] = []
    v = switched_on(sea.attr("jumbo_frames"))
    if v is not None:
        chain.append((sea.name, "jumbo_frames", v, sea.attr_ev("jumbo_frames")))
    real = real_adapter(host, sea)
    if real is None:
        return chain
    ports = [real.name]
    if is_aggregation(real):
        v = switched_on(real.attr("use_jumbo_frame"))
        if v is not None:
            chain.append((real.name, "use_jumbo_frame", v, real.attr_ev("use_jumbo_frame")))
        ports = aggregation_members(host, real)
    for name in ports:
        dev = host.devices.get(name)
        if dev is None:
            continue
        # A port's running state (entstat "Jumbo Frames:") first: an aggregation with
        # use_jumbo_frame=yes turns jumbo on in its ports whatever their ODM value says.
        v = switched_on(getattr(dev.stats, "jumbo_frames", None) if dev.stats is not None else None)
        if v is not None:
            chain.append((name, "jumbo_frames", v, dev.stat_ev("jumbo_frames")))
            continue
        v = switched_on(dev.attr("jumbo_frames"))
        if v is not None:
            chain.append((name, "jumbo_frames", v, dev.attr_ev("jumbo_frames")))
    return chain


@rule(
    id="NET-SEA-JUMBO-MISMATCH",
    title="Jumbo frames set differently along the SEA, its aggregation and the physical ports",
    severity="warning",
    category="network",
    source=f"{S000} §3.7.12, §3.8 items 3-5; {S001} (Physical Ethernet - Jumbo Frames); rules-catalogue NET-04",
    rationale="""Jumbo frames are a property of the physical path: the switch ports, the physical
    adapters, the link aggregation (use_jumbo_frame) and the SEA (jumbo_frames) must all agree, while
    the client virtual adapters keep MTU 1500 and use mtu_bypass. When one layer of the bridge differs,
    large frames are dropped or the SEA falls back to 1500-byte frames and the tuning is lost. The
    switch must be set the same way (000 §3.7.12).""",
)
def sea_jumbo_mismatch(host: Host, cfg: Config) -> Iterator[Finding]:
    for sea in sorted(host.by_class("sea"), key=lambda d: d.name):
        chain = _jumbo_chain(host, sea)
        if len({on for _, _, on, _ in chain}) < 2:
            continue
        # The SEA's own setting states the intent; without it, the aggregation's.
        want = chain[0][2]
        wrong = [(n, a, on) for n, a, on, _ in chain if on != want]
        word = {True: "yes", False: "no"}
        listing = ", ".join(f"{n} {a}={word[on]}" for n, a, on, _ in chain)
        note = ["# -perm: in use under the SEA, the change applies when the VIOS restarts; fail the SEA over to the partner VIOS first",
                "# set the switch ports the same way (000 §3.7.12)"]
        fix, undo = propose(*[device_change(host, n, a, word[on], word[want], method="chdev-reboot") for n, a, on in wrong],
                            fix_notes=note, form="padmin")
        yield finding(sea_jumbo_mismatch, host, sea.name,
                      f"Jumbo frames differ along SEA {sea.name} on {host.name}: {listing}.",
                      evidence=[e for _, _, _, ev in chain for e in ev],
                      fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": listing, "suggested": f"{word[want]} on every layer",
                              "mismatched": ", ".join(n for n, _, _ in wrong)})


def _ip_on(host: Host, en: str) -> tuple[bool | None, list[Evidence]]:
    """Whether interface ``en`` holds an IPv4 address: True / False / None (cannot tell)."""
    known, ev = False, []
    for s in host.of_kind("netif", "Interface"):
        r = s.record
        if r.name == en:
            if r.inet:
                return True, [s.ev("inet")]
            known, ev = True, ev + [s.ev()]
        elif r.name == "lo0":  # ifconfig -a lists every configured interface
            known, ev = True, ev + [s.ev()]
    for s in host.of_kind("netif", "InterfaceCounters"):
        r = s.record
        if r.name == en:
            if r.address and r.network and not str(r.network).startswith("link#"):
                return True, [s.ev()]
            known, ev = True, ev + [s.ev()]
        elif r.name == "lo0":
            known, ev = True, ev + [s.ev()]
    dev = host.devices.get(en)
    if dev is not None and "netaddr" in dev.attrs:
        if is_set(dev.attr("netaddr")):
            return True, dev.attr_ev("netaddr")
        known, ev = True, ev + dev.attr_ev("netaddr")
    return (False, ev[:3]) if known else (None, [])


@rule(
    id="NET-SEA-NETADDR-NO-IP",
    title="SEA address to ping (netaddr) set but the VIOS IP is not on the SEA interface",
    severity="warning",
    category="network",
    source=f"{S001} (SEA configuration: address to ping); {S000} §3.8 item 5",
    rationale="""The SEA's address to ping lets the VIOS notice that the outside network is unreachable
    and give the bridge to its partner. 001 states that using it requires the VIOS's own IP address
    on the SEA interface (enN of the SEA); with the address elsewhere the ping does not test the
    bridged path. Either move the VIOS address onto the SEA interface or clear netaddr (it is not
    usually needed).""",
)
def sea_netaddr_without_ip(host: Host, cfg: Config) -> Iterator[Finding]:
    for sea in sorted(host.by_class("sea"), key=lambda d: d.name):
        target = sea.attr("netaddr")
        if not is_set(target):
            continue
        en = interface_of(sea.name)
        has_ip, ev = _ip_on(host, en)
        if has_ip is not False:
            continue  # the address is there, or no interface listing to tell
        elsewhere = sorted({s.record.name for s in host.of_kind("netif", "Interface")
                            if s.record.inet and s.record.name not in (en, "lo0")})
        where = f" (the VIOS address is on {', '.join(elsewhere)})" if elsewhere else ""
        # The padmin form offers the move first and clearing netaddr (the declared change) second.
        stop, restore = propose(device_change(host, sea.name, "netaddr", target, "0"))
        fix = Commands(padmin=["# either put the VIOS address on the SEA interface (001), from the HMC console if you move it:",
                               *([f"rmtcpip -interface {elsewhere[0]}"] if elsewhere else []),
                               f"mktcpip -hostname <hostname> -inetaddr <ip-address> -interface {en} -netmask <netmask> -gateway <gateway>",
                               *[f"# or stop pinging: {line}" for line in stop.padmin]],
                       root=[f"{line}   # the alternative: no address to ping" for line in stop.root], changes=stop.changes)
        undo = Commands(padmin=[f"rmtcpip -interface {en}", *restore.padmin], root=restore.root)
        yield finding(sea_netaddr_without_ip, host, sea.name,
                      f"SEA {sea.name} on {host.name} pings {target} (netaddr) but {en} has no IP address{where}.",
                      evidence=sea.attr_ev("netaddr") + ev,
                      fix=fix, rollback=undo,
                      disruption=["interface-down"] if elsewhere else [],
                      values={"current": f"netaddr={target}, no IP on {en}", "suggested": f"VIOS IP on {en}, or netaddr=0"})


def _linux_clients(host: Host) -> list[tuple[str, Evidence | None]]:
    out: list[tuple[str, Evidence | None]] = []
    for m in host.npiv_mappings:
        if "linux" in str(getattr(m, "client_os", "") or "").lower():
            out.append((m.client_name or f"client {m.client_id}", getattr(m, "_evidence", None)))
    for s in host.of_kind("lsmap", "VnicMapping"):
        if "linux" in str(s.record.client_os or "").lower():
            out.append((s.record.client_name or f"client {s.record.client_id}", s.ev()))
    return out


@rule(
    id="NET-SEA-LARGESEND-LINUX",
    title="SEA largesend / large_receive on while the VIOS serves Linux clients",
    severity="warning",
    category="network",
    source=f"{S001} (Some cautions with largesend); rules-catalogue NET-06",
    rationale="""001 warns that POWER Linux did not handle largesend through the SEA, with slow sftp and
    NFS on RHEL as the result; the catalogue adds that Linux clients cannot take aggregated receive
    packets larger than their MTU on older levels. Linux partitions are recognised from the ClntOS
    column of lsmap -npiv / -vnic on the same VIOS (they may not all use this SEA); without that column
    the rule stays silent. Check the Linux kernels' support before switching the offloads off.""",
)
def sea_largesend_linux(host: Host, cfg: Config) -> Iterator[Finding]:
    linux = _linux_clients(host)
    if not linux:
        return
    for sea in sorted(host.by_class("sea"), key=lambda d: d.name):
        on = [(a, off) for a, off in (("largesend", "0"), ("large_receive", "no")) if switched_on(sea.attr(a))]
        if not on:
            continue
        new = " ".join(f"{a}={off}" for a, off in on)
        old = " ".join(f"{a}={sea.attr(a)}" for a, _ in on)
        names = sorted({n for n, _ in linux})
        fix, undo = propose(*[device_change(host, sea.name, a, sea.attr(a), off) for a, off in on])
        fix.padmin.insert(0, "# first confirm whether the Linux clients' kernels handle SEA largesend; if they do, keep it")
        yield finding(sea_largesend_linux, host, sea.name,
                      f"SEA {sea.name} on {host.name} has {old} and the VIOS serves Linux clients ({', '.join(names)}).",
                      evidence=sea.attr_ev(*[a for a, _ in on]) + [e for _, e in linux if e is not None],
                      fix=fix, rollback=undo,
                      values={"current": old, "suggested": new, "linux_clients": ", ".join(names)})
