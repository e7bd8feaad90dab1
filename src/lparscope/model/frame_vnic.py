"""vNIC adapters of a frame's partitions (HMC data: the REST API's VirtualNICDedicated objects): the
client's vNIC and the SR-IOV logical ports, each owned by a VIOS, that back it. A vNIC fails over
between its backing devices (rules-catalogue NET-16), so how many there are, and on which VIOS and
physical ports, is what the frame rules judge."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..sources._hmc_adapters import VNIC_BACKING_RE, vnic_backings
from .estate import Evidence
from .frame import Frame, opt_float, opt_int, opt_str
from .frame_records import FrameSet


@dataclass
class VnicBacking:
    """One backing device: an SR-IOV logical port a VIOS owns, on one physical port of one adapter."""

    vios: str | None  # the VIOS partition's name (None: known by UUID only)
    vios_uuid: str | None
    adapter_id: int | None  # the SR-IOV adapter
    port_id: int | None  # its physical port
    active: bool | None
    status: str | None
    capacity: float | None  # % of the physical port guaranteed to this logical port
    priority: int | None  # failover priority (lower is preferred)
    evidence: Evidence | None = None
    location: str | None = None  # the physical port's location code (HMC Scanner gives it, not the ids)

    @property
    def port(self) -> object:
        """The physical port (whichever VIOS owns the logical port on it); None when the data does not say."""
        if self.location:
            return self.location
        return (self.adapter_id, self.port_id) if self.adapter_id is not None and self.port_id is not None else None

    @property
    def owner(self) -> str:
        return self.vios or (f"VIOS {self.vios_uuid}" if self.vios_uuid else "an unknown VIOS")

    @property
    def port_text(self) -> str:
        if self.location:
            return f"port {self.location}"
        return f"adapter {self.adapter_id if self.adapter_id is not None else '?'} port {self.port_id if self.port_id is not None else '?'}"

    @property
    def where(self) -> str:
        return f"{self.owner} {self.port_text}"


@dataclass
class Vnic:
    """A client partition's vNIC adapter and its backing devices."""

    slot: int | None
    pvid: int | None = None
    mac: str | None = None
    backings: list[VnicBacking] = field(default_factory=list)
    listed: int | None = None  # backing devices the data lists (more than ``backings``: some were not read)
    evidence: Evidence | None = None


def _client(fs: FrameSet, fr: Frame, a: dict[str, str]) -> Any:
    return fr.by_uuid(opt_str(a.get("lpar_uuid"))) or fs.part(fr, opt_str(a.get("lpar_name")), opt_int(a.get("lpar_id")))


def _vnic(p: Any, slot: int | None) -> Vnic:
    v = next((x for x in p.vnics if x.slot == slot), None)
    if v is None:
        v = Vnic(slot)
        p.vnics.append(v)
    return v


def vnic_object(fs: FrameSet, fr: Frame, res: str, a: dict[str, str], ev: Any) -> None:
    """A ``vnic`` or ``vnicbkdev`` object of the HMC data onto its client partition."""
    p = _client(fs, fr, a)
    if p is None:
        return
    v = _vnic(p, opt_int(a.get("slot_num")))
    if res == "vnic":
        v.pvid, v.mac, v.evidence = opt_int(a.get("port_vlan_id")), opt_str(a.get("mac_addr")), ev("slot_num")
        items = vnic_backings(a.get("backing_devices"))
        listed = opt_int(a.get("backing_count")) if "backing_count" in a else (len(items) if "backing_devices" in a else None)
        if listed is not None:
            v.listed = max(v.listed or 0, listed)
        for item in items:  # the command line's listing (REST: vnicbkdev objects)
            m = VNIC_BACKING_RE.match(item)
            if m:
                _add(v, VnicBacking(m.group("vios"), None, int(m.group("adapter")), int(m.group("port")),
                                    None, None, None, None, ev("backing_devices")))
        return
    uuid = opt_str(a.get("vios_uuid"))
    owner = fr.by_uuid(uuid)
    vios = owner.name if owner is not None else opt_str(a.get("vios_name"))
    active = opt_str(a.get("is_active"))
    b = VnicBacking(vios, uuid, opt_int(a.get("sriov_adapter_id")), opt_int(a.get("sriov_physical_port_id")),
                    None if active is None else active == "1", opt_str(a.get("status")),
                    opt_float(a.get("current_capacity")), opt_int(a.get("failover_priority")),
                    ev("sriov_adapter_id" if "sriov_adapter_id" in a else None))
    _add(v, b)


def _add(v: Vnic, b: VnicBacking) -> None:
    """Add ``b`` unless ``v`` has it (the same file read twice; the command line's and the REST API's view)."""
    same = (b.vios or b.vios_uuid, b.adapter_id, b.port_id, b.location)
    known = next((x for x in v.backings if (x.vios or x.vios_uuid, x.adapter_id, x.port_id, x.location) == same), None)
    if known is None:
        v.backings.append(b)
        return
    for name in ("vios_uuid", "active", "status", "capacity", "priority"):  # what one view gives and the other not
        if getattr(known, name) is None:
            setattr(known, name, getattr(b, name))


def scanner_vnic(fs: FrameSet, fr: Frame, v: dict[str, str], ev: Evidence | None) -> None:
    """A row of HMC Scanner's vNIC sheet: the client, its slot, and each backing device's VIOS, failover
    priority and physical port (repeated column groups: ``VIOS``, ``VIOS#2`` ...)."""
    p = fs.part(fr, opt_str(v.get("LPAR")), None)
    if p is None:
        return
    vn = _vnic(p, opt_int(v.get("Slot")))
    if any(b.location is None and b.port is not None for b in vn.backings):
        return  # the command line or the REST API gave this vNIC by adapter and port ids: the sheet's
        # location codes cannot be matched to them, and the same device twice would hide a lone one
    vn.pvid, vn.mac, vn.evidence = opt_int(v.get("Port VLAN")), opt_str(v.get("MAC")), ev
    listed = 0
    for n in range(1, 1 + sum(1 for k in v if k == "VIOS" or k.startswith("VIOS#"))):
        suffix = "" if n == 1 else f"#{n}"
        vios = opt_str(v.get("VIOS" + suffix))
        if not vios:
            continue
        listed += 1
        _add(vn, VnicBacking(vios, None, None, None, None, None, None, opt_int(v.get("Priority" + suffix)), ev,
                             location=opt_str(v.get("Physical Port" + suffix))))
    vn.listed = max(vn.listed or 0, listed)
