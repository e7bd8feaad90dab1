"""vNIC adapters in HMC REST XML: ``VirtualNICDedicated`` objects (a client partition's vNIC and the
SR-IOV logical ports on VIOS that back it). A part of :mod:`lparscope.sources.hmc_rest`, kept apart
by concept.

Input (one vNIC of a ``LogicalPartition/<uuid>/VirtualNICDedicated`` feed, cut short)::

    <VirtualNICDedicated:VirtualNICDedicated ...>
      <LocalPartitionID>10</LocalPartitionID>
      <VirtualSlotNumber>7</VirtualSlotNumber>
      <Details><PortVLANID>0</PortVLANID><MACAddress>AE7A25E59A07</MACAddress> ...
      <AssociatedBackingDevices>
        <VirtualNICBackingDeviceChoice>
          <VirtualNICSRIOVBackingDevice>
            <AssociatedVirtualIOServer href=".../ManagedSystem/1cab.../VirtualIOServer/3E3F..."/>
            <IsActive>true</IsActive><Status>OPERATIONAL</Status>
            <RelatedSRIOVAdapterID>2</RelatedSRIOVAdapterID>
            <CurrentCapacityPercentage>2.0%</CurrentCapacityPercentage>
            <RelatedSRIOVPhysicalPortID>0</RelatedSRIOVPhysicalPortID> ...

Output: a ``vnic`` :class:`HmcObject` per vNIC and a ``vnicbkdev`` object per backing device, under
the names ``lshwres -r virtualio --rsubtype vnic`` / ``vnicbkdev`` and the ``backing_devices``
attribute use (``sriov/<vios>/<vios id>/<adapter id>/<physical port id>/<capacity>``)::

    HmcObject(resource="vnic", attrs={"lpar_id": "10", "slot_num": "7", "port_vlan_id": "0",
              "mac_addr": "AE7A25E59A07", "lpar_uuid": "020C...", "managed_system_uuid": "1cab..."})
    HmcObject(resource="vnicbkdev", attrs={"lpar_id": "10", "slot_num": "7", "vios_uuid": "3E3F...",
              "sriov_adapter_id": "2", "sriov_physical_port_id": "0", "is_active": "1",
              "status": "OPERATIONAL", "current_capacity": "2.0", ...})

The VIOS of a backing device is named by UUID only; the frame model finds its partition.
"""

from __future__ import annotations

import re

from ._hmc_rest_fields import FLAG, children, link_match, put
from ._hmc_values import HmcObject
from ._xml_tree import Node

_VIOS_IN_LINK = re.compile(r"/ManagedSystem/([0-9A-Fa-f-]{8,})/VirtualIOServer/([0-9A-Fa-f-]{8,})(?:[/?]|$)")
_PARTITION_IN_LINK = re.compile(r"/LogicalPartition/([0-9A-Fa-f-]{8,})/VirtualNICDedicated")


def _percent(text: str) -> str | None:
    value = text.strip().rstrip("%").strip()
    return value if re.fullmatch(r"\d+(?:\.\d+)?", value) else None


def vnic_objects(vnic: Node, entry: Node | None, feed: Node | None) -> list[HmcObject]:
    """The ``vnic`` object of one VirtualNICDedicated and a ``vnicbkdev`` object per backing device."""
    ident: dict[str, str] = {}
    ident_lines: dict[str, int] = {}
    put(ident, ident_lines, "lpar_id", vnic.value("LocalPartitionID"))
    put(ident, ident_lines, "slot_num", vnic.value("VirtualSlotNumber"))
    if "lpar_id" not in ident or "slot_num" not in ident:
        return []
    client = link_match(_PARTITION_IN_LINK, *children(entry, "link"), *children(feed, "link"))  # their SELF links
    if client:
        ident["lpar_uuid"], ident_lines["lpar_uuid"] = client.group(1), vnic.line
    a, ln = dict(ident), dict(ident_lines)
    details = vnic.find("Details")
    if details is not None:
        put(a, ln, "port_vlan_id", details.value("PortVLANID"))
        put(a, ln, "mac_addr", details.value("MACAddress"))
        put(a, ln, "os_device", details.value("OSDeviceName"))
    backings = []
    system_uuid = None
    for choice in (c for g in children(vnic, "AssociatedBackingDevices") for c in children(g, "VirtualNICBackingDeviceChoice")):
        for dev in choice.children:
            if not dev.tag.endswith("BackingDevice"):
                continue
            b, bl = dict(ident), dict(ident_lines)
            b["device_type"], bl["device_type"] = (dev.value("DeviceType") or ("", 0))[0].lower() or "sriov", dev.line
            link = dev.find("AssociatedVirtualIOServer")
            m = _VIOS_IN_LINK.search(link.attrs.get("href", "")) if link is not None else None
            if m:
                system_uuid = system_uuid or m.group(1)
                b["vios_uuid"], bl["vios_uuid"] = m.group(2), link.line  # type: ignore[union-attr]
            put(b, bl, "sriov_adapter_id", dev.value("RelatedSRIOVAdapterID"))
            put(b, bl, "sriov_physical_port_id", dev.value("RelatedSRIOVPhysicalPortID"))
            put(b, bl, "is_active", dev.value("IsActive"), FLAG)
            put(b, bl, "status", dev.value("Status"))
            put(b, bl, "current_capacity", dev.value("CurrentCapacityPercentage"), _percent)
            put(b, bl, "max_capacity", dev.value("MaxCapacityPercentage"), _percent)
            put(b, bl, "failover_priority", dev.value("FailOverPriority"))
            backings.append(HmcObject("vnicbkdev", b, dev.line, None, bl))
    if system_uuid:  # the vNIC itself links no managed system: its backing devices' VIOS do
        for attrs, lines in [(a, ln), *((o.attrs, o.lines) for o in backings)]:
            attrs["managed_system_uuid"], lines["managed_system_uuid"] = system_uuid, vnic.line
    a["backing_count"], ln["backing_count"] = str(len(backings)), vnic.line
    return [HmcObject("vnic", a, vnic.line, None, ln), *backings]
