"""Disk path and buffer rules: MPIO health check, algorithm vs reserve, vSCSI client recovery,
shared storage pool disk attributes, LUN IOPS ceiling, blocked-I/O buffer counters.

Sources: 000 §3.6.2; rules-catalogue STO-02, STO-09, STO-10, STO-14, STO-18, STO-19, STO-20.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from ..model.estate import Device, Estate, Evidence, Host, Setting
from .config import Config, threshold
from .engine import Commands, Finding, finding, rule

HCHECK = threshold("hcheck_interval_suggested", 60, "health check interval suggested for MPIO disks, seconds (catalogue STO-10)")
IOPS_SHARE = threshold("lun_iops_ceiling_share", 0.8,
                       "measured tps at or above this share of queue_depth / service time is reported (catalogue STO-02)")
BLOCKED_DELTA = threshold("blocked_io_delta_min", 1,
                          "a vmstat -v blocked-I/O counter rising by at least this much between the first and last "
                          "snapshot is a current shortage (catalogue STO-18..20)")
_ROUND = {"round_robin", "shortest_queue"}
_RESERVING = {"single_path", "PR_exclusive"}


def _paths(host: Host) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for s in host.of_kind("lspath", "DiskPath"):
        out.setdefault(s.record.disk, []).append(s)
    return out


def _is_vscsi_disk(dev: Device) -> bool:
    return (dev.attr("PCM") or "").endswith("/vscsi") or "Virtual SCSI Disk" in dev.description


def _pad(host: Host, cmds: list[str]) -> list[str]:
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
                       padmin=_pad(host, [f"chdev -dev {dev.name} -attr hcheck_interval={want} hcheck_mode=nonactive -perm"]))
        undo = Commands(root=[f"chdev -l {dev.name} -a hcheck_interval=0 -a hcheck_mode={mode} -P"],
                        padmin=_pad(host, [f"chdev -dev {dev.name} -attr hcheck_interval=0 hcheck_mode={mode} -perm"]))
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
                       padmin=_pad(host, [f"chdev -dev {dev.name} -attr reserve_policy=no_reserve algorithm={algo} -perm"]))
        undo = Commands(root=[f"chdev -l {dev.name} -a algorithm=fail_over -a reserve_policy={res} -P"],
                        padmin=_pad(host, [f"chdev -dev {dev.name} -attr algorithm=fail_over reserve_policy={res} -perm"]))
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
                       padmin=_pad(host, [f"chdev -dev {disk} -attr reserve_policy=no_reserve algorithm=shortest_queue -perm"]))
        undo = Commands(root=[f"chdev -l {disk} -a algorithm=fail_over -a reserve_policy={res} -P"],
                        padmin=_pad(host, [f"chdev -dev {disk} -attr algorithm=fail_over reserve_policy={res} -perm"]))
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


def ssp_disks(host: Host) -> tuple[str | None, list[str]]:
    """(CAA repository PVID, probable shared storage pool member disks) of a VIOS.

    A VIOS in an SSP cluster has a ``caavg_private`` disk (the CAA repository) in lspv. Pool
    disks belong to no LVM volume group (lspv VG ``None``) but are not free either: they are
    the ``None`` disks that ``lspv -free`` does not list and that back no vSCSI mapping.
    Both ``lspv`` and ``lspv -free`` are needed; otherwise no members are inferred.
    """
    pvs = host.of_kind("lspv", "PhysicalVolume")
    repo = next((s.record.pvid or s.record.name for s in pvs if s.record.vg == "caavg_private"), None)
    free = {s.record.name for s in pvs if s.record.free}
    listed = [s.record for s in pvs if not s.record.free and s.record.size_mb is None]
    if repo is None or not any(s.record.free for s in pvs):
        return repo, []
    mapped = {m.backing_device for m in host.vscsi_mappings}
    return repo, sorted({p.name for p in listed if p.vg is None and p.name not in free and p.name not in mapped})


@rule(
    id="STO-SSP-DISK-ATTRS-DIFFER",
    title="Shared storage pool disks with differing queue_depth or max_transfer",
    severity="warning",
    category="storage",
    source="000_31a80e54567cd02b.txt §3.6.2",
    rationale="""Every disk of a shared storage pool has its own queue_depth and max_transfer, and §3.6.2 asks
    for all of them to be set alike on every VIOS of the cluster (ideally before the pool is created),
    large enough for what the client LPARs set. Changing one later needs the pool offline on that VIOS
    or a restart of each VIOS in turn. Pool members are inferred: VIOS sharing a CAA repository disk
    (caavg_private PVID) form a cluster; the member disks are those lspv shows in no volume group that
    lspv -free does not list and that back no vSCSI mapping (both lspv outputs needed).""",
    scope="estate",
)
def ssp_attrs(estate: Estate, cfg: Config) -> Iterator[Finding]:
    clusters: dict[str, list[tuple[Host, Device]]] = {}
    for h in sorted(estate.vios, key=lambda h: h.name):
        repo, disks = ssp_disks(h)
        if repo:
            clusters.setdefault(repo, []).extend((h, h.devices[d]) for d in disks if d in h.devices)
    for repo, members in clusters.items():
        for attr in ("queue_depth", "max_transfer"):
            have = [(h, d, d.attr(attr)) for h, d in members if d.attr(attr) is not None]
            values = Counter(v for _, _, v in have)
            if len(values) < 2:
                continue
            common = values.most_common(1)[0][0]
            odd = [(h, d, v) for h, d, v in have if v != common]
            for h in sorted({h.name: h for h, _, _ in odd}.values(), key=lambda x: x.name):
                mine = [(d, v) for hh, d, v in odd if hh is h]
                fix = Commands(padmin=["# with the pool offline on this VIOS, or for the next restart (one VIOS at a time):",
                                       *[f"chdev -dev {d.name} -attr {attr}={common} -perm" for d, _ in mine]],
                               root=[f"chdev -l {d.name} -a {attr}={common} -P" for d, _ in mine])
                undo = Commands(padmin=[f"chdev -dev {d.name} -attr {attr}={v} -perm" for d, v in mine],
                                root=[f"chdev -l {d.name} -a {attr}={v} -P" for d, v in mine])
                spread = ", ".join(f"{v} on {n} disk(s)" for v, n in values.most_common())
                yield finding(ssp_attrs, h, f"{attr}: " + ", ".join(d.name for d, _ in mine),
                              f"Shared storage pool disks (repository {repo}) have {attr} {spread}; on {h.name} "
                              + ", ".join(f"{d.name}={v}" for d, v in mine) + f" differ from {common}.",
                              evidence=[e for d, _ in mine for e in d.attr_ev(attr)] +
                              [e for hh, d, v in have if v == common for e in d.attr_ev(attr)][:1],
                              fix=fix, rollback=undo, disruption=["reboot"],
                              values={"current": ", ".join(f"{d.name}={v}" for d, v in mine), "suggested": common})


def _svc_ms(r: Any) -> float | None:
    rps, wps, ra, wa = r.rps or 0.0, r.wps or 0.0, r.read_avgserv, r.write_avgserv
    if rps + wps > 0 and (ra is not None or wa is not None):
        return (rps * (ra or 0.0) + wps * (wa or 0.0)) / (rps + wps)
    vals = [v for v in (ra, wa) if v]
    return sum(vals) / len(vals) if vals else None


@rule(
    id="STO-LUN-IOPS-CEILING",
    title="Disk I/O rate close to its queue_depth / service time ceiling",
    severity="info",
    category="storage",
    source="rules-catalogue STO-02",
    rationale="""A disk cannot complete more than queue_depth I/Os per average service time: queue_depth 3 at
    10 ms allows at most 300 I/O per second. When the measured rate comes close to that ceiling the
    queue, not the storage, limits throughput: raise queue_depth within the vendor's limit or spread the
    data over more LUNs. Computed per iostat -D interval (the since-boot report is skipped) with the
    service time weighted by reads and writes.""",
)
def iops_ceiling(host: Host, cfg: Config) -> Iterator[Finding]:
    share = cfg.t(IOPS_SHARE)
    best: dict[str, tuple[float, Any, float, float]] = {}
    for s in host.of_kind("iostat-D", "DiskIoSample"):
        r = s.record
        dev = host.devices.get(r.disk)
        qd = dev.attr("queue_depth") if dev else None
        svc = _svc_ms(r)
        if r.interval == 0 or not r.tps or not svc or not qd or not qd.isdigit() or int(qd) == 0:
            continue
        ceiling = int(qd) * 1000.0 / svc
        ratio = r.tps / ceiling
        if ratio >= share and ratio > best.get(r.disk, (0.0,))[0]:
            best[r.disk] = (ratio, s, ceiling, svc)
    for disk, (ratio, s, ceiling, svc) in sorted(best.items()):
        dev = host.devices[disk]
        qd = int(dev.attr("queue_depth") or 0)
        more = min(qd * 2, 256)
        fix = Commands(root=[f"chdev -l {disk} -a queue_depth={more} -P", "# within the storage vendor's maximum per LUN; or spread the data over more LUNs"],
                       padmin=_pad(host, [f"chdev -dev {disk} -attr queue_depth={more} -perm"]))
        undo = Commands(root=[f"chdev -l {disk} -a queue_depth={qd} -P"], padmin=_pad(host, [f"chdev -dev {disk} -attr queue_depth={qd} -perm"]))
        yield finding(iops_ceiling, host, disk,
                      f"{disk} on {host.name}: {s.record.tps:.0f} tps against a ceiling of {ceiling:.0f} "
                      f"(queue_depth {qd} / {svc:.2f} ms average service) = {ratio:.0%}.",
                      evidence=[s.ev("tps"), s.ev("read_avgserv"), s.ev("write_avgserv"), *dev.attr_ev("queue_depth")],
                      fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": f"queue_depth {qd}, ceiling {ceiling:.0f} IOPS", "suggested": f"queue_depth {more}"})


def _blocked(host: Host, cfg: Config, keys: tuple[str, ...]) -> Iterator[tuple[str, int, int | None, list[Evidence]]]:
    """(counter, last value, rise between first and last snapshot or None, evidence) for counters that matter."""
    snaps = [s for s in host.vmstat_snapshots if any(k in s for k in keys)]
    for key in keys:
        seen: list[Setting] = [s[key] for s in snaps if key in s]
        if not seen:
            continue
        last = int(seen[-1].value or 0)
        ev = [e for e in (seen[0].evidence, seen[-1].evidence) if e is not None]
        if len(seen) >= 2:
            rise = last - int(seen[0].value or 0)
            if rise >= cfg.t(BLOCKED_DELTA):
                yield key, last, rise, ev
        elif last > 0:
            yield key, last, None, ev


def _wrap(host: Host, root: list[str]) -> list[str]:
    return ["oem_setup_env", *root, "exit"] if host.is_vios else []


def _emit(fn: Any, host: Host, key: str, last: int, rise: int | None, ev: list[Evidence], fix: list[str],
          undo: list[str], disruption: list[str]) -> Finding:
    label = key.replace("_", " ").replace(" ios ", " I/Os ")
    if rise is None:
        msg = f"{host.name}: {last} {label} since boot (one vmstat -v only: collect two, minutes apart, to see if it rises)."
    else:
        msg = f"{host.name}: {label} rose by {rise} between the first and last vmstat -v (now {last})."
    return finding(fn, host, key, msg, evidence=ev, fix=Commands(root=fix, padmin=_wrap(host, fix)),
                   rollback=Commands(root=undo, padmin=_wrap(host, undo)), disruption=disruption,
                   severity=None if rise is not None else "info",
                   values={"current": last if rise is None else f"+{rise}", "suggested": "no increase"})


@rule(
    id="STO-PBUF-BLOCKED",
    title="LVM I/Os blocked waiting for a pbuf",
    severity="warning",
    category="storage",
    source="rules-catalogue STO-18",
    rationale="""'pending disk I/Os blocked with no pbuf' counts I/Os LVM had to hold because the volume group
    ran out of physical buffers. Rising between two vmstat -v snapshots means it happens now (warning);
    a single snapshot only shows the total since boot (info). Raise pv_pbuf_count of the VG whose
    pervg_blocked_io_count rises, in small steps: pbufs are pinned memory.""",
)
def pbuf_blocked(host: Host, cfg: Config) -> Iterator[Finding]:
    tun = host.tunables.get("pv_min_pbuf")
    for key, last, rise, ev in _blocked(host, cfg, ("pending_disk_ios_blocked_with_no_pbuf",)):
        fix = ["lvmo -a -v <vg>   # repeat per volume group: the one whose pervg_blocked_io_count rises",
               "lvmo -v <vg> -o pv_pbuf_count=1024   # default 512: raise step by step until the counter stops rising"]
        undo = ["lvmo -v <vg> -o pv_pbuf_count=512"]
        yield _emit(pbuf_blocked, host, key, last, rise, ev + ([tun.evidence] if tun and tun.evidence else []), fix, undo, [])


@rule(
    id="STO-PSBUF-BLOCKED",
    title="Paging-space I/Os blocked waiting for a psbuf",
    severity="warning",
    category="storage",
    source="rules-catalogue STO-20",
    rationale="""'paging space I/Os blocked with no psbuf' means paging is heavy or concentrated on too few
    paging spaces. The counter is documented; the remedy (fix the memory shortage first, then spread
    paging over several equal-size paging spaces on separate disks) is domain knowledge (catalogue K).""",
)
def psbuf_blocked(host: Host, cfg: Config) -> Iterator[Finding]:
    for key, last, rise, ev in _blocked(host, cfg, ("paging_space_ios_blocked_with_no_psbuf",)):
        fix = ["lsps -a", "# first give the partition enough memory (see the paging findings), then spread paging:",
               "mkps -a -n -s <LPs, same size as hd6> <vg> <hdisk on another LUN>"]
        undo = ["chps -a n <new paging space>", "swapoff /dev/<new paging space>", "rmps <new paging space>"]
        yield _emit(psbuf_blocked, host, key, last, rise, ev, fix, undo, [])


_FSBUF = {
    "external_pager_filesystem_ios_blocked_with_no_fsbuf": ("j2_dynamicBufferPreallocation", 16, 32),
    "filesystem_ios_blocked_with_no_fsbuf": ("numfsbufs", 196, 392),
    "client_filesystem_ios_blocked_with_no_fsbuf": (None, None, None),
}


@rule(
    id="STO-FSBUF-BLOCKED",
    title="File system I/Os blocked waiting for an fsbuf (JFS2, JFS or NFS client)",
    severity="warning",
    category="storage",
    source="rules-catalogue STO-19",
    rationale="""The fsbuf counters of vmstat -v count file system I/Os that waited for a buffer: 'external
    pager' is JFS2 (raise j2_dynamicBufferPreallocation first, it is dynamic; j2_nBufferPerPagerDevice
    needs a remount), plain 'filesystem' is JFS (numfsbufs, applies at the next mount), 'client' is NFS
    or VxFS. Rising between two snapshots is a current shortage (warning); one snapshot is info.""",
)
def fsbuf_blocked(host: Host, cfg: Config) -> Iterator[Finding]:
    for key, last, rise, ev in _blocked(host, cfg, tuple(_FSBUF)):
        name, default, step = _FSBUF[key]
        if name is None:
            fix = ["nfso -a   # NFS client: review the nfs_v3_* / nfs_v4_* buffer tunables with nfso -L <name>",
                   "# VxFS: follow the file system vendor's buffer tuning"]
            undo = ["nfso -d <tunable changed>   # back to its default"]
            disruption: list[str] = []
        else:
            t = host.tunables.get(name)
            cur = int(t.value) if t is not None and str(t.value).isdigit() else default
            new = max(step, cur * 2)
            if t is not None and t.evidence:
                ev = ev + [t.evidence]
            fix = [f"ioo -p -o {name}={new}"]
            if name == "j2_dynamicBufferPreallocation":
                fix.append("# if it keeps rising: ioo -p -o j2_nBufferPerPagerDevice=2048, then unmount/mount the file systems")
                disruption = []
            else:
                fix.append("# applies to JFS file systems at their next mount")
                disruption = ["restart-needed"]
            undo = [f"ioo -p -o {name}={cur}"]
        yield _emit(fsbuf_blocked, host, key, last, rise, ev, fix, undo, disruption)
