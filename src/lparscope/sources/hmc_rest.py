"""HMC REST API objects (``/rest/api/uom``): ManagedSystem, LogicalPartition, VirtualIOServer,
SharedProcessorPool, NetworkBridge and VirtualNICDedicated (vNIC), as an Atom feed, one entry, or the bare object (XML, as the HMC returns it or
as a tool saved it, e.g. behind a dump's header lines).

Input (a LogicalPartition feed, cut short)::

    <feed xmlns="http://www.w3.org/2005/Atom">
      <link rel="SELF" href="https://hmc1:12443/rest/api/uom/ManagedSystem/b597e4da-.../LogicalPartition"/>
      <entry><id>3380A831-...</id><content type="application/vnd.ibm.powervm.uom+xml; type=LogicalPartition">
        <LogicalPartition:LogicalPartition xmlns="http://www.ibm.com/xmlns/systems/power/firmware/uom/mc/2012_10/" ...>
          <PartitionID>15</PartitionID>
          <PartitionMemoryConfiguration><CurrentMemory>10240</CurrentMemory> ...
          <PartitionName>aix15</PartitionName>
          <PartitionProcessorConfiguration>
            <CurrentHasDedicatedProcessors>false</CurrentHasDedicatedProcessors>
            <CurrentSharingMode>uncapped</CurrentSharingMode>
            <CurrentSharedProcessorConfiguration>
              <AllocatedVirtualProcessors>2</AllocatedVirtualProcessors>
              <CurrentProcessingUnits>1</CurrentProcessingUnits> ...
          <PartitionState>running</PartitionState>
          <PartitionType>AIX/Linux</PartitionType>

Output: the objects the HMC command line gives for the same data (:class:`HmcObject` of
``_hmc_values``, attributes under their ``lssyscfg`` / ``lshwres`` names, each with the line of its
XML element), so the frame model reads them as it reads the command line's::

    HmcObject(resource="lpar", attrs={"name": "aix15", "lpar_id": "15", "lpar_env": "aixlinux",
              "state": "Running", "uuid": "3380A831-...", "managed_system_uuid": "b597e4da-..."}, ...)
    HmcObject(resource="proc-lpar", attrs={"lpar_name": "aix15", "lpar_id": "15", "curr_proc_mode": "shared",
              "curr_sharing_mode": "uncap", "curr_proc_units": "1", "curr_procs": "2", ...}, ...)
    HmcObject(resource="mem-lpar", attrs={"lpar_name": "aix15", "curr_mem": "10240", "mem_mode": "ded", ...}, ...)

A ManagedSystem gives ``sys`` (name, type_model, serial_num, state, uuid), ``proc-sys`` and ``mem-sys``
objects named by its SystemName; a SharedProcessorPool a ``procpool``. A partition names its managed
system by UUID (in its links), and newer HMCs by name too (its ``SystemName``, then the objects' ``system``);
with the UUID only, the model finds the name in a ManagedSystem object with that UUID.
Memory is in MB and processors in processing units, as on the command line; the REST hardware page
table ratio is a power of two (7 is 1:128).

A VirtualIOServer's trunk adapters give ``veth`` objects (``lshwres -r virtualio --rsubtype eth``), its
vSCSI / vFC mappings ``vscsi`` / ``vfc`` objects of its server adapters (with the client partition
and slot each serves), its Shared Ethernet Adapters ``sea`` objects (``_hmc_rest_sea.py``: HA mode,
control channel, PVID, adapters, under their ``lsattr`` names), as do a NetworkBridge's; a vNIC gives
``vnic`` and ``vnicbkdev`` objects (``_hmc_rest_vnic.py``: slot, backing devices' VIOS, SR-IOV
adapter and port, state); not read
(said once as a warning): its storage backing devices. The PCM performance
data (JSON) is another kind (``hmc_pcm.py``). A document type declaration is refused (no entity is ever expanded).
"""

from __future__ import annotations

import re

from ._hmc_rest_fields import FLAG, link_match, put, put_all
from ._hmc_rest_sea import sea_objects
from ._hmc_rest_vnic import vnic_objects
from ._hmc_values import HmcObject
from ._xml_tree import Node, read_tree
from .base import Parsed, split_lines

KIND = "hmc-rest"
TITLE = "HMC REST API XML (ManagedSystem, LogicalPartition, VirtualIOServer, SharedProcessorPool, NetworkBridge, vNIC)"
COMMANDS: list[str] = []
STARTS = None

_UOM = "xmlns/systems/power/firmware/uom"
_OBJECTS = ("ManagedSystem", "LogicalPartition", "VirtualIOServer", "SharedProcessorPool", "NetworkBridge",
            "VirtualNICDedicated")
_OBJECT_RE = re.compile(r"<(?:\w+:)?(?:" + "|".join(_OBJECTS) + r")[\s>]")
_ROOT_RE = re.compile(r"^\s*<(?:\?xml|feed\b|entry\b|(?:\w+:)?(?:" + "|".join(_OBJECTS) + r")\b)")
_SYSTEM_IN_LINK = re.compile(r"/ManagedSystem/([0-9A-Fa-f-]{8,})(?:/|$)")


def detect(text: str) -> int:
    head = text[:65536]
    return 95 if _UOM in head and _OBJECT_RE.search(head) else 0


_CONTENT_TYPE = re.compile(r'type="application/vnd\.ibm\.powervm\.(?:uom|web)\+xml;\s*type=(\w+)"')
_TAG_TEXT = r"<(?:\w+:)?{0}\b[^>]*>([^<]{{0,300}})</"


def unreadable(text: str) -> str | None:
    """What an HMC REST answer this reader does not take is, for the splitter: an error response (its
    HTTP status and message) or an object type not read (a VirtualSwitch feed ...)."""
    head = text[:65536]
    if "<feed" not in head and "<entry" not in head:
        return None
    if "HttpErrorResponse" in head:
        status = re.search(_TAG_TEXT.format("HTTPStatus"), head)
        message = re.search(_TAG_TEXT.format("Message"), head) or re.search(_TAG_TEXT.format("ReasonCode"), head)
        return (f"an HMC REST error response (HTTP {status.group(1).strip() if status else '?'}): "
                f"{message.group(1).strip()[:200] if message else 'no message'}")
    kinds = set(_CONTENT_TYPE.findall(head))
    if kinds and not kinds & set(_OBJECTS):
        return f"an HMC REST {', '.join(sorted(kinds))} answer: not read (read: {', '.join(_OBJECTS)})"
    return None


def _system_uuid(*nodes: Node | None) -> str | None:
    """The managed system's UUID: from an ``AssociatedManagedSystem`` link, or the links of the
    object's Atom entry or feed (``.../ManagedSystem/<uuid>/LogicalPartition``)."""
    m = link_match(_SYSTEM_IN_LINK, *nodes)
    return m.group(1) if m else None


def _hpt(text: str) -> str | None:
    n = int(text) if text.isdigit() and len(text) <= 2 else -1  # an exponent: 5 to 9 in practice
    return f"1:{2 ** n}" if 0 < n < 20 else None


_DEDICATED = {"true": "ded", "false": "shared"}.get  # CurrentHasDedicatedProcessors -> curr_proc_mode
_SHARED_MEMORY = {"true": "shared", "false": "ded"}.get  # SharedMemoryEnabled -> mem_mode
_ENV = {"aix/linux": "aixlinux", "virtual io server": "vioserver", "os400": "os400", "ibm i": "os400"}
_SHARING = {"capped": "cap", "uncapped": "uncap", "keep idle procs": "keep_idle_procs", "sre idle proces": "share_idle_procs",
            "share idle procs": "share_idle_procs", "share idle procs active": "share_idle_procs_active",
            "share idle procs always": "share_idle_procs_always"}


def _state(text: str) -> str:
    """The command line's spelling of a state: "not activated" -> "Not Activated"."""
    return " ".join(w.capitalize() for w in text.replace("_", " ").split())


def _managed_system(ms: Node, uuid: str | None) -> list[HmcObject]:
    name = ms.value("SystemName")
    if name is None:
        return []
    system = name[0]
    a: dict[str, str] = {}
    ln: dict[str, int] = {}
    put(a, ln, "name", name)
    mtm = ms.find("MachineTypeModelAndSerialNumber")
    if mtm is not None:
        machine, model = mtm.value("MachineType"), mtm.value("Model")
        if machine and model:
            a["type_model"], ln["type_model"] = f"{machine[0]}-{model[0]}", machine[1]
        put(a, ln, "serial_num", mtm.value("SerialNumber"))
    put(a, ln, "state", ms.value("State"), _state)
    if uuid:
        a["uuid"], ln["uuid"] = uuid, ms.line
    out = [HmcObject("sys", a, ms.line, system, ln)]
    proc = ms.find("AssociatedSystemProcessorConfiguration")
    if proc is not None:
        a, ln = {}, {}
        put_all(a, ln, proc, (("installed_sys_proc_units", "InstalledSystemProcessorUnits"),
                               ("configurable_sys_proc_units", "ConfigurableSystemProcessorUnits"),
                               ("curr_avail_sys_proc_units", "CurrentAvailableSystemProcessorUnits")))
        out.append(HmcObject("proc-sys", a, proc.line, system, ln))
    mem = ms.find("AssociatedSystemMemoryConfiguration")
    if mem is not None:
        a, ln = {}, {}
        put_all(a, ln, mem, (("installed_sys_mem", "InstalledSystemMemory"), ("configurable_sys_mem", "ConfigurableSystemMemory"),
                              ("curr_avail_sys_mem", "CurrentAvailableSystemMemory"),
                              ("sys_firmware_mem", "MemoryUsedByHypervisor"),
                              ("default_hpt_ratios", "DefaultHardwarePageTableRatio", _hpt)))
        out.append(HmcObject("mem-sys", a, mem.line, system, ln))
    return out


def _partition(lp: Node, uuid: str | None, system_uuid: str | None) -> list[HmcObject]:
    name, pid = lp.value("PartitionName"), lp.value("PartitionID")
    if name is None and pid is None:
        return []
    ident: dict[str, str] = {}
    ident_lines: dict[str, int] = {}
    put(ident, ident_lines, "lpar_name", name)
    put(ident, ident_lines, "lpar_id", pid)
    if system_uuid:  # each object of the partition names its managed system (two systems' files never mix)
        ident["managed_system_uuid"], ident_lines["managed_system_uuid"] = system_uuid, lp.line
    named = lp.value("SystemName")  # newer HMCs name the managed system in the partition too
    system = named[0] if named else None
    a: dict[str, str] = {}
    ln: dict[str, int] = {}
    put(a, ln, "name", name)
    put(a, ln, "lpar_id", pid)
    put(a, ln, "lpar_env", lp.value("PartitionType"), lambda t: _ENV.get(t.lower(), t.lower()))
    put(a, ln, "state", lp.value("PartitionState"), _state)
    put(a, ln, "os_version", lp.value("OperatingSystemVersion"))
    put(a, ln, "curr_lpar_proc_compat_mode", lp.value("CurrentProcessorCompatibilityMode"))
    put(a, ln, "desired_lpar_proc_compat_mode", lp.value("PendingProcessorCompatibilityMode"))
    put(a, ln, "curr_profile", lp.value("LastActivatedProfile"))
    put(a, ln, "suspend_capable", lp.value("SuspendCapable"), FLAG)
    for key, value in (("uuid", uuid), ("managed_system_uuid", system_uuid)):
        if value:
            a[key], ln[key] = value, lp.line
    out = [HmcObject("lpar", a, lp.line, None, ln)]
    proc = lp.find("PartitionProcessorConfiguration")
    if proc is not None:
        a, ln = dict(ident), dict(ident_lines)
        put(a, ln, "curr_proc_mode", proc.value("CurrentHasDedicatedProcessors"), _DEDICATED)
        put(a, ln, "curr_sharing_mode", proc.value("CurrentSharingMode"), lambda t: _SHARING.get(t.lower()))
        shared = proc.find("CurrentSharedProcessorConfiguration")
        if shared is not None and a.get("curr_proc_mode") != "ded":
            put_all(a, ln, shared, (("curr_proc_units", "CurrentProcessingUnits"),
                                     ("curr_procs", "AllocatedVirtualProcessors"),
                                     ("curr_min_proc_units", "CurrentMinimumProcessingUnits"),
                                     ("curr_max_proc_units", "CurrentMaximumProcessingUnits"),
                                     ("curr_min_procs", "CurrentMinimumVirtualProcessors"),
                                     ("curr_max_procs", "CurrentMaximumVirtualProcessors"),
                                     ("curr_uncap_weight", "CurrentUncappedWeight"),
                                     ("curr_shared_proc_pool_id", "CurrentSharedProcessorPoolID")))
        dedicated = proc.find("CurrentDedicatedProcessorConfiguration")
        if dedicated is not None and a.get("curr_proc_mode") == "ded":
            put_all(a, ln, dedicated, (("curr_procs", "CurrentProcessors"), ("curr_min_procs", "CurrentMinimumProcessors"),
                                        ("curr_max_procs", "CurrentMaximumProcessors")))
        out.append(HmcObject("proc-lpar", a, proc.line, None, ln))
    mem = lp.find("PartitionMemoryConfiguration")
    if mem is not None:
        a, ln = dict(ident), dict(ident_lines)
        put_all(a, ln, mem, (("curr_mem", "CurrentMemory"), ("curr_min_mem", "CurrentMinimumMemory"),
                              ("curr_max_mem", "CurrentMaximumMemory"), ("curr_mem_expansion", "CurrentExpansionFactor"),
                              ("mem_mode", "SharedMemoryEnabled", _SHARED_MEMORY),
                              ("curr_hpt_ratio", "CurrentHardwarePageTableRatio", _hpt)))
        out.append(HmcObject("mem-lpar", a, mem.line, None, ln))
    if lp.tag == "VirtualIOServer":
        out.extend(_trunks(lp, ident, ident_lines))
        out.extend(sea_objects(lp, ident, ident_lines)[0])  # named by the VIOS: never unsure
        out.extend(_mappings(lp, ident, ident_lines))
    for o in out:
        o.system = o.system or system
    return out


def _trunks(vios: Node, ident: dict[str, str], ident_lines: dict[str, int]) -> list[HmcObject]:
    """A VIOS's trunk adapters (its own ``TrunkAdapters``; an SEA lists the same ones again) as the
    ``veth`` objects of ``lshwres -r virtualio --rsubtype eth``."""
    out = []
    for trunks in (c for c in vios.children if c.tag == "TrunkAdapters"):
        for t in (c for c in trunks.children if c.tag == "TrunkAdapter"):
            a, ln = dict(ident), dict(ident_lines)
            a["is_trunk"], ln["is_trunk"] = "1", t.line
            put_all(a, ln, t, (("slot_num", "VirtualSlotNumber"), ("port_vlan_id", "PortVLANID"),
                                ("addl_vlan_ids", "TaggedVLANIDs", lambda v: ",".join(v.split())),
                                ("trunk_priority", "TrunkPriority"), ("mac_addr", "MACAddress"),
                                ("ieee_virtual_eth", "TaggedVLANSupported", FLAG), ("state", "VariedOn", FLAG)))
            # REST names the virtual switch by number only: 0 is the default switch (ETHERNET0, the
            # name the model assumes when none is given); another keeps its number, so trunk adapters
            # of different switches are never compared as one
            put(a, ln, "vswitch", t.value("VirtualSwitchID"), lambda v: None if v == "0" else f"virtual switch {v}")
            out.append(HmcObject("veth", a, t.line, None, ln))
    return out


_MAPPINGS = (("VirtualSCSIMappings", "VirtualSCSIMapping", "vscsi", "RemoteLogicalPartitionID", "RemoteSlotNumber"),
             ("VirtualFibreChannelMappings", "VirtualFibreChannelMapping", "vfc", "ConnectingPartitionID",
              "ConnectingVirtualSlotNumber"))


def _mappings(vios: Node, ident: dict[str, str], ident_lines: dict[str, int]) -> list[HmcObject]:
    """A VIOS's vSCSI and vFC server adapters, from its mappings, as the ``vscsi`` / ``vfc`` objects of
    ``lshwres -r virtualio``: its slot, and the client partition and slot it serves (which pairs the
    VIOS that serve one client). The client's own adapter is not made from them: a VIOS file alone
    does not say which other VIOS the client uses, and a client known only by its id would be a
    partition the frame's configuration may not list."""
    out = []
    for group, item, res, remote_id, remote_slot in _MAPPINGS:
        for maps in (c for c in vios.children if c.tag == group):
            for mp in (c for c in maps.children if c.tag == item):
                ad = mp.find("ServerAdapter")
                if ad is None or ad.value("VirtualSlotNumber") is None:
                    continue
                a, ln = dict(ident), dict(ident_lines)
                a["adapter_type"], ln["adapter_type"] = "server", ad.line
                put_all(a, ln, ad, (("slot_num", "VirtualSlotNumber"), ("remote_lpar_id", remote_id),
                                     ("remote_slot_num", remote_slot)))
                out.append(HmcObject(res, a, ad.line, None, ln))
    return out


def _pool(pool: Node, system_uuid: str | None) -> list[HmcObject]:
    a: dict[str, str] = {}
    ln: dict[str, int] = {}
    put_all(a, ln, pool, (("shared_proc_pool_id", "PoolID"), ("name", "PoolName"),
                           ("max_pool_proc_units", "MaximumProcessingUnits"),
                           ("curr_reserved_pool_proc_units", "CurrentReservedProcessingUnits")))
    if "shared_proc_pool_id" not in a:
        return []
    if system_uuid:
        a["managed_system_uuid"], ln["managed_system_uuid"] = system_uuid, pool.line
    return [HmcObject("procpool", a, pool.line, None, ln)]


def _objects(root: Node) -> list[tuple[Node, Node | None]]:
    """Each object of :data:`_OBJECTS` (not one nested in another), with its Atom entry when it has
    one, in document order (without recursion: any depth of nesting is read)."""
    found: list[tuple[Node, Node | None]] = []
    todo: list[tuple[Node, Node | None]] = [(root, None)]
    while todo:
        node, entry = todo.pop()
        if node.tag in _OBJECTS:
            found.append((node, entry))
            continue
        inner = node if node.tag == "entry" else entry
        todo.extend((c, inner) for c in reversed(node.children))
    return found


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    lines = split_lines(text)
    start = next((i for i, ln in enumerate(lines) if _ROOT_RE.match(ln)), None)
    if start is None:
        out.warn(1, "no HMC REST XML object found")
        return out
    before = sum(1 for ln in lines[:start] if ln.strip())  # blank lines before the XML are nothing unread
    if before:
        out.warn(1, f"{before} line(s) before the XML not read")
    root, why = read_tree(lines, start)
    if root is None:
        out.warn(start + 1, f"XML not read: {why}")
        return out
    skipped: set[str] = set()
    for obj, entry in _objects(root):
        entry_id = entry.value("id") if entry is not None else None
        uuid = entry_id[0] if entry_id else None
        system_uuid = _system_uuid(obj.find("AssociatedManagedSystem"), entry, root if root.tag == "feed" else None)
        if obj.tag == "ManagedSystem":
            out.records.extend(_managed_system(obj, uuid))
        elif obj.tag == "SharedProcessorPool":
            out.records.extend(_pool(obj, system_uuid))
        elif obj.tag == "VirtualNICDedicated":
            out.records.extend(vnic_objects(obj, entry, root if root.tag == "feed" else None))
        elif obj.tag == "NetworkBridge":
            seas, unsure = sea_objects(obj, {}, {}, system_uuid)
            out.records.extend(seas)
            for line, message in unsure:
                out.warn(line, message)
        else:
            own_uuid = obj.value("PartitionUUID")
            out.records.extend(_partition(obj, uuid or (own_uuid[0] if own_uuid else None), system_uuid))
            if obj.tag == "VirtualIOServer":
                skipped.add("VIOS storage backing devices (its trunk adapters, SEAs and mappings are read)")
    if not out.records:
        out.warn(start + 1, "no ManagedSystem, partition, shared pool, SEA or vNIC object with a name or id")
    for what in sorted(skipped):
        out.warn(start + 1, f"not read: {what}")
    return out
