"""What an 802.3ad aggregation reports about itself: member ports that LACP did not bring into
the aggregation (out of sync, or no partner on the switch side), and the aggregate's own receive
errors (001 Link Aggregation Configuration; 003; rules-catalogue NET-11, NET-13).

The configuration of an aggregation (mode, hash mode, backup adapter) is judged in
``aggregation.py``; the member ports' own receive errors in ``adapters.py``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Device, Evidence, Host
from ..changes import chdev_perm, lsattr_root
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from .devices import S001, aggregation_members

_ZERO_SYSTEM = {"00-00-00-00-00-00", "00:00:00:00:00:00", "000000000000"}


def _ec_stats(ec: Device) -> object | None:
    return getattr(ec.stats, "etherchannel", None) if ec.stats is not None else None


def is_8023ad(ec: Device) -> bool:
    """The aggregation runs IEEE 802.3ad (LACP): by its mode attribute or entstat's operating mode."""
    mode = ec.attr("mode")
    if mode is not None:
        return mode.strip().lower() == "8023ad"
    printed = getattr(_ec_stats(ec), "mode", None) or ""
    return "802.3ad" in printed or "8023ad" in printed.lower()


def _lacp(dev: Device | None) -> object | None:
    """The member port's LACP state: the model's (entstat or lssea), else its entstat record's."""
    if dev is None:
        return None
    if dev.lacp is not None:
        return dev.lacp.record
    return getattr(dev.stats, "lacp", None) if dev.stats is not None else None


def _lacp_ev(dev: Device) -> list[Evidence]:
    """Where the port's partner system and synchronization states were read."""
    src = dev.lacp
    if src is None:
        return dev.stat_ev(*(f"lacp_port.{k}" for k in _LACP_KEYS))
    st = src.record
    found: dict[int, str] = {}
    for who, side, attrs in (("partner", st.partner, ("system", "synchronization")),
                             ("actor", st.actor, ("synchronization", "distributing"))):
        for a in attrs:
            if a in side.lines:
                found.setdefault(side.lines[a], f"{dev.name} {who} {a}")
    return [Evidence(src.path, src.offset + line, what) for line, what in sorted(found.items())]


def _port_problems(lacp: object) -> list[str]:
    actor, partner = lacp.actor, lacp.partner  # type: ignore[attr-defined]
    out = []
    if (partner.system or "").strip().upper() in _ZERO_SYSTEM:
        out.append("no LACP partner (partner system 00-00-00-00-00-00: the switch port sends no LACPDUs)")
    for who, side in (("actor", actor), ("partner", partner)):
        if (side.synchronization or "").strip().upper() == "OUT_OF_SYNC":
            out.append(f"{who} OUT_OF_SYNC")
    if (actor.distributing or "").strip().lower() == "disabled":
        out.append("not distributing")
    return out


def not_aggregating(dev: Device | None) -> bool:
    """LACP left this member port out of the aggregation (by its 802.3ad port statistics)."""
    lacp = _lacp(dev)
    return lacp is not None and bool(_port_problems(lacp))


_LACP_KEYS = ("Partner System", "Actor State / Synchronization", "Partner State / Synchronization",
              "Actor State / Distributing")


@rule(
    id="NET-LAGG-LACP-PORT",
    title="802.3ad aggregation member port not aggregating (LACP out of sync or no partner)",
    severity="warning",
    category="network",
    source=f"{S001} (Link Aggregation Configuration: mode 8023ad when the network admin configures LACP); "
           "003_034cc79c9b4ed950.txt (Considerations for Link Aggregation); rules-catalogue NET-11",
    rationale="""mode=8023ad only works when the switch ports form an LACP group with the same ports: LACP
    negotiates which ports carry traffic. entstat's IEEE 802.3ad Port Statistics (or an lssea report's
    actor_sync / partner_sync columns) show it per member:
    Synchronization IN_SYNC, Collecting and Distributing Enabled when the port is in the aggregation. A
    partner system of all zeroes means the switch port never answered with LACPDUs (no LACP group on the
    switch, or a static channel); OUT_OF_SYNC means the two ends disagree on the group (keys or ports).
    Such a port carries no traffic: the aggregation runs on fewer links than it was built with.""",
)
def lagg_lacp_port(host: Host, cfg: Config) -> Iterator[Finding]:
    for ec in sorted(host.by_class("etherchannel"), key=lambda d: d.name):
        if not is_8023ad(ec):
            continue
        bad: list[tuple[Device, list[str]]] = []
        seen = 0
        for name in aggregation_members(host, ec, with_backup=False):
            dev = host.devices.get(name)
            lacp = _lacp(dev)
            if dev is None or lacp is None:
                continue
            seen += 1
            problems = _port_problems(lacp)
            if problems:
                bad.append((dev, problems))
        status = getattr(_ec_stats(ec), "aggregation_status", None)
        if not bad:
            continue
        names = [d.name for d, _ in bad]
        detail = "; ".join(f"{d.name}: {', '.join(p)}" for d, p in bad)
        evidence: list[Evidence] = []
        for d, _ in bad:
            evidence += _lacp_ev(d)
        evidence += ec.stat_ev("aggregation_status") + ec.attr_ev("mode")
        no_partner = any("no LACP partner" in p for _, ps in bad for p in ps)
        switch = ("configure the switch ports of " + ", ".join(names) + " as members of the same LACP (802.3ad) "
                  "port channel as the working ports, LACP mode active; a static channel (mode on) does not answer LACP")
        fix = Commands(root=[f"# on the switch: {switch}",
                             f"entstat -d {ec.name} | egrep -i 'Aggregation status|Partner System:|Synchronization|Distributing'"
                             "   # each port then shows IN_SYNC and a partner system"],
                       padmin=[f"entstat -all {ec.name} | grep -iE 'Aggregation status|Partner System:|Synchronization|Distributing'"]
                       if host.is_vios else [])
        yield finding(lagg_lacp_port, host, ec.name,
                      f"802.3ad aggregation {ec.name} on {host.name}: {len(bad)} of {seen} member port(s) not aggregating"
                      + (f" (aggregation status {status})" if status else "") + f": {detail}."
                      + (" The switch side has no LACP on those ports." if no_partner else
                         " The switch's LACP group does not match these ports."),
                      evidence=evidence, fix=fix,
                      rollback=Commands(root=["# on the switch: restore the previous port-channel configuration"]),
                      values={"current": f"{len(bad)} of {seen} ports not aggregating: {', '.join(names)}",
                              "suggested": "every member IN_SYNC, collecting and distributing",
                              "aggregation_status": status or "unknown", "ports": detail})


RX_RATIO = threshold(
    "lagg_rx_error_ratio", 0.0001,
    "an aggregation's own receive errors, DMA overruns or no-resource errors per received packet from "
    "which they are reported (0.01 %; rules-catalogue NET-13 only says 'increasing', entstat counts since "
    "the last reset: lparscope's margin)")

_RX_KEYS = ("rx_errors", "dma_overrun", "no_resource_errors")
_RXQ_ATTRS = ("rxdesc_que_sz", "rx_queue_size", "rxbuf_pool_sz", "rx_que_sz")


def _counter(dev: Device | None, key: str) -> int | None:
    v = (getattr(dev.stats, "counters", None) or {}).get(key) if dev is not None and dev.stats is not None else None
    return v if isinstance(v, int) else None


@rule(
    id="NET-LAGG-RX-ERRORS",
    title="Receive errors, DMA overruns or no-resource errors on a link aggregation",
    severity="warning",
    category="network",
    source="rules-catalogue NET-13 (and §9 counter glossary)",
    rationale="""An aggregation's own entstat section counts the receive side of the whole channel. Receive
    errors with DMA overruns or no-resource errors mean frames arrived faster than the member ports'
    receive rings or buffers were emptied, and were dropped: the members' receive queues are too small
    for the load, or the partition did not get CPU in time. The finding gives the counts and their share
    of received packets, and the member ports whose receive queue to raise; the members' own counters
    (judged per port by NET-PHYS-RX-ERRORS) show which port drops.""",
)
def lagg_rx_errors(host: Host, cfg: Config) -> Iterator[Finding]:
    for ec in sorted(host.by_class("etherchannel"), key=lambda d: d.name):
        bad = {k: v for k in _RX_KEYS if (v := _counter(ec, k))}
        rx = _counter(ec, "rx_packets")
        if not bad or not rx:
            continue
        worst = max(bad.values())
        ratio = worst / rx
        if ratio < cfg.t(RX_RATIO):
            continue
        members = aggregation_members(host, ec, with_backup=False)
        per_port = [(m, {k: v for k in _RX_KEYS if (v := _counter(host.devices.get(m), k))}) for m in members]
        per_port_text = "; ".join(f"{m}: " + (", ".join(f"{k.replace('_', ' ')} {v}" for k, v in c.items()) or "none")
                                  for m, c in per_port if host.devices.get(m) is not None and host.devices[m].stats is not None)
        droppers = [m for m, c in per_port if c] or members
        fix = Commands(root=[f"entstat -d {ec.name} | egrep -i 'Receive Errors|DMA Overrun|No Resource|Packets:'",
                             f"entstat -r {ec.name}   # reset the counters, then re-check after a busy period"],
                       padmin=[f"entstat -all {ec.name} | grep -iE 'Receive Errors|DMA Overrun|No Resource'"] if host.is_vios else [])
        rollback = Commands()
        if not members:
            fix.root.append(f"lsattr -El {ec.name} -a adapter_names   # the member ports whose receive queue to raise")
        for m in droppers:
            dev = host.devices.get(m)
            qattr = next((a for a in _RXQ_ATTRS if dev is not None and dev.attr(a) is not None), "rxdesc_que_sz")
            cur = dev.attr(qattr) if dev is not None else None
            fix.root.append(lsattr_root(m, qattr, allowed=True) + "   # the allowed receive queue sizes")
            ch = chdev_perm(host, m, {qattr: "<largest value lsattr -Rl lists>"})
            fix.root += ch.root
            fix.padmin += ch.padmin
            back = chdev_perm(host, m, {qattr: cur or "<previous value>"})
            rollback.root += back.root
            rollback.padmin += back.padmin
        counts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in bad.items())
        yield finding(lagg_rx_errors, host, ec.name,
                      f"Aggregation {ec.name} on {host.name}: {counts} ({ratio:.3%} of {rx} received packets)"
                      + (f". Per member port: {per_port_text}" if per_port_text else "")
                      + ".",
                      evidence=ec.stat_ev(*bad.keys(), "rx_packets"), fix=fix, rollback=rollback,
                      disruption=["reboot"] if droppers else [],
                      values={**bad, "rx_packets": rx, "current": f"{ratio:.6f}", "suggested": 0,
                              "threshold": cfg.t(RX_RATIO), "members": ", ".join(members) or "unknown"})
