"""HMC resource listings: ``lshwres -r proc|mem|procpool|virtualio|io``.

Input (attribute=value CSV, one object per line, lists quoted)::

    hscroot@hmc1:~> lshwres -r virtualio --rsubtype eth --level lpar -m p9frame1
    lpar_name=vios1,lpar_id=1,slot_num=10,state=1,is_required=1,is_trunk=1,trunk_priority=1,ieee_virtual_eth=1,port_vlan_id=1,vswitch=ETHERNET0,"addl_vlan_ids=100,200",mac_addr=FAD1E3A1B00A,allowed_os_mac_addrs=all,qos_priority=none

Output: one :class:`HmcObject` per line; ``resource`` from the command line ("proc-sys",
"proc-lpar", "proc-pool", "procpool", "mem-sys", "mem-lpar", "veth", "vscsi", "vfc",
"vserial", "vslot", "io-slot", ...) or, without one, from the attribute names::

    HmcObject(resource="veth", system="p9frame1", line=2,
              attrs={"lpar_name": "vios1", "slot_num": "10", "addl_vlan_ids": "100,200", ...})
    veth(obj) == {"lpar_name": "vios1", "lpar_id": 1, "slot": 10, "is_trunk": True,
                  "trunk_priority": 1, "pvid": 1, "vlans": [100, 200], "vswitch": "ETHERNET0", ...}

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
    return out


def objects(parsed: Parsed, resource: str) -> list[HmcObject]:
    """The :class:`HmcObject` records of one resource ("proc-lpar", "veth", ...)."""
    return [r for r in parsed.records if isinstance(r, HmcObject) and r.resource == resource]


def parse(text: str) -> Parsed:
    return hmc_util.parse_hmc(text, KIND)
