"""Network Interface Backup primaries spread over the VIOS of a frame (000 §3.7.5, Table 3-10).

Reads the clients' own outputs (lsattr of the client EtherChannel, entstat of the client and
trunk adapters) across every host of the analysis.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from ...model.estate import Estate, Host
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from .sea import vios_by_pvid

NIB_SHARE = threshold("nib_primary_share_max", 0.75,
                      "share of NIB clients whose primary adapter reaches one VIOS above which they are unbalanced")


def _nib_primary(host: Host) -> tuple[str, int] | None:
    """(primary adapter, its PVID) of a client's NIB EtherChannel, when the data shows one."""
    for ec in host.by_class("etherchannel"):
        backup = ec.attr("backup_adapter")
        names = (ec.attr("adapter_names") or "").split(",")
        if not backup or backup.upper() == "NONE" or not names or not names[0]:
            continue
        primary = host.devices.get(names[0].strip())
        pvid = getattr(primary.stats, "port_vlan_id", None) if primary is not None else None
        if pvid is not None:
            return names[0].strip(), int(pvid)
    return None


@rule(
    id="FRAME-NIB-PRIMARIES-UNBALANCED",
    title="NIB clients' primary adapters all lead to one VIOS",
    severity="warning",
    category="network",
    source="000_31a80e54567cd02b.txt §3.7.5 (NIB), Table 3-10",
    rationale="""With Network Interface Backup each client picks its primary virtual adapter, and so the VIOS
    whose SEA carries its traffic. Both VIOS are used only when the clients' primaries are split
    between them; with every primary on one VIOS the other idles until a failure.""",
    scope="estate",
)
def nib_balance(estate: Estate, cfg: Config) -> Iterator[Finding]:
    vios_of = vios_by_pvid(estate)
    if len(set(vios_of.values())) < 2:
        return
    by_vios: dict[str, list[tuple[Host, str, int]]] = defaultdict(list)
    for h in estate.hosts.values():
        if h.is_vios:
            continue
        nib = _nib_primary(h)
        if nib is not None and nib[1] in vios_of:
            by_vios[vios_of[nib[1]]].append((h, *nib))
    total = sum(len(v) for v in by_vios.values())
    if total < 2:
        return
    busiest, clients = max(by_vios.items(), key=lambda kv: len(kv[1]))
    share = len(clients) / total
    if share <= cfg.t(NIB_SHARE):
        return
    other = next(v for v in sorted(set(vios_of.values())) if v != busiest)
    movers = clients[: max(1, len(clients) - total // 2)]
    fix, undo = [], []
    for h, primary, _ in movers:
        ec = next(d for d in h.by_class("etherchannel") if (d.attr("adapter_names") or "").startswith(primary))
        backup = ec.attr("backup_adapter")
        en = "en" + ec.name[3:]
        fix += [f"# on {h.name}:", f"chdev -l {en} -a state=detach",
                f"chdev -l {ec.name} -a adapter_names={backup} -a backup_adapter={primary}", f"chdev -l {en} -a state=up"]
        undo += [f"# on {h.name}:", f"chdev -l {en} -a state=detach",
                 f"chdev -l {ec.name} -a adapter_names={primary} -a backup_adapter={backup}", f"chdev -l {en} -a state=up"]
    yield finding(nib_balance, busiest, "NIB clients",
                  f"{len(clients)} of {total} NIB clients ({share:.0%}) have their primary adapter on a VLAN bridged by "
                  f"{busiest}; {other} carries {total - len(clients)}. Move {len(movers)} primary adapter(s) to {other}'s VLAN.",
                  evidence=[ev for h, p, _ in clients[:4] for ev in (h.devices[p].stat_ev("port_vlan_id") or [h.devices[p].evidence])],
                  fix=Commands(root=fix), rollback=Commands(root=undo), disruption=["interface-down"],
                  values={"current": f"{busiest}: {len(clients)}, {other}: {total - len(clients)}",
                          "suggested": f"about {total // 2} each"})
