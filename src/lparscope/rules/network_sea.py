"""Shared Ethernet Adapter and link aggregation rules: accounting, jumbo frames along the
SEA -> EtherChannel -> port chain, address to ping, load sharing (and its ODM value), largesend
with Linux clients, the aggregation's backup adapter, and how transmit traffic spreads over the
aggregated ports (000 §3.7.2, §3.7.8, §3.7.12, §3.8; 001; rules-catalogue NET-04, NET-06, NET-10).

The SEA's real adapter comes from its ``real_adapter`` attribute or, without ``lsdev -attr``,
from ``entstat -all`` (the member listed as the real adapter); aggregation members from
``adapter_names`` / ``backup_adapter`` or from entstat's per-member sections (``parent``).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..model.estate import Device, Evidence, Host
from .config import Config, threshold
from .engine import Commands, Finding, finding, rule

S000 = "000_31a80e54567cd02b.txt"
S001 = "001_56ba1d0866fd4e65.txt"

TX_SHARE_FACTOR = threshold(
    "lagg_tx_share_factor", 1.5,
    "an aggregation port carrying more than this multiple of its fair transmit share (1/n of the "
    "packets) is flagged (000 §3.8 Table 3-12: 65% on one of 4 ports = 2.6x; 1.5x is a judgement margin)")
TX_MIN_PACKETS = threshold(
    "lagg_tx_min_packets", 100000.0,
    "aggregations that transmitted fewer packets than this in total are not judged on their spread "
    "(too little traffic for the hash to show; lparscope's own margin, not from the seeds)")

_UNSET = {"", "0", "0.0.0.0", "none", "null"}
_HASH_WORDS = {"source and destination tcp/udp ports": "src_dst_port", "destination ip address": "default",
               "source and destination ip addresses": "src_dst_ip"}


# --- the model, read the same way by every rule ------------------------------------------------

def _on(value: str | None) -> bool | None:
    """yes/enabled -> True, no/disabled -> False, anything else unknown."""
    if value is None:
        return None
    v = str(value).strip().lower()
    if v in ("yes", "enabled", "1", "on", "true"):
        return True
    if v in ("no", "disabled", "0", "off", "false"):
        return False
    return None


def _set(value: str | None) -> bool:
    return value is not None and str(value).strip().lower() not in _UNSET


def _names(value: str | None) -> list[str]:
    return [n.strip() for n in (value or "").split(",") if n.strip() and n.strip().lower() not in _UNSET]


def _en(ent: str) -> str:
    return "en" + ent[3:] if ent.startswith("ent") else ent


def _role(dev: Device) -> str | None:
    return getattr(dev.stats, "role", None) if dev.stats is not None else None


def _sea_stats(dev: Device) -> object | None:
    return getattr(dev.stats, "sea", None) if dev.stats is not None else None


def _ha_mode(sea: Device) -> tuple[str | None, list[Evidence]]:
    if sea.attr("ha_mode") is not None:
        return sea.attr("ha_mode").strip().lower(), sea.attr_ev("ha_mode")  # type: ignore[union-attr]
    mode = getattr(_sea_stats(sea), "ha_mode", None)
    return (mode.strip().lower(), sea.stat_ev("ha.High Availability Mode")) if mode else (None, [])


def _real_adapter(host: Host, sea: Device) -> Device | None:
    name = sea.attr("real_adapter")
    if not name:
        members = getattr(_sea_stats(sea), "members", None) or {}
        name = next((n for n, r in members.items() if r == "real"), None)
    if not name:
        name = next((d.name for d in host.devices.values() if d.parent == sea.name and _role(d) == "real"), None)
    return host.devices.get(name) if name else None


def _seas_on(host: Host, ec: Device) -> list[Device]:
    """SEAs built on this aggregation."""
    out = [s for s in host.by_class("sea") if (r := _real_adapter(host, s)) is not None and r.name == ec.name]
    if not out and ec.parent and ec.parent in host.devices and host.devices[ec.parent].cls == "sea":
        out = [host.devices[ec.parent]]
    return sorted(out, key=lambda d: d.name)


def _is_aggregation(dev: Device) -> bool:
    return dev.cls == "etherchannel" or "adapter_names" in dev.attrs


def _backup(ec: Device) -> str | None:
    if ec.attr("backup_adapter") is not None:
        names = _names(ec.attr("backup_adapter"))
        return names[0] if names else None
    b = getattr(getattr(ec.stats, "etherchannel", None), "backup_adapter", None) if ec.stats is not None else None
    return b if _set(b) else None


def _members(host: Host, ec: Device, with_backup: bool = True) -> list[str]:
    names = _names(ec.attr("adapter_names"))
    if ec.stats is not None:
        names += getattr(getattr(ec.stats, "etherchannel", None), "members", None) or []
    names += [d.name for d in host.devices.values() if d.parent == ec.name]
    backup = _backup(ec)
    if with_backup and backup:
        names.append(backup)
    elif backup:
        names = [n for n in names if n != backup]
    return sorted(dict.fromkeys(names), key=lambda n: (len(n), n))


def _hash_mode(ec: Device) -> tuple[str | None, list[Evidence]]:
    if ec.attr("hash_mode") is not None:
        return ec.attr("hash_mode"), ec.attr_ev("hash_mode")
    text = getattr(getattr(ec.stats, "etherchannel", None), "hash_mode", None) if ec.stats is not None else None
    if not text:
        return None, []
    return _HASH_WORDS.get(text.strip().lower(), text), ec.stat_ev("hash_mode")


def _chg(host: Host, dev: str, attr: str, value: str, perm: bool = False) -> tuple[str, str]:
    """(padmin, root) forms of one attribute change."""
    return (f"chdev -dev {dev} -attr {attr}={value}" + (" -perm" if perm else ""),
            f"chdev -l {dev} -a {attr}={value}" + (" -P" if perm else ""))


# --- SEA rules ---------------------------------------------------------------------------------

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
        if _on(sea.attr("accounting")) is not False:
            continue
        on, on_root = _chg(host, sea.name, "accounting", "enabled")
        off, off_root = _chg(host, sea.name, "accounting", "disabled")
        yield finding(sea_accounting, host, sea.name,
                      f"SEA {sea.name} on {host.name} has accounting disabled: seastat -d {sea.name} cannot show per-client traffic.",
                      evidence=sea.attr_ev("accounting"),
                      fix=Commands(padmin=[on, f"seastat -d {sea.name}   # per-client statistics from now on"], root=[on_root]),
                      rollback=Commands(padmin=[off], root=[off_root]),
                      values={"current": "accounting=disabled", "suggested": "accounting=enabled"})


def _jumbo_chain(host: Host, sea: Device) -> list[tuple[str, str, bool, list[Evidence]]]:
    """(device, attribute, jumbo on?, evidence) along SEA -> aggregation -> ports, where known."""
    chain: list[tuple[str, str, bool, list[Evidence]]] = []
    v = _on(sea.attr("jumbo_frames"))
    if v is not None:
        chain.append((sea.name, "jumbo_frames", v, sea.attr_ev("jumbo_frames")))
    real = _real_adapter(host, sea)
    if real is None:
        return chain
    ports = [real.name]
    if _is_aggregation(real):
        v = _on(real.attr("use_jumbo_frame"))
        if v is not None:
            chain.append((real.name, "use_jumbo_frame", v, real.attr_ev("use_jumbo_frame")))
        ports = _members(host, real)
    for name in ports:
        dev = host.devices.get(name)
        if dev is None:
            continue
        # A port's running state (entstat "Jumbo Frames:") first: an aggregation with
        # use_jumbo_frame=yes turns jumbo on in its ports whatever their ODM value says.
        v = _on(getattr(dev.stats, "jumbo_frames", None) if dev.stats is not None else None)
        if v is not None:
            chain.append((name, "jumbo_frames", v, dev.stat_ev("jumbo_frames")))
            continue
        v = _on(dev.attr("jumbo_frames"))
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
        fix, fix_root, undo, undo_root = [], [], [], []
        for n, a, on in wrong:
            p, r = _chg(host, n, a, word[want], perm=True)
            fix.append(p)
            fix_root.append(r)
            p, r = _chg(host, n, a, word[on], perm=True)
            undo.append(p)
            undo_root.append(r)
        note = ["# -perm: in use under the SEA, the change applies when the VIOS restarts; fail the SEA over to the partner VIOS first",
                "# set the switch ports the same way (000 §3.7.12)"]
        yield finding(sea_jumbo_mismatch, host, sea.name,
                      f"Jumbo frames differ along SEA {sea.name} on {host.name}: {listing}.",
                      evidence=[e for _, _, _, ev in chain for e in ev],
                      fix=Commands(padmin=fix + note, root=fix_root),
                      rollback=Commands(padmin=undo, root=undo_root), disruption=["reboot"],
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
        if _set(dev.attr("netaddr")):
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
        if not _set(target):
            continue
        en = _en(sea.name)
        has_ip, ev = _ip_on(host, en)
        if has_ip is not False:
            continue  # the address is there, or no interface listing to tell
        elsewhere = sorted({s.record.name for s in host.of_kind("netif", "Interface")
                            if s.record.inet and s.record.name not in (en, "lo0")})
        where = f" (the VIOS address is on {', '.join(elsewhere)})" if elsewhere else ""
        yield finding(sea_netaddr_without_ip, host, sea.name,
                      f"SEA {sea.name} on {host.name} pings {target} (netaddr) but {en} has no IP address{where}.",
                      evidence=sea.attr_ev("netaddr") + ev,
                      fix=Commands(padmin=["# either put the VIOS address on the SEA interface (001), from the HMC console if you move it:",
                                           *([f"rmtcpip -interface {elsewhere[0]}"] if elsewhere else []),
                                           f"mktcpip -hostname <hostname> -inetaddr <ip-address> -interface {en} -netmask <netmask> -gateway <gateway>",
                                           f"# or stop pinging: chdev -dev {sea.name} -attr netaddr=0"],
                                   root=[f"chdev -l {sea.name} -a netaddr=0   # the alternative: no address to ping"]),
                      rollback=Commands(padmin=[f"rmtcpip -interface {en}", f"chdev -dev {sea.name} -attr netaddr={target}"],
                                        root=[f"chdev -l {sea.name} -a netaddr={target}"]),
                      disruption=["interface-down"] if elsewhere else [],
                      values={"current": f"netaddr={target}, no IP on {en}", "suggested": f"VIOS IP on {en}, or netaddr=0"})


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
                                           "chdev -dev <sea> -attr ha_mode=sharing   # primary VIOS first, then the backup"],
                                   root=steps),
                      rollback=Commands(padmin=["oem_setup_env", *undo, "exit"], root=undo),
                      values={"current": values, "suggested": f"{values},sharing"})


def _trunks(host: Host, sea: Device) -> list[Device]:
    names = _names(sea.attr("virt_adapters"))
    members = getattr(_sea_stats(sea), "members", None) or {}
    names += [n for n, r in members.items() if r == "virtual"]
    names += [d.name for d in host.devices.values() if d.parent == sea.name and _role(d) == "virtual"]
    ctl = sea.attr("ctl_chan")
    return [host.devices.get(n) or Device(n) for n in sorted(dict.fromkeys(names)) if n != ctl]


def _vlans(host: Host, sea: Device) -> tuple[list[int], list[Evidence]]:
    ids: set[int] = set()
    ev: list[Evidence] = []
    for name, vl in (getattr(_sea_stats(sea), "vlan_ids", None) or {}).items():
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
    over them. Advisory: failover alone is a valid design when one VIOS can carry all traffic.""",
)
def sea_load_sharing(host: Host, cfg: Config) -> Iterator[Finding]:
    for sea in sorted(host.by_class("sea"), key=lambda d: d.name):
        mode, mode_ev = _ha_mode(sea)
        if mode != "auto":
            continue
        vlans, vlan_ev = _vlans(host, sea)
        if len(vlans) < 2:
            continue
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
                        f'chhwres -m <managed-system> -r virtualio --rsubtype eth -o a -p {host.name} -s <free-slot> '
                        f'-a "ieee_virtual_eth=1,port_vlan_id=<unused-pvid>,addl_vlan_ids=<vlans-moved-here>,is_trunk=1,trunk_priority={prio_text}"',
                        f"mksyscfg -r prof -m <managed-system> -o save -p {host.name} -n <profile> --force",
                        "# move those VLANs off the first trunk adapter, and do the same on the partner VIOS"]
            fix.padmin += ["# after the HMC has added the second trunk adapter:", "cfgdev", f"chdev -dev {sea.name} -attr virt_adapters={','.join(t.name for t in trunks)},<new-trunk-ent>"]
            disruption.append("dlpar")
        fix.padmin += [f"chdev -dev {sea.name} -attr ha_mode=sharing   # on the primary VIOS first, then on the backup"]
        undo = Commands(padmin=[f"chdev -dev {sea.name} -attr ha_mode=auto   # on both VIOS"])
        if len(trunks) < 2:
            undo.padmin += [f"chdev -dev {sea.name} -attr virt_adapters={','.join(t.name for t in trunks)}",
                            "rmdev -dev <new-trunk-ent>"]
            undo.hmc += [f"chhwres -m <managed-system> -r virtualio --rsubtype eth -o r -p {host.name} -s <free-slot>",
                         f"mksyscfg -r prof -m <managed-system> -o save -p {host.name} -n <profile> --force",
                         "# and give the moved VLANs back to the first trunk adapter"]
        yield finding(sea_load_sharing, host, sea.name,
                      f"SEA {sea.name} on {host.name} runs ha_mode=auto over VLANs {', '.join(map(str, vlans))} "
                      f"with {len(trunks)} trunk adapter(s): one VIOS bridges all of them; load sharing would split them.",
                      evidence=mode_ev + vlan_ev, fix=fix, rollback=undo, disruption=disruption,
                      values={"current": "ha_mode=auto", "suggested": "ha_mode=sharing on both VIOS",
                              "vlans": " ".join(map(str, vlans)), "trunk_adapters": len(trunks)})


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
        on = [(a, off) for a, off in (("largesend", "0"), ("large_receive", "no")) if _on(sea.attr(a))]
        if not on:
            continue
        new = " ".join(f"{a}={off}" for a, off in on)
        old = " ".join(f"{a}={sea.attr(a)}" for a, _ in on)
        names = sorted({n for n, _ in linux})
        yield finding(sea_largesend_linux, host, sea.name,
                      f"SEA {sea.name} on {host.name} has {old} and the VIOS serves Linux clients ({', '.join(names)}).",
                      evidence=sea.attr_ev(*[a for a, _ in on]) + [e for _, e in linux if e is not None],
                      fix=Commands(padmin=["# first confirm whether the Linux clients' kernels handle SEA largesend; if they do, keep it",
                                           f"chdev -dev {sea.name} -attr {new}"],
                                   root=[f"chdev -l {sea.name} -a " + " -a ".join(new.split())]),
                      rollback=Commands(padmin=[f"chdev -dev {sea.name} -attr {old}"],
                                        root=[f"chdev -l {sea.name} -a " + " -a ".join(old.split())]),
                      values={"current": old, "suggested": new, "linux_clients": ", ".join(names)})


# --- link aggregation rules ---------------------------------------------------------------------

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
        backup = _backup(ec)
        if not backup:
            continue
        for sea in _seas_on(host, ec):
            mode, mode_ev = _ha_mode(sea)
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
        seas = _seas_on(host, ec)
        if not _set(target) or not seas:
            continue
        sea = seas[0].name
        fix, fix_root = _lagg_cmd(ec.name, sea, "netaddr", "0")
        undo, undo_root = _lagg_cmd(ec.name, sea, "netaddr", str(target))
        yield finding(lagg_netaddr_under_sea, host, ec.name,
                      f"Aggregation {ec.name} on {host.name} pings {target} (netaddr) and carries SEA {sea}.",
                      evidence=ec.attr_ev("netaddr"),
                      fix=Commands(padmin=[fix, f"# if a ping target is wanted, set netaddr on {sea} with the VIOS IP on {_en(sea)} (001)"],
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
    shown as context only. If the hash is already src_dst_port the finding is info.""",
)
def lagg_tx_spread(host: Host, cfg: Config) -> Iterator[Finding]:
    for ec in sorted(host.by_class("etherchannel"), key=lambda d: d.name):
        ports = []
        for name in _members(host, ec, with_backup=False):
            dev = host.devices.get(name)
            counters = getattr(dev.stats, "counters", None) if dev is not None and dev.stats is not None else None
            if counters and counters.get("tx_packets") is not None:
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
        hmode, hev = _hash_mode(ec)
        seas = _seas_on(host, ec)
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
