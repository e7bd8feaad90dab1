"""MPIO paths: health check, algorithm against reserve_policy, fail_over with several paths, vSCSI
client path recovery, what a path that times out becomes (000 §3.6.1; rules-catalogue STO-02, STO-09,
STO-10, STO-11).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.estate import Device, Host
from ..changes import attr_change, chdev_root
from ..config import Config, threshold
from ..engine import Finding, finding, rule

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


_LOCAL_SCSI_PCM = "PCM/friend/scsiscsd"  # the PCM of internal SCSI / SAS disks (a single path)


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
        if (_is_vscsi_disk(dev) and n < 2) or n == 1 or (n == 0 and dev.attr("PCM") == _LOCAL_SCSI_PCM):
            continue  # one path (or an internal SCSI/SAS disk's): no failed path to bring back
        mode = dev.attr("hcheck_mode") or "nonactive"
        new = {"hcheck_interval": want, "hcheck_mode": "nonactive"}
        fix, undo = attr_change(host, dev.name, new, {"hcheck_interval": 0, "hcheck_mode": mode}, perm=True)
        # -P (at the next boot) is what the plan schedules; -U changes the running disk where AIX allows it
        fix.root = [chdev_root(dev.name, new, perm=True),
                    f"# or now, on AIX 7.1 TL3 and later (no restart): {chdev_root(dev.name, new)} -U"]
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
        fix, undo = attr_change(host, dev.name, {"reserve_policy": "no_reserve", "algorithm": algo},
                                {"algorithm": "fail_over", "reserve_policy": res}, perm=True)
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
        fix, undo = attr_change(host, disk, {"reserve_policy": "no_reserve", "algorithm": "shortest_queue"},
                                {"algorithm": "fail_over", "reserve_policy": res}, perm=True,
                                root_notes=["# only when the storage vendor supports active/active access for this LUN"])
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
        fix, undo = attr_change(host, dev.name, {"vscsi_err_recov": "fast_fail", "vscsi_path_to": 30},
                                {"vscsi_err_recov": recov or "delayed_fail", "vscsi_path_to": pto or 0}, perm=True,
                                padmin=False, root_notes=["# applies at the next boot"])
        yield finding(vscsi_client_recovery, host, dev.name,
                      f"{dev.name} on {host.name} has vscsi_err_recov={recov}, vscsi_path_to={pto} ({how}).",
                      evidence=dev.attr_ev("vscsi_err_recov", "vscsi_path_to"), fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": f"{recov} / {pto}", "suggested": "fast_fail / 30"})


@rule(
    id="STO-MPIO-TIMEOUT-POLICY",
    title="MPIO disk keeps using (retry_path) or disables for good (disable_path) a path whose commands time out",
    severity="info",
    category="storage",
    source="rules-catalogue STO-11 (IBM community: recommended AIX MPIO PCM settings)",
    rationale="""timeout_policy says what MPIO does with a path whose commands time out. retry_path (the
    old default) keeps sending I/O down it, so a path that flaps keeps stalling the disk; fail_path
    fails the path and moves I/O to the others until the health check finds it working again.
    disable_path takes the path out until someone enables it again with chpath. A storage vendor's
    own host-attachment settings come first (rules-catalogue STO-22); vSCSI client disks are left alone.""",
)
def timeout_policy(host: Host, cfg: Config) -> Iterator[Finding]:
    paths = _paths(host)
    for dev in sorted(host.devices.values(), key=lambda d: d.name):
        policy = dev.attr("timeout_policy")
        ps = paths.get(dev.name, [])
        if policy not in ("retry_path", "disable_path") or _is_vscsi_disk(dev):
            continue
        if any(s.record.parent.startswith("vscsi") for s in ps):
            continue
        trouble = [s for s in ps if s.record.status != "Enabled"]
        seen = (f" lspath shows {len(trouble)} of its {len(ps)} paths "
                f"{'/'.join(sorted({s.record.status for s in trouble}))}." if trouble else "")
        effect = ("a path that times out stays in use" if policy == "retry_path"
                  else f"a path that times out stays disabled until chpath -l {dev.name} -p <parent> -s enable")
        fix, undo = attr_change(host, dev.name, {"timeout_policy": "fail_path"}, {"timeout_policy": policy}, perm=True,
                                root_notes=["# unless the storage vendor's host-attachment guide says otherwise"])
        yield finding(timeout_policy, host, dev.name,
                      f"{dev.name} on {host.name} has timeout_policy={policy}: {effect}.{seen}",
                      evidence=dev.attr_ev("timeout_policy") + [s.ev() for s in trouble[:2]], fix=fix, rollback=undo,
                      disruption=["reboot"], values={"current": policy, "suggested": "fail_path"})
