"""Link aggregation: the mode, a backup adapter or address to ping under a SEA, and how transmit
traffic spreads over the aggregated ports (000 §3.8 item 4, Table 3-12; 001).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host
from ..changes import device_change
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from .aggregation_lacp import not_aggregating
from .devices import (
    S000,
    S001,
    aggregation_members,
    backup_adapter,
    ha_mode_of,
    hash_mode_of,
    interface_of,
    is_set,
    seas_on,
)


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
                      changes=[device_change(host, ec.name, a, o, v, method="chdev-now" if host.is_vios else "device-cycle",
                                             prerequisites=["the switch ports are set to LACP (802.3ad) first"])
                               for a, v, o in wrong],
                      disruption=["interface-down"], values={"current": old, "suggested": new})


TX_SHARE_FACTOR = threshold(
    "lagg_tx_share_factor", 1.5,
    "an aggregation port carrying more than this multiple of its fair transmit share (1/n of the "
    "packets) is flagged (000 §3.8 Table 3-12: 65% on one of 4 ports = 2.6x; 1.5x is a judgement margin)")
TX_MIN_PACKETS = threshold(
    "lagg_tx_min_packets", 100000.0,
    "aggregations that transmitted fewer packets than this in total are not judged on their spread "
    "(too little traffic for the hash to show; lparscope's own margin, not from the seeds)")


def _lagg_cmd(ec: str, sea: str | None, attr: str, value: str) -> tuple[str, str]:
    parent = f" -parent {sea}" if sea else ""
    p = f" -p {sea}" if sea else ""
    return (f"cfglnagg{parent} -attr {attr}={value} {ec}", f"/usr/lib/methods/ethchan_config -c{p} {ec} {attr} {value}")


@rule(
    id="NET-LAGG-BACKUP-UNDER-SEA",
    title="Backup adapter on a link aggregation that carries an SEA in a failover pair",
    severity="warning",
    category="network",
    source=f"{S001} (Link Aggregation Configuration: backup adapter)",
    rationale="""An aggregation's backup adapter and SEA failover both answer the same failure (the
    VIOS's uplink going away). 001 says not to configure a backup adapter on an aggregation underneath
    SEA failover: choose one mechanism, and in a dual-VIOS design let the SEA fail over to the partner
    VIOS.""",
)
def lagg_backup_under_sea(host: Host, cfg: Config) -> Iterator[Finding]:
    for ec in sorted(host.by_class("etherchannel"), key=lambda d: d.name):
        backup = backup_adapter(ec)
        if not backup:
            continue
        for sea in seas_on(host, ec):
            mode, mode_ev = ha_mode_of(sea)
            if mode in (None, "disabled"):
                continue
            ev = ec.attr_ev("backup_adapter") or ec.stat_ev("backup_adapter")
            yield finding(lagg_backup_under_sea, host, ec.name,
                          f"Aggregation {ec.name} on {host.name} has backup adapter {backup} and carries SEA {sea.name} (ha_mode={mode}).",
                          evidence=ev + mode_ev,
                          fix=Commands(padmin=[f"cfglnagg -rm -parent {sea.name} {ec.name} {backup}"],
                                       root=[f"/usr/lib/methods/ethchan_config -d -p {sea.name} {ec.name} {backup}"]),
                          rollback=Commands(padmin=[f"cfglnagg -add -backup -parent {sea.name} {ec.name} {backup}"],
                                            root=[f"/usr/lib/methods/ethchan_config -a -b -p {sea.name} {ec.name} {backup}"]),
                          values={"current": f"backup_adapter={backup}", "suggested": "backup_adapter=NONE (SEA failover only)"})


@rule(
    id="NET-LAGG-NETADDR-UNDER-SEA",
    title="Address to ping set on a link aggregation that carries an SEA",
    severity="warning",
    category="network",
    source=f"{S001} (Link Aggregation Configuration: address to ping)",
    rationale="""The aggregation's address to ping only helps it decide to fail over to its backup
    adapter. 001 says not to set it on an aggregation that an SEA is built on: the ping belongs on
    the SEA (its netaddr attribute, with the VIOS IP on the SEA interface).""",
)
def lagg_netaddr_under_sea(host: Host, cfg: Config) -> Iterator[Finding]:
    for ec in sorted(host.by_class("etherchannel"), key=lambda d: d.name):
        target = ec.attr("netaddr")
        seas = seas_on(host, ec)
        if not is_set(target) or not seas:
            continue
        sea = seas[0].name
        fix, fix_root = _lagg_cmd(ec.name, sea, "netaddr", "0")
        undo, undo_root = _lagg_cmd(ec.name, sea, "netaddr", str(target))
        yield finding(lagg_netaddr_under_sea, host, ec.name,
                      f"Aggregation {ec.name} on {host.name} pings {target} (netaddr) and carries SEA {sea}.",
                      evidence=ec.attr_ev("netaddr"),
                      fix=Commands(padmin=[fix, f"# if a ping target is wanted, set netaddr on {sea} with the VIOS IP on {interface_of(sea)} (001)"],
                                   root=[fix_root]),
                      rollback=Commands(padmin=[undo], root=[undo_root]),
                      values={"current": f"netaddr={target}", "suggested": "netaddr=0"})


@rule(
    id="NET-LAGG-TX-SPREAD",
    title="Transmit traffic concentrated on one port of a link aggregation",
    severity="warning",
    category="network",
    source=f"{S000} §3.8 item 4 and Table 3-12; {S001} (hash mode)",
    rationale="""The aggregation picks the outgoing port by hashing each packet; with the default hash
    (destination IP) a few busy peers land on the same port. Table 3-12 shows 65% of transmitted packets
    on one of four ports and 3-4% on two others. The port's own entstat counters show the spread; a port
    above its fair share (1/n) times the threshold is flagged. hash_mode=src_dst_port spreads
    connections between the same peers over the ports; receive spread is decided by the switch and is
    shown as context only. If the hash is already src_dst_port the finding is info. Ports that LACP left
    out of the aggregation carry nothing by design and are not counted (NET-LAGG-LACP-PORT names them).""",
)
def lagg_tx_spread(host: Host, cfg: Config) -> Iterator[Finding]:
    for ec in sorted(host.by_class("etherchannel"), key=lambda d: d.name):
        ports = []
        for name in aggregation_members(host, ec, with_backup=False):
            dev = host.devices.get(name)
            counters = getattr(dev.stats, "counters", None) if dev is not None and dev.stats is not None else None
            if counters and counters.get("tx_packets") is not None and not not_aggregating(dev):
                ports.append((dev, counters["tx_packets"], counters.get("rx_packets")))
        if len(ports) < 2:
            continue
        tx_total = sum(t for _, t, _ in ports)
        if tx_total < cfg.t(TX_MIN_PACKETS):
            continue
        rx_total = sum(r or 0 for _, _, r in ports)
        fair = 1 / len(ports)
        top, top_tx, _ = max(ports, key=lambda p: p[1])
        share = top_tx / tx_total
        if share <= cfg.t(TX_SHARE_FACTOR) * fair:
            continue
        table = "; ".join(f"{d.name} tx {t} ({100 * t / tx_total:.0f}%)"
                          + (f" rx {r} ({100 * r / rx_total:.0f}%)" if r is not None and rx_total else "")
                          for d, t, r in ports)
        hmode, hev = hash_mode_of(ec)
        seas = seas_on(host, ec)
        sea = seas[0].name if seas else None
        if hmode is not None and hmode != "src_dst_port":
            fix, fix_root = _lagg_cmd(ec.name, sea, "hash_mode", "src_dst_port")
            undo, undo_root = _lagg_cmd(ec.name, sea, "hash_mode", hmode)
            fixc = Commands(padmin=[fix, "# the switch must hash on ports too, or receives stay on one port (001)"], root=[fix_root])
            rollc = Commands(padmin=[undo], root=[undo_root])
            sev = None
        else:
            fixc = Commands(padmin=[f"entstat -all {sea or ec.name} | grep -E '^(ETHERNET STATISTICS|Packets:)'   # watch the spread again",
                                    "# the hash already uses ports: few flows, or one dominant peer; consider more flows or a faster port"])
            rollc = Commands()
            sev = "info"
        yield finding(lagg_tx_spread, host, ec.name,
                      f"Aggregation {ec.name} on {host.name}: {top.name} transmits {100 * share:.0f}% of the packets "
                      f"(fair share {100 * fair:.0f}% of {len(ports)} ports; hash_mode={hmode or 'unknown'}). Per port: {table}.",
                      evidence=[e for d, _, _ in ports for e in d.stat_ev("tx_packets")] + hev,
                      fix=fixc, rollback=rollc, severity=sev,
                      values={"current": f"{top.name} {100 * share:.0f}% of tx", "suggested": f"about {100 * fair:.0f}% per port",
                              "hash_mode": hmode or "unknown", "ports": table})
