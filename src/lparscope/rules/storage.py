"""Storage rules: disk drivers, queue depths, full service queues, WPAR kernel queue depth."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..model.estate import Device, Host
from .config import Config
from .engine import Commands, Finding, finding, rule

_GENERIC = re.compile(r"\bOther FC SCSI Disk Drive\b", re.I)


def _is_vscsi_client_disk(dev: Device) -> bool:
    return dev.cls == "disk" and ("Virtual SCSI Disk" in dev.description or (dev.attr("PCM") or "").endswith("/vscsi"))


@rule(
    id="STO-GENERIC-DISK-DRIVER",
    title="Disks use the generic MPIO driver (storage vendor driver missing)",
    severity="warning",
    category="storage",
    source="000_31a80e54567cd02b.txt §3.5.4 (Examples 3-24, 3-25)",
    rationale="""'MPIO Other FC SCSI Disk Drive' means AIX found no ODM definition for the LUNs and
    used a generic one: the vendor's path control module, queue depth defaults and load balancing
    are missing. Install the storage vendor's driver (SDDPCM/AIXPCM support for IBM storage,
    HDLM, PowerPath ...), then reconfigure the disks.""",
)
def generic_disk_driver(host: Host, cfg: Config) -> Iterator[Finding]:
    disks = sorted((d for d in host.devices.values() if _GENERIC.search(d.description)), key=lambda d: d.name)
    if not disks:
        return
    names = ", ".join(d.name for d in disks)
    pad = ["lsdev -type disk", "oem_setup_env", "lslpp -l 'devices.fcp.disk*' 'devices.sddpcm*'",
           "# install the storage vendor's host attachment / PCM fileset (installp or updateios), then:",
           "cfgdev", "exit"]
    root = ["lsdev -Cc disk", "lslpp -l 'devices.fcp.disk*' 'devices.sddpcm*'",
            "# install the storage vendor's host attachment / PCM fileset with installp, then:", "cfgmgr"]
    yield finding(generic_disk_driver, host, names,
                  f"{len(disks)} disk(s) on {host.name} use the generic driver: {names}.",
                  evidence=[d.evidence for d in disks[:5]], fix=Commands(root=root, padmin=pad if host.is_vios else []),
                  rollback=Commands(root=["# remove the vendor fileset with installp -u <fileset> (disks revert at next cfgmgr)"]),
                  disruption=["reboot"], values={"current": "MPIO Other FC SCSI Disk Drive", "suggested": "vendor driver"})


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


def _kernel_readings(host: Host, global_name: str | None, wpar_name: str | None, odm: int) -> list:
    """kdb readings that belong to the exported disk and differ from its ODM value.

    The kernel lists an exported disk under its WPAR name, which can equal the name of
    another (global) disk: a reading that matches such a global disk's own ODM value is
    taken to be that disk's.
    """
    exported = {getattr(w, "device", None) for w in host.wpar_devices}
    out = []
    for k in host.kernel_queue_depth:
        if k.name not in (global_name, wpar_name) or k.queue_depth == odm:
            continue
        twin = host.devices.get(k.name or "")
        if k.name == wpar_name and twin is not None and k.name not in exported and twin.attr("queue_depth") == str(k.queue_depth):
            continue
        out.append(k)
    return out


@rule(
    id="WPAR-KERNEL-QDEPTH-MISMATCH",
    title="Kernel queue_depth differs from the ODM for a disk exported to a WPAR",
    severity="critical",
    category="wpar",
    source="004_39e9519fe8a18f63.txt (APAR IV63665)",
    rationale="""For disks exported to a Versioned (5.2/5.3) WPAR the kernel can run with queue_depth 1
    whatever the ODM says, because a PdAt entry is missing (APAR IV63665). The disk then serialises
    its I/O: in 004 a 1 GB write took 7.22 s instead of 3.15 s, with sqfull constantly non-zero.""",
)
def wpar_kernel_queue_depth(host: Host, cfg: Config) -> Iterator[Finding]:
    for wd in host.wpar_devices:
        gdev = getattr(wd, "device", None)
        vdev = getattr(wd, "virtual_device", None)
        wpar = getattr(wd, "wpar", "?")
        dev = host.devices.get(gdev or "")
        odm = dev.attr("queue_depth") if dev else None
        if odm is None or not odm.isdigit():
            continue
        readings = _kernel_readings(host, gdev, vdev, int(odm))
        if not readings:
            continue
        kernel = ", ".join(f"{k.queue_depth} (kernel address {k.address})" for k in readings)
        fix = Commands(root=[
            "# install the fix for APAR IV63665; until then the IBM workaround from 004:",
            "# 1. add the missing vparent PdAt entry (attribute naca_1_spt) with odmadd,",
            "#    in the global environment and inside the WPAR (clogin " + str(wpar) + ")",
            f"# 2. inside the WPAR: rmdev -dl {vdev or '<disk>'} ; cfgmgr ; lsattr -El {vdev or '<disk>'} -a queue_depth",
            f"echo scsidisk {readings[0].address} | kdb | grep queue_depth   # from the global environment: expect {hex(int(odm))}",
        ])
        undo = Commands(root=["odmdelete -o PdAt -q 'attribute=naca_1_spt'   # removes only the entry added above"])
        yield finding(wpar_kernel_queue_depth, host, f"{gdev} (WPAR {wpar}: {vdev})",
                      f"{gdev} exported to WPAR {wpar} runs with kernel queue_depth {kernel} but the ODM says {odm}.",
                      evidence=[k.evidence for k in readings] + dev.attr_ev("queue_depth") + [getattr(wd, "_evidence", None)],
                      fix=fix, rollback=undo, disruption=["restart-needed"],
                      values={"current": f"kernel {readings[0].queue_depth}", "suggested": f"kernel {odm}"})
