"""Backing devices a VIOS exports: rootvg disks and logical volumes given to clients and the
reserve_policy of disks shared by two VIOS (000 §3.6.1 step 3; rules-catalogue VIOS-09, STO-12).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.estate import Host
from ..changes import attr_change
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .level import IV94438_LEVELS, level_tuple
from .redundancy import mapping_evidence

_RESERVING = {"single_path", "PR_exclusive"}


def _lspv(host: Host) -> dict[str, Any]:
    return {s.record.name: s for s in host.of_kind("lspv", "PhysicalVolume")}


def _rootvg_lvs(host: Host) -> dict[str, Any]:
    """The logical volumes of rootvg (lsvg -l rootvg / lsvg -lv rootvg), by name."""
    return {s.record.name: s for s in host.of_kind("lsvg-l", "LogicalVolume") if s.record.vg == "rootvg"}


@rule(
    id="VIOS-ROOTVG-EXPORTED",
    title="A VIOS rootvg disk or logical volume is exported to a client",
    severity="warning",
    category="vios",
    source="rules-catalogue VIOS-08",
    rationale="""The VIOS is an appliance: client backing devices should not live in its rootvg, where they are
    lost or put at risk on a VIOS reinstall or rootvg restore and compete with the VIOS's own I/O. The
    check reads the backing devices of lsmap -all against the volume group column of lspv (disks)
    and the rootvg table of lsvg -lv rootvg (logical volumes).""",
)
def rootvg_exported(host: Host, cfg: Config) -> Iterator[Finding]:
    if not host.is_vios:
        return
    pvs, lvs = _lspv(host), _rootvg_lvs(host)
    for m in host.vscsi_mappings:
        name = m.backing_device or ""
        pv, lv = pvs.get(name), lvs.get(name)
        if pv is not None and (pv.record.vg or "") == "rootvg":
            what, where = name, [pv.ev("vg")]
        elif lv is not None:  # its row, and the "rootvg:" line above the table when there is one
            what, where = f"logical volume {name}", [lv.ev()] + ([lv.ev("vg")] if lv.ev("vg") != lv.ev() else [])
        else:
            continue
        fix = Commands(padmin=["# copy the client's data to a LUN outside rootvg (on the client: migratepv / mirrorvg), then:",
                               f"rmvdev -vtd {m.vtd}", f"mkvdev -vdev <new hdisk> -vadapter {m.vhost} -dev {m.vtd}"])
        undo = Commands(padmin=[f"rmvdev -vtd {m.vtd}", f"mkvdev -vdev {name} -vadapter {m.vhost} -dev {m.vtd}"])
        yield finding(rootvg_exported, host, f"{name} ({m.vtd})",
                      f"{what} in rootvg of {host.name} backs {m.vtd} on {m.vhost} (client {m.client_id}).",
                      evidence=[mapping_evidence(m), *where], fix=fix, rollback=undo,
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
    apar = lv is not None and any(lo <= level_tuple(lv.value) <= hi for lo, hi in IV94438_LEVELS)
    seen: set[str] = set()
    for m in host.vscsi_mappings:
        disk = m.backing_device
        dev = host.devices.get(disk or "")
        policy = dev.attr("reserve_policy") if dev else None
        if disk is None or dev is None or policy not in _RESERVING or disk in seen:
            continue
        seen.add(disk)
        fix, undo = attr_change(host, disk, {"reserve_policy": "no_reserve"}, {"reserve_policy": policy}, perm=True,
                                padmin=True, padmin_notes=[
                                    "# the disk is open through its VTD: the change applies at the next restart of this VIOS",
                                    "# (restart it while the partner VIOS serves the clients)"])
        extra = " Its ioslevel is in the APAR IV94438 range." if apar else ""
        yield finding(backing_reserve, host, disk,
                      f"{disk} on {host.name} backs {m.vtd} for client {m.client_id} with reserve_policy={policy}.{extra}",
                      evidence=[mapping_evidence(m), *dev.attr_ev("reserve_policy")] + ([lv.evidence] if apar and lv else []),
                      fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": policy, "suggested": "no_reserve"})
