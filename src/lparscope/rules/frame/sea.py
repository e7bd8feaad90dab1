"""SEA pairs across the VIOS of a frame: trunk priorities and VLANs of the trunk adapters (HMC
virtual Ethernet data), HA mode of the SEAs (the VIOS's own lsattr/lsdev/entstat, or HMC Scanner's
SEA sheet), busy VLANs all behind one VIOS (seastat -d) (000 §3.7, Table 3-10; 001;
rules-catalogue NET-07, NET-08).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from ...model.estate import Estate, Host
from ...model.frame import Frame, FramePartition, VirtualEth
from ..changes import chdev_padmin, hmc_word
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from .hmc import S000, frames, ms

BUSY_VLAN_SHARE = threshold("sea_busy_vlan_share", 0.10,
                            "a VLAN counts as busy when it carries at least this share of the SEA's bytes (seastat -d)")


def vios_by_pvid(estate: Estate) -> dict[int, str]:
    """Which VIOS bridges each VLAN, from its trunk adapters (PVID and tagged VLANs)."""
    out: dict[int, str] = {}
    for v in estate.vios:
        for dev in v.by_class("trunk"):
            s = dev.stats
            for vlan in [getattr(s, "port_vlan_id", None), *(getattr(s, "vlan_tag_ids", None) or [])]:
                if vlan is not None:
                    out.setdefault(int(vlan), v.name)
    return out


@rule(
    id="FRAME-SEA-BUSY-VLANS-ONE-VIOS",
    title="Several busy VLANs all bridged by one VIOS of an SEA failover pair",
    severity="info",
    category="network",
    source="000_31a80e54567cd02b.txt §3.7.2, Table 3-10; 001 (ha_mode=sharing)",
    rationale="""In plain SEA failover (ha_mode=auto) the primary VIOS bridges every VLAN while its partner
    waits. When seastat shows several VLANs each carrying a real part of the traffic, load sharing
    (ha_mode=sharing on both SEAs) spreads them over the two VIOS and halves the load on each.""",
    scope="estate",
)
def busy_vlans_one_vios(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for v in estate.vios:
        for sea in v.by_class("sea"):
            if (sea.attr("ha_mode") or "").lower() != "auto" or not v.sea_clients:
                continue
            state = (getattr(getattr(sea.stats, "sea", None), "state", None) or "").upper()
            if state and not state.startswith("PRIMARY"):
                continue
            per_vlan: dict[int, int] = defaultdict(int)
            for c in v.sea_clients:
                if c.sea in (None, sea.name) and c.vlan is not None:
                    per_vlan[c.vlan] += (c.tx_bytes or 0) + (c.rx_bytes or 0)
            total = sum(per_vlan.values())
            busy = sorted(vl for vl, b in per_vlan.items() if total and b / total >= cfg.t(BUSY_VLAN_SHARE))
            if len(busy) < 2:
                continue
            shares = ", ".join(f"VLAN {vl} {per_vlan[vl] / total:.0%}" for vl in busy)
            yield finding(busy_vlans_one_vios, v, sea.name,
                          f"{v.name} bridges all of {len(busy)} busy VLANs on SEA {sea.name} in ha_mode=auto ({shares}).",
                          evidence=sea.attr_ev("ha_mode") + sea.stat_ev("sea_flags"),
                          fix=Commands(padmin=[chdev_padmin(sea.name, {"ha_mode": "sharing"}) + "   # on the backup VIOS first, then here"]),
                          rollback=Commands(padmin=[chdev_padmin(sea.name, {"ha_mode": "auto"}) + "   # on both VIOS"]),
                          values={"current": "ha_mode=auto", "suggested": "ha_mode=sharing"})


S001 = "001_56ba1d0866fd4e65.txt"


def trunk_groups(fr: Frame) -> list[tuple[str, dict[str, list[VirtualEth]]]]:
    """Per virtual switch, the trunk adapters of each VIOS, for VIOS that bridge a common VLAN."""
    by_switch: dict[str, dict[str, list[VirtualEth]]] = {}
    for v in fr.vios:
        for a in v.veth:
            if a.trunk:
                by_switch.setdefault(a.vswitch or "ETHERNET0", {}).setdefault(v.name, []).append(a)
    out = []
    for sw, per in sorted(by_switch.items()):
        if len(per) >= 2:
            out.append((sw, per))
    return out


@rule(
    id="FRAME-SEA-TRUNK-PRIORITY",
    title="Trunk adapters of two VIOS bridge the same VLAN with the same trunk priority",
    severity="critical",
    category="network",
    source=f"{S000} §3.7.1; {S001} (SEA failover); rules-catalogue NET-07",
    rationale="""In SEA failover the trunk priority decides which VIOS bridges (the lower value is primary).
    Two trunk adapters on the same virtual switch bridging the same VLAN with the same priority is a
    misconfiguration: the failover protocol cannot elect a primary cleanly and both SEAs may bridge the
    VLAN at once, a loop on the physical network. Read from the HMC's virtual Ethernet data.""",
    scope="estate",
)
def frame_sea_trunk_priority(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        for sw, per in trunk_groups(fr):
            names = sorted(per)
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    for ta in per[a]:
                        for tb in per[b]:
                            common = sorted(set(ta.all_vlans) & set(tb.all_vlans))
                            if not common or ta.priority is None or ta.priority != tb.priority:
                                continue
                            pb = fr.partitions[b]
                            new = 2 if ta.priority == 1 else 1
                            fix = Commands(hmc=[f"# trunk priority cannot change on a live adapter: replace {b}'s trunk adapter in slot {tb.slot}",
                                                f"chhwres -m {ms(fr)} -r virtualio --rsubtype eth -o r -p {hmc_word(b)} -s {tb.slot}",
                                                f'chhwres -m {ms(fr)} -r virtualio --rsubtype eth -o a -p {hmc_word(b)} -s {tb.slot} '
                                                f'-a "ieee_virtual_eth=1,port_vlan_id={tb.pvid},addl_vlan_ids={",".join(map(str, tb.vlans)) or "none"},'
                                                f'is_trunk=1,trunk_priority={new}{f",vswitch={tb.vswitch}" if tb.vswitch else ""}"',
                                                f"mksyscfg -r prof -m {ms(fr)} -o save -p {hmc_word(b)} -n {hmc_word(pb.profile_name or '<profile>')} --force"],
                                           padmin=[f"# on {b}, before the HMC change: rmdev the SEA's trunk adapter; afterwards: cfgdev and recreate the SEA"])
                            undo = Commands(hmc=[f"# put back trunk_priority={tb.priority} on {b} slot {tb.slot} the same way"])
                            yield finding(frame_sea_trunk_priority, pb.label, f"{sw} VLAN {','.join(map(str, common))}",
                                          f"{fr.name}: {a} slot {ta.slot} and {b} slot {tb.slot} both bridge VLAN(s) "
                                          f"{', '.join(map(str, common))} on {sw} with trunk priority {ta.priority}.",
                                          evidence=[ta.evidence, tb.evidence], fix=fix, rollback=undo,
                                          disruption=["interface-down"],
                                          values={"current": f"{ta.priority} / {tb.priority}", "suggested": f"{ta.priority} / {new}"})


@rule(
    id="FRAME-SEA-VLANS-DIFFER",
    title="The SEA pair does not bridge the same VLANs",
    severity="warning",
    category="network",
    source=f"{S000} §3.7.1, §3.7.8 (Table 3-10: the other VIOS with identical configuration); rules-catalogue NET-07",
    rationale="""SEA failover only protects the VLANs that both VIOS bridge: a VLAN on the trunk adapters of
    one VIOS only is cut off when that VIOS fails or is updated. Per virtual switch, the VLANs (PVIDs and
    additional VLANs) of the trunk adapters of each VIOS are compared with those of its partner.""",
    scope="estate",
)
def frame_sea_vlans_differ(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        for sw, per in trunk_groups(fr):
            sets = {v: sorted({x for t in ts for x in t.all_vlans}) for v, ts in per.items()}
            names = sorted(per)
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    sa, sb = set(sets[a]), set(sets[b])
                    if not sa & sb or sa == sb:
                        continue
                    only_a, only_b = sorted(sa - sb), sorted(sb - sa)
                    lacking, extra, other = (b, only_a, a) if only_a else (a, only_b, b)
                    fix, undo = _vlans_fix(fr, lacking, per[lacking], per[other], extra)
                    what = "; ".join(x for x in (f"only {a}: {', '.join(map(str, only_a))}" if only_a else "",
                                                 f"only {b}: {', '.join(map(str, only_b))}" if only_b else "") if x)
                    yield finding(frame_sea_vlans_differ, fr.partitions[lacking].label, f"{sw} trunk VLANs",
                                  f"{fr.name}: the trunk adapters of {a} and {b} on {sw} bridge different VLANs ({what}).",
                                  evidence=[t.evidence for t in per[a] + per[b]], fix=fix, rollback=undo, disruption=["dlpar"],
                                  values={"current": f"{a}: {sets[a]} / {b}: {sets[b]}", "suggested": "the same VLANs on both"})


def _vlans_fix(fr: Frame, lacking: str, own: list[VirtualEth], partner: list[VirtualEth],
               extra: list[int]) -> tuple[Commands, Commands]:
    """What makes ``lacking`` bridge the VLANs ``extra`` its partner bridges, per partner trunk adapter.
    A partner trunk whose PVID ``lacking`` does not bridge is a trunk adapter ``lacking`` lacks: one like
    it is added (its slot, and the SEA's list of adapters, are the administrator's to fill in). The
    other VLANs are tagged ones: they go onto a trunk adapter of ``lacking`` that takes tagged VLANs
    (IEEE 802.1Q; an adapter without it refuses ``addl_vlan_ids``), the one with the same PVID first."""
    m, p = ms(fr), fr.partitions[lacking]
    want = set(extra)
    own_vlans = {x for t in own for x in t.all_vlans}
    tagged_ok = [t for t in own if t.ieee]
    onto: dict[int | None, list[int]] = {}
    hmc: list[str] = []
    undo: list[str] = []
    prio = next((t.priority for t in own if t.priority is not None), None)
    for t in partner:
        carried = [x for x in t.all_vlans if x in want]
        if not carried:
            continue
        tagged = [x for x in t.vlans if x in want]
        if t.pvid is not None and t.pvid not in own_vlans:
            attrs = f"port_vlan_id={t.pvid},ieee_virtual_eth={'1' if tagged else '0'}," + (
                f'\\"addl_vlan_ids={",".join(map(str, tagged))}\\",' if tagged else "")
            new_prio = prio if prio is not None else (2 if t.priority == 1 else 1)
            hmc.append(f'chhwres -m {m} -r virtualio --rsubtype eth -o a -p {hmc_word(lacking)} -s <free virtual slot> '
                       f'-a "{attrs}is_trunk=1,trunk_priority={new_prio}"   # like slot {t.slot} of the partner')
            hmc.append(f"# then on {lacking}: add that trunk adapter to its SEA (chdev -dev <sea> -attr "
                       "virt_adapters=<its trunk adapters>,<the new entX>: the SEA is reconfigured)")
            undo.append(f"chhwres -m {m} -r virtualio --rsubtype eth -o r -p {hmc_word(lacking)} -s <the slot added>")
            continue
        dest = next((o for o in tagged_ok if o.pvid == t.pvid), tagged_ok[0] if tagged_ok else None)
        if dest is None:
            hmc.append(f"# {lacking} has no trunk adapter that takes tagged VLANs (ieee_virtual_eth=1) for "
                       f"VLAN(s) {', '.join(map(str, tagged))}: make one 802.1Q capable in the profile, or add one")
            continue
        vlans = onto.setdefault(dest.slot, [])
        vlans.extend(x for x in tagged if x not in vlans)
    for slot_no, vlans in onto.items():
        vl = ",".join(map(str, vlans))
        hmc.insert(0, f'chhwres -m {m} -r virtualio --rsubtype eth -o s -p {hmc_word(lacking)} -s {slot_no} -a "addl_vlan_ids+={vl}"')
        undo.insert(0, f'chhwres -m {m} -r virtualio --rsubtype eth -o s -p {hmc_word(lacking)} -s {slot_no} -a "addl_vlan_ids-={vl}"')
    hmc.append(f"mksyscfg -r prof -m {m} -o save -p {hmc_word(lacking)} -n {hmc_word(p.profile_name or '<profile>')} --force")
    return Commands(hmc=hmc), Commands(hmc=undo)


def seas_of(estate: Estate, fr: Frame, v: FramePartition) -> list[dict[str, Any]]:
    """SEA attributes of one VIOS: its own lsattr/entstat when analysed, else the HMC Scanner SEA sheet."""
    out = []
    h: Host | None = estate.hosts.get(v.host or "")
    if h is not None:
        for d in sorted(h.by_class("sea"), key=lambda x: x.name):
            sea = getattr(d.stats, "sea", None) if d.stats is not None else None
            mode = (d.attr("ha_mode") or getattr(sea, "ha_mode", None) or "")
            ctl = d.attr("ctl_chan")
            ctl_pvid = getattr(sea, "control_channel_pvid", None)
            ctl_dev = h.devices.get(ctl or "")
            if ctl_pvid is None and ctl_dev is not None and ctl_dev.stats is not None:
                ctl_pvid = getattr(ctl_dev.stats, "port_vlan_id", None)
            ev = d.attr_ev("ha_mode", "ctl_chan") or [d.evidence]
            if ctl_pvid is not None:
                ev += d.stat_ev("control_channel_pvid")
            out.append({"sea": d.name, "ha_mode": mode.strip().lower() or None, "ctl_chan": ctl, "ctl_pvid": ctl_pvid,
                        "evidence": [e for e in ev if e is not None]})
    if not out:
        for row in fr.seas:
            if row.get("vios") == v.name:
                out.append({"sea": row.get("sea"), "ha_mode": (row.get("ha_mode") or "").lower() or None,
                            "ctl_chan": row.get("ctl_chan"), "ctl_pvid": None, "evidence": [row.get("evidence")]})
    return out


def sea_pairs(estate: Estate, fr: Frame) -> list[tuple[FramePartition, FramePartition]]:
    """VIOS pairs that bridge a common VLAN (trunk adapters), else the frame's VIOS pairs."""
    out: list[tuple[FramePartition, FramePartition]] = []
    for _, per in trunk_groups(fr):
        names = sorted(per, key=lambda n: (fr.partitions[n].id or 0, n))
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                va = {x for t in per[a] for x in t.all_vlans}
                vb = {x for t in per[b] for x in t.all_vlans}
                pair = (fr.partitions[a], fr.partitions[b])
                if va & vb and pair not in out:
                    out.append(pair)
    if not out:
        out = [(fr.partitions[a], fr.partitions[b]) for a, b in fr.vios_pairs]
    return out


@rule(
    id="FRAME-SEA-HA-MODE",
    title="The two SEAs of a pair differ in ha_mode or control channel",
    severity="warning",
    category="network",
    source=f"{S000} §3.7.1-§3.7.2; {S001} (ha_mode=sharing on both); rules-catalogue NET-07, NET-08",
    rationale="""SEA failover works only when the SEAs of both VIOS are set alike: load sharing is active only
    when BOTH have ha_mode=sharing (any other combination is plain failover), ha_mode=disabled on one side
    leaves no failover at all, and the two control channels must be on the same, unique VLAN (a control
    channel on a VLAN of the physical network can cause a broadcast storm, NET-08). The values come from
    each VIOS's own lsattr / entstat output, or from HMC Scanner's SEA sheet.""",
    scope="estate",
)
def frame_sea_ha_mode(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        for va, vb in sea_pairs(estate, fr):
            sa, sb = seas_of(estate, fr, va), seas_of(estate, fr, vb)
            if not sa or not sb:
                continue
            for x, y in zip(sa, sb):
                problems = []
                ma, mb = x["ha_mode"], y["ha_mode"]
                if ma and mb and ma != mb:
                    if "sharing" in (ma, mb):
                        problems.append(f"ha_mode {ma} / {mb}: load sharing needs sharing on both, so this runs as plain failover")
                    else:
                        problems.append(f"ha_mode {ma} / {mb}")
                elif ma == mb == "disabled":
                    problems.append("ha_mode disabled on both SEAs of two VIOS bridging the same VLANs: no failover")
                if x["ctl_pvid"] is not None and y["ctl_pvid"] is not None and x["ctl_pvid"] != y["ctl_pvid"]:
                    problems.append(f"control channel PVID {x['ctl_pvid']} / {y['ctl_pvid']}")
                if not problems:
                    continue
                want = "sharing" if "sharing" in (ma, mb) else "auto"
                fix = Commands(padmin=[f"{chdev_padmin(x['sea'], {'ha_mode': want})}   # on {va.name}",
                                       f"{chdev_padmin(y['sea'], {'ha_mode': want})}   # on {vb.name}",
                                       "# control channels: both on the same PVID, a VLAN that exists nowhere on the physical network"])
                undo = Commands(padmin=[f"{chdev_padmin(x['sea'], {'ha_mode': ma or 'auto'})}   # on {va.name}",
                                        f"{chdev_padmin(y['sea'], {'ha_mode': mb or 'auto'})}   # on {vb.name}"])
                yield finding(frame_sea_ha_mode, vb.label, f"{x['sea']}/{y['sea']}",
                              f"{fr.name}: SEA {x['sea']} on {va.name} and {y['sea']} on {vb.name}: {'; '.join(problems)}.",
                              evidence=[*x["evidence"], *y["evidence"]], fix=fix, rollback=undo, disruption=["interface-down"],
                              values={"current": f"{ma} / {mb}", "suggested": f"{want} on both"})
