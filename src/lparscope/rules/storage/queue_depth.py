"""Disk queue depth: vSCSI client disks left at the default queue_depth and service queues that
fill persistently (000 §3.6.2).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.estate import Device, Evidence, Host
from ..changes import attr_change, lsattr_root
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from ..wpar.kernel_queue_depth import kernel_readings


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
        fix, undo = attr_change(host, dev.name, {"queue_depth": 32}, {"queue_depth": default}, perm=True, padmin=False, root_notes=[
            "# -P records the change for the next boot; or vary off the volume group and run without -P",
            "# use the queue_depth of the backing disk on the VIOS (lsdev -dev hdiskN -attr queue_depth) instead of 32 when known"])
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
        at = series.field_lines or [{} for _ in series.samples]
        rows = [(s.get("sqfull"), Evidence(e.path, lines.get("sqfull", e.line)))  # the queue line holds sqfull
                for s, e, lines in zip(series.samples, series.evidence, at)
                if s.get("sqfull") is not None and s.get("interval", 1) != 0]
        vals = [v for v, _ in rows]
        if len(vals) < 2:
            continue
        busy = [v for v in vals if v > 0]
        if len(busy) / len(vals) < cfg.t("sqfull_share"):
            continue
        dev = host.devices.get(disk)
        qd = dev.attr("queue_depth") if dev else None
        more = str(min(int(qd) * 2, MAX_QUEUE_DEPTH)) if qd and qd.isdigit() else "<larger value>"
        said = (f"{disk} on {host.name}: sqfull > 0 in {len(busy)} of {len(vals)} intervals "
                f"(max {max(vals):.0f}); queue_depth {qd or 'unknown'}.")
        evidence = [e for _, e in rows[:2]] + (dev.attr_ev("queue_depth") if dev else [])
        kernel = _kernel_differs(host, disk, qd)
        if kernel or more == qd:  # raising the ODM value changes nothing: say what does
            why = (f" The kernel runs it with queue_depth {kernel[0].queue_depth}, not the ODM's {qd} "
                   f"(WPAR-KERNEL-QDEPTH-MISMATCH): fix that first." if kernel else
                   f" queue_depth is at its maximum {qd}: spread the I/O over more LUNs or paths, or look at the "
                   f"storage's response time.")
            yield finding(sqfull_persistent, host, disk, said + why,
                          evidence=evidence + [k.evidence for k in kernel[:1]],
                          fix=Commands(root=[lsattr_root(disk, "queue_depth"), f"iostat -D {disk} 5 3   # sqfull again"]),
                          rollback=Commands(root=["# nothing to undo: these commands only read"]),
                          values={"current": f"queue_depth {qd or '?'}",
                                  "suggested": "the kernel's queue_depth back to the ODM's" if kernel else "more LUNs"})
            continue
        fix, undo = attr_change(host, disk, {"queue_depth": more}, {"queue_depth": qd or "<previous>"}, perm=True,
                                root_notes=["# check the storage vendor's maximum per LUN before raising it"])
        fix.root.insert(0, lsattr_root(disk, "queue_depth"))
        yield finding(sqfull_persistent, host, disk, said, evidence=evidence,
                      fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": f"queue_depth {qd or '?'}", "suggested": f"queue_depth {more}"})


MAX_QUEUE_DEPTH = 256  # the largest value the step doubles to (000 §3.6.2 raises it in steps)


def _kernel_differs(host: Host, disk: str, odm: str | None) -> list[Any]:
    """kdb readings of ``disk`` (or of its name inside the WPAR it is exported to) that differ from its ODM
    queue_depth: the kernel does not use the configured value (the WPAR case of 004)."""
    if odm is None or not odm.isdigit():
        return []
    inside = [getattr(w, "virtual_device", None) for w in host.wpar_devices if getattr(w, "device", None) == disk]
    return kernel_readings(host, disk, inside[0] if inside else None, int(odm))
