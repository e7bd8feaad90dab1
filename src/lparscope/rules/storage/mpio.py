"""MPIO paths: health check, algorithm against reserve_policy, fail_over with several paths, vSCSI
client path recovery (000 §3.6.1; rules-catalogue STO-02, STO-09, STO-10).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.estate import Device, Host
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule

HCHECK = threshold("hcheck_interval_suggested", 60, "health check interval suggested for MPIO disks, seconds (catalogue STO-10)")


_ROUND = {"round_robin", "shortest_queue"}
_RESERVING = {"single_path", "PR_exclusive"}


def _paths(host: Host) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for s in host.of_kind("lspath", "DiskPath"):
        out.setdefault(s.record.disk, []).append(s)
    return out


def _is_vscsi_disk(dev: Device) -> bool:
    return (dev.attr("PCM") or "").endswith("/vscsi") or "Virtual SCSI Disk" in dev.description


def padmin_if_vios(host: Host, cmds: list[str]) -> list[str]:
    return cmds if host.is_vios else []


@rule(
    id="STO-MPIO-HCHECK-OFF",
    title="MPIO path health check disabled (hcheck_interval 0)",
    severity="warning",
    category="storage",
    source="rules-catalogue STO-10",
    rationale="""With hcheck_interval=0 MPIO never probes a failed path, so a path that failed stays failed after
    the fabric is repaired and the disk silently runs on fewer paths. 60 s with hcheck_mode=nonactive is
    the usual choice, and the interval should not be shorter than rw_timeout. Some vendor ODMs and vSCSI
    client disks default to 0: a vSCSI client disk is reported only when lspath shows it has two paths.""",
)
def hcheck_off(host: Host, cfg: Config) -> Iterator[Finding]:
    paths = _paths(host)
    want = int(cfg.t(HCHECK))
    for dev in sorted(host.devices.values(), key=lambda d: d.name):
        if dev.attr("hcheck_interval") != "0" or "PCM" not in dev.attrs:
            continue
        n = len({s.record.parent for s in paths.get(dev.name, [])})
        if _is_vscsi_disk(dev) and n < 2:
            continue
        mode = dev.attr("hcheck_mode") or "nonactive"
        fix = Commands(root=[f"chdev -l {dev.name} -a hcheck_interval={want} -a hcheck_mode=nonactive -U",
                             f"# if -U is refused (disk open on older levels): chdev -l {dev.name} -a hcheck_interval={want} -a hcheck_mode=nonactive -P"],
                       padmin=padmin_if_vios(host, [f"chdev -dev {dev.name} -attr hcheck_interval={want} hcheck_mode=nonactive -perm"]))
        undo = Commands(root=[f"chdev -l {dev.name} -a hcheck_interval=0 -a hcheck_mode={mode} -P"],
                        padmin=padmin_if_vios(host, [f"chdev -dev {dev.name} -attr hcheck_interval=0 hcheck_mode={mode} -perm"]))
        where = f", {n} path parents in lspath" if n else ""
        yield finding(hcheck_off, host, dev.name, f"{dev.name} on {host.name} has hcheck_interval=0{where}.",
                      evidence=dev.attr_ev("hcheck_interval", "PCM") + [s.ev() for s in paths.get(dev.name, [])[:2]],
                      fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": 0, "suggested": f"{want} (hcheck_mode=nonactive)"})


@rule(
    id="STO-MPIO-ALGORITHM-RESERVE",
    title="Load-balancing MPIO algorithm with a SCSI reserve policy",
    severity="warning",
    category="storage",
    source="rules-catalogue STO-09, STO-12",
    rationale="""round_robin and shortest_queue send I/O down several paths at once, which a single_path or
    PR_exclusive reserve does not allow: the reserve must be released first (no_reserve), or the
    algorithm set back to fail_over. The pair is inconsistent and usually left over from a partial change.""",
)
def algorithm_reserve(host: Host, cfg: Config) -> Iterator[Finding]:
    for dev in sorted(host.devices.values(), key=lambda d: d.name):
        algo, res = dev.attr("algorithm"), dev.attr("reserve_policy")
        if algo not in _ROUND or res not in _RESERVING:
            continue
        fix = Commands(root=[f"chdev -l {dev.name} -a reserve_policy=no_reserve -a algorithm={algo} -P"],
                       padmin=padmin_if_vios(host, [f"chdev -dev {dev.name} -attr reserve_policy=no_reserve algorithm={algo} -perm"]))
        undo = Commands(root=[f"chdev -l {dev.name} -a algorithm=fail_over -a reserve_policy={res} -P"],
                        padmin=padmin_if_vios(host, [f"chdev -dev {dev.name} -attr algorithm=fail_over reserve_policy={res} -perm"]))
        yield finding(algorithm_reserve, host, dev.name,
                      f"{dev.name} on {host.name} has algorithm={algo} with reserve_policy={res}.",
                      evidence=dev.attr_ev("algorithm", "reserve_policy"), fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": f"{algo} + {res}", "suggested": f"{algo} + no_reserve"})


@rule(
    id="STO-MPIO-FAIL-OVER-MULTIPATH",
    title="FC disk with several enabled paths uses algorithm fail_over",
    severity="info",
    category="storage",
    source="rules-catalogue STO-09",
    rationale="""fail_over sends all I/O down one path while the others wait; on an active/active array
    shortest_queue (or round_robin) uses every path. Some storage vendors mandate fail_over, so this is
    advisory. vSCSI client disks are left alone: fail_over is the only algorithm they support. Needs lspath.""",
)
def fail_over_multipath(host: Host, cfg: Config) -> Iterator[Finding]:
    paths = _paths(host)
    for disk, ps in sorted(paths.items()):
        dev = host.devices.get(disk)
        enabled = [s for s in ps if s.record.status == "Enabled"]
        if dev is None or dev.attr("algorithm") != "fail_over" or _is_vscsi_disk(dev) or len(enabled) < 2:
            continue
        if any(s.record.parent.startswith("vscsi") for s in ps):
            continue
        res = dev.attr("reserve_policy") or "<current>"
        fix = Commands(root=[f"chdev -l {disk} -a reserve_policy=no_reserve -a algorithm=shortest_queue -P",
                             "# only when the storage vendor supports active/active access for this LUN"],
                       padmin=padmin_if_vios(host, [f"chdev -dev {disk} -attr reserve_policy=no_reserve algorithm=shortest_queue -perm"]))
        undo = Commands(root=[f"chdev -l {disk} -a algorithm=fail_over -a reserve_policy={res} -P"],
                        padmin=padmin_if_vios(host, [f"chdev -dev {disk} -attr algorithm=fail_over reserve_policy={res} -perm"]))
        yield finding(fail_over_multipath, host, disk,
                      f"{disk} on {host.name} has {len(enabled)} Enabled paths but algorithm=fail_over.",
                      evidence=dev.attr_ev("algorithm") + [s.ev() for s in enabled[:2]], fix=fix, rollback=undo,
                      disruption=["reboot"], values={"current": "fail_over", "suggested": "shortest_queue"})


@rule(
    id="STO-VSCSI-CLIENT-RECOVERY",
    title="Dual-VIOS vSCSI client adapter without fast_fail / path timeout",
    severity="warning",
    category="storage",
    source="rules-catalogue STO-14",
    rationale="""When two VIOS serve a client's vSCSI disks, vscsi_err_recov=fast_fail and a vscsi_path_to
    (e.g. 30 s) let the client notice a VIOS that stopped answering and move I/O to the other path
    quickly; with delayed_fail / 0 the I/O waits. Dual-VIOS is read from lspath (a disk with paths
    through two vscsi adapters) or, without lspath, from two vscsi adapters on the client. Single-path
    configurations keep delayed_fail.""",
)
def vscsi_client_recovery(host: Host, cfg: Config) -> Iterator[Finding]:
    if host.is_vios:
        return
    adapters = sorted((d for d in host.devices.values() if d.name.startswith("vscsi")
                       and ("vscsi_err_recov" in d.attrs or "vscsi_path_to" in d.attrs)), key=lambda d: d.name)
    paths = _paths(host)
    dual = {s.record.parent for ps in paths.values() if len({x.record.parent for x in ps if x.record.parent.startswith("vscsi")}) > 1
            for s in ps}
    known = {d.name for d in host.devices.values() if d.name.startswith("vscsi")}
    for dev in adapters:
        recov, pto = dev.attr("vscsi_err_recov"), dev.attr("vscsi_path_to")
        if recov in (None, "fast_fail") and pto not in ("0",):
            continue
        if paths and dev.name not in dual:
            continue
        if not paths and len(known) < 2:
            continue
        how = "lspath shows disks on two vscsi adapters" if paths else f"{len(known)} vscsi adapters, no lspath in the data"
        fix = Commands(root=[f"chdev -l {dev.name} -a vscsi_err_recov=fast_fail -a vscsi_path_to=30 -P", "# applies at the next boot"])
        undo = Commands(root=[f"chdev -l {dev.name} -a vscsi_err_recov={recov or 'delayed_fail'} -a vscsi_path_to={pto or 0} -P"])
        yield finding(vscsi_client_recovery, host, dev.name,
                      f"{dev.name} on {host.name} has vscsi_err_recov={recov}, vscsi_path_to={pto} ({how}).",
                      evidence=dev.attr_ev("vscsi_err_recov", "vscsi_path_to"), fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": f"{recov} / {pto}", "suggested": "fast_fail / 30"})
