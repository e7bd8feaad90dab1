"""An 802.3ad aggregation whose own status says LACP never formed it: "Negotiating" (rules-catalogue
NET-11 and its signal table; 001 Link Aggregation Configuration).

The member ports' LACP states are judged in ``aggregation_lacp.py``; this rule speaks only when the
aggregate's status is all the output shows (the member sections cut off, or with nothing wrong in them).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .aggregation_lacp import is_8023ad, not_aggregating
from .devices import S001, aggregation_members, seas_on


def _link_down(dev) -> bool:  # type: ignore[no-untyped-def]
    """A member port whose entstat says its (physical) link is down."""
    status = getattr(getattr(dev, "stats", None), "link_status", None) or ""
    return status.strip().lower() == "down"


@rule(
    id="NET-LAGG-NEGOTIATING",
    title="802.3ad aggregation stuck in LACP negotiation",
    severity="warning",
    category="network",
    source=f"rules-catalogue NET-11 (threshold: 8023ad against a static switch channel, 'entstat shows the "
           f"aggregation stuck \"Negotiating\"'; signal table: Negotiating = LACP not formed); {S001} "
           "(Link Aggregation Configuration: mode 8023ad when the network admin configures LACP)",
    rationale="""entstat prints an 802.3ad aggregation's status in its IEEE 802.3ad Link Aggregation
    Statistics ('Aggregation status', or 'Primary Aggregation status' on newer levels). 'Aggregated' means
    LACP formed the channel with the switch; 'Negotiating' means it did not: the switch ports are a static
    channel (mode on) or no channel at all, so no LACP partner answers. The catalogue calls this a loss of
    connectivity: nothing crosses the aggregation, nor a SEA built on it.""",
)
def lagg_negotiating(host: Host, cfg: Config) -> Iterator[Finding]:
    for ec in sorted(host.by_class("etherchannel"), key=lambda d: d.name):
        stats = getattr(ec.stats, "etherchannel", None) if ec.stats is not None else None
        status = (getattr(stats, "aggregation_status", None) or "").strip()
        if status.lower() != "negotiating" or not is_8023ad(ec):
            continue
        members = aggregation_members(host, ec, with_backup=False)
        if any(not_aggregating(host.devices.get(m)) for m in members):
            continue  # NET-LAGG-LACP-PORT names the ports and quotes this status
        seas = [s.name for s in seas_on(host, ec)]
        ports = ", ".join(members) or "its member ports"
        down = [m for m in members if _link_down(host.devices.get(m))]
        check = "Aggregation status|Partner System:|Synchronization|Distributing"
        physical = [f"# first the link of {', '.join(down)}: cable, SFP and switch port (no LACP partner answers "
                    "over a link that is down)", *(f"entstat -d {m} | grep -i 'Link Status'" for m in down)] if down else []
        fix = Commands(root=[*physical,
                             f"# on the switch: configure the switch ports of {ports} as one LACP (802.3ad) port "
                             "channel, LACP mode active; a static channel (mode on) does not answer LACP",
                             f"entstat -d {ec.name} | egrep -i '{check}'   # then: Aggregated, each port IN_SYNC"],
                       padmin=[f"entstat -all {ec.name} | grep -iE '{check}'"] if host.is_vios else [])
        why = (f"member port(s) {', '.join(down)} have no link, so no LACP partner can answer ({ports})" if down
               else f"LACP has not formed the channel with the switch ({ports})")
        yield finding(lagg_negotiating, host, ec.name,
                      f"802.3ad aggregation {ec.name} on {host.name}: aggregation status {status}: {why}"
                      + (f"; SEA {', '.join(seas)} bridges over it" if seas else "") + ".",
                      evidence=ec.stat_ev("aggregation_status") + ec.attr_ev("mode"), fix=fix,
                      rollback=Commands(root=["# on the switch: restore the previous port-channel configuration"]),
                      values={"current": f"aggregation status {status}", "suggested": "Aggregated",
                              "members": ", ".join(members) or "unknown", "seas": ", ".join(seas) or "none"})
