"""Disk queue depth: vSCSI client disks left at the default queue_depth and service queues that
fill persistently (000 §3.6.2).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Device, Host
from ..config import Config
from ..engine import Commands, Finding, finding, rule


def _is_vscsi_client_disk(dev: Device) -> bool:
    return dev.cls == "disk" and ("Virtual SCSI Disk" in dev.description or (dev.attr("PCM") or "").endswith("/vscsi"))


@rule(
    id="STO-VSCSI-QDEPTH-DEFAULT",
    title="Virtual SCSI client disk at the default queue_depth 3",
    severity="warning",
    category="storage",
    source="000_31a80e54567cd02b.txt §3.6.1 step 5, §3.6.2",
    rationale="""A virtual SCSI disk starts with queue_depth 3, which allows only three I/Os in flight to
    the VIOS: too few for most workloads. Set it on the client to match the backing device on the VIOS.""",
)
def vscsi_queue_depth_default(host: Host, cfg: Config) -> Iterator[Finding]:
    default = int(cfg.t("vscsi_default_queue_depth"))
    for dev in sorted(host.devices.values(), key=lambda d: d.name):
        if not _is_vscsi_client_disk(dev) or dev.attr("queue_depth") != str(default):
            continue
        fix = Commands(root=[f"chdev -l {dev.name} -a queue_depth=32 -P",
                             "# -P records the change for the next boot; or vary off the volume group and run without -P",
                             "# use the queue_depth of the backing disk on the VIOS (lsdev -dev hdiskN -attr queue_depth) instead of 32 when known"])
        undo = Commands(root=[f"chdev -l {dev.name} -a queue_depth={default} -P"])
        yield finding(vscsi_queue_depth_default, host, dev.name,
                      f"{dev.name} on {host.name} is a virtual SCSI disk with queue_depth {default}.",
                      evidence=dev.attr_ev("queue_depth") + [dev.evidence], fix=fix, rollback=undo,
                      disruption=["reboot"], values={"current": default, "suggested": "backing disk's queue_depth (e.g. 32)"})


@rule(
    id="STO-SQFULL-PERSISTENT",
    title="Disk service queue full in most intervals",
    severity="warning",
    category="storage",
    source="000_31a80e54567cd02b.txt §3.6.2; 004_39e9519fe8a18f63.txt (iostat -D sqfull)",
    rationale="""sqfull counts I/Os that found the disk's service queue full and had to wait in the
    driver. Non-zero in most intervals means queue_depth is the bottleneck (or, as in the WPAR case of
    004, the kernel is not using the configured value).""",
)
def sqfull_persistent(host: Host, cfg: Config) -> Iterator[Finding]:
    for disk, series in sorted(host.disk_io.items()):
        # The first report of iostat counts since boot: judge the interval reports after it.
        rows = [(s.get("sqfull"), e) for s, e in zip(series.samples, series.evidence)
                if s.get("sqfull") is not None and s.get("interval", 1) != 0]
        vals = [v for v, _ in rows]
        if len(vals) < 2:
            continue
        busy = [v for v in vals if v > 0]
        if len(busy) / len(vals) < cfg.t("sqfull_share"):
            continue
        dev = host.devices.get(disk)
        qd = dev.attr("queue_depth") if dev else None
        more = str(min(int(qd) * 2, 256)) if qd and qd.isdigit() else "<larger value>"
        fix = Commands(root=[f"lsattr -El {disk} -a queue_depth", f"chdev -l {disk} -a queue_depth={more} -P",
                             "# check the storage vendor's maximum per LUN before raising it"],
                       padmin=[f"chdev -dev {disk} -attr queue_depth={more} -perm"] if host.is_vios else [])
        undo = Commands(root=[f"chdev -l {disk} -a queue_depth={qd or '<previous>'} -P"],
                        padmin=[f"chdev -dev {disk} -attr queue_depth={qd or '<previous>'} -perm"] if host.is_vios else [])
        yield finding(sqfull_persistent, host, disk,
                      f"{disk} on {host.name}: sqfull > 0 in {len(busy)} of {len(vals)} intervals "
                      f"(max {max(vals):.0f}); queue_depth {qd or 'unknown'}.",
                      evidence=[e for _, e in rows[:2]] + (dev.attr_ev("queue_depth") if dev else []),
                      fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": f"queue_depth {qd or '?'}", "suggested": f"queue_depth {more}"})
