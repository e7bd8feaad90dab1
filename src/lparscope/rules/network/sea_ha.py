"""SEA failover with load sharing, and the ODM value of ha_mode=sharing (000 §3.7.2, §3.7.8;
rules-catalogue NET-10).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Device, Estate, Evidence, Host
from ...model.frame import host_serial
from ...model.vios_pairs import partners
from ..changes import chdev_padmin, hmc_word
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .devices import S000, S001, ha_mode_of, name_list, sea_role, sea_stats


@rule(
    id="NET-SEA-HA-SHARING-ODM",
    title="ha_mode 'sharing' missing from the SEA's ODM attribute values",
    severity="info",
    category="network",
    source=f"{S001} (SEA Configuration ha_mode=sharing: ODM PdAt stanza)",
    rationale="""A VIOS updated to 2.2.1.1 from an older level can keep the old PdAt definition of the
    SEA ha_mode attribute, whose allowed values end at standby: chdev then refuses ha_mode=sharing and
    SEA load sharing cannot be turned on. 001 repairs it by re-adding the stanza with sharing appended
    to the values, preferably with IBM support. Nothing is wrong until load sharing is wanted.""",
)
def sea_sharing_odm(host: Host, cfg: Config) -> Iterator[Finding]:
    for s in host.of_kind("odmget", "OdmStanza"):
        f = s.record.fields
        if s.record.object_class != "PdAt" or f.get("attribute") != "ha_mode":
            continue
        if "sea" not in f.get("uniquetype", "adapter/pseudo/sea") or "values" not in f:
            continue
        values = f["values"]
        if "sharing" in [v.strip() for v in values.split(",")]:
            continue
        saved, new = "/tmp/ha_mode.PdAt.orig", "/tmp/ha_mode.PdAt.new"
        steps = [f"odmget -q attribute=ha_mode PdAt > {saved}",
                 f"sed 's/values = \"{values}\"/values = \"{values},sharing\"/' {saved} > {new}",
                 "odmdelete -o PdAt -q attribute=ha_mode",
                 f"odmadd {new}",
                 "odmget -q attribute=ha_mode PdAt   # values now end with sharing"]
        undo = ["odmdelete -o PdAt -q attribute=ha_mode", f"odmadd {saved}"]
        yield finding(sea_sharing_odm, host, "PdAt ha_mode",
                      f"{host.name}: the ODM allows ha_mode values \"{values}\" only; chdev -attr ha_mode=sharing will be refused.",
                      evidence=[s.ev("attribute"), s.ev("values")],
                      fix=Commands(padmin=["# 001: have IBM support walk through this ODM change", "oem_setup_env", *steps, "exit",
                                           chdev_padmin("<sea>", {"ha_mode": "sharing"}) + "   # primary VIOS first, then the backup"],
                                   root=steps),
                      rollback=Commands(padmin=["oem_setup_env", *undo, "exit"], root=undo),
                      values={"current": values, "suggested": f"{values},sharing"})


def _trunks(host: Host, sea: Device) -> list[Device]:
    names = name_list(sea.attr("virt_adapters"))
    members = getattr(sea_stats(sea), "members", None) or {}
    names += [n for n, r in members.items() if r == "virtual"]
    names += [d.name for d in host.devices.values() if d.parent == sea.name and sea_role(d) == "virtual"]
    ctl = sea.attr("ctl_chan")
    return [host.devices.get(n) or Device(n) for n in sorted(dict.fromkeys(names)) if n != ctl]


def _vlans(host: Host, sea: Device) -> tuple[list[int], list[Evidence]]:
    ids: set[int] = set()
    ev: list[Evidence] = []
    for name, vl in (getattr(sea_stats(sea), "vlan_ids", None) or {}).items():
        ids.update(vl)
        ev += sea.stat_ev(f"vlan_ids.{name}")
    for t in _trunks(host, sea):
        st = t.stats
        if st is None:
            continue
        if getattr(st, "port_vlan_id", None):
            ids.add(st.port_vlan_id)
        ids.update(getattr(st, "vlan_tag_ids", None) or [])
        ev += t.stat_ev("port_vlan_id", "vlan_tag_ids")
    return sorted(ids), ev


def _level(text: str | None) -> tuple[int, ...]:
    parts = []
    for p in str(text or "").split("."):
        if not p.isdigit():
            break
        parts.append(int(p))
    return tuple(parts)


def _sharing_candidates(estate: Estate) -> list[tuple[Host, Device, list[int], list[Evidence]]]:
    """SEAs in plain failover (ha_mode=auto) over two or more VLANs, per VIOS."""
    out = []
    for host in sorted(estate.hosts.values(), key=lambda h: h.name):
        for sea in sorted(host.by_class("sea"), key=lambda d: d.name):
            mode, mode_ev = ha_mode_of(sea)
            if mode != "auto":
                continue
            vlans, vlan_ev = _vlans(host, sea)
            if len(vlans) >= 2:
                out.append((host, sea, vlans, mode_ev + vlan_ev))
    return out


def _frame_key(host: Host) -> str | None:
    return host.frame_name or host_serial(host)


def _is_partner(pairs: dict[str, set[str]], a: Host, b: Host) -> bool:
    """A VIOS pair (model/vios_pairs.py); for VIOS whose pairs are not in the data, the same frame."""
    if a.name in pairs or b.name in pairs:
        return b.name in pairs.get(a.name, set())
    return _frame_key(a) is not None and _frame_key(a) == _frame_key(b)


@rule(
    id="NET-SEA-LOAD-SHARING",
    title="SEA failover bridges two or more VLANs without load sharing",
    severity="info",
    category="network",
    source=f"{S000} §3.7.1-§3.7.2, §3.7.8 (Table 3-10), §3.8 item 5; {S001} (ha_mode=sharing); rules-catalogue NET-07",
    rationale="""In plain SEA failover (ha_mode=auto) one VIOS bridges every VLAN and its partner idles.
    Table 3-10 names failover with load sharing the preferred method for two or more VLANs: with
    ha_mode=sharing on both SEAs the VLANs (not packets) are split between the two VIOS, with no client
    change. It needs VIOS 2.2.1.0 or later and at least two trunk adapters in each SEA, the VLANs spread
    over them. Advisory: failover alone is a valid design when one VIOS can carry all traffic. A pair is
    reported once: two VIOS of a pair (model/vios_pairs.py; the same frame when their pair is not in the
    data) whose SEAs bridge the same VLANs.""",
    scope="estate",
)
def sea_load_sharing(estate: Estate, cfg: Config) -> Iterator[Finding]:
    cands = _sharing_candidates(estate)
    pairs = partners(estate)
    partnered: set[int] = set()
    for i, (host, sea, vlans, evs) in enumerate(cands):
        if i in partnered:
            continue
        # the partner: the paired VIOS whose SEA bridges the same VLANs (one finding per pair)
        j = next((j for j in range(i + 1, len(cands)) if j not in partnered and cands[j][0] is not host
                  and _is_partner(pairs, host, cands[j][0]) and cands[j][2] == vlans), None)
        partner = cands[j] if j is not None else None
        if j is not None:
            partnered.add(j)
        trunks = _trunks(host, sea)
        level = host.levels.get("ioslevel")
        notes = []
        if level is not None and _level(level.value) and _level(level.value) < (2, 2, 1, 0):
            notes.append(f"# ioslevel {level.value}: update to VIOS 2.2.1.0 or later first (000 §3.7.2)")
        fix = Commands(padmin=notes, hmc=[])
        disruption: list[str] = []
        if len(trunks) < 2:
            prio = next((t.stats.priority for t in trunks if t.stats is not None and getattr(t.stats, "priority", None)), None)
            prio_text = str(prio) if prio is not None else "<same priority as the existing trunk adapter>"
            fix.hmc += [f"# {sea.name} has one trunk adapter ({', '.join(t.name for t in trunks) or '?'}); load sharing needs two or more (001)",
                        f'chhwres -m <managed-system> -r virtualio --rsubtype eth -o a -p {hmc_word(host.lpar_name)} -s <free-slot> '
                        f'-a "ieee_virtual_eth=1,port_vlan_id=<unused-pvid>,addl_vlan_ids=<vlans-moved-here>,is_trunk=1,trunk_priority={prio_text}"',
                        f"mksyscfg -r prof -m <managed-system> -o save -p {hmc_word(host.lpar_name)} -n <profile> --force",
                        "# move those VLANs off the first trunk adapter, and do the same on the partner VIOS"]
            fix.padmin += ["# after the HMC has added the second trunk adapter:", "cfgdev", chdev_padmin(sea.name, {"virt_adapters": ",".join([*(t.name for t in trunks), "<new-trunk-ent>"])})]
            disruption.append("dlpar")
        fix.padmin += [chdev_padmin(sea.name, {"ha_mode": "sharing"}) + "   # on the primary VIOS first, then on the backup"]
        undo = Commands(padmin=[chdev_padmin(sea.name, {"ha_mode": "auto"}) + "   # on both VIOS"])
        pair = ""
        if partner is not None:
            fix.padmin += [f"# then on {partner[0].name}:", chdev_padmin(partner[1].name, {"ha_mode": "sharing"})]
            undo.padmin += [f"# on {partner[0].name}:", chdev_padmin(partner[1].name, {"ha_mode": "auto"})]
            pair = f" Its partner {partner[0].name} ({partner[1].name}) runs the same: one finding for the pair."
            evs = evs + partner[3]
        if len(trunks) < 2:
            undo.padmin += [chdev_padmin(sea.name, {"virt_adapters": ",".join(t.name for t in trunks)}),
                            "rmdev -dev <new-trunk-ent>"]
            undo.hmc += [f"chhwres -m <managed-system> -r virtualio --rsubtype eth -o r -p {hmc_word(host.lpar_name)} -s <free-slot>",
                         f"mksyscfg -r prof -m <managed-system> -o save -p {hmc_word(host.lpar_name)} -n <profile> --force",
                         "# and give the moved VLANs back to the first trunk adapter"]
        yield finding(sea_load_sharing, host, sea.name,
                      f"SEA {sea.name} on {host.name} runs ha_mode=auto over VLANs {', '.join(map(str, vlans))} "
                      f"with {len(trunks)} trunk adapter(s): one VIOS bridges all of them; load sharing would split them.{pair}",
                      evidence=evs, fix=fix, rollback=undo, disruption=disruption,
                      values={"current": "ha_mode=auto", "suggested": "ha_mode=sharing on both VIOS",
                              "vlans": " ".join(map(str, vlans)), "trunk_adapters": len(trunks)})
