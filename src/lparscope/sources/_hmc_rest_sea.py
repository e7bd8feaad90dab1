"""Shared Ethernet Adapters in HMC REST XML: the ``SharedEthernetAdapters`` of a VirtualIOServer
object and of a NetworkBridge (the HMC's name for an SEA, or the failover pair of SEAs bridging the
same VLANs). A part of :mod:`lparscope.sources.hmc_rest`, kept apart by concept.

Input (one SEA of a NetworkBridge, cut short)::

    <SharedEthernetAdapter schemaVersion="V1_2_0">
      <AssignedVirtualIOServer href="https://hmc1:12443/rest/api/uom/ManagedSystem/c5d7.../VirtualIOServer/3443..."/>
      <BackingDeviceChoice><EthernetBackingDevice><DeviceName>ent0</DeviceName> ...
      <ControlChannelInterfaceName>ent5</ControlChannelInterfaceName>
      <HighAvailabilityMode>auto</HighAvailabilityMode>
      <DeviceName>ent8</DeviceName>
      <JumboFramesEnabled>false</JumboFramesEnabled>
      <PortVLANID>2227</PortVLANID>
      <TrunkAdapters><TrunkAdapter><LocationCode>U8247.22L.2125D4A-V1-C2</LocationCode> ...
        <DeviceName>ent4</DeviceName><TrunkPriority>1</TrunkPriority> ...
      <LargeSend>true</LargeSend>

Output: one ``sea`` :class:`HmcObject` per SEA, its attributes under the names of the SEA's own
``lsattr -El`` (as HMC Scanner's SEA sheet has them too)::

    HmcObject(resource="sea", attrs={"lpar_id": "1", "vios_uuid": "3443...", "sea": "ent8", "ha_mode": "auto",
              "ctl_chan": "ent5", "pvid": "2227", "real_adapter": "ent0", "virt_adapters": "ent4",
              "jumbo_frames": "no", "largesend": "1", ...})

The SEA of a VirtualIOServer object is that VIOS's (``lpar_name``, ``lpar_id``). A NetworkBridge names
its VIOS by UUID only; the partition id is read from its trunk adapters' location codes
(``U<type>.<model>.<serial>-V<partition id>-C<slot>``), so the SEA joins its VIOS on the frame
without the VIOS's own XML.
"""

from __future__ import annotations

import re

from ._hmc_rest_fields import FLAG, children, put_all
from ._hmc_values import HmcObject
from ._xml_tree import Node

_VIOS_IN_LINK = re.compile(r"/VirtualIOServer/([0-9A-Fa-f-]{8,})(?:[/?]|$)")
_PARTITION_IN_LOCATION = re.compile(r"-V(\d+)-C\d+$")  # a virtual adapter's location code

_YES_NO = {"true": "yes", "false": "no"}.get  # JumboFramesEnabled -> jumbo_frames

# (lsattr name, element[, conversion]) of an SEA's own elements (LargeSend / ThreadModeEnabled: 0/1)
_FIELDS = (("sea", "DeviceName"), ("ha_mode", "HighAvailabilityMode", str.lower),
           ("ctl_chan", "ControlChannelInterfaceName"), ("pvid", "PortVLANID"),
           ("jumbo_frames", "JumboFramesEnabled", _YES_NO), ("largesend", "LargeSend", FLAG),
           ("thread", "ThreadModeEnabled", FLAG), ("qos_mode", "QualityOfServiceMode", str.lower),
           ("queue_size", "QueueSize"))


def _backing_device(sea: Node) -> tuple[str, int] | None:
    """The SEA's physical side (an adapter or an EtherChannel): the first device name under its backing choice."""
    todo = children(sea, "BackingDeviceChoice")
    while todo:
        node = todo.pop(0)
        if node.tag == "DeviceName" and node.text:
            return node.text, node.line
        todo.extend(node.children)
    return None


def sea_objects(holder: Node, ident: dict[str, str], ident_lines: dict[str, int],
                system_uuid: str | None = None) -> tuple[list[HmcObject], list[tuple[int, str]]]:
    """The ``sea`` objects of the SEAs ``holder`` (a VirtualIOServer or a NetworkBridge) lists, and
    warnings as (line, message); ``ident``: the VIOS's name and id when the holder is the VIOS itself."""
    out: list[HmcObject] = []
    for group in children(holder, "SharedEthernetAdapters"):
        for sea in children(group, "SharedEthernetAdapter"):
            a, ln = dict(ident), dict(ident_lines)
            put_all(a, ln, sea, _FIELDS)
            if "sea" not in a:
                continue
            backing = _backing_device(sea)
            if backing:
                a["real_adapter"], ln["real_adapter"] = backing
            trunks = [t for g in children(sea, "TrunkAdapters") for t in children(g, "TrunkAdapter")]
            names = [t.value("DeviceName") for t in trunks]
            if any(names):
                a["virt_adapters"] = ",".join(n[0] for n in names if n)
                ln["virt_adapters"] = next(n[1] for n in names if n)
            if "lpar_id" not in a:
                for t in trunks:
                    loc = t.value("LocationCode")
                    m = _PARTITION_IN_LOCATION.search(loc[0].strip()) if loc else None
                    if m:
                        a["lpar_id"], ln["lpar_id"] = str(int(m.group(1))), loc[1]  # type: ignore[index]
                        break
            link = sea.find("AssignedVirtualIOServer")
            m = _VIOS_IN_LINK.search(link.attrs.get("href", "")) if link is not None else None
            if m and "lpar_name" not in a:
                a["vios_uuid"], ln["vios_uuid"] = m.group(1), link.line  # type: ignore[union-attr]
            if system_uuid:
                a["managed_system_uuid"], ln["managed_system_uuid"] = system_uuid, holder.line
            out.append(HmcObject("sea", a, sea.line, None, ln))
    return out, _unsure_ids(out)


def _unsure_ids(seas: list[HmcObject]) -> list[tuple[int, str]]:
    """A partition id read from location codes that SEAs of different VIOS (by UUID) share is not
    believed: those SEAs keep the UUID alone (the VIOS's own XML places them)."""
    uuids: dict[str, set[str]] = {}
    for o in seas:
        if "vios_uuid" in o.attrs and "lpar_id" in o.attrs:
            uuids.setdefault(o.attrs["lpar_id"], set()).add(o.attrs["vios_uuid"].lower())
    warnings = []
    for o in seas:
        pid = o.attrs.get("lpar_id")
        if "vios_uuid" in o.attrs and pid is not None and len(uuids.get(pid, ())) > 1:
            warnings.append((o.lines.pop("lpar_id"), f"SEA {o.attrs['sea']}: its trunk adapters' location codes say "
                             f"partition {pid}, as those of an SEA of another VIOS do; placed by its VIOS's UUID only"))
            del o.attrs["lpar_id"]
    return warnings
