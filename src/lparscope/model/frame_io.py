"""Physical I/O slots a frame's partitions own (HMC data: ``lshwres -r io --rsubtype slot``, HMC
Scanner's Physical_Slots sheet). A partition that owns a physical adapter cannot be moved with Live
Partition Mobility (rules-catalogue LPM-01); the frame rules read them from here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .estate import Evidence
from .frame import Frame, opt_int, opt_str
from .frame_records import FrameSet


@dataclass
class PhysicalSlot:
    """One physical I/O slot assigned to a partition."""

    location: str | None  # the slot's physical location code (unit + slot: U78DA.ND0.WZS0001-C10)
    description: str | None  # the adapter in it ("PCIe3 4-Port 16Gb FC Adapter")
    drc_index: str | None  # what chhwres -r io -l names the slot by
    evidence: Evidence | None = None

    @property
    def label(self) -> str:
        return f"{self.location or self.drc_index or '?'} ({self.description or 'adapter'})"


def _unassigned(name: str | None, pid: Any) -> bool:
    return not name and (pid is None or str(pid).strip().lower() in ("", "none", "null"))


def _keep(p: Any, slot: PhysicalSlot) -> None:
    key = slot.drc_index or slot.location
    if all((s.drc_index or s.location) != key for s in p.io_slots):  # the same listing read twice
        p.io_slots.append(slot)


def io_slot_object(fs: FrameSet, fr: Frame, a: dict[str, str], ev: Any) -> None:
    """An ``io-slot`` object (``lshwres -r io --rsubtype slot``) onto the partition that owns it."""
    name, pid = opt_str(a.get("lpar_name")), a.get("lpar_id")
    if _unassigned(name, pid):
        return  # an empty or free slot
    p = fs.part(fr, name, opt_int(pid))
    if p is None:
        return
    unit, loc = opt_str(a.get("unit_phys_loc")), opt_str(a.get("phys_loc"))
    location = f"{unit}-{loc}" if unit and loc else (loc or unit)
    _keep(p, PhysicalSlot(location, opt_str(a.get("description")), opt_str(a.get("drc_index")),
                          ev("drc_index" if "drc_index" in a else None)))


def scanner_slot(fs: FrameSet, fr: Frame, v: dict[str, str], ev: Evidence | None) -> None:
    """A row of HMC Scanner's Physical_Slots sheet (``LPAR``: the owner, empty when free)."""
    name = opt_str(v.get("LPAR"))
    if not name:
        return
    p = fs.part(fr, name, None)
    if p is not None:
        _keep(p, PhysicalSlot(opt_str(v.get("Location")), opt_str(v.get("Adapter description")),
                              opt_str(v.get("drc_index")), ev))
