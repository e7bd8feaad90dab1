"""HMC CLI records into frames: ``lssyscfg -r sys/lpar/prof`` and ``lshwres`` (processor, memory,
pools, virtual Ethernet / SCSI / FC slots), the running values against the current profile, and the
adapters a profile lists when ``lshwres -r virtualio`` was not collected.
"""

from __future__ import annotations

import re
from typing import Any

from .estate import Evidence
from .frame import (Frame, FramePartition, SharedPool, VirtualEth, VirtualSlot, int_list, opt_float, opt_int,
    opt_str, ratio_divisor)
from .frame_memory import SharedMemoryPool, StorageDevice
from .frame_records import FrameSet, HmcItem, record_attrs
from .frame_io import io_slot_object
from .frame_vnic import vnic_object

_PROC_RUN = {  # profile attribute: lshwres -r proc --level lpar attribute
    "proc_mode": "curr_proc_mode", "min_proc_units": "curr_min_proc_units", "desired_proc_units": "curr_proc_units",
    "max_proc_units": "curr_max_proc_units", "min_procs": "curr_min_procs", "desired_procs": "curr_procs",
    "max_procs": "curr_max_procs", "sharing_mode": "curr_sharing_mode", "uncap_weight": "curr_uncap_weight",
    "shared_proc_pool_id": "curr_shared_proc_pool_id",
}
_MEM_RUN = {
    "min_mem": "curr_min_mem", "desired_mem": "curr_mem", "max_mem": "curr_max_mem", "hpt_ratio": "curr_hpt_ratio",
    "mem_expansion": "curr_mem_expansion", "mem_mode": "mem_mode",
}


def hmc_object(fs: FrameSet, fr: Frame, it: HmcItem) -> None:
    rec, a = it.rec, record_attrs(it.rec)
    res = rec.resource
    ev = it.ev
    if res == "sys":
        fr.model = opt_str(a.get("type_model")) or fr.model
        fr.serial = opt_str(a.get("serial_num")) or fr.serial
        fr.state = opt_str(a.get("state")) or fr.state
        for k in ("type_model", "serial_num", "state"):
            if k in a:
                fr.evidence.setdefault(k, ev(k))
        if fr.serial:
            fs.serials[fr.serial] = fr.name
    elif res == "proc-sys":
        for ours, theirs in (("cores_installed", "installed_sys_proc_units"),
                             ("cores_configurable", "configurable_sys_proc_units"),
                             ("cores_available", "curr_avail_sys_proc_units")):
            if opt_float(a.get(theirs)) is not None:
                setattr(fr, ours, opt_float(a.get(theirs)))
                fr.evidence[ours] = ev(theirs)
        fr.cores_active = fr.cores_configurable
    elif res == "mem-sys":
        for ours, theirs in (("mem_installed", "installed_sys_mem"), ("mem_configurable", "configurable_sys_mem"),
                             ("mem_firmware", "sys_firmware_mem"), ("mem_available", "curr_avail_sys_mem")):
            if opt_int(a.get(theirs)) is not None:
                setattr(fr, ours, opt_int(a.get(theirs)))
                fr.evidence[ours] = ev(theirs)
        div = ratio_divisor((a.get("default_hpt_ratios") or a.get("default_hpt_ratio") or "").split(",")[0])
        if div:
            fr.default_hpt_ratio = div
            fr.evidence["default_hpt_ratio"] = ev("default_hpt_ratios" if "default_hpt_ratios" in a else "default_hpt_ratio")
    elif res == "proc-pool":  # lshwres -r proc --level pool: the default pool
        pool = fr.pools.setdefault(0, SharedPool(0, "DefaultPool"))
        size = opt_float(a.get("configurable_pool_proc_units"))
        if size is not None:
            pool.max_units = size
            pool.evidence["max_units"] = ev("configurable_pool_proc_units")
    elif res == "procpool":  # lshwres -r procpool: every shared pool
        pid = opt_int(a.get("shared_proc_pool_id"))
        if pid is None:
            return
        pool = fr.pools.setdefault(pid, SharedPool(pid))
        pool.name = opt_str(a.get("name")) or pool.name
        if pid != 0 and opt_float(a.get("max_pool_proc_units")) is not None:
            pool.max_units = opt_float(a.get("max_pool_proc_units"))
            pool.evidence["max_units"] = ev("max_pool_proc_units")
        if opt_float(a.get("curr_reserved_pool_proc_units")) is not None:
            pool.reserved_units = opt_float(a.get("curr_reserved_pool_proc_units"))
            pool.evidence["reserved_units"] = ev("curr_reserved_pool_proc_units")
        pool.evidence.setdefault("pool", ev(None))
    elif res in ("mempool", "mempool-pgdev", "rspool-rsdev"):
        pool_object(fr, res, a, ev)
    elif res == "lpar":
        p = fs.part(fr, opt_str(a.get("name")), opt_int(a.get("lpar_id")))
        if p is None:
            return
        suspend = _flag(a.get("suspend_capable"))
        if suspend is not None:
            p.suspend_capable = suspend
            p.evidence["suspend_capable"] = ev("suspend_capable")
        p.env = opt_str(a.get("lpar_env")) or p.env
        p.uuid = opt_str(a.get("uuid")) or p.uuid
        p.state = opt_str(a.get("state")) or p.state
        p.os_version = opt_str(a.get("os_version")) or p.os_version
        for ours, theirs in (("compat_mode", "curr_lpar_proc_compat_mode"),
                             ("compat_mode_preferred", "desired_lpar_proc_compat_mode")):
            if opt_str(a.get(theirs)):
                setattr(p, ours, opt_str(a.get(theirs)))
                p.evidence[ours] = ev(theirs)
        p.profile_name = opt_str(a.get("curr_profile")) or opt_str(a.get("default_profile")) or p.profile_name
        for k in ("lpar_env", "state", "lpar_id"):
            if k in a:
                p.evidence.setdefault(k, ev(k))
        p.evidence.setdefault("lpar", ev(None))
    elif res == "proc-lpar":
        p = fs.part(fr, opt_str(a.get("lpar_name")), opt_int(a.get("lpar_id")))
        if p is None:
            return
        proc_running(p, a, ev)
    elif res == "mem-lpar":
        p = fs.part(fr, opt_str(a.get("lpar_name")), opt_int(a.get("lpar_id")))
        if p is None:
            return
        mem_running(p, a, ev)
    elif res == "prof":
        p = fs.part(fr, opt_str(a.get("lpar_name")), opt_int(a.get("lpar_id")))
        if p is None:
            return
        p.env = p.env or opt_str(a.get("lpar_env"))
        prof = opt_str(a.get("name"))
        profiles = p.__dict__.setdefault("_profiles", {})
        profiles[prof] = (a, {k: ev(k) for k in a})
    elif res == "veth":
        p = fs.part(fr, opt_str(a.get("lpar_name")), opt_int(a.get("lpar_id")))
        if p is None:
            return
        prio = opt_int(a.get("trunk_priority"))
        trunk = opt_str(a.get("is_trunk")) == "1"
        p.veth.append(VirtualEth(
            slot=opt_int(a.get("slot_num")), pvid=opt_int(a.get("port_vlan_id")), vlans=int_list(a.get("addl_vlan_ids")),
            trunk=trunk, priority=prio if trunk else None, vswitch=opt_str(a.get("vswitch")),
            ieee=opt_str(a.get("ieee_virtual_eth")) == "1", mac=opt_str(a.get("mac_addr")), state=opt_str(a.get("state")),
            evidence=ev("slot_num")))
    elif res == "sea":
        sea_object(fs, fr, a, ev)
    elif res in ("vnic", "vnicbkdev"):
        vnic_object(fs, fr, res, a, ev)
    elif res == "io-slot":
        io_slot_object(fs, fr, a, ev)
    elif res in ("vscsi", "vfc"):
        p = fs.part(fr, opt_str(a.get("lpar_name")), opt_int(a.get("lpar_id")))
        if p is None:
            return
        slot = VirtualSlot(res, opt_int(a.get("slot_num")), (opt_str(a.get("adapter_type")) or "").lower(),
                           opt_int(a.get("remote_lpar_id")), opt_str(a.get("remote_lpar_name")), opt_int(a.get("remote_slot_num")),
                           wwpns=[w for w in re.split(r"[,\s]+", a.get("wwpns") or "") if w.strip()],
                           evidence=ev("slot_num"))
        (p.vscsi if res == "vscsi" else p.vfc).append(slot)


_SEA_IDENT = ("lpar_name", "lpar_id", "vios_uuid", "managed_system_uuid")


def sea_object(fs: FrameSet, fr: Frame, a: dict[str, str], ev: Any) -> None:
    """An SEA of the HMC REST data as a row of ``fr.seas`` (as HMC Scanner's SEA sheet gives one): its
    VIOS found by UUID when the data names it so, else by name or partition id."""
    p = fr.by_uuid(opt_str(a.get("vios_uuid"))) or fs.part(fr, opt_str(a.get("lpar_name")), opt_int(a.get("lpar_id")))
    if p is None:
        return
    p.env = p.env or "vioserver"  # only a VIOS has an SEA
    row: dict[str, Any] = {k: v for k, v in a.items() if k not in _SEA_IDENT}
    row.update(vios=p.name, evidence=ev("ha_mode" if "ha_mode" in a else "sea"))
    known = next((r for r in fr.seas if (r.get("vios"), r.get("sea")) == (p.name, row.get("sea"))), None)
    if known is None:
        fr.seas.append(row)
    elif "ha_mode" in row and not known.get("ha_mode"):  # the same SEA, listed again with its settings
        known.update(row)
    else:
        for k, v in row.items():
            known.setdefault(k, v)


def _flag(v: Any) -> bool | None:
    t = (opt_str(v) or "").lower()
    return True if t in ("1", "true", "yes", "on") else False if t in ("0", "false", "no", "off") else None


def pool_object(fr: Frame, res: str, a: dict[str, str], ev: Any) -> None:
    """``lshwres -r mempool`` (the pool, its paging devices) and ``-r rspool --rsubtype rsdev``."""
    if res == "mempool":
        pool = fr.mem_pool = fr.mem_pool or SharedMemoryPool()
        for ours, theirs in (("size_mb", "curr_pool_mem"), ("available_mb", "curr_avail_pool_mem"),
                             ("max_mb", "curr_max_pool_mem"), ("firmware_mb", "sys_firmware_pool_mem")):
            if opt_int(a.get(theirs)) is not None:
                setattr(pool, ours, opt_int(a.get(theirs)))
                pool.evidence[ours] = ev(theirs)
        names = [n.strip() for n in (a.get("paging_vios_names") or "").split(",") if opt_str(n)]
        if names:
            pool.paging_vios, pool.evidence["paging_vios"] = names, ev("paging_vios_names")
        dedup = _flag(a.get("mem_dedup", a.get("curr_mem_dedup")))
        if dedup is not None:
            pool.dedup, pool.evidence["dedup"] = dedup, ev("mem_dedup" if "mem_dedup" in a else "curr_mem_dedup")
        return
    vios_key = "paging_vios" if res == "mempool-pgdev" else "vios"
    redundant = _flag(a.get("is_redundant"))
    dev = StorageDevice(opt_str(a.get("device_name")) or "?", opt_str(a.get(f"{vios_key}_name")), opt_int(a.get("size")),
                        opt_str(a.get("lpar_name")), opt_int(a.get("lpar_id")),
                        opt_str(a.get(f"redundant_{vios_key}_name")) if redundant else None, opt_str(a.get("state")),
                        ev("device_name"))
    if res == "mempool-pgdev":
        fr.mem_pool = fr.mem_pool or SharedMemoryPool()
        fr.mem_pool.devices.append(dev)
    else:
        fr.rs_devices.append(dev)


def proc_running(p: FramePartition, a: dict[str, str], ev: Any) -> None:
    p.proc_mode = opt_str(a.get("curr_proc_mode")) or p.proc_mode
    p.sharing_mode = opt_str(a.get("curr_sharing_mode")) or p.sharing_mode
    for ours, theirs, conv in (("ec", "curr_proc_units", opt_float), ("vps", "curr_procs", opt_int),
                               ("min_ec", "curr_min_proc_units", opt_float), ("max_ec", "curr_max_proc_units", opt_float),
                               ("min_vps", "curr_min_procs", opt_int), ("max_vps", "curr_max_procs", opt_int),
                               ("weight", "curr_uncap_weight", opt_int), ("pool_id", "curr_shared_proc_pool_id", opt_int)):
        v = conv(a.get(theirs))
        if v is not None:
            setattr(p, ours, v)
            p.evidence[ours] = ev(theirs)
    for k in ("curr_proc_mode", "curr_sharing_mode"):
        if k in a:
            p.evidence[k.removeprefix("curr_")] = ev(k)
    p.pool_name = opt_str(a.get("curr_shared_proc_pool_name")) or p.pool_name
    for prof_key, run_key in _PROC_RUN.items():
        if opt_str(a.get(run_key)) is not None:
            p.running[prof_key] = a[run_key].strip()
            p.running_evidence[prof_key] = ev(run_key)


def mem_running(p: FramePartition, a: dict[str, str], ev: Any) -> None:
    for ours, theirs in (("mem", "curr_mem"), ("mem_min", "curr_min_mem"), ("mem_max", "curr_max_mem")):
        v = opt_int(a.get(theirs))
        if v is not None:
            setattr(p, ours, v)
            p.evidence[ours] = ev(theirs)
    p.mem_mode = opt_str(a.get("mem_mode")) or p.mem_mode
    if "mem_mode" in a:
        p.evidence["mem_mode"] = ev("mem_mode")
    io = opt_str(a.get("curr_io_entitled_mem"))
    if io is not None:
        p.io_entitled_auto = io.lower() == "auto"
        p.io_entitled_mb = opt_int(io)
        p.evidence["io_entitled_mem"] = ev("curr_io_entitled_mem")
    paging = [v for v in (opt_str(a.get("primary_paging_vios_name")), opt_str(a.get("secondary_paging_vios_name"))) if v]
    if paging or "primary_paging_vios_name" in a:
        p.paging_vios = paging
        p.evidence["paging_vios"] = ev("primary_paging_vios_name")
    div = ratio_divisor(a.get("curr_hpt_ratio"))
    if div:
        p.hpt_ratio = div
        p.evidence["hpt_ratio"] = ev("curr_hpt_ratio")
    ame = opt_float(a.get("curr_mem_expansion"))
    if ame:
        p.ame_factor = ame
        p.evidence["ame_factor"] = ev("curr_mem_expansion")
    for prof_key, run_key in _MEM_RUN.items():
        if opt_str(a.get(run_key)) is not None:
            p.running[prof_key] = a[run_key].strip()
            p.running_evidence[prof_key] = ev(run_key)


def settle_profile(fr: Frame) -> None:
    """Pick each partition's current profile; fill settings the running data did not give."""
    for p in fr.partitions.values():
        profiles: dict[str | None, tuple[dict[str, str], dict[str, Evidence]]] = p.__dict__.pop("_profiles", {})
        if not profiles:
            continue
        chosen = profiles.get(p.profile_name) if p.profile_name in profiles else None
        if chosen is None:
            if len(profiles) == 1 or p.profile_name is None:
                name = next(iter(profiles))
                chosen, p.profile_name = profiles[name], p.profile_name or name
            else:
                continue
        a, evs = chosen
        p.profile, p.profile_evidence = dict(a), evs
        # settings only the profile gives (partition not running, or no lshwres data)
        fill = (("proc_mode", "proc_mode", opt_str), ("sharing_mode", "sharing_mode", opt_str),
                ("ec", "desired_proc_units", opt_float), ("vps", "desired_procs", opt_int), ("min_ec", "min_proc_units", opt_float),
                ("max_ec", "max_proc_units", opt_float), ("min_vps", "min_procs", opt_int), ("max_vps", "max_procs", opt_int),
                ("weight", "uncap_weight", opt_int), ("pool_id", "shared_proc_pool_id", opt_int),
                ("mem", "desired_mem", opt_int), ("mem_min", "min_mem", opt_int), ("mem_max", "max_mem", opt_int),
                ("mem_mode", "mem_mode", opt_str))
        for ours, theirs, conv in fill:
            if getattr(p, ours) is None and conv(a.get(theirs)) is not None:
                setattr(p, ours, conv(a.get(theirs)))
                if theirs in evs:
                    p.evidence.setdefault(ours, evs[theirs])
        if p.hpt_ratio is None and ratio_divisor(a.get("hpt_ratio")):
            p.hpt_ratio = ratio_divisor(a.get("hpt_ratio"))
            p.evidence.setdefault("hpt_ratio", evs.get("hpt_ratio"))  # type: ignore[arg-type]
        if p.suspend_capable is None and _flag(a.get("suspend_capable")) is not None:
            p.suspend_capable = _flag(a.get("suspend_capable"))
            p.evidence.setdefault("suspend_capable", evs.get("suspend_capable"))  # type: ignore[arg-type]
        if not p.paging_vios and opt_str(a.get("primary_paging_vios_name")):
            p.paging_vios = [v for v in (opt_str(a.get("primary_paging_vios_name")),
                                         opt_str(a.get("secondary_paging_vios_name"))) if v]
            p.evidence.setdefault("paging_vios", evs.get("primary_paging_vios_name"))  # type: ignore[arg-type]
        if p.ame_factor is None and opt_float(a.get("mem_expansion")):
            p.ame_factor = opt_float(a.get("mem_expansion"))
        if p.pool_name is None:
            p.pool_name = opt_str(a.get("shared_proc_pool_name"))
        # adapters from the profile when lshwres virtualio was not collected
        profile_adapters(p, a, evs)


def profile_adapters(p: FramePartition, a: dict[str, str], evs: dict[str, Evidence]) -> None:
    try:
        from ..sources import _hmc_adapters as ha
    except ImportError:  # pragma: no cover - the HMC parsers ship with the package
        return
    if not p.veth and opt_str(a.get("virtual_eth_adapters")):
        for v in ha.parse_veth_adapters(a.get("virtual_eth_adapters")):
            p.veth.append(VirtualEth(v["slot"], v["pvid"], list(v["vlans"]), v["is_trunk"],
                                     v["trunk_priority"] or None, v["vswitch"], v["ieee_virtual_eth"], v["mac"],
                                     evidence=evs.get("virtual_eth_adapters")))
    if not p.vscsi and opt_str(a.get("virtual_scsi_adapters")):
        for v in ha.parse_vscsi_adapters(a.get("virtual_scsi_adapters")):
            p.vscsi.append(VirtualSlot("vscsi", v["slot"], v["adapter_type"].lower(), v["remote_lpar_id"],
                                       v["remote_lpar_name"], v["remote_slot"],
                                       evidence=evs.get("virtual_scsi_adapters")))
    if not p.vfc and opt_str(a.get("virtual_fc_adapters")):
        for v in ha.parse_vfc_adapters(a.get("virtual_fc_adapters")):
            p.vfc.append(VirtualSlot("vfc", v["slot"], v["adapter_type"].lower(), v["remote_lpar_id"],
                                     v["remote_lpar_name"], v["remote_slot"], wwpns=list(v["wwpns"]),
                                     evidence=evs.get("virtual_fc_adapters")))
