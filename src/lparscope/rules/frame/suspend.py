"""Suspend and resume on a frame: a reserved storage device for every suspend-capable partition,
devices reachable through both VIOS of a pair, and the VIOS level the feature needs (000 §3.10).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Estate
from ...model.frame import Frame, FramePartition
from ...model.frame_memory import StorageDevice
from ..changes import pool_device
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .ams import host_of, needed_mb
from .hmc import S000, frames, ms

SOURCE = f"{S000} §3.10"
SUSPEND_VIOS = (2, 2, 0, 11)  # VIOS 2.2 Fix Pack 24 Service Pack 1 (000 §3.10)


def suspendable(fr: Frame) -> list[FramePartition]:
    """Client partitions marked suspend-capable (a VIOS cannot be suspended, 000 §3.10)."""
    return sorted((p for p in fr.partitions.values() if p.suspend_capable and not p.is_vios),
                  key=lambda p: (p.id or 0, p.name))


def unserved(fr: Frame) -> list[tuple[FramePartition, int, list[StorageDevice]]]:
    """Suspend-capable partitions that neither hold nor would get a device of the pool as large as
    their maximum memory (free devices handed out largest need first, smallest fitting device each)."""
    free = sorted((d for d in fr.rs_devices if d.partition is None and d.size_mb), key=lambda d: d.size_mb or 0)
    out = []
    wanting = []
    for p in suspendable(fr):
        need = needed_mb(p)
        if not need:
            continue
        own = [d for d in fr.rs_devices if d.partition == p.name or (p.id is not None and d.partition_id == p.id)]
        if any((d.size_mb or 0) >= need for d in own):
            continue
        wanting.append((p, need, own))
    for p, need, own in sorted(wanting, key=lambda x: -x[1]):
        fit = next((d for d in free if (d.size_mb or 0) >= need), None)
        if fit is not None:
            free.remove(fit)
            continue
        out.append((p, need, own))
    return out


@rule(
    id="FRAME-SUSPEND-RS-DEVICE",
    title="Suspend-capable partition without a reserved storage device large enough for its memory",
    severity="warning",
    category="memory",
    source=SOURCE,
    rationale="""Suspending a partition stores its running memory on a reserved storage device of the frame's
    reserved storage device pool, served by a VIOS, and resume replays it from there; each suspended
    partition holds one device. A partition that is marked suspend-capable but finds no free device
    at least as large as its maximum memory cannot be suspended when the time comes (for instance
    before the frame is power-cycled, the use §3.10 tested). The HMC adds some overhead to the
    maximum memory; its own query gives the exact size.""",
    scope="estate",
)
def suspend_rs_device(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        if not fr.rs_devices and not any(f.startswith("rspool") for r in fr.sources.values() for f in r):
            continue
        vios = sorted({d.vios for d in fr.rs_devices if d.vios}) or [v.name for v in fr.vios[:1]] or ["<VIOS>"]
        for p, need, own in unserved(fr):
            have = ", ".join(f"{d.device} ({d.size_mb} MB)" for d in own) or "none"
            fix = Commands(hmc=[pool_device(ms(fr), "rspool", "a", vios[0], f"<hdisk of at least {need} MB>"),
                                f"lshwres -r rspool -m {ms(fr)} --rsubtype rsdev"])
            undo = Commands(hmc=[pool_device(ms(fr), "rspool", "r", vios[0], "<the hdisk added>")])
            yield finding(suspend_rs_device, p.label, "reserved storage device",
                          f"{p.name} on {fr.name} is suspend-capable with a maximum of {need} MB of memory; its reserved "
                          f"storage device: {have}; the pool has no free device of {need} MB or more.",
                          evidence=[*p.ev("suspend_capable", "mem_max"), *(d.evidence for d in fr.rs_devices[:3])],
                          fix=fix, rollback=undo, values={"current": have, "suggested": f">= {need} MB"})


def _level(text: object) -> tuple[int, ...]:
    return tuple(int(x) for x in "".join(c if c.isdigit() else " " for c in str(text)).split()[:4])


@rule(
    id="FRAME-SUSPEND-VIOS",
    title="Reserved storage for suspend/resume served by one VIOS, or by a VIOS below 2.2 FP24 SP1",
    severity="warning",
    category="vios",
    source=f"{SOURCE}; {S000} §3.5.3",
    rationale="""Suspend and resume came with VIOS 2.2 Fix Pack 24 Service Pack 1, and a VIOS cannot itself
    be suspended: it is shut down and restarted, and the suspended partitions' state waits on its disks.
    §3.10 tested a power cycle of the frame with the reserved storage served by a redundant pair of VIOS;
    devices that only one VIOS of a pair can reach make every suspended partition depend on that VIOS.""",
    scope="estate",
)
def suspend_vios(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        if not fr.rs_devices:
            continue
        vios_names = [v.name for v in fr.vios]
        single = [d for d in fr.rs_devices if d.vios and not d.redundant_vios]
        if len(vios_names) >= 2 and single:
            names = ", ".join(f"{d.device} on {d.vios}" for d in single[:6])
            yield finding(suspend_vios, fr.name, "reserved storage devices",
                          f"{fr.name} has {len(vios_names)} VIOS but {len(single)} of its {len(fr.rs_devices)} reserved "
                          f"storage devices are reachable through one VIOS only: {names}.",
                          evidence=[d.evidence for d in single[:6]],
                          fix=Commands(hmc=[f"lshwres -r rspool -m {ms(fr)} --rsubtype rsdev",
                                            "# map each device's LUN to the second VIOS too (reserve_policy=no_reserve on both), then,",
                                            "# while no partition is suspended on it, replace it in the pool by the redundant device",
                                            "# the HMC offers for the two VIOS (HMC GUI: Reserved Storage Device Pool)"]),
                          values={"current": f"{len(single)} single-VIOS devices", "suggested": "redundant devices"})
        for name in sorted({d.vios for d in fr.rs_devices if d.vios}):
            vp = fr.partitions.get(name)
            h = host_of(estate, vp) if vp is not None else None
            lv = h.levels.get("ioslevel") if h is not None else None
            if lv is None or not _level(lv.value) or _level(lv.value) >= SUSPEND_VIOS:
                continue
            yield finding(suspend_vios, vp.label if vp else name, "ioslevel",
                          f"{name} serves reserved storage for suspend/resume on {fr.name} at VIOS {lv.value}; "
                          "the feature needs VIOS 2.2.0.11 (2.2 Fix Pack 24 Service Pack 1) or later.",
                          evidence=[lv.evidence], fix=Commands(padmin=["ioslevel", "updateios -accept -install -dev <directory with the update>"]),
                          disruption=["reboot"], values={"current": lv.value, "suggested": "2.2.0.11 or later"})
