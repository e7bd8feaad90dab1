"""AIX TCP/IP tuning rules: interface-specific network options (ISNO) against the global ``no``
values, window scaling and socket buffers on 10 Gb links, sb_max, tcp_nodelayack, and raised MTUs
on client virtual interfaces (000 §3.7.10, §3.8 item 8; 001; rules-catalogue NET-01, NET-02, NET-05,
NET-15, S6/C1).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.change import ProposedChange
from ...model.estate import Estate, Evidence, Host
from ...sources.tunables import to_number
from ..changes import chdev_root, device_change, tunable_change
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from .link_speed import link_mbps

SPACE_10G = threshold("tcp_space_10g_min", 262144.0,
                      "tcp_sendspace / tcp_recvspace below this on a 10 Gb or faster interface is advisory "
                      "(rules-catalogue NET-02; 001: virtual interfaces default to 262144 / 262144 / rfc1323 1)")
FAST_MBPS = threshold("fast_link_mbps", 10000.0,
                      "link speed (Mbit/s) from which an interface counts as high-bandwidth for NET-02 "
                      "(entstat Adapter Data Rate halved: 20000 = 10 Gb full duplex; virtual adapters report 20000)")
SB_MAX_FACTOR = threshold("sb_max_buffer_factor", 2.0,
                          "sb_max should be at least this multiple of the largest TCP socket buffer (rules-catalogue NET-02)")
MTU_DEFAULT = 1500
ISNO_NAMES = ("tcp_sendspace", "tcp_recvspace", "rfc1323")


def global_no(host: Host, name: str) -> tuple[int | None, Evidence | None]:
    """A ``no`` tunable's current value as an integer, with its evidence (None when not collected)."""
    s = host.tunables.get(name)
    if s is None:
        return None, None
    return to_number(str(s.value)), s.evidence


def isno_values(host: Host, en: str) -> dict[str, tuple[int, Evidence | None]]:
    """Interface options in force: ``ifconfig -a`` ISNO line first, else non-empty ``lsattr -El enN`` values."""
    out: dict[str, tuple[int, Evidence | None]] = {}
    for src in host.of_kind("netif", "Interface"):
        if src.record.name == en:
            for k, v in (src.record.isno or {}).items():
                out[k] = (int(v), src.ev(k))
    dev = host.devices.get(en)
    if dev is not None:
        for k in ("tcp_sendspace", "tcp_recvspace", "rfc1323", "tcp_nodelay", "tcp_mssdflt"):
            v = to_number(dev.attr(k) or "")
            if k not in out and v is not None:
                out[k] = (v, (dev.attr_ev(k) or [None])[0])
    return out


def interface_names(host: Host) -> list[str]:
    names = {d.name for d in host.by_class("interface") if d.name.startswith("en")}
    names |= {s.record.name for s in host.of_kind("netif", "Interface") if str(s.record.name).startswith("en")}
    return sorted(names, key=lambda n: (len(n), n))


def _use_isno(host: Host) -> tuple[int | None, Evidence | None]:
    return global_no(host, "use_isno")


def _en_chdev(en: str, values: dict[str, Any]) -> str:
    return chdev_root(en, values)


def _no_cmd(values: dict[str, Any]) -> str:
    return "no -p " + " ".join(f"-o {k}={v}" for k, v in values.items())


def _no_changes(host: Host, new: dict[str, Any], old: dict[str, Any]) -> list[ProposedChange]:
    """The global network options moved from ``old`` to ``new`` (now and at boot, ``no -p``)."""
    return [tunable_change(host, "no", k, str(old[k]), str(v)) for k, v in new.items()
            if k in old and old[k] is not None and str(old[k]) != str(v)]


def _en_changes(host: Host, en: str, new: dict[str, Any], old: dict[str, Any]) -> list[ProposedChange]:
    """Interface attributes moved from ``old`` to ``new`` (chdev, dynamic)."""
    return [device_change(host, en, k, str(old[k]), str(v)) for k, v in new.items()
            if k in old and old[k] is not None and str(old[k]) != str(v)]


@rule(
    id="NET-TCP-ISNO-DISABLED",
    title="Interface-specific network options (ISNO) disabled",
    severity="warning",
    category="network",
    source="000_31a80e54567cd02b.txt §3.8 item 8; 001_56ba1d0866fd4e65.txt (Default TCP settings); rules-catalogue NET-01",
    rationale="""With use_isno=1 (the default) each interface carries its own tcp_sendspace, tcp_recvspace and
    rfc1323, set by the device driver for its speed (262144 / 262144 / 1 on virtual and 10 Gb interfaces).
    use_isno=0 throws those away and every connection falls back to the global no values, which default to
    16 KB buffers without window scaling.""",
)
def isno_disabled(host: Host, cfg: Config) -> Iterator[Finding]:
    value, ev = _use_isno(host)
    if value != 0:
        return
    ignored = {en: vals for en in interface_names(host) if (vals := isno_values(host, en))}
    text = "; ".join(f"{en}: " + ", ".join(f"{k} {v}" for k, (v, _) in vals.items()) for en, vals in ignored.items())
    yield finding(isno_disabled, host, "no use_isno",
                  f"{host.name} has use_isno=0"
                  + (f": the interface options set on {text} are ignored." if ignored else "."),
                  evidence=[ev] + [e for vals in ignored.values() for _, e in vals.values()],
                  fix=Commands(root=[_no_cmd({"use_isno": 1}), "# applies to new connections"]),
                  rollback=Commands(root=[_no_cmd({"use_isno": 0})]),
                  changes=_no_changes(host, {"use_isno": 1}, {"use_isno": 0}),
                  values={"current": "use_isno=0", "suggested": "use_isno=1"})


@rule(
    id="NET-TCP-ISNO-BELOW-NO",
    title="Interface options undo a larger global TCP setting",
    severity="info",
    category="network",
    source="rules-catalogue NET-01; 000_31a80e54567cd02b.txt §3.8 item 8; 001_56ba1d0866fd4e65.txt (Default TCP settings)",
    rationale="""When ISNO is on, an option set on the interface wins over the global no value for every
    connection through that interface (what ifconfig shows is what is in force, 001). An administrator who
    raised tcp_sendspace, tcp_recvspace or rfc1323 with no gets nothing on an interface whose own value is
    lower. Interface values above the global ones are the normal driver defaults and are not reported.""",
)
def isno_below_no(host: Host, cfg: Config) -> Iterator[Finding]:
    use, use_ev = _use_isno(host)
    if use == 0:
        return
    for en in interface_names(host):
        vals = isno_values(host, en)
        lower: dict[str, tuple[int, int]] = {}
        ev: list[Evidence | None] = [use_ev]
        for name in ISNO_NAMES:
            g, g_ev = global_no(host, name)
            if name in vals and g is not None and vals[name][0] < g:
                lower[name] = (vals[name][0], g)
                ev += [vals[name][1], g_ev]
        if not lower:
            continue
        new = {k: g for k, (_, g) in lower.items()}
        old = {k: i for k, (i, _) in lower.items()}
        yield finding(isno_below_no, host, en,
                      f"{en} on {host.name}: " + ", ".join(f"{k} {i} on the interface < {g} in no" for k, (i, g) in lower.items())
                      + (" (use_isno=1, so the interface values apply)" if use == 1 else
                         " (use_isno not collected; it defaults to 1, so the interface values apply)") + ".",
                      evidence=ev, fix=Commands(root=[_en_chdev(en, new)]), rollback=Commands(root=[_en_chdev(en, old)]),
                      changes=_en_changes(host, en, new, old),
                      values={"current": " ".join(f"{k}={v}" for k, v in old.items()),
                              "suggested": " ".join(f"{k}={v}" for k, v in new.items())})


def _effective(host: Host, en: str, name: str, use: int | None) -> tuple[int | None, list[Evidence | None], str]:
    """The value a connection through ``en`` gets: the interface's when ISNO applies, else the global one."""
    if use != 0:
        vals = isno_values(host, en)
        if name in vals:
            return vals[name][0], [vals[name][1]], "interface"
    g, g_ev = global_no(host, name)
    return g, [g_ev], "no"


@rule(
    id="NET-TCP-10G-WINDOW",
    title="10 Gb interface without window scaling or with small socket buffers",
    severity="warning",
    category="network",
    source="rules-catalogue NET-02; 001_56ba1d0866fd4e65.txt (Default TCP settings); 000_31a80e54567cd02b.txt §3.7.10 (Table 3-11)",
    rationale="""Without RFC 1323 window scaling a TCP window cannot exceed 64 KB, which caps one connection
    far below 10 Gb/s at any real round-trip time; that case is a warning. Send and receive buffers below
    262144 on a 10 Gb (or virtual) interface are advisory: 001 and the catalogue show 262144 / 262144 /
    rfc1323 1 as the driver defaults there. The value checked is the one in force: the interface's own
    when ISNO applies, else the global no value.""",
)
def tcp_10g_window(host: Host, cfg: Config) -> Iterator[Finding]:
    use, use_ev = _use_isno(host)
    for en in interface_names(host):
        ent = host.devices.get("ent" + en[2:])
        speed, speed_ev = link_mbps(host, ent) if ent is not None else (None, [])
        if speed is None or speed < cfg.t(FAST_MBPS):
            continue
        bad: dict[str, tuple[int, int, str]] = {}
        ev: list[Evidence | None] = list(speed_ev)
        rfc, rfc_ev, rfc_from = _effective(host, en, "rfc1323", use)
        if rfc == 0:
            bad["rfc1323"] = (0, 1, rfc_from)
            ev += rfc_ev
        minimum = int(cfg.t(SPACE_10G))
        for name in ("tcp_sendspace", "tcp_recvspace"):
            v, v_ev, frm = _effective(host, en, name, use)
            if v is not None and v < minimum:
                bad[name] = (v, minimum, frm)
                ev += v_ev
        if not bad:
            continue
        new = {k: s for k, (_, s, _) in bad.items()}
        old = {k: c for k, (c, _, _) in bad.items()}
        if use == 0:
            fix = Commands(root=[_no_cmd(new), "# use_isno=0: only the global values apply (see NET-TCP-ISNO-DISABLED)"],
                           changes=_no_changes(host, new, old))
            back = Commands(root=[_no_cmd(old)])
            ev.append(use_ev)
        else:
            fix = Commands(root=[_en_chdev(en, new), "# interface-specific (ISNO), as 001 shows; new connections only"],
                           changes=_en_changes(host, en, new, old))
            back = Commands(root=[_en_chdev(en, old)])
        yield finding(tcp_10g_window, host, en,
                      f"{en} on {host.name} ({speed} Mbit/s link): "
                      + ", ".join(f"{k} {c} (from {frm})" for k, (c, _, frm) in bad.items()) + ".",
                      evidence=ev, fix=fix, rollback=back, severity=None if "rfc1323" in bad else "info",
                      values={"current": " ".join(f"{k}={v}" for k, v in old.items()),
                              "suggested": " ".join(f"{k}={v}" for k, v in new.items())})


@rule(
    id="NET-TCP-SB-MAX",
    title="sb_max smaller than twice the largest TCP socket buffer",
    severity="info",
    category="network",
    source="rules-catalogue NET-02",
    rationale="""sb_max caps the memory one socket buffer may hold. When it is not comfortably above the
    tcp_sendspace / tcp_recvspace in use (global or per interface), the larger buffers cannot be used in
    full. The catalogue asks for sb_max of at least twice the largest buffer; advisory.""",
)
def sb_max_small(host: Host, cfg: Config) -> Iterator[Finding]:
    sb, sb_ev = global_no(host, "sb_max")
    if sb is None:
        return
    candidates: list[tuple[int, str, Evidence | None]] = []
    for name in ("tcp_sendspace", "tcp_recvspace"):
        g, g_ev = global_no(host, name)
        if g is not None:
            candidates.append((g, f"no {name}", g_ev))
    if (_use_isno(host)[0]) != 0:
        for en in interface_names(host):
            for name, (v, e) in isno_values(host, en).items():
                if name in ("tcp_sendspace", "tcp_recvspace"):
                    candidates.append((v, f"{en} {name}", e))
    if not candidates:
        return
    largest, where, l_ev = max(candidates, key=lambda c: c[0])
    need = int(largest * cfg.t(SB_MAX_FACTOR))
    if sb >= need:
        return
    yield finding(sb_max_small, host, "no sb_max",
                  f"{host.name}: sb_max {sb} is below {cfg.t(SB_MAX_FACTOR):g} x the largest socket buffer ({where} {largest}).",
                  evidence=[sb_ev, l_ev], fix=Commands(root=[_no_cmd({"sb_max": need})],
                                                       changes=_no_changes(host, {"sb_max": need}, {"sb_max": sb})),
                  rollback=Commands(root=[_no_cmd({"sb_max": sb})]),
                  values={"current": sb, "suggested": need})


@rule(
    id="NET-TCP-NODELAYACK-GLOBAL",
    title="tcp_nodelayack set globally",
    severity="info",
    category="network",
    source="001_56ba1d0866fd4e65.txt (TCP small packet, chatty conversations); rules-catalogue NET-05, S6, C1",
    rationale="""tcp_nodelayack=1 makes every connection acknowledge every segment instead of one ACK per
    several, which 001 says nearly doubles the packet rate and costs CPU; 001 says not to set it. IBM
    documents it as a test for 200 ms delayed-ACK stalls and some products recommend it (catalogue S6,
    conflict C1), so this is advisory: keep it only with evidence, and prefer TCP_NODELAY in the
    application or the tcp_nodelay option on the one interface concerned.""",
)
def nodelayack_global(host: Host, cfg: Config) -> Iterator[Finding]:
    value, ev = global_no(host, "tcp_nodelayack")
    if not value:
        return
    yield finding(nodelayack_global, host, "no tcp_nodelayack",
                  f"{host.name} has tcp_nodelayack={value} for every connection.",
                  evidence=[ev],
                  fix=Commands(root=[_no_cmd({"tcp_nodelayack": 0}),
                                     "# if one peer needs it: chdev -l enN -a tcp_nodelay=1 (sender side, ISNO) instead"]),
                  rollback=Commands(root=[_no_cmd({"tcp_nodelayack": value})]),
                  changes=_no_changes(host, {"tcp_nodelayack": 0}, {"tcp_nodelayack": value}),
                  values={"current": value, "suggested": 0})


def _bridged_vlans(estate: Estate) -> tuple[set[int], bool]:
    """VLAN ids some SEA in the estate bridges, and whether any SEA data was seen at all."""
    vlans: set[int] = set()
    seen = False
    for h in estate.vios:
        for sea in h.by_class("sea"):
            s = getattr(sea.stats, "sea", None)
            if s is not None and s.vlan_ids:
                seen = True
                for ids in s.vlan_ids.values():
                    vlans.update(int(i) for i in ids)
        for t in h.by_class("trunk"):
            if t.stats is not None and getattr(t.stats, "port_vlan_id", None) is not None:
                seen = True
                vlans.add(int(t.stats.port_vlan_id))
                vlans.update(int(i) for i in (t.stats.vlan_tag_ids or []))
    return vlans, seen


def _mtu(host: Host, en: str) -> tuple[int | None, list[Evidence]]:
    dev = host.devices.get(en)
    if dev is not None and to_number(dev.attr("mtu") or "") is not None:
        return to_number(dev.attr("mtu") or ""), dev.attr_ev("mtu")
    for src in host.of_kind("netif", "InterfaceCounters"):
        if src.record.name == en and src.record.mtu:
            return int(src.record.mtu), [src.ev()]
    return None, []


@rule(
    id="NET-CLIENT-MTU-RAISED",
    title="MTU raised on a client virtual interface",
    severity="info",
    category="network",
    scope="estate",
    source="000_31a80e54567cd02b.txt §3.7.10 (Table 3-11, Example 3-30); 001_56ba1d0866fd4e65.txt (Jumbo Frames); rules-catalogue NET-15",
    rationale="""Two documented practices meet here. For traffic that leaves the frame through an SEA, 001
    keeps the client MTU at 1500: jumbo frames belong to the physical side (switch, adapter, aggregation,
    SEA) and the client uses mtu_bypass (largesend) to hand 64 KB segments to the SEA. For a VLAN used only
    between partitions of one frame, the Redbook raised the MTU to 65390 (the largest minus VLAN overhead)
    on both ends. The finding says which case the collected SEA VLANs suggest.""",
)
def client_mtu_raised(estate: Estate, cfg: Config) -> Iterator[Finding]:
    bridged, seen = _bridged_vlans(estate)
    for host in estate.hosts.values():
        if host.is_vios:
            continue
        for en in interface_names(host):
            ent = host.devices.get("ent" + en[2:])
            if ent is None or ent.cls != "virtual":
                continue
            mtu, ev = _mtu(host, en)
            if mtu is None or mtu <= MTU_DEFAULT:
                continue
            pvid = getattr(ent.stats, "port_vlan_id", None) if ent.stats is not None else None
            bypass = host.devices[en].attr("mtu_bypass") if en in host.devices else None
            ev += ent.stat_ev("port_vlan_id") + (host.devices[en].attr_ev("mtu_bypass") if en in host.devices else [])
            if pvid is not None and pvid in bridged:
                case = (f"VLAN {pvid} is bridged by an SEA, so this traffic leaves the frame: 001 keeps the client "
                        f"MTU at {MTU_DEFAULT} and uses mtu_bypass (largesend); jumbo frames are set on the physical side.")
                fix = Commands(root=[chdev_root(en, {"mtu": MTU_DEFAULT}), chdev_root(en, {"mtu_bypass": "on"})],
                               changes=_en_changes(host, en, {"mtu": MTU_DEFAULT, "mtu_bypass": "on"}, {"mtu": mtu, "mtu_bypass": bypass}))
                back = Commands(root=[chdev_root(en, {"mtu": mtu})] + ([chdev_root(en, {"mtu_bypass": bypass})] if bypass else []))
            elif pvid is not None and seen:
                case = (f"no collected SEA bridges VLAN {pvid}: this looks like the internal partition-to-partition VLAN "
                        f"of 000 §3.7.10, where a large MTU (up to 65390) is the documented tuning; every partition on "
                        f"the VLAN must use the same MTU.")
                fix = Commands(root=[f"netstat -in | grep {en}   # compare the MTU on every partition of VLAN {pvid}"])
                back = Commands()
            else:
                case = ("which case applies depends on the VLAN: if an SEA bridges it, 001 keeps the client MTU at "
                        f"{MTU_DEFAULT} with mtu_bypass on; if it is internal to the frame, 000 §3.7.10 raises it to 65390.")
                fix = Commands(root=[f"entstat -d ent{en[2:]} | grep 'Port VLAN ID'   # then, if an SEA bridges that VLAN:",
                                     chdev_root(en, {"mtu": MTU_DEFAULT}), chdev_root(en, {"mtu_bypass": "on"})],
                               changes=_en_changes(host, en, {"mtu": MTU_DEFAULT, "mtu_bypass": "on"}, {"mtu": mtu, "mtu_bypass": bypass}))
                back = Commands(root=[chdev_root(en, {"mtu": mtu})] + ([chdev_root(en, {"mtu_bypass": bypass})] if bypass else []))
            yield finding(client_mtu_raised, host, en,
                          f"{en} on {host.name} (virtual adapter ent{en[2:]}) has MTU {mtu}"
                          + (f", mtu_bypass={bypass}" if bypass else "") + f". {case}",
                          evidence=ev, fix=fix, rollback=back,
                          values={"current": f"mtu={mtu}", "suggested": f"mtu={MTU_DEFAULT} + mtu_bypass=on"
                                  if fix.root and fix.root[-1].endswith("mtu_bypass=on") else f"mtu={mtu} (internal VLAN)"})
