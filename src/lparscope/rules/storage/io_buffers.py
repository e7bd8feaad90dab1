"""Blocked I/O counters of vmstat -v: pbufs, psbufs and fsbufs (rules-catalogue STO-19, STO-20).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.change import ProposedChange
from ...model.estate import Evidence, Host, Setting
from ..changes import propose, tunable_change
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule

BLOCKED_DELTA = threshold("blocked_io_delta_min", 1,
                          "a vmstat -v blocked-I/O counter rising by at least this much between the first and last "
                          "snapshot is a current shortage (catalogue STO-18..20)")


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
          undo: list[str], disruption: list[str], changes: list[ProposedChange] | None = None) -> Finding:
    label = key.replace("_", " ").replace(" ios ", " I/Os ")
    if rise is None:
        msg = f"{host.name}: {last} {label} since boot (one vmstat -v only: collect two, minutes apart, to see if it rises)."
    else:
        msg = f"{host.name}: {label} rose by {rise} between the first and last vmstat -v (now {last})."
    return finding(fn, host, key, msg, evidence=ev, fix=Commands(root=fix, padmin=_wrap(host, fix)),
                   rollback=Commands(root=undo, padmin=_wrap(host, undo)), disruption=disruption, changes=changes or [],
                   severity=None if rise is not None else "info",
                   values={"current": last if rise is None else f"+{rise}",
                           "suggested": "a second vmstat -v, minutes apart" if rise is None else
                           (", ".join(f"{c.object} {c.attribute}={c.target}" for c in changes or []) or "no increase")})


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
    mounted = {s.record.vfs for s in host.of_kind("mount", "Mount")}
    for key, last, rise, ev in _blocked(host, cfg, tuple(_FSBUF)):
        name, default, step = _FSBUF[key]
        if name == "numfsbufs" and mounted and "jfs" not in mounted:
            continue  # numfsbufs serves JFS only, and the mount table shows none mounted
        if name is None:
            fix = ["nfso -a   # NFS client: review the nfs_v3_* / nfs_v4_* buffer tunables with nfso -L <name>",
                   "# VxFS: follow the file system vendor's buffer tuning"]
            undo = ["nfso -d <tunable changed>   # back to its default"]
            disruption: list[str] = []
            changes: list[ProposedChange] = []
        else:
            t = host.tunables.get(name)
            cur = int(t.value) if t is not None and str(t.value).isdigit() else default
            new = max(step, cur * 2)
            if t is not None and t.evidence:
                ev = ev + [t.evidence]
            change = tunable_change(host, "ioo", name, str(cur), str(new))
            if name == "numfsbufs":
                change.note = "applies to JFS file systems at their next mount"
            fixc, undoc = propose(change)
            fix, undo = fixc.root, undoc.root  # the padmin form wraps them below (_wrap)
            changes = [change]
            if name == "j2_dynamicBufferPreallocation":
                fix.append("# if it keeps rising: ioo -p -o j2_nBufferPerPagerDevice=2048, then unmount/mount the file systems")
                disruption = []
            else:
                fix.append("# applies to JFS file systems at their next mount")
                disruption = ["restart-needed"]
            if rise is None:  # a count since boot may be old: measure before changing anything
                fix = ["vmstat -v | grep fsbuf   # again in a few minutes, under load: only a rising count needs more buffers"] \
                    + [f"# if it rises: {line.lstrip('# ')}" for line in fix]
                undo, changes, disruption = ["# nothing to undo: these commands only read the counters"], [], []
        yield _emit(fsbuf_blocked, host, key, last, rise, ev, fix, undo, disruption, changes)
