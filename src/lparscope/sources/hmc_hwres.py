"""HMC resource listings: ``lshwres -r proc|mem|procpool|virtualio|io|mempool|rspool``.

Input (attribute=value CSV, one object per line, lists quoted)::

    hscroot@hmc1:~> lshwres -r virtualio --rsubtype eth --level lpar -m p9frame1
    lpar_name=vios1,lpar_id=1,slot_num=10,state=1,is_required=1,is_trunk=1,trunk_priority=1,ieee_virtual_eth=1,port_vlan_id=1,vswitch=ETHERNET0,"addl_vlan_ids=100,200",mac_addr=FAD1E3A1B00A,allowed_os_mac_addrs=all,qos_priority=none

Output: one :class:`HmcObject` per line; ``resource`` from the command line ("proc-sys",
"proc-lpar", "proc-pool", "procpool", "mem-sys", "mem-lpar", "veth", "vscsi", "vfc",
"vserial", "vslot", "io-slot", "vnic", "sriov-adapter", "sriov-physport", "sriov-logport", ...) or,
without one, from the attribute names (a vFC server row, which has no WWPNs, from its listing:
``_hmc_command.infer_resources``)::

    HmcObject(resource="veth", system="p9frame1", line=2,
              attrs={"lpar_name": "vios1", "slot_num": "10", "addl_vlan_ids": "100,200", ...})
    veth(obj) == {"lpar_name": "vios1", "lpar_id": 1, "slot": 10, "is_trunk": True,
                  "trunk_priority": 1, "pvid": 1, "vlans": [100, 200], "vswitch": "ETHERNET0", ...}

Active Memory Sharing and suspend/resume (000_31a80e54567cd02b.txt §3.3, §3.10)::

    hscroot@hmc1:~> lshwres -r mempool -m p7frame1
    curr_pool_mem=65536,curr_avail_pool_mem=2048,curr_max_pool_mem=98304,pend_pool_mem=65536,pend_avail_pool_mem=2048,pend_max_pool_mem=98304,sys_firmware_pool_mem=1536,"paging_vios_names=vios1,vios2","paging_vios_ids=1,2",mem_dedup=1
    hscroot@hmc1:~> lshwres -r mempool -m p7frame1 --rsubtype pgdev
    device_name=hdisk12,paging_vios_name=vios1,paging_vios_id=1,size=40960,type=phys,state=Active,phys_loc=U78A0.001.DNWHZS4-P2-D4,is_redundant=1,redundant_device_name=hdisk12,redundant_paging_vios_name=vios2,redundant_paging_vios_id=2,redundant_state=Inactive,lpar_name=aix3,lpar_id=3
    hscroot@hmc1:~> lshwres -r rspool -m p7frame1 --rsubtype rsdev
    device_name=hdisk20,vios_name=vios1,vios_id=1,size=32768,type=phys,state=Inactive,phys_loc=U78A0.001.DNWHZS4-P2-D6,is_redundant=0,lpar_name=none,lpar_id=none

give resources "mempool", "mempool-pgdev", "rspool" and "rspool-rsdev"; :func:`mempool`,
:func:`paging_device` and :func:`rs_device` type them (sizes in MB, ``lpar`` None when the
device is free). :func:`mem_lpar` adds a shared-memory partition's I/O entitled memory, memory
weight and paging VIOS (``mem_mode=shared``).

vNICs (``lshwres -r virtualio --rsubtype vnic --level lpar``; a row without its command line is told
from a virtual Ethernet adapter by its ``backing_devices``) give "vnic" objects; the first fields of
each backing device, ``sriov/<VIOS>/<VIOS id>/<SR-IOV adapter id>/<physical port id>/...``, are
what the frame model reads (``_hmc_adapters.VNIC_BACKING_RE``), and one in another form is warned
about (``hmc_util.parse_hmc``, for every HMC kind)::

    lpar_name=app21,lpar_id=21,slot_num=6,...,port_vlan_id=0,"backing_devices=sriov/vios9a/1/1/0/27004015/2.0/...,sriov/vios9b/2/2/0/..."

Typed readers: :func:`veth`, :func:`vscsi`, :func:`vfc` for adapter rows, :func:`proc_lpar`
and :func:`mem_lpar` for partition settings (current / pending / running), :func:`ratio`
for ``default_hpt_ratios=1:64``. Also read: ``-F`` value lines, HMC messages
(``HSCLA4C0 The managed system does not support virtual fibre channel``, an
:class:`HmcMessage`) and quoted values over several lines.
"""

from __future__ import annotations

from typing import Any

from . import _hmc_command as hcmd
from . import _hmc_csv as hc
from . import _hmc_values as hv
from . import hmc_util
from .base import Parsed

KIND = "lshwres"
TITLE = "lshwres -r proc|mem|procpool|virtualio|io"
COMMANDS = [r"^lshwres\b"]
STARTS = None

HmcObject = hv.HmcObject
HmcMessage = hv.HmcMessage
as_int = hv.as_int
as_float = hv.as_float
as_bool = hv.as_bool
ratio = hv.ratio
int_list = hv.int_list


def detect(text: str) -> int:
    return hc.detect_objects(text, COMMANDS, lambda o: (hcmd.infer_resource(o) or "") in hcmd.HWRES_RESOURCES)


def _who(obj: HmcObject) -> dict[str, Any]:
    return {"lpar_name": obj.attrs.get("lpar_name"), "lpar_id": obj.int("lpar_id"), "system": obj.system,
            "slot": obj.int("slot_num"), "state": obj.int("state"), "is_required": hv.as_bool(obj.attrs, "is_required")}


def veth(obj: HmcObject) -> dict[str, Any]:
    """A ``--rsubtype eth`` row, typed (``trunk_priority`` 0 when not a trunk)."""
    a = obj.attrs
    trunk = hv.as_bool(a, "is_trunk")
    prio = obj.int("trunk_priority") or 0
    return {**_who(obj), "is_trunk": bool(trunk) if trunk is not None else prio > 0, "trunk_priority": prio,
            "ieee_virtual_eth": hv.as_bool(a, "ieee_virtual_eth"), "pvid": obj.int("port_vlan_id"),
            "vlans": hv.int_list(a.get("addl_vlan_ids")), "vswitch": obj.get("vswitch"), "mac": obj.get("mac_addr")}


def vscsi(obj: HmcObject) -> dict[str, Any]:
    """A ``--rsubtype scsi`` row: this end's slot and the remote partition and slot."""
    return {**_who(obj), "adapter_type": obj.attrs.get("adapter_type"), "remote_lpar_id": obj.int("remote_lpar_id"),
            "remote_lpar_name": obj.get("remote_lpar_name"), "remote_slot": obj.int("remote_slot_num")}


def vfc(obj: HmcObject) -> dict[str, Any]:
    """A ``--rsubtype fc`` row: like :func:`vscsi` plus the client WWPNs."""
    return {**vscsi(obj), "wwpns": hv.split_list(obj.attrs.get("wwpns")), "topology": obj.get("topology")}


_PROC_KEYS = ("proc_mode", "sharing_mode", "shared_proc_pool_id", "shared_proc_pool_name")
_PROC_NUMS = ("min_proc_units", "proc_units", "max_proc_units", "min_procs", "procs", "max_procs", "uncap_weight")


def proc_lpar(obj: HmcObject, state: str = "curr") -> dict[str, Any]:
    """``-r proc --level lpar`` settings of one state ("curr", "pend" or "run"), numbers typed."""
    a = obj.attrs
    out: dict[str, Any] = {"lpar_name": a.get("lpar_name"), "lpar_id": obj.int("lpar_id"), "system": obj.system}
    for k in _PROC_KEYS:
        out[k] = a.get(f"{state}_{k}")
    for k in _PROC_NUMS:
        out[k] = obj.float(f"{state}_{k}")
    return out


_MEM_NUMS = ("min_mem", "mem", "max_mem", "num_huge_pages", "min_num_huge_pages", "max_num_huge_pages")


def mem_lpar(obj: HmcObject, state: str = "curr") -> dict[str, Any]:
    """``-r mem --level lpar`` settings of one state, in MB; ``hpt_ratio`` as its divisor (64 for 1:64)."""
    a = obj.attrs
    out: dict[str, Any] = {"lpar_name": a.get("lpar_name"), "lpar_id": obj.int("lpar_id"), "system": obj.system,
                           "mem_mode": a.get("mem_mode"), "hpt_ratio": hv.ratio(a.get(f"{state}_hpt_ratio")),
                           "mem_expansion": obj.float(f"{state}_mem_expansion")}
    for k in _MEM_NUMS:
        out[k] = obj.int(f"{state}_{k}")
    io = a.get(f"{state}_io_entitled_mem")
    out["io_entitled_auto"] = (io or "").strip().lower() == "auto"
    out["io_entitled_mem"] = obj.int(f"{state}_io_entitled_mem")
    out["mem_weight"] = obj.int(f"{state}_mem_weight")
    out["paging_vios"] = [v for v in (obj.get("primary_paging_vios_name"), obj.get("secondary_paging_vios_name")) if v]
    return out


def mempool(obj: HmcObject) -> dict[str, Any]:
    """``-r mempool``: the shared memory pool (MB), its paging VIOS and whether deduplication is on."""
    a = obj.attrs
    return {"system": obj.system, "pool_mem": obj.int("curr_pool_mem"), "avail_mem": obj.int("curr_avail_pool_mem"),
            "max_pool_mem": obj.int("curr_max_pool_mem"), "firmware_mem": obj.int("sys_firmware_pool_mem"),
            "paging_vios": hv.split_list(a.get("paging_vios_names")),
            "dedup": hv.as_bool(a, "mem_dedup") if "mem_dedup" in a else hv.as_bool(a, "curr_mem_dedup")}


def _device(obj: HmcObject, vios_key: str) -> dict[str, Any]:
    a = obj.attrs
    redundant = hv.as_bool(a, "is_redundant")
    return {"system": obj.system, "device": obj.get("device_name"), "vios": obj.get(f"{vios_key}_name"),
            "vios_id": obj.int(f"{vios_key}_id"), "size_mb": obj.int("size"), "state": obj.get("state"),
            "redundant": bool(redundant), "redundant_vios": obj.get(f"redundant_{vios_key}_name") if redundant else None,
            "lpar": obj.get("lpar_name"), "lpar_id": obj.int("lpar_id")}


def paging_device(obj: HmcObject) -> dict[str, Any]:
    """``-r mempool --rsubtype pgdev``: one paging space device, its VIOS (and redundant VIOS) and partition."""
    return _device(obj, "paging_vios")


def rs_device(obj: HmcObject) -> dict[str, Any]:
    """``-r rspool --rsubtype rsdev``: one reserved storage device of the suspend/resume pool."""
    return _device(obj, "vios")


def objects(parsed: Parsed, resource: str) -> list[HmcObject]:
    """The :class:`HmcObject` records of one resource ("proc-lpar", "veth", ...)."""
    return [r for r in parsed.records if isinstance(r, HmcObject) and r.resource == resource]


def parse(text: str) -> Parsed:
    return hmc_util.parse_hmc(text, KIND)
