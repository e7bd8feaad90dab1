"""Backing devices a VIOS exports: rootvg disks given to clients and the reserve_policy of disks
shared by two VIOS (000 §3.6.1 step 3; rules-catalogue VIOS-09, STO-12).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.estate import Host
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .level import IV94438_LEVELS, level_tuple
from .redundancy import mapping_evidence

_RESERVING = {"single_path", "PR_exclusive"}


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
                      evidence=[mapping_evidence(m), pv.ev("vg")], fix=fix, rollback=undo,
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
        fix = Commands(padmin=[f"chdev -dev {disk} -attr reserve_policy=no_reserve -perm",
                               "# the disk is open through its VTD: the change applies at the next restart of this VIOS",
                               "# (restart it while the partner VIOS serves the clients)"],
                       root=[f"chdev -l {disk} -a reserve_policy=no_reserve -P"])
        undo = Commands(padmin=[f"chdev -dev {disk} -attr reserve_policy={policy} -perm"],
                        root=[f"chdev -l {disk} -a reserve_policy={policy} -P"])
        extra = " Its ioslevel is in the APAR IV94438 range." if apar else ""
        yield finding(backing_reserve, host, disk,
                      f"{disk} on {host.name} backs {m.vtd} for client {m.client_id} with reserve_policy={policy}.{extra}",
                      evidence=[mapping_evidence(m), *dev.attr_ev("reserve_policy")] + ([lv.evidence] if apar and lv else []),
                      fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": policy, "suggested": "no_reserve"})
