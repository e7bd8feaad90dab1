"""Frame-wide storage rules over the joined client <-> VIOS view: a vSCSI client disk's queue_depth /
max_transfer against its backing device on the VIOS, an NPIV client adapter's num_cmd_elems /
max_xfer_size against the VIOS port it is mapped to, and NPIV clients per physical port from the
HMC's vFC data (000 §3.6.1 step 5, §3.6.3; rules-catalogue S8, SZ-10).

The join. vSCSI: the VIOS's ``lsmap -all`` lists, per client partition id, the backing devices;
the client is the host joined to that partition number on the frame. When the client's
``lspath`` gives the connection (LUN id) of its disk, only the backing device with that LUN is
compared; otherwise the client disk is compared only when every backing device mapped to that
client agrees on the value (then whichever LUN it is, the values differ). NPIV: ``lsmap -all -npiv``
gives the client's adapter name (``VFC client name: fcs0``) and the physical port (``FC name``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ...model.estate import Device, Estate, Host
from ...model.frame import Frame, FramePartition
from ..changes import device_change, propose
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .hmc import S000, frames

NPIV_MAX_CLIENTS = "npiv_clients_per_port_max"  # declared in rules/storage/npiv.py (64, 000 §3.6.3)


def _num(v: str | None) -> int | None:
    if v is None:
        return None
    try:
        return int(v.strip(), 0)
    except ValueError:
        return None


def _is_vscsi_disk(d: Device) -> bool:
    return d.cls == "disk" and ("Virtual SCSI Disk" in d.description or (d.attr("PCM") or "").endswith("/vscsi"))


def _client_of(estate: Estate, fr: Frame, client_id: int) -> tuple[FramePartition, Host] | None:
    p = fr.by_id(client_id)
    h = estate.hosts.get(p.host or "") if p is not None else None
    return (p, h) if p is not None and h is not None else None


def _lun_key(text: str | None) -> str | None:
    """"0x8100000000000000" / "810000000000" -> "81" (the significant digits of a vSCSI LUN id)."""
    if not text:
        return None
    t = text.lower().removeprefix("0x").rstrip("0")
    return t or "0"


def _client_luns(h: Host) -> dict[str, str]:
    """Client disk -> LUN key, from lspath connections (``810000000000``)."""
    out = {}
    for s in h.of_kind("lspath"):
        r = s.record
        conn = getattr(r, "connection", None)
        disk = getattr(r, "disk", None)
        if disk and conn and re.fullmatch(r"[0-9a-fA-Fx,]+", conn):
            out[disk] = _lun_key(conn.split(",")[0]) or ""
    return out


@rule(
    id="FRAME-VSCSI-CLIENT-VS-BACKING",
    title="vSCSI client disk queue_depth / max_transfer differ from the backing device on the VIOS",
    severity="warning",
    category="storage",
    source=f"{S000} §3.6.1 step 5, §3.6.2",
    rationale="""With vSCSI, disk tuning is needed on both sides: apply on the client disk the same queue_depth
    and max_transfer as on the VIOS backing device (000 §3.6.1 step 5); a tunable set on the VIOS and not in
    AIX costs a significant penalty. A client value above the backing device's overruns what the VIOS disk
    accepts (warning); a client value below it leaves the VIOS's capacity unused (info). A client disk left
    at the vSCSI default queue_depth of 3 is reported by STO-VSCSI-QDEPTH-DEFAULT and not again here.""",
    scope="estate",
)
def frame_vscsi_client_vs_backing(estate: Estate, cfg: Config) -> Iterator[Finding]:
    default_qd = cfg.t("vscsi_default_queue_depth")
    for fr in frames(estate):
        for v in fr.vios:
            vh = estate.hosts.get(v.host or "")
            if vh is None:
                continue
            by_client: dict[int, list[Any]] = {}
            for m in vh.vscsi_mappings:
                if m.client_id and m.vtd and m.backing_device in vh.devices:
                    by_client.setdefault(m.client_id, []).append(m)
            for cid, maps in sorted(by_client.items()):
                joined = _client_of(estate, fr, cid)
                if joined is None:
                    continue
                cp, ch = joined
                luns = _client_luns(ch)
                for disk in sorted((d for d in ch.devices.values() if _is_vscsi_disk(d)), key=lambda d: d.name):
                    cand = maps
                    key = luns.get(disk.name)
                    if key:
                        cand = [m for m in maps if _lun_key(m.lun) == key] or maps
                    for attr in ("queue_depth", "max_transfer"):
                        mine = _num(disk.attr(attr))
                        theirs = {_num(vh.devices[m.backing_device].attr(attr)) for m in cand}
                        if mine is None or None in theirs or len(theirs) != 1:
                            continue
                        back = theirs.pop()
                        if back is None or mine == back or (attr == "queue_depth" and mine == default_qd):
                            continue
                        bdevs = sorted({m.backing_device for m in cand})
                        shown = hex(back) if attr == "max_transfer" else str(back)
                        now = disk.attr(attr)
                        fix, undo = _on_client(ch, disk.name, attr, now, shown, "; applies at the next reboot")
                        fix.root.append("# or, with the disk's volume group varied off: chdev without -P")
                        yield finding(frame_vscsi_client_vs_backing, ch, f"{disk.name} {attr}",
                                      f"{ch.name} {disk.name} has {attr}={now}; its backing device "
                                      f"{'/'.join(bdevs)} on {vh.name} (client id {cid}) has {shown}.",
                                      evidence=[*disk.attr_ev(attr), *(e for b in bdevs for e in vh.devices[b].attr_ev(attr)),
                                                *(getattr(m, "_evidence", None) for m in cand[:3])],
                                      fix=fix, rollback=undo, disruption=["reboot"],
                                      severity=None if mine > back else "info",
                                      values={"current": now, "suggested": shown, "vios": vh.name})


def _on_client(host: Host, dev: str, attr: str, now: Any, want: Any, note: str) -> tuple[Commands, Commands]:
    """The client's device attribute set to the VIOS side's value at the next reboot, and back."""
    fix, undo = propose(device_change(host, dev, attr, now, want, method="chdev-reboot"))
    fix.root = [f"{line}   # on {host.name}{note}" for line in fix.root]
    undo.root = [f"{line}   # on {host.name}" for line in undo.root]
    return fix, undo


def _is_vfc_client(d: Device) -> bool:
    return d.cls == "fc" and "virtual fibre channel client" in d.description.lower()


@rule(
    id="FRAME-NPIV-CLIENT-VS-PORT",
    title="NPIV client adapter num_cmd_elems / max_xfer_size above the VIOS port's",
    severity="warning",
    category="storage",
    source=f"{S000} §3.6.3",
    rationale="""The queue depth (num_cmd_elems) and maximum transfer (max_xfer_size) of the virtual FC adapter
    in AIX must match what is configured on the VIOS port it is mapped to (000 §3.6.3). A client value above
    the port's cannot be honoured (for max_xfer_size a mismatch can keep the client's adapter from
    configuring after a reboot); a lower one is reported as info. The pair comes from the VIOS's lsmap -npiv
    (FC name and VFC client name) and the client partition joined to its client id.""",
    scope="estate",
)
def frame_npiv_client_vs_port(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        for v in fr.vios:
            vh = estate.hosts.get(v.host or "")
            if vh is None:
                continue
            for m in vh.npiv_mappings:
                if not m.client_id or not m.fc_name or not m.vfc_client_name:
                    continue
                joined = _client_of(estate, fr, m.client_id)
                port = vh.devices.get(m.fc_name)
                if joined is None or port is None:
                    continue
                cp, ch = joined
                cdev = ch.devices.get(m.vfc_client_name)
                if cdev is None:
                    continue
                for attr in ("num_cmd_elems", "max_xfer_size"):
                    mine, theirs = _num(cdev.attr(attr)), _num(port.attr(attr))
                    if mine is None or theirs is None or mine == theirs:
                        continue
                    now, want = cdev.attr(attr), port.attr(attr)
                    fix, undo = _on_client(ch, cdev.name, attr, now, want, ", if its disks need the deeper queue"
                                           if mine < theirs else "; applies at the next reboot")
                    yield finding(frame_npiv_client_vs_port, ch, f"{cdev.name} {attr}",
                                  f"{ch.name} {cdev.name} has {attr}={now}; it is mapped through {vh.name} {m.vfchost} "
                                  f"to port {m.fc_name}, which has {want}.",
                                  evidence=[*cdev.attr_ev(attr), *port.attr_ev(attr), getattr(m, "_evidence", None)],
                                  fix=fix, rollback=undo, disruption=["reboot"], severity=None if mine > theirs else "info",
                                  values={"current": now, "suggested": want, "vios": vh.name})


@rule(
    id="FRAME-NPIV-PORT-CLIENTS",
    title="NPIV clients per physical port above 64 or unbalanced (HMC view)",
    severity="warning",
    category="storage",
    source=f"{S000} §3.6.3; rules-catalogue S8, SZ-10",
    rationale="""Up to 64 virtual FC clients can share one physical port, and the clients must be spread evenly
    over the VIOS's ports so no port saturates. HMC Scanner's Virtual_Fibre sheet names the physical port of
    each server adapter. VIOS whose own lsmap -all -npiv is in the analysis are left to STO-NPIV-PORT-CLIENTS
    and STO-NPIV-PORT-SPREAD, which read the same from the VIOS.""",
    scope="estate",
)
def frame_npiv_port_clients(estate: Estate, cfg: Config) -> Iterator[Finding]:
    limit = cfg.t(NPIV_MAX_CLIENTS) if NPIV_MAX_CLIENTS in _defaults() else 64
    for fr in frames(estate):
        for v in fr.vios:
            vh = estate.hosts.get(v.host or "")
            if vh is not None and vh.npiv_mappings:
                continue
            ports: dict[str, list[Any]] = {}
            for s in v.vfc:
                if s.adapter_type == "server" and s.port:
                    ports.setdefault(s.port, []).append(s)
            if not ports:
                continue
            counts = {p: len({(s.remote_name, s.remote_id) for s in ss}) for p, ss in ports.items()}
            top = max(counts, key=lambda p: counts[p])
            low = min(counts, key=lambda p: counts[p])
            over = counts[top] > limit
            unbalanced = len(counts) > 1 and counts[top] - counts[low] > 1
            if not over and not unbalanced:
                continue
            fix = Commands(padmin=[f"# on {v.name}: lsnports; then move clients from {top} to {low}:",
                                   f"vfcmap -vadapter <vfchost of a client on {top}> -fcp <fcs port at {low}>"])
            undo = Commands(padmin=["vfcmap -vadapter <vfchost> -fcp <previous fcs port>"])
            yield finding(frame_npiv_port_clients, v.label, top,
                          f"{fr.name}: {v.name} maps NPIV clients per port as "
                          f"{', '.join(f'{p} {n}' for p, n in sorted(counts.items()))}"
                          + (f"; {top} is above {limit:g}." if over else "."),
                          evidence=[s.evidence for s in ports[top][:6]], fix=fix, rollback=undo,
                          severity=None if over else "info",
                          values={"current": f"{counts[top]} on {top}", "suggested": f"<= {limit:g}, even"})


def _defaults() -> dict:
    from ..config import DEFAULTS

    return DEFAULTS
