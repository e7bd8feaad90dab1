"""VIOS redundancy and pairing rules: clients served by one VIOS, ioslevel within a pair,
dedicated VIOS processors, rootvg disks exported to clients, reserve_policy of backing disks.

Sources: 000 §3.5.1 (Table 3-9), §3.5.3, §3.5.4 (Example 3-23), §3.6.1 step 3;
rules-catalogue VIOS-01, VIOS-02, VIOS-06, VIOS-08, VIOS-09, STO-12.

A *pair* here is two VIOS of the same frame whose ``lsmap`` outputs name at least one
common client partition ID (the frame is read from the server adapter's physical
location code ``U<type>.<model>.<serial>-V<n>-C<slot>``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..model.estate import Estate, Evidence, Host
from .config import Config
from .engine import Commands, Finding, finding, rule
from .processor import MS, PROFILE

_FRAME = re.compile(r"^U(?P<frame>[^-\s]+)-V\d+")
_RESERVING = {"single_path", "PR_exclusive"}
# ioslevel ranges affected by APAR IV94438 (rules-catalogue VIOS-06)
_IV94438 = (((2, 2, 4, 0), (2, 2, 4, 40)), ((2, 2, 5, 0), (2, 2, 5, 20)))

Client = tuple[str | None, int]  # (frame, client partition id)


def frame_of(physloc: str | None) -> str | None:
    """Machine type.model.serial from a virtual adapter location code, or None."""
    m = _FRAME.match(physloc or "")
    return m.group("frame") if m else None


def level_tuple(level: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", str(level))[:4])


def _mev(m: Any) -> Evidence | None:
    return getattr(m, "_evidence", None)


def served(host: Host) -> dict[str, dict[Client, list[Any]]]:
    """Clients this VIOS really serves, per protocol: vSCSI with a target device, NPIV mapped to a port."""
    out: dict[str, dict[Client, list[Any]]] = {"vSCSI": {}, "NPIV": {}}
    for m in host.vscsi_mappings:
        if m.vtd and m.client_id:
            out["vSCSI"].setdefault((frame_of(m.physloc), m.client_id), []).append(m)
    for m in host.npiv_mappings:
        if m.fc_name and m.client_id:
            out["NPIV"].setdefault((frame_of(m.physloc), m.client_id), []).append(m)
    return out


def adapters(host: Host) -> set[Client]:
    """Every client a server adapter of this VIOS points at, mapped or not."""
    return {(frame_of(m.physloc), m.client_id) for m in [*host.vscsi_mappings, *host.npiv_mappings] if m.client_id}


def _same_frame(a: Client, b: Client) -> bool:
    return a[1] == b[1] and (a[0] == b[0] or a[0] is None or b[0] is None)


def pairs(estate: Estate) -> list[tuple[Host, Host, list[Client]]]:
    """VIOS pairs: two VIOS whose server adapters name a common client partition."""
    vios = sorted(estate.vios, key=lambda h: h.name)
    out = []
    for i, a in enumerate(vios):
        ca = adapters(a)
        for b in vios[i + 1:]:
            common = sorted({x for x in ca for y in adapters(b) if _same_frame(x, y)}, key=lambda c: (c[0] or "", c[1]))
            if common:
                out.append((a, b, common))
    return out


def _client_names(estate: Estate, frame: str | None, ids: list[int], maps: list[Any]) -> dict[int, str]:
    names = {m.client_id: m.client_name for m in maps if getattr(m, "client_name", None)}
    for h in estate.hosts.values():
        if h.partition and h.partition.number in ids and h.partition.number not in names and not h.is_vios:
            names[h.partition.number] = h.name
    return names


@rule(
    id="VIOS-SINGLE-SERVER",
    title="Client partitions whose vSCSI or NPIV storage comes through one VIOS only",
    severity="warning",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.3; rules-catalogue VIOS-01",
    rationale="""Redundant VIOS pairs let one VIOS be shut down for maintenance, or fail, while the other
    keeps the clients' I/O flowing. A client partition whose disks reach it through a single VIOS stops
    when that VIOS does. Checked per protocol (vSCSI target devices, NPIV mappings to a port) and per
    frame (from the adapter location codes). When no other VIOS's lsmap output for that protocol is in
    the data the finding is only informational: the partner may simply not have been collected.""",
    scope="estate",
)
def single_server(estate: Estate, cfg: Config) -> Iterator[Finding]:
    vios = sorted(estate.vios, key=lambda h: h.name)
    per = {h.name: served(h) for h in vios}
    for h in vios:
        for proto, clients in per[h.name].items():
            others = [o for o in vios if o is not h and (o.vscsi_mappings if proto == "vSCSI" else o.npiv_mappings)]
            alone = {c: ms for c, ms in clients.items()
                     if not any(_same_frame(c, oc) for o in others for oc in per[o.name][proto])}
            if not alone:
                continue
            ids = sorted({c[1] for c in alone})
            maps = [m for ms in alone.values() for m in ms]
            names = _client_names(estate, None, ids, maps)
            who = ", ".join(f"{i} ({names[i]})" if i in names else str(i) for i in ids)
            known = bool(others)
            note = ("" if known else f" No other VIOS's lsmap{' -npiv' if proto == 'NPIV' else ''} output is in the data: "
                    "add the partner VIOS's output to confirm.")
            if proto == "vSCSI":
                fix = Commands(
                    padmin=["# on the second VIOS of the frame, for each client listed:",
                            "chdev -dev <hdisk> -attr reserve_policy=no_reserve   # on both VIOS, before mapping",
                            "mkvdev -vdev <hdisk> -vadapter <vhost> -dev <vtd name>"],
                    hmc=[f'chhwres -r virtualio --rsubtype scsi -m {MS} -o a -p <second-vios> -s <slot> '
                         f'-a "adapter_type=server,remote_lpar_id=<client id>,remote_slot_num=<client slot>"',
                         f'chhwres -r virtualio --rsubtype scsi -m {MS} -o a -p <client> -s <client slot> '
                         f'-a "adapter_type=client,remote_lpar_name=<second-vios>,remote_slot_num=<slot>"',
                         "# then run cfgmgr on the client and check two Enabled paths per disk with lspath"])
                undo = Commands(padmin=["rmvdev -vtd <vtd name>"],
                                hmc=[f"chhwres -r virtualio --rsubtype scsi -m {MS} -o r -p <client> -s <client slot>",
                                     f"chhwres -r virtualio --rsubtype scsi -m {MS} -o r -p <second-vios> -s <slot>"])
            else:
                fix = Commands(
                    padmin=["# on the second VIOS of the frame, for each client listed:", "lsnports",
                            "vfcmap -vadapter <vfchost> -fcp <fcs port on the other fabric>"],
                    hmc=[f'chhwres -r virtualio --rsubtype fc -m {MS} -o a -p <second-vios> -s <slot> '
                         f'-a "adapter_type=server,remote_lpar_id=<client id>,remote_slot_num=<client slot>"',
                         f'chhwres -r virtualio --rsubtype fc -m {MS} -o a -p <client> -s <client slot> '
                         f'-a "adapter_type=client,remote_lpar_name=<second-vios>,remote_slot_num=<slot>"',
                         "# zone and mask both WWPNs of the new client adapter, then cfgmgr on the client"])
                undo = Commands(padmin=["vfcmap -vadapter <vfchost> -fcp   # no port name: unmaps"],
                                hmc=[f"chhwres -r virtualio --rsubtype fc -m {MS} -o r -p <client> -s <client slot>",
                                     f"chhwres -r virtualio --rsubtype fc -m {MS} -o r -p <second-vios> -s <slot>"])
            yield finding(single_server, h, f"{proto} clients {', '.join(map(str, ids))}",
                          f"{h.name} is the only VIOS serving {proto} storage to client partition(s) {who}.{note}",
                          evidence=[_mev(m) for m in maps[:6]], fix=fix, rollback=undo, disruption=["dlpar"],
                          severity=None if known else "info",
                          values={"current": f"{proto} through 1 VIOS", "suggested": "2 VIOS (redundant pair)"})


@rule(
    id="VIOS-IOSLEVEL",
    title="VIOS software level (ioslevel)",
    severity="info",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.4 (Example 3-23)",
    rationale="""The VIOS code receives fixes and enhancements regularly; its level should be checked and kept
    current. This is a summary line per VIOS so the levels of the estate can be compared with the
    level IBM's Fix Level Recommendation Tool gives for the hardware.""",
)
def ioslevel(host: Host, cfg: Config) -> Iterator[Finding]:
    lv = host.levels.get("ioslevel")
    if not host.is_vios or lv is None:
        return
    t = level_tuple(lv.value)
    note = ""
    if any(lo <= t <= hi for lo, hi in _IV94438):
        note = (" This level is in a range affected by APAR IV94438 (rules deployed before the update can set "
                "backing disks to reserve_policy=single_path): check the backing disks.")
    fix = Commands(padmin=["ioslevel", "# compare with the recommendation of IBM FLRT for this VIOS and its partner",
                           "updateios -commit", "updateios -accept -install -dev <directory with the update>",
                           "shutdown -restart   # one VIOS of a pair at a time"])
    undo = Commands(padmin=["updateios -reject   # removes an applied update that was not committed"])
    yield finding(ioslevel, host, "ioslevel", f"{host.name} runs VIOS {lv.value}.{note}", evidence=[lv.evidence],
                  fix=fix, rollback=undo, disruption=["reboot"], values={"current": lv.value, "suggested": "FLRT level"})


@rule(
    id="VIOS-PAIR-IOSLEVEL-DIFFERS",
    title="The two VIOS of a pair run different ioslevels",
    severity="info",
    category="vios",
    source="rules-catalogue VIOS-09 (K); 000_31a80e54567cd02b.txt §3.5.3, §3.5.4",
    rationale="""A pair of VIOS serving the same clients should run the same level, updated one at a time so
    that the clients keep a path through the partner. A pair is two VIOS whose lsmap outputs name a
    common client partition ID on the same frame. The same-level practice is domain knowledge (catalogue
    confidence K), so this is advisory.""",
    scope="estate",
)
def pair_ioslevel(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for a, b, common in pairs(estate):
        la, lb = a.levels.get("ioslevel"), b.levels.get("ioslevel")
        if la is None or lb is None or level_tuple(la.value) == level_tuple(lb.value):
            continue
        low, high = (a, b) if level_tuple(la.value) < level_tuple(lb.value) else (b, a)
        lo, hi = low.levels["ioslevel"], high.levels["ioslevel"]
        ids = ", ".join(str(c[1]) for c in common)
        fix = Commands(padmin=[f"# on {low.name}, after checking every client has an Enabled path through {high.name} (lspath):",
                               "updateios -commit", f"updateios -accept -install -dev <directory with the {hi.value} update>",
                               "shutdown -restart", "ioslevel"])
        undo = Commands(padmin=[f"updateios -reject   # on {low.name}, before the update is committed"])
        yield finding(pair_ioslevel, low, f"pair {a.name}/{b.name}",
                      f"{low.name} runs ioslevel {lo.value} while its partner {high.name} runs {hi.value} "
                      f"(common client IDs: {ids}).",
                      evidence=[lo.evidence, hi.evidence], fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": f"{lo.value} / {hi.value}", "suggested": f"{hi.value} on both"})


@rule(
    id="VIOS-DEDICATED-PROCESSORS",
    title="VIOS uses dedicated processors",
    severity="info",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.1 (Table 3-9, processing mode); rules-catalogue VIOS-02",
    rationale="""Table 3-9 suggests shared processors for a VIOS in most cases, so that it can take spare pool
    capacity at I/O peaks (uncapped, high weight). A dedicated VIOS is acceptable only when it donates
    its idle cycles; one that keeps them idle is reported as a warning.""",
)
def vios_dedicated(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if not host.is_vios or p is None or not p.dedicated:
        return
    donating = bool(p.mode and p.mode.lower() == "donating")
    n = p.online_vps or 1
    fix = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},proc_mode=shared,'
                        f'sharing_mode=uncap,uncap_weight=255,min_proc_units=0.5,desired_proc_units={n}.0,'
                        f'max_proc_units={n + 1}.0,min_procs=1,desired_procs={n + 1},max_procs={n + 2}"',
                        "# takes effect when the VIOS is activated from the profile; restart one VIOS of a pair at a time"])
    undo = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},proc_mode=ded,'
                         f'sharing_mode={"share_idle_procs" if donating else "keep_idle_procs"},min_procs=1,desired_procs={n},max_procs={n}"'])
    yield finding(vios_dedicated, host, "partition",
                  f"VIOS {host.name} runs on {n} dedicated processor(s), mode {p.mode or 'unknown'}.",
                  evidence=p.ev("type", "mode", "online_vps"), fix=fix, rollback=undo, disruption=["restart-needed"],
                  severity=None if donating else "warning",
                  values={"current": f"dedicated ({p.mode or '?'})", "suggested": "shared uncapped, weight 255"})


def _lspv(host: Host) -> dict[str, Any]:
    return {s.record.name: s for s in host.of_kind("lspv", "PhysicalVolume")}


@rule(
    id="VIOS-ROOTVG-EXPORTED",
    title="A VIOS rootvg disk is exported to a client",
    severity="warning",
    category="vios",
    source="rules-catalogue VIOS-08",
    rationale="""The VIOS is an appliance: client backing devices should not live in its rootvg, where they are
    lost or put at risk on a VIOS reinstall or rootvg restore and compete with the VIOS's own I/O. The
    check reads the backing devices of lsmap -all against the volume group column of lspv. Logical
    volumes used as backing devices need lsvg -lv rootvg, which is not read yet.""",
)
def rootvg_exported(host: Host, cfg: Config) -> Iterator[Finding]:
    if not host.is_vios:
        return
    pvs = _lspv(host)
    for m in host.vscsi_mappings:
        pv = pvs.get(m.backing_device or "")
        if pv is None or (pv.record.vg or "") != "rootvg":
            continue
        fix = Commands(padmin=["# copy the client's data to a LUN outside rootvg (on the client: migratepv / mirrorvg), then:",
                               f"rmvdev -vtd {m.vtd}", f"mkvdev -vdev <new hdisk> -vadapter {m.vhost} -dev {m.vtd}"])
        undo = Commands(padmin=[f"rmvdev -vtd {m.vtd}", f"mkvdev -vdev {m.backing_device} -vadapter {m.vhost} -dev {m.vtd}"])
        yield finding(rootvg_exported, host, f"{m.backing_device} ({m.vtd})",
                      f"{m.backing_device} in rootvg of {host.name} backs {m.vtd} on {m.vhost} (client {m.client_id}).",
                      evidence=[_mev(m), pv.ev("vg")], fix=fix, rollback=undo,
                      values={"current": "rootvg", "suggested": "a disk outside rootvg"})


@rule(
    id="VIOS-BACKING-RESERVE-POLICY",
    title="A disk mapped to a client keeps a SCSI reserve (reserve_policy not no_reserve)",
    severity="warning",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.6.1 step 3; rules-catalogue STO-12, VIOS-06",
    rationale="""A LUN given to clients through a VIOS is meant to be reachable from both VIOS of the pair (and
    from the destination during Live Partition Mobility). A single_path or PR_exclusive reserve lets
    only one VIOS open it, so the client's second path, and LPM, fail. Set no_reserve on every VIOS
    before mapping. APAR IV94438: some 2.2.4/2.2.5 updates reset the policy to single_path.""",
)
def backing_reserve(host: Host, cfg: Config) -> Iterator[Finding]:
    if not host.is_vios:
        return
    lv = host.levels.get("ioslevel")
    apar = lv is not None and any(lo <= level_tuple(lv.value) <= hi for lo, hi in _IV94438)
    seen: set[str] = set()
    for m in host.vscsi_mappings:
        disk = m.backing_device
        dev = host.devices.get(disk or "")
        policy = dev.attr("reserve_policy") if dev else None
        if disk is None or dev is None or policy not in _RESERVING or disk in seen:
            continue
        seen.add(disk)
        fix = Commands(padmin=[f"chdev -dev {disk} -attr reserve_policy=no_reserve -perm",
                               "# the disk is open through its VTD: the change applies at the next restart of this VIOS",
                               "# (restart it while the partner VIOS serves the clients)"],
                       root=[f"chdev -l {disk} -a reserve_policy=no_reserve -P"])
        undo = Commands(padmin=[f"chdev -dev {disk} -attr reserve_policy={policy} -perm"],
                        root=[f"chdev -l {disk} -a reserve_policy={policy} -P"])
        extra = " Its ioslevel is in the APAR IV94438 range." if apar else ""
        yield finding(backing_reserve, host, disk,
                      f"{disk} on {host.name} backs {m.vtd} for client {m.client_id} with reserve_policy={policy}.{extra}",
                      evidence=[_mev(m), *dev.attr_ev("reserve_policy")] + ([lv.evidence] if apar and lv else []),
                      fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": policy, "suggested": "no_reserve"})
