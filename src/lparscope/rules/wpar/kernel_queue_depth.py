"""A disk's queue depth as the kernel of the global environment and of a WPAR see it (000 §3.9.2).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host
from ..config import Config
from ..engine import Commands, Finding, finding, rule


def kernel_readings(host: Host, global_name: str | None, wpar_name: str | None, odm: int) -> list:
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
        readings = kernel_readings(host, gdev, vdev, int(odm))
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
