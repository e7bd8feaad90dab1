"""Clients served by one VIOS and VIOS pairs whose ioslevels differ (000 §3.5.3; rules-catalogue
VIOS-01, VIOS-02).

A *pair* here is two VIOS of the same frame whose ``lsmap`` outputs name at least one
common client partition ID (``model/vios_pairs.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ...model.estate import Estate, Evidence, Host
from ...model.frame import frame_of_host
from ...model.frame_join import host_facts, same_serial
from ...model.vios_pairs import Client, frame_of, lsmap_pairs
from ...model.vios_pairs import same_frame as _same_frame
from ..changes import MS, chdev_padmin, hmc_word
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from ..frame.hmc import ms
from .level import level_tuple

__all__ = ["Client", "frame_of"]  # read by other rule modules from here as before


def mapping_evidence(m: Any) -> Evidence | None:
    return getattr(m, "_evidence", None)


def virtual_optical(m: Any) -> bool:
    """A vSCSI mapping of install media, not of a disk: a virtual optical device (``mkvdev -fbo`` names
    it vtoptN) over a media-library file or a physical CD/DVD drive. A client does not stop when it
    loses one, so it is not storage to make redundant."""
    backing = getattr(m, "backing_device", None) or ""
    return (m.vtd or "").startswith("vtopt") or "/VMLibrary/" in backing or backing.startswith("cd")


def _physical_volume(device: str | None) -> bool:
    """A backing device that is a disk (hdiskN, a multipath driver's disk), which a second VIOS can map
    too; a logical volume or a file is held by one VIOS."""
    return bool(device) and re.match(r"^(?:hdisk|hdiskpower|vpath|dlmfdrv|sddlmfdrv)\d+$", device or "") is not None


def served(host: Host) -> dict[str, dict[Client, list[Any]]]:
    """Clients this VIOS really serves, per protocol: vSCSI with a target device, NPIV mapped to a port."""
    out: dict[str, dict[Client, list[Any]]] = {"vSCSI": {}, "NPIV": {}}
    for m in host.vscsi_mappings:
        if m.vtd and m.client_id and not virtual_optical(m):
            out["vSCSI"].setdefault((frame_of(m.physloc), m.client_id), []).append(m)
    for m in host.npiv_mappings:
        if m.fc_name and m.client_id:
            out["NPIV"].setdefault((frame_of(m.physloc), m.client_id), []).append(m)
    return out


def _hmc_names(estate: Estate, vios: Host, ids: list[int]) -> tuple[str, str, str, str]:
    """The names the HMC commands of a fix can carry from the data: the managed system (its ``-m``
    word) and the one other VIOS of ``vios``'s frame, the client partition and its id when there is
    one client (else placeholders: the commands are repeated per client)."""
    joined = frame_of_host(estate, vios.name)
    ms_name, second = MS, "<second-vios>"
    if joined is not None:
        fr, me = joined
        ms_name = ms(fr)
        others = sorted(p.name for p in fr.partitions.values() if p.is_vios and p.name != me.name)
        if len(others) == 1:
            second = others[0]  # raw: it also stands inside -a "...remote_lpar_name=..."
    one = len(ids) == 1
    client = "<client>"
    if one and joined is not None and (p := joined[0].by_id(ids[0])) is not None:
        client = hmc_word(p.name)
    return ms_name, second, client, str(ids[0]) if one else "<client id>"


def hmc_sole_clients(estate: Estate, vios: Host) -> dict[str, dict[int, str]]:
    """Per protocol ("vSCSI", "NPIV"), the running client partitions of ``vios``'s frame whose client
    adapters of that protocol, as the HMC lists them, all lead to ``vios`` (id -> name), when the
    client owns no physical I/O slot (an FC adapter of its own): what the HMC shows whatever lsmap
    outputs were collected."""
    out: dict[str, dict[int, str]] = {"vSCSI": {}, "NPIV": {}}
    joined = frame_of_host(estate, vios.name)
    if joined is None:
        return out
    fr, me = joined
    for p in fr.partitions.values():
        if p.is_vios or p.id is None or not p.running_now or p.io_slots:
            continue
        for proto, slots in (("vSCSI", p.vscsi), ("NPIV", p.vfc)):
            mine = [a for a in slots if a.adapter_type == "client"]
            if mine and all(a.remote_id == me.id if a.remote_id is not None else a.remote_name == me.name
                            for a in mine):
                out[proto][p.id] = p.label
    return out


def sole_clients(estate: Estate) -> dict[str, list[str]]:
    """Per VIOS, the client partitions (named where the data names them, else by id) whose storage of a
    protocol only it serves, where another VIOS's lsmap output of that protocol and frame is in the data
    (without it the partner may simply not have been collected): a reboot of that VIOS stops them. Made
    once for the estate: each VIOS's mappings are read once, not once per VIOS asked about."""
    per = {h.name: served(h) for h in estate.vios}
    frames_by: dict[str, dict[str, set[Any]]] = {  # VIOS -> protocol -> frames its lsmap output covers
        h.name: {"vSCSI": {frame_of(m.physloc) for m in h.vscsi_mappings},
                 "NPIV": {frame_of(m.physloc) for m in h.npiv_mappings}} for h in estate.vios}
    out: dict[str, list[str]] = {}
    for vios in estate.vios:
        alone: set[str] = set()
        for proto, clients in per[vios.name].items():
            others = [c for name, by in per.items() if name != vios.name for c in by[proto]]
            # the frames another VIOS's lsmap output of this protocol covers (its adapters, mapped or not)
            frames_seen = {f for name, by in frames_by.items() if name != vios.name for f in by[proto]}
            for c, maps in clients.items():
                if not (None in frames_seen or c[0] is None or c[0] in frames_seen):
                    continue  # no other VIOS of this frame in the data for this protocol
                if proto == "NPIV" and len(maps) > 1:
                    continue
                if any(_same_frame(c, oc) and oc[1] == c[1] for oc in others):
                    continue
                label = client_names(estate, vios, [c], maps).get(c[1])
                alone.add(f"{c[1]} ({label})" if label else str(c[1]))
        # the HMC's adapter listing shows it whether or not the partner's lsmap output was collected
        said = {a.split(" ", 1)[0] for a in alone}
        for clients in hmc_sole_clients(estate, vios).values():
            alone.update(f"{cid} ({label})" for cid, label in clients.items() if str(cid) not in said)
        if alone:
            out[vios.name] = sorted(alone)
    return out


def client_names(estate: Estate, vios: Host, clients: list[Client], maps: list[Any]) -> dict[int, str]:
    """Names for client partition ids: lsmap's own client name, else the host joined (on evidence) to
    that id's partition of the VIOS's frame, else the one host whose frame serial and partition number
    are the client's. Never a partition number alone: the same number names a partition on every frame."""
    names = {m.client_id: m.client_name for m in maps if getattr(m, "client_name", None)}
    joined = frame_of_host(estate, vios.name)
    for frame, cid in clients:
        if cid in names:
            continue
        p = joined[0].by_id(cid) if joined is not None else None
        if p is not None and p.host:
            names[cid] = p.host
            continue
        serial = frame.rsplit(".", 1)[-1] if frame else None
        hits = [h.name for h in estate.hosts.values() if not h.is_vios and serial
                and host_facts(h).number == cid and same_serial(host_facts(h).serial, serial)]
        if len(hits) == 1:
            names[cid] = hits[0]
    return names


@rule(
    id="VIOS-SINGLE-SERVER",
    title="Client partitions whose vSCSI or NPIV storage comes through one VIOS only",
    severity="warning",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.3; rules-catalogue VIOS-01",
    rationale="""Redundant VIOS pairs let one VIOS be shut down for maintenance, or fail, while the other
    keeps the clients' I/O flowing. A client partition whose disks reach it through a single VIOS stops
    when that VIOS does. (A client with several virtual FC adapters all on one VIOS is reported per
    client by STO-NPIV-NO-REDUNDANCY.) Checked per protocol (vSCSI target devices, NPIV mappings to a port) and per
    frame (from the adapter location codes). When no other VIOS's lsmap output for that protocol is in
    the data for the same frame, the finding is only informational (the partner may simply not have been
    collected), unless the HMC's adapter listing shows every client adapter of those clients leading to
    this VIOS. A restart of this VIOS in the plan says first that it stops them.""",
    scope="estate",
)
def single_server(estate: Estate, cfg: Config) -> Iterator[Finding]:
    vios = sorted(estate.vios, key=lambda h: h.name)
    per = {h.name: served(h) for h in vios}
    by_id: dict[str, dict[Any, list[tuple[str, Client]]]] = {"vSCSI": {}, "NPIV": {}}  # client id -> (VIOS, client)
    for h in vios:
        for proto, clients in per[h.name].items():
            for c in clients:
                by_id[proto].setdefault(c[1], []).append((h.name, c))
    # per protocol, the frames (from the adapter location codes) of each VIOS whose lsmap output is in the data
    mapping = {"vSCSI": {h.name: {frame_of(m.physloc) for m in h.vscsi_mappings} for h in vios if h.vscsi_mappings},
               "NPIV": {h.name: {frame_of(m.physloc) for m in h.npiv_mappings} for h in vios if h.npiv_mappings}}
    for h in vios:
        for proto, clients in per[h.name].items():
            alone = {c: ms for c, ms in clients.items()
                     if not any(name != h.name and _same_frame(c, oc) for name, oc in by_id[proto].get(c[1], ()))
                     and not (proto == "NPIV" and len(ms) > 1)}  # several adapters: STO-NPIV-NO-REDUNDANCY, per client
            if not alone:
                continue
            ids = sorted({c[1] for c in alone})
            maps = [m for ms in alone.values() for m in ms]
            names = client_names(estate, h, sorted(alone, key=lambda c: (c[0] or '', c[1])), maps)
            who = ", ".join(f"{i} ({names[i]})" if i in names else str(i) for i in ids)
            # another VIOS's lsmap output of this protocol is in the data, for the same frame (a frame not
            # told by the location codes may be any)
            mine = {c[0] for c in alone}
            known = any(n != h.name and (None in mine or None in frames or bool(mine & frames))
                        for n, frames in mapping[proto].items())
            note = ("" if known else f" No other VIOS's lsmap{' -npiv' if proto == 'NPIV' else ''} output of its frame is in the data: "
                    "add the partner VIOS's output to confirm.")
            if not known and set(ids) <= set(hmc_sole_clients(estate, h)[proto]):
                known = True  # the HMC lists every client adapter of theirs leading to this VIOS
                note = (f" The HMC's adapter listing shows every {'vFC' if proto == 'NPIV' else 'vSCSI'} client adapter "
                        f"of theirs leading to {h.name}.")
            ms_name, second, client, client_id = _hmc_names(estate, h, ids)
            if proto == "vSCSI":
                local = sorted({m.vtd: getattr(m, "backing_device", None) for m in maps
                                if not _physical_volume(getattr(m, "backing_device", None))}.items())
                shared = [  # a LUN both VIOS see: mapped from the second one too, reserve released on both
                    "# on the second VIOS of the frame, for each client listed (the disk's name there may differ):",
                    chdev_padmin("<hdisk>", {"reserve_policy": "no_reserve"}) + "   # before mapping",
                    "mkvdev -vdev <hdisk> -vadapter <vhost> -dev <vtd name>",
                    f"# on {h.name} the same disks need reserve_policy=no_reserve too (VIOS-BACKING-RESERVE: "
                    "in use, the change takes -perm and a restart of the VIOS)"]
                own = [  # no disk backs these mappings: a disk of the second VIOS's own, mirrored in the client
                    "# on the second VIOS of the frame, for each client listed: a disk (LUN) of its own, mapped",
                    "mkvdev -vdev <hdisk> -vadapter <vhost> -dev <vtd name>"]
                fix = Commands(
                    padmin=(shared if any(_physical_volume(getattr(m, "backing_device", None)) for m in maps) else own)
                    + [f"# {vtd} is backed by {dev or 'a logical volume or file'}, which only {h.name} can hold: give the "
                       "client a disk from the second VIOS and mirror onto it in the client (extendvg, mirrorvg), or "
                       "move the data to a LUN both VIOS see" for vtd, dev in local],
                    hmc=[f'chhwres -r virtualio --rsubtype scsi -m {ms_name} -o a -p {hmc_word(second)} -s <slot> '
                         f'-a "adapter_type=server,remote_lpar_id={client_id},remote_slot_num=<client slot>"',
                         f'chhwres -r virtualio --rsubtype scsi -m {ms_name} -o a -p {client} -s <client slot> '
                         f'-a "adapter_type=client,remote_lpar_name={second},remote_slot_num=<slot>"',
                         "# then run cfgmgr on the client and check two Enabled paths per disk with lspath"])
                undo = Commands(padmin=["rmvdev -vtd <vtd name>"],
                                hmc=[f"chhwres -r virtualio --rsubtype scsi -m {ms_name} -o r -p {client} -s <client slot>",
                                     f"chhwres -r virtualio --rsubtype scsi -m {ms_name} -o r -p {hmc_word(second)} -s <slot>"])
            else:
                fix = Commands(
                    padmin=["# on the second VIOS of the frame, for each client listed:", "lsnports",
                            "vfcmap -vadapter <vfchost> -fcp <fcs port on the other fabric>"],
                    hmc=[f'chhwres -r virtualio --rsubtype fc -m {ms_name} -o a -p {hmc_word(second)} -s <slot> '
                         f'-a "adapter_type=server,remote_lpar_id={client_id},remote_slot_num=<client slot>"',
                         f'chhwres -r virtualio --rsubtype fc -m {ms_name} -o a -p {client} -s <client slot> '
                         f'-a "adapter_type=client,remote_lpar_name={second},remote_slot_num=<slot>"',
                         "# zone and mask both WWPNs of the new client adapter, then cfgmgr on the client"])
                undo = Commands(padmin=["vfcmap -vadapter <vfchost> -fcp   # no port name: unmaps"],
                                hmc=[f"chhwres -r virtualio --rsubtype fc -m {ms_name} -o r -p {client} -s <client slot>",
                                     f"chhwres -r virtualio --rsubtype fc -m {ms_name} -o r -p {hmc_word(second)} -s <slot>"])
            yield finding(single_server, h, f"{proto} clients {', '.join(map(str, ids))}",
                          f"{h.name} is the only VIOS serving {proto} storage to client partition(s) {who}.{note}",
                          evidence=[mapping_evidence(m) for m in maps[:6]], fix=fix, rollback=undo, disruption=["dlpar"],
                          severity=None if known else "info",
                          values={"current": f"{proto} through 1 VIOS", "suggested": "2 VIOS (redundant pair)"})


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
    for a, b, common in lsmap_pairs(estate):
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
