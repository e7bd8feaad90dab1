"""The slash-separated adapter lists of HMC partition profiles (``virtual_eth_adapters``,
``virtual_scsi_adapters``, ``virtual_fc_adapters``, ``virtual_serial_adapters``, ``io_slots``)
read into typed dicts, and the backing devices of a vNIC (``backing_devices``).
"""

from __future__ import annotations

import re
from typing import TypedDict

from ._hmc_values import NONE_VALUES, _flag, _opt_int, int_list, split_list
from .base import to_int


class VethAdapter(TypedDict):
    slot: int | None
    ieee_virtual_eth: bool | None
    pvid: int | None
    vlans: list[int]  # additional (802.1Q) VLAN ids
    trunk_priority: int  # 0 = not a trunk adapter
    is_trunk: bool
    is_required: bool | None
    vswitch: str | None
    mac: str | None
    allowed_os_mac: str | None
    qos_priority: str | None
    raw: str


class VscsiAdapter(TypedDict):
    slot: int | None
    adapter_type: str  # "client" / "server"
    remote_lpar_id: int | None  # None for "any"
    remote_lpar_name: str | None
    remote_slot: int | None
    is_required: bool | None
    raw: str


class VfcAdapter(TypedDict):
    slot: int | None
    adapter_type: str
    remote_lpar_id: int | None
    remote_lpar_name: str | None
    remote_slot: int | None
    wwpns: list[str]
    is_required: bool | None
    raw: str


class SerialAdapter(TypedDict):
    slot: int | None
    adapter_type: str
    supports_hmc: bool | None
    remote_lpar_id: int | None
    remote_lpar_name: str | None
    remote_slot: int | None
    is_required: bool | None
    raw: str


class IoSlot(TypedDict):
    drc_index: str
    slot_io_pool_id: str | None
    is_required: bool | None
    raw: str


def _parts(raw: str, n: int) -> list[str]:
    p = raw.split("/")
    return p + [""] * (n - len(p))


def parse_veth_adapters(value: str | None) -> list[VethAdapter]:
    """``virtual_eth_adapters`` of a profile.

    Element: ``slot/ieee_virtual_eth/port_vlan_id/[addl_vlan_ids]/[trunk_priority]/is_required
    [/[vswitch]/[mac]/[allowed_os_mac_addrs]/[qos_priority]]``; e.g. ``7/0/7//1/0`` is a trunk
    adapter of priority 1 in slot 7 with PVID 7.
    """
    out: list[VethAdapter] = []
    for raw in split_list(value):
        p = _parts(raw, 10)
        prio = to_int(p[4]) or 0
        out.append(VethAdapter(
            slot=to_int(p[0]), ieee_virtual_eth=_flag(p[1]), pvid=to_int(p[2]), vlans=int_list(p[3]),
            trunk_priority=prio, is_trunk=prio > 0, is_required=_flag(p[5]), vswitch=p[6] or None,
            mac=p[7] or None, allowed_os_mac=p[8] or None, qos_priority=p[9] or None, raw=raw))
    return out


def parse_vscsi_adapters(value: str | None) -> list[VscsiAdapter]:
    """``virtual_scsi_adapters``: ``slot/client|server/[remote_lpar_id]/[remote_lpar_name]/[remote_slot]/is_required``."""
    out: list[VscsiAdapter] = []
    for raw in split_list(value):
        p = _parts(raw, 6)
        out.append(VscsiAdapter(slot=to_int(p[0]), adapter_type=p[1], remote_lpar_id=_opt_int(p[2]),
                                remote_lpar_name=p[3] or None, remote_slot=_opt_int(p[4]),
                                is_required=_flag(p[5]), raw=raw))
    return out


def parse_vfc_adapters(value: str | None) -> list[VfcAdapter]:
    """``virtual_fc_adapters``: ``slot/client|server/remote_lpar_id/remote_lpar_name/remote_slot/[wwpns]/is_required``."""
    out: list[VfcAdapter] = []
    for raw in split_list(value):
        p = raw.split("/")
        if len(p) < 7:
            p = p + [""] * (7 - len(p))
        required = p[-1] if len(p) >= 7 else ""
        wwpns = "/".join(p[5:-1]) if len(p) >= 7 else p[5]
        out.append(VfcAdapter(slot=to_int(p[0]), adapter_type=p[1], remote_lpar_id=_opt_int(p[2]),
                              remote_lpar_name=p[3] or None, remote_slot=_opt_int(p[4]),
                              wwpns=[w for w in re.split(r"[,\s]+", wwpns) if w], is_required=_flag(required),
                              raw=raw))
    return out


def parse_serial_adapters(value: str | None) -> list[SerialAdapter]:
    """``virtual_serial_adapters``: ``slot/type/supports_hmc/remote_lpar_id/remote_lpar_name/remote_slot/is_required``."""
    out: list[SerialAdapter] = []
    for raw in split_list(value):
        p = _parts(raw, 7)
        out.append(SerialAdapter(slot=to_int(p[0]), adapter_type=p[1], supports_hmc=_flag(p[2]),
                                 remote_lpar_id=_opt_int(p[3]), remote_lpar_name=p[4] or None,
                                 remote_slot=_opt_int(p[5]), is_required=_flag(p[6]), raw=raw))
    return out


def parse_io_slots(value: str | None) -> list[IoSlot]:
    """``io_slots``: ``drc_index/[slot_io_pool_id]/is_required``."""
    out: list[IoSlot] = []
    for raw in split_list(value):
        p = _parts(raw, 3)
        pool = p[1] if p[1].strip().lower() not in NONE_VALUES else None
        out.append(IoSlot(drc_index=p[0], slot_io_pool_id=pool, is_required=_flag(p[2]), raw=raw))
    return out


# A vNIC backing device as lshwres lists it: sriov/<VIOS>/<VIOS id>/<SR-IOV adapter id>/<physical port id>/...
# (the chhwres and profile form starts the same way; only these first fields are read)
VNIC_BACKING_RE = re.compile(r"^sriov/(?P<vios>[^/]+)/(?P<vios_id>\d+)/(?P<adapter>\d+)/(?P<port>\d+)(?:/|$)")


def vnic_backings(value: str | None) -> list[str]:
    """The backing devices of a vNIC's ``backing_devices`` value (comma-separated; "none": none)."""
    items = [x.strip() for x in (value or "").split(",")]
    return [x for x in items if x and x.lower() != "none"]
