"""Disk paths that are Failed, Missing or Defined (lspath / lsmpio, or SDDPCM / SDD's pcmpath / datapath
query device in lspath's words; rules-catalogue STO-10)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.estate import Host
from ..config import Config
from ..engine import Commands, Finding, finding, rule

_UP = "enabled"


def _paths_by_disk(host: Host) -> dict[str, list[Any]]:
    """Each disk's paths, one per parent adapter and connection (lspath and lsmpio of one disk agree).
    A disk lspath does not list takes its paths from pcmpath / datapath (their ``status`` is lspath's
    word for the path's state; a state it cannot say is left out): the two number paths apart, so one
    disk's paths are never counted from both."""
    out: dict[str, dict[tuple[str, str], Any]] = {}
    for s in host.of_kind("lspath", "DiskPath"):
        r = s.record
        key = (r.parent, r.connection or (str(r.path_id) if r.path_id is not None else ""))
        out.setdefault(r.disk, {})[key] = s  # the last reading of the same path wins
    sdd: dict[str, dict[tuple[str, str], Any]] = {}
    for s in host.of_kind("pcmpath", "SddPath"):
        r = s.record
        if r.status is not None and r.disk not in out:
            sdd.setdefault(r.disk, {})[(r.parent, str(r.path_id))] = s
    out.update(sdd)
    return {disk: list(paths.values()) for disk, paths in out.items()}


def _label(r: Any) -> str:
    """A path as its output names it: ``fscsi0 Failed`` (lspath), ``fscsi0/path1 DEAD`` (pcmpath)."""
    if getattr(r, "command", None) in ("pcmpath", "datapath"):
        return f"{r.parent}/{r.path_name} {r.state}" + (f" {r.mode}" if r.mode != "NORMAL" else "")
    return f"{r.parent} {r.status}"


def _sdd_fix(paths: list[Any], bad: list[Any]) -> list[str]:
    """pcmpath / datapath commands for a disk's failed or offline SDD paths."""
    cmd, number = paths[0].record.command, paths[0].record.device_number
    fix = [f"{cmd} query device {number}"]
    for s in bad:
        r = s.record
        if r.status == "Failed":
            fix.append(f"# path {r.path_id} ({r.parent}/{r.path_name}) is {r.state}: repair the fault first "
                       "(errpt, the switch port, the zoning), then:")
        fix.append(f"{cmd} set device {number} path {r.path_id} online")
    return fix


def _family(parent: str) -> str:
    """fscsi0 -> fscsi: disks whose paths run over the same kind of adapter are siblings."""
    return parent.rstrip("0123456789")


def _vscsi_adapters(host: Host) -> int:
    return sum(1 for d in host.devices.values() if d.name.startswith("vscsi") and d.name[5:].isdigit())


@rule(
    id="HEALTH-DISK-PATHS",
    title="Disk with failed, missing or too few enabled paths",
    severity="warning",
    category="storage",
    source="rules-catalogue STO-10, STO-13; 000_31a80e54567cd02b.txt §3.5.3 (two VIOS give each client disk two paths)",
    rationale="""MPIO hides a failed path: I/O carries on over the others, so a disk can run for months on
    one path until the next fabric or VIOS outage takes it down. A disk with no Enabled path has no I/O
    at all. A disk with fewer enabled paths than its sibling disks (disks on the same kind of adapter),
    or a client disk with one path although two VIOS serve the partition, has lost its redundancy.
    Missing and Defined paths are paths the system knew and no longer sees (a removed zone or mapping).""",
)
def disk_paths(host: Host, cfg: Config) -> Iterator[Finding]:
    paths = _paths_by_disk(host)
    if not paths:
        return
    enabled = {d: sum(1 for s in ps if s.record.status.lower() == _UP) for d, ps in paths.items()}
    # The most enabled paths any disk has over each adapter family: what a healthy sibling gets.
    best: dict[str, int] = {}
    for d, ps in paths.items():
        for fam in {_family(s.record.parent) for s in ps}:
            best[fam] = max(best.get(fam, 0), enabled[d])
    vscsi = _vscsi_adapters(host)
    for disk in sorted(paths):
        ps = paths[disk]
        bad = [s for s in ps if s.record.status.lower() != _UP]
        families = {_family(s.record.parent) for s in ps}
        expected = max(best.get(f, 0) for f in families)
        if families == {"vscsi"} and not host.is_vios:
            expected = max(expected, min(vscsi, 2))
        n = enabled[disk]
        if n == 0:
            sev, why = "critical", "no Enabled path: the disk has no I/O path at all"
        elif bad:
            sev, why = None, f"{n} Enabled of {len(ps)} paths"
        elif n < expected:
            sev, why = None, f"{n} Enabled path(s) where its siblings have {expected}"
        else:
            continue
        states = ", ".join(_label(s.record) for s in ps)
        sdd = getattr(ps[0].record, "command", None) in ("pcmpath", "datapath")  # a disk's paths come from one output kind
        fix_root = _sdd_fix(ps, bad) if sdd else [f"lspath -l {disk} -H -F 'status parent connection path_id'"]
        for s in ([] if sdd else bad):
            r = s.record
            conn = f" -w {r.connection}" if r.connection else ""
            if r.status.lower() in ("missing", "defined"):
                fix_root.append(f"# {r.parent}: the path is gone from the fabric or mapping; once it is restored: cfgmgr -l {r.parent}")
                fix_root.append(f"# or, if it is retired on purpose: rmpath -d -l {disk} -p {r.parent}{conn}")
            else:
                fix_root.append(f"# after the fault on {r.parent} is repaired (check errpt, the switch port, the VIOS):")
                fix_root.append(f"chpath -l {disk} -p {r.parent}{conn} -s enable")
        if not bad:
            fix_root.append("# a path was never configured: check the zoning / the mapping on the second VIOS, then cfgmgr")
        fix = Commands(root=fix_root,
                       padmin=[f"lspath -dev {disk}", "# then oem_setup_env and the root commands"] if host.is_vios else [])
        yield finding(disk_paths, host, disk, f"{disk} on {host.name}: {why} ({states}).",
                      evidence=[s.ev() for s in ps[:6]], fix=fix,
                      rollback=Commands(root=["# read-only diagnosis and path re-enable: nothing to roll back"]),
                      values={"current": f"{n} enabled of {len(ps)}", "suggested": f"{max(expected, 1)} enabled"},
                      severity=sev)
