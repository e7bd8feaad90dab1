"""HMC Scanner rows into frames: one row of a workbook sheet (System_Summary, LPAR_Summary, LPAR_CPU,
LPAR_MEM, LPAR_Profiles, virtual slots, SEA, FC, VSCSI_Map; see sources/hmcscanner.py) at a time.
"""

from __future__ import annotations

import re
from typing import Any

from .frame import SharedPool, VirtualEth, VirtualSlot, int_list, opt_float, opt_int, opt_str
from .frame_records import FrameSet, HmcItem
from .frame_io import scanner_slot
from .frame_vnic import scanner_vnic

_GB = 1024


def _gb(v: Any) -> int | None:
    x = opt_float(v)
    return None if x is None else int(round(x * _GB))


def scanner_row(b: FrameSet, it: HmcItem) -> None:
    """One HMC Scanner row into its frame (sheets: see sources/hmcscanner.py)."""
    r = it.rec
    v: dict[str, str] = r.values if isinstance(getattr(r, "values", None), dict) else {}
    table = getattr(r, "table", "") or r.sheet
    sysname = opt_str(getattr(r, "system", None)) or opt_str(v.get("Managed System Name")) or opt_str(v.get("Managed System"))
    if not sysname:
        return
    fr = b.frame(sysname, it)
    ev = it.ev(None)
    if table == "System_Summary":
        fr.model = opt_str(v.get("Type Model")) or fr.model
        fr.serial = opt_str(v.get("Serial")) or fr.serial
        fr.state = opt_str(v.get("Status")) or fr.state
        for ours, col in (("cores_installed", "Tot Cores"), ("cores_configurable", "Act Cores"),
                          ("cores_available", "Curr Avail Cores")):
            if opt_float(v.get(col)) is not None and getattr(fr, ours) is None:
                setattr(fr, ours, opt_float(v.get(col)))
                fr.evidence[ours] = ev
        fr.cores_active = fr.cores_configurable
        for ours, col in (("mem_installed", "Tot GB"), ("mem_configurable", "Act GB"), ("mem_firmware", "Firm GB"),
                          ("mem_available", "Curr Avail GB")):
            if _gb(v.get(col)) is not None and getattr(fr, ours) is None:
                setattr(fr, ours, _gb(v.get(col)))
                fr.evidence[ours] = ev
        if opt_float(v.get("Pool Size")) is not None:
            pool = fr.pools.setdefault(0, SharedPool(0, "DefaultPool"))
            if pool.max_units is None:
                pool.max_units = opt_float(v.get("Pool Size"))
                pool.evidence["max_units"] = ev
        if fr.serial:
            b.serials[fr.serial] = fr.name
        fr.evidence.setdefault("type_model", ev)
    elif table == "LPAR_Summary":
        p = b.part(fr, opt_str(v.get("Name")), opt_int(v.get("ID")))
        if p is None:
            return
        p.env = p.env or opt_str(v.get("Environment"))
        p.state = p.state or opt_str(v.get("Status"))
        p.os_version = p.os_version or opt_str(v.get("OS Version"))
        p.profile_name = p.profile_name or opt_str(v.get("Current profile")) or opt_str(v.get("Default profile"))
        p.evidence.setdefault("lpar_env", ev)
        p.evidence.setdefault("lpar", ev)
    elif table == "LPAR_CPU":
        p = b.part(fr, opt_str(v.get("Name")), None)
        if p is None:
            return
        mode = opt_str(v.get("Mode"))
        p.proc_mode = p.proc_mode or mode
        p.sharing_mode = p.sharing_mode or opt_str(v.get("Sharing Mode"))
        for ours, col, conv, prof in (("vps", "Curr CPU", opt_int, "desired_procs"), ("min_vps", "Min CPU", opt_int, "min_procs"),
                                      ("max_vps", "Max CPU", opt_int, "max_procs"), ("ec", "Curr Ent", opt_float, "desired_proc_units"),
                                      ("min_ec", "Min Ent", opt_float, "min_proc_units"), ("max_ec", "Max Ent", opt_float, "max_proc_units"),
                                      ("weight", "Weight", opt_int, "uncap_weight")):
            x = conv(v.get(col))
            if x is not None and getattr(p, ours) is None:
                setattr(p, ours, x)
                p.evidence[ours] = ev
            if x is not None and prof not in p.running:
                p.running[prof] = str(x)
                p.running_evidence[prof] = ev
        if opt_str(v.get("Sharing Mode")) and "sharing_mode" not in p.running:
            p.running["sharing_mode"], p.running_evidence["sharing_mode"] = v["Sharing Mode"].strip(), ev
        p.pool_name = p.pool_name or opt_str(v.get("Pool Name"))
        if p.pool_name and p.pool_id is None:
            if p.pool_name == "DefaultPool":
                p.pool_id = 0
            else:
                known = [pl.id for pl in fr.pools.values() if pl.name == p.pool_name]
                if known:
                    p.pool_id = known[0]
        if p.pool_name and p.pool_name != "DefaultPool" and opt_float(v.get("Pool Max")) is not None and p.pool_id is not None:
            pool = fr.pools.setdefault(p.pool_id, SharedPool(p.pool_id, p.pool_name))
            pool.max_units = pool.max_units or opt_float(v.get("Pool Max"))
            pool.evidence.setdefault("max_units", ev)
    elif table == "LPAR_MEM":
        p = b.part(fr, opt_str(v.get("Name")), None)
        if p is None:
            return
        for ours, col, prof in (("mem", "Curr GB", "desired_mem"), ("mem_min", "Min GB", "min_mem"),
                                ("mem_max", "Max GB", "max_mem")):
            x = _gb(v.get(col))
            if x is not None and getattr(p, ours) is None:
                setattr(p, ours, x)
                p.evidence[ours] = ev
            if x is not None and prof not in p.running:
                p.running[prof], p.running_evidence[prof] = str(x), ev
        p.mem_mode = p.mem_mode or opt_str(v.get("Mode"))
        if opt_float(v.get("ExpFact")) and p.ame_factor is None:
            p.ame_factor = opt_float(v.get("ExpFact"))
    elif table == "LPAR_Profiles":
        p = b.part(fr, opt_str(v.get("Lpar Name")), opt_int(v.get("ID")))
        if p is None:
            return
        p.env = p.env or opt_str(v.get("Env"))
        attrs = {"name": v.get("Profile Name", ""), "lpar_name": p.name}
        cols = {"min_mem": "MinMem", "desired_mem": "DesMem", "max_mem": "MaxMem", "mem_mode": "MemMode",
                "hpt_ratio": "HPT_ratio", "proc_mode": "ProcMode", "min_proc_units": "MinEnt",
                "desired_proc_units": "DesEnt", "max_proc_units": "MaxEnt", "min_procs": "MinProc",
                "desired_procs": "DesProc", "max_procs": "Maxproc", "sharing_mode": "ShMode", "uncap_weight": "Weight",
                "shared_proc_pool_id": "ProcPoolID", "shared_proc_pool_name": "ProcPoolName", "mem_expansion": "MemExp",
                "lpar_proc_compat_mode": "ProcCompat"}
        for k, col in cols.items():
            x = opt_str(v.get(col))
            if x is None:
                continue
            if k in ("min_mem", "desired_mem", "max_mem"):
                x = str(_gb(x))
            attrs[k] = x
        profiles = p.__dict__.setdefault("_profiles", {})
        profiles[attrs["name"]] = (attrs, {k: ev for k in attrs})
        if (opt_str(v.get("Active")) or "").lower() == "true":
            p.profile_name = attrs["name"]
    elif table == "Virtual Ethernet Slots":
        p = b.part(fr, opt_str(v.get("LPAR name")), None)
        if p is None:
            return
        trunk = (opt_str(v.get("Trunk")) or "").lower() == "true"
        p.veth.append(VirtualEth(opt_int(v.get("Slot")), opt_int(v.get("Port VLAN id")), int_list(v.get("IEEE VLAN ids")),
                                 trunk, opt_int(v.get("Trunk Priority")) if trunk else None, opt_str(v.get("Virtual Switch")),
                                 bool(int_list(v.get("IEEE VLAN ids"))), opt_str(v.get("MAC Addresss") or v.get("MAC Address")),
                                 opt_str(v.get("State")), evidence=ev))
    elif table in ("Virtual_SCSI", "Virtual_Fibre"):
        p = b.part(fr, opt_str(v.get("LPAR name")), None)
        if p is None:
            return
        remote = opt_str(v.get("Remote LPAR"))
        other = fr.partitions.get(remote or "")
        slot = VirtualSlot("vscsi" if table == "Virtual_SCSI" else "vfc", opt_int(v.get("Slot")),
                           (opt_str(v.get("Type")) or "").lower(), other.id if other else None, remote,
                           opt_int(v.get("Remote Slot")),
                           wwpns=[w for w in (opt_str(v.get("WWPN #1")), opt_str(v.get("WWPN #2"))) if w],
                           port=opt_str(v.get("Physical FC Slot")), evidence=ev)
        (p.vscsi if slot.protocol == "vscsi" else p.vfc).append(slot)
    elif table == "vNIC":
        scanner_vnic(b, fr, v, ev)
    elif table == "Physical_Slots":
        scanner_slot(b, fr, v, ev)
    elif table == "SEA":
        row = {k: opt_str(x) for k, x in v.items() if k and not k.isdigit()}
        row.update(vios=opt_str(v.get("VIOS")), sea=opt_str(v.get("SEA")), evidence=ev)
        fr.seas.append(row)
    elif table == "FC":
        fr.fc_ports.append({"vios": opt_str(v.get("VIOS")), "fc": opt_str(v.get("FC")), "num_cmd_elems": opt_str(v.get("num_cmd_elems")),
                            "max_xfer_size": opt_str(v.get("max_xfer_size")), "wwpn": opt_str(v.get("wwpn")), "evidence": ev})
    elif table == "VSCSI_Map":
        m = re.match(r'^\s*(0x[0-9a-fA-F]+)?\s*"?([^"]*)"?', v.get("Client") or "")
        fr.vscsi_maps.append({"vios": opt_str(v.get("VIOS")), "slot": opt_int(v.get("Slot")), "vhost": opt_str(v.get("Name")),
                              "client_id": int(m.group(1), 16) if m and m.group(1) else None,
                              "client_name": opt_str(m.group(2)) if m else None, "vtd": opt_str(v.get("VTD")),
                              "lun": opt_str(v.get("LUN")), "backing": opt_str(v.get("Backing device")), "evidence": ev})
