"""Building frames from HMC records: the reader behind :func:`lparscope.model.frame.build_frames`.

It walks every HMC record kept on the hosts (lssyscfg, lshwres, lslparutil, HMC Scanner rows),
creates one Frame per managed system with its pools and partitions, folds running values and
profiles together, reads lslparutil cycle counters into use samples, and joins partitions to
the hosts analysed from their own outputs (see the module docstring of model/frame.py).
"""

from __future__ import annotations

import re
from datetime import datetime
from dataclasses import dataclass
from typing import Any

from ..numbers import finite_int
from .estate import Estate, Evidence, Host, Sourced
from .frame import (
    _s,
    _f,
    _i,
    ratio_divisor,
    _int_list,
    VirtualEth,
    VirtualSlot,
    UseSample,
    FramePartition,
    SharedPool,
    Frame,
    HMC_KINDS,
    host_serial,
    vios_pairs,
)


# --- building -------------------------------------------------------------------------------------

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


@dataclass
class _Item:
    rec: Any
    src: Sourced
    host: Host

    def ev(self, key: str | None = None) -> Evidence:
        return self.src.ev(key)


def _records(estate: Estate) -> list[_Item]:
    out = []
    for host in estate.hosts.values():
        for kind in HMC_KINDS:
            for s in host.records.get(kind, []):
                out.append(_Item(s.record, s, host))
    return out


def _attrs(rec: Any) -> dict[str, str]:
    a = getattr(rec, "attrs", None)
    return a if isinstance(a, dict) else {}


def _kind(rec: Any) -> str:
    return type(rec).__name__


class _Builder:
    def __init__(self, estate: Estate):
        self.estate = estate
        self.frames: dict[str, Frame] = {}
        self.serials: dict[str, str] = {}  # serial -> frame name

    # frames ---------------------------------------------------------------------------------
    def frame(self, name: str, item: _Item | None = None, named: bool = True) -> Frame:
        if name not in self.frames:
            self.frames[name] = Frame(name, named=named, hmc=item.host.name if item else None)
        fr = self.frames[name]
        if item is not None:
            res = getattr(item.rec, "resource", None) or getattr(item.rec, "sheet", None) or _kind(item.rec)
            fr.sources.setdefault(item.src.path, set()).add(str(res))
        return fr

    def system_for(self, items: list[_Item]) -> dict[int, str]:
        """Frame name for each HMC item (by id())."""
        named_by_host: dict[str, set[str]] = {}
        for it in items:
            sysname = self._system_of(it.rec)
            if sysname:
                named_by_host.setdefault(it.host.name, set()).add(sysname)
        out: dict[int, str] = {}
        for it in items:
            sysname = self._system_of(it.rec)
            if sysname:
                out[id(it)] = sysname
                continue
            known = named_by_host.get(it.host.name, set())
            if len(known) == 1:
                out[id(it)] = next(iter(known))
            elif not known:
                out[id(it)] = f"unnamed system ({it.host.name})"
            else:
                out[id(it)] = f"unnamed system ({it.src.path})"
        return out

    @staticmethod
    def _system_of(rec: Any) -> str | None:
        sysname = _s(getattr(rec, "system", None))
        if sysname:
            return sysname
        a = _attrs(rec) if _kind(rec) != "ScannerRow" else {}
        if getattr(rec, "resource", None) == "sys":
            return _s(a.get("name"))
        return None

    # partitions -----------------------------------------------------------------------------
    def part(self, fr: Frame, name: str | None, id_: int | None) -> FramePartition | None:
        if not name and id_ is None:
            return None
        p = fr.partitions.get(name) if name else fr.by_id(id_)
        if p is None and name and id_ is not None and f"lpar{id_}" in fr.partitions:
            p = fr.partitions.pop(f"lpar{id_}")  # known by id only so far: now it has its name
            p.name = name
            fr.partitions[name] = p
        if p is None:
            if not name:
                name = f"lpar{id_}"
            p = fr.partitions.setdefault(name, FramePartition(name))
        if p.id is None and id_ is not None:
            p.id = id_
        return p

    def build(self) -> dict[str, Frame]:
        items = _records(self.estate)
        names = self.system_for(items)
        hmc_items = [it for it in items if _kind(it.rec) == "HmcObject"]
        order = {"sys": 0, "lpar": 1, "proc-sys": 2, "mem-sys": 2, "proc-pool": 2, "procpool": 3, "proc-lpar": 4,
                 "mem-lpar": 4, "prof": 5}
        for it in sorted(hmc_items, key=lambda i: order.get(i.rec.resource, 9)):
            fr = self.frame(names[id(it)], it, named=not names[id(it)].startswith("unnamed system"))
            self.hmc_object(fr, it)
        for it in items:
            if _kind(it.rec) == "ScannerRow":
                self.scanner_row(it)
        for fr in self.frames.values():
            _dedupe(fr)
        for it in items:
            if _kind(it.rec) == "UtilSample":
                fr = self.frame(names[id(it)], it, named=not names[id(it)].startswith("unnamed system"))
                self.util(fr, it)
        self.finish_util()
        for fr in self.frames.values():
            self.settle_profile(fr)
            self.pool_members(fr)
        self.frames = {n: f for n, f in self.frames.items()
                       if f.partitions or f.model or f.cores_configurable or f.mem_installed or f.mem_configurable}
        self.join()
        for fr in self.frames.values():
            fr.vios_pairs = vios_pairs(self.estate, fr)
        return self.frames

    # HMC CLI ----------------------------------------------------------------------------------
    def hmc_object(self, fr: Frame, it: _Item) -> None:
        rec, a = it.rec, _attrs(it.rec)
        res = rec.resource
        ev = it.ev
        if res == "sys":
            fr.model = _s(a.get("type_model")) or fr.model
            fr.serial = _s(a.get("serial_num")) or fr.serial
            fr.state = _s(a.get("state")) or fr.state
            for k in ("type_model", "serial_num", "state"):
                if k in a:
                    fr.evidence.setdefault(k, ev(k))
            if fr.serial:
                self.serials[fr.serial] = fr.name
        elif res == "proc-sys":
            for ours, theirs in (("cores_installed", "installed_sys_proc_units"),
                                 ("cores_configurable", "configurable_sys_proc_units"),
                                 ("cores_available", "curr_avail_sys_proc_units")):
                if _f(a.get(theirs)) is not None:
                    setattr(fr, ours, _f(a.get(theirs)))
                    fr.evidence[ours] = ev(theirs)
            fr.cores_active = fr.cores_configurable
        elif res == "mem-sys":
            for ours, theirs in (("mem_installed", "installed_sys_mem"), ("mem_configurable", "configurable_sys_mem"),
                                 ("mem_firmware", "sys_firmware_mem"), ("mem_available", "curr_avail_sys_mem")):
                if _i(a.get(theirs)) is not None:
                    setattr(fr, ours, _i(a.get(theirs)))
                    fr.evidence[ours] = ev(theirs)
            div = ratio_divisor((a.get("default_hpt_ratios") or a.get("default_hpt_ratio") or "").split(",")[0])
            if div:
                fr.default_hpt_ratio = div
                fr.evidence["default_hpt_ratio"] = ev("default_hpt_ratios" if "default_hpt_ratios" in a else "default_hpt_ratio")
        elif res == "proc-pool":  # lshwres -r proc --level pool: the default pool
            pool = fr.pools.setdefault(0, SharedPool(0, "DefaultPool"))
            size = _f(a.get("configurable_pool_proc_units"))
            if size is not None:
                pool.max_units = size
                pool.evidence["max_units"] = ev("configurable_pool_proc_units")
        elif res == "procpool":  # lshwres -r procpool: every shared pool
            pid = _i(a.get("shared_proc_pool_id"))
            if pid is None:
                return
            pool = fr.pools.setdefault(pid, SharedPool(pid))
            pool.name = _s(a.get("name")) or pool.name
            if pid != 0 and _f(a.get("max_pool_proc_units")) is not None:
                pool.max_units = _f(a.get("max_pool_proc_units"))
                pool.evidence["max_units"] = ev("max_pool_proc_units")
            if _f(a.get("curr_reserved_pool_proc_units")) is not None:
                pool.reserved_units = _f(a.get("curr_reserved_pool_proc_units"))
                pool.evidence["reserved_units"] = ev("curr_reserved_pool_proc_units")
            pool.evidence.setdefault("pool", ev(None))
        elif res == "lpar":
            p = self.part(fr, _s(a.get("name")), _i(a.get("lpar_id")))
            if p is None:
                return
            p.env = _s(a.get("lpar_env")) or p.env
            p.state = _s(a.get("state")) or p.state
            p.os_version = _s(a.get("os_version")) or p.os_version
            p.profile_name = _s(a.get("curr_profile")) or _s(a.get("default_profile")) or p.profile_name
            for k in ("lpar_env", "state", "lpar_id"):
                if k in a:
                    p.evidence.setdefault(k, ev(k))
            p.evidence.setdefault("lpar", ev(None))
        elif res == "proc-lpar":
            p = self.part(fr, _s(a.get("lpar_name")), _i(a.get("lpar_id")))
            if p is None:
                return
            self._proc_running(p, a, ev)
        elif res == "mem-lpar":
            p = self.part(fr, _s(a.get("lpar_name")), _i(a.get("lpar_id")))
            if p is None:
                return
            self._mem_running(p, a, ev)
        elif res == "prof":
            p = self.part(fr, _s(a.get("lpar_name")), _i(a.get("lpar_id")))
            if p is None:
                return
            p.env = p.env or _s(a.get("lpar_env"))
            prof = _s(a.get("name"))
            profiles = p.__dict__.setdefault("_profiles", {})
            profiles[prof] = (a, {k: ev(k) for k in a})
        elif res == "veth":
            p = self.part(fr, _s(a.get("lpar_name")), _i(a.get("lpar_id")))
            if p is None:
                return
            prio = _i(a.get("trunk_priority"))
            trunk = _s(a.get("is_trunk")) == "1"
            p.veth.append(VirtualEth(
                slot=_i(a.get("slot_num")), pvid=_i(a.get("port_vlan_id")), vlans=_int_list(a.get("addl_vlan_ids")),
                trunk=trunk, priority=prio if trunk else None, vswitch=_s(a.get("vswitch")),
                ieee=_s(a.get("ieee_virtual_eth")) == "1", mac=_s(a.get("mac_addr")), state=_s(a.get("state")),
                evidence=ev("slot_num")))
        elif res in ("vscsi", "vfc"):
            p = self.part(fr, _s(a.get("lpar_name")), _i(a.get("lpar_id")))
            if p is None:
                return
            slot = VirtualSlot(res, _i(a.get("slot_num")), (_s(a.get("adapter_type")) or "").lower(),
                               _i(a.get("remote_lpar_id")), _s(a.get("remote_lpar_name")), _i(a.get("remote_slot_num")),
                               wwpns=[w for w in re.split(r"[,\s]+", a.get("wwpns") or "") if w.strip()],
                               evidence=ev("slot_num"))
            (p.vscsi if res == "vscsi" else p.vfc).append(slot)

    def _proc_running(self, p: FramePartition, a: dict[str, str], ev: Any) -> None:
        p.proc_mode = _s(a.get("curr_proc_mode")) or p.proc_mode
        p.sharing_mode = _s(a.get("curr_sharing_mode")) or p.sharing_mode
        for ours, theirs, conv in (("ec", "curr_proc_units", _f), ("vps", "curr_procs", _i),
                                   ("min_ec", "curr_min_proc_units", _f), ("max_ec", "curr_max_proc_units", _f),
                                   ("min_vps", "curr_min_procs", _i), ("max_vps", "curr_max_procs", _i),
                                   ("weight", "curr_uncap_weight", _i), ("pool_id", "curr_shared_proc_pool_id", _i)):
            v = conv(a.get(theirs))
            if v is not None:
                setattr(p, ours, v)
                p.evidence[ours] = ev(theirs)
        for k in ("curr_proc_mode", "curr_sharing_mode"):
            if k in a:
                p.evidence[k.removeprefix("curr_")] = ev(k)
        p.pool_name = _s(a.get("curr_shared_proc_pool_name")) or p.pool_name
        for prof_key, run_key in _PROC_RUN.items():
            if _s(a.get(run_key)) is not None:
                p.running[prof_key] = a[run_key].strip()
                p.running_evidence[prof_key] = ev(run_key)

    def _mem_running(self, p: FramePartition, a: dict[str, str], ev: Any) -> None:
        for ours, theirs in (("mem", "curr_mem"), ("mem_min", "curr_min_mem"), ("mem_max", "curr_max_mem")):
            v = _i(a.get(theirs))
            if v is not None:
                setattr(p, ours, v)
                p.evidence[ours] = ev(theirs)
        p.mem_mode = _s(a.get("mem_mode")) or p.mem_mode
        div = ratio_divisor(a.get("curr_hpt_ratio"))
        if div:
            p.hpt_ratio = div
            p.evidence["hpt_ratio"] = ev("curr_hpt_ratio")
        ame = _f(a.get("curr_mem_expansion"))
        if ame:
            p.ame_factor = ame
            p.evidence["ame_factor"] = ev("curr_mem_expansion")
        for prof_key, run_key in _MEM_RUN.items():
            if _s(a.get(run_key)) is not None:
                p.running[prof_key] = a[run_key].strip()
                p.running_evidence[prof_key] = ev(run_key)

    def settle_profile(self, fr: Frame) -> None:
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
            fill = (("proc_mode", "proc_mode", _s), ("sharing_mode", "sharing_mode", _s),
                    ("ec", "desired_proc_units", _f), ("vps", "desired_procs", _i), ("min_ec", "min_proc_units", _f),
                    ("max_ec", "max_proc_units", _f), ("min_vps", "min_procs", _i), ("max_vps", "max_procs", _i),
                    ("weight", "uncap_weight", _i), ("pool_id", "shared_proc_pool_id", _i),
                    ("mem", "desired_mem", _i), ("mem_min", "min_mem", _i), ("mem_max", "max_mem", _i),
                    ("mem_mode", "mem_mode", _s))
            for ours, theirs, conv in fill:
                if getattr(p, ours) is None and conv(a.get(theirs)) is not None:
                    setattr(p, ours, conv(a.get(theirs)))
                    if theirs in evs:
                        p.evidence.setdefault(ours, evs[theirs])
            if p.hpt_ratio is None and ratio_divisor(a.get("hpt_ratio")):
                p.hpt_ratio = ratio_divisor(a.get("hpt_ratio"))
                p.evidence.setdefault("hpt_ratio", evs.get("hpt_ratio"))  # type: ignore[arg-type]
            if p.ame_factor is None and _f(a.get("mem_expansion")):
                p.ame_factor = _f(a.get("mem_expansion"))
            if p.pool_name is None:
                p.pool_name = _s(a.get("shared_proc_pool_name"))
            # adapters from the profile when lshwres virtualio was not collected
            self._profile_adapters(p, a, evs)

    def _profile_adapters(self, p: FramePartition, a: dict[str, str], evs: dict[str, Evidence]) -> None:
        try:
            from ..sources import _hmc_csv as hc
        except ImportError:  # pragma: no cover - the HMC parsers ship with the package
            return
        if not p.veth and _s(a.get("virtual_eth_adapters")):
            for v in hc.parse_veth_adapters(a.get("virtual_eth_adapters")):
                p.veth.append(VirtualEth(v["slot"], v["pvid"], list(v["vlans"]), v["is_trunk"],
                                         v["trunk_priority"] or None, v["vswitch"], v["ieee_virtual_eth"], v["mac"],
                                         evidence=evs.get("virtual_eth_adapters")))
        if not p.vscsi and _s(a.get("virtual_scsi_adapters")):
            for v in hc.parse_vscsi_adapters(a.get("virtual_scsi_adapters")):
                p.vscsi.append(VirtualSlot("vscsi", v["slot"], v["adapter_type"].lower(), v["remote_lpar_id"],
                                           v["remote_lpar_name"], v["remote_slot"],
                                           evidence=evs.get("virtual_scsi_adapters")))
        if not p.vfc and _s(a.get("virtual_fc_adapters")):
            for v in hc.parse_vfc_adapters(a.get("virtual_fc_adapters")):
                p.vfc.append(VirtualSlot("vfc", v["slot"], v["adapter_type"].lower(), v["remote_lpar_id"],
                                         v["remote_lpar_name"], v["remote_slot"], wwpns=list(v["wwpns"]),
                                         evidence=evs.get("virtual_fc_adapters")))

    def pool_members(self, fr: Frame) -> None:
        for p in fr.partitions.values():
            if not p.shared:
                continue
            pid = p.pool_id or 0
            pool = fr.pools.setdefault(pid, SharedPool(pid, p.pool_name if pid else (p.pool_name or "DefaultPool")))
            if p.name not in pool.partitions:
                pool.partitions.append(p.name)

    # lslparutil --------------------------------------------------------------------------------
    def util(self, fr: Frame, it: _Item) -> None:
        fr.__dict__.setdefault("_util", []).append(it)

    def finish_util(self) -> None:
        for fr in self.frames.values():
            items: list[_Item] = fr.__dict__.pop("_util", [])
            series: dict[tuple[str, Any], list[_Item]] = {}
            for it in items:
                r = it.rec
                if (getattr(r, "event_type", None) or "sample") != "sample":
                    continue
                if r.resource == "lpar":
                    key: tuple[str, Any] = ("lpar", r.lpar_name or r.lpar_id)
                elif r.resource in ("pool", "procpool"):
                    key = ("pool", r.num("shared_proc_pool_id") if r.resource == "procpool" else 0)
                else:
                    continue
                series.setdefault(key, []).append(it)
            for (what, who), its in series.items():
                its.sort(key=lambda i: i.rec.time if isinstance(i.rec.time, datetime) else datetime.min)
                samples = _deltas(its, what)
                if what == "lpar":
                    first = its[0].rec
                    p = self.part(fr, first.lpar_name, first.lpar_id)
                    if p is not None:
                        p.use = samples
                else:
                    pid = finite_int(who) or 0
                    pool = fr.pools.setdefault(pid, SharedPool(pid))
                    pool.use = samples
                    if pid == 0 and pool.max_units is None:
                        size = its[-1].rec.num("configurable_pool_proc_units")
                        if size:
                            pool.max_units = size
                            pool.evidence["max_units"] = its[-1].ev("configurable_pool_proc_units")
                    if pid and pool.max_units is None:
                        size = its[-1].rec.num("max_pool_capacity") or its[-1].rec.num("max_pool_proc_units")
                        if size:
                            pool.max_units = size

    # HMC Scanner ------------------------------------------------------------------------------
    def scanner_row(self, it: _Item) -> None:
        _scanner_row(self, it)

    # join -----------------------------------------------------------------------------------------
    def join(self) -> None:
        taken: set[tuple[str, str]] = set()
        hosts = [h for h in self.estate.hosts.values() if h.role != "hmc"]
        single = len(self.frames) == 1
        for h in sorted(hosts, key=lambda x: x.name):
            match = self._match(h, single)
            if match is None:
                continue
            fr, p, how = match
            if (fr.name, p.name) in taken:
                continue
            taken.add((fr.name, p.name))
            p.host, p.join = h.name, how

    def _match(self, h: Host, single: bool) -> tuple[Frame, FramePartition, str] | None:
        pname = h.partition.name if h.partition else None
        number = h.partition.number if h.partition else None
        serial = host_serial(h)
        candidates = [fr for fr in self.frames.values() if serial is None or fr.serial in (None, serial)]
        for fr in candidates:
            if pname and pname in fr.partitions:
                p = fr.partitions[pname]
                if number is None or p.id is None or p.id == number:
                    return fr, p, "partition name"
        for fr in candidates:
            if h.name in fr.partitions:
                p = fr.partitions[h.name]
                if number is None or p.id is None or p.id == number:
                    return fr, p, "host name"
        if number is not None and serial is not None:
            for fr in self.frames.values():
                if fr.serial == serial and fr.by_id(number) is not None:
                    return fr, fr.by_id(number), "partition number and frame serial"  # type: ignore[return-value]
        if number is not None and single:
            fr = next(iter(self.frames.values()))
            p = fr.by_id(number)
            if p is not None and not any(p.name == x.name for x in []) and (pname is None or pname not in fr.partitions):
                return fr, p, "partition number (only frame)"
        return None


_GB = 1024


def _dedupe(fr: Frame) -> None:
    """The same workbook read twice (the .xls and its CSV export): keep one of each adapter / row."""
    for p in fr.partitions.values():
        seen: set[Any] = set()
        p.veth = [v for v in p.veth if not ((v.slot, v.pvid, "e") in seen or seen.add((v.slot, v.pvid, "e")))]  # type: ignore[func-returns-value]
        p.vscsi = [v for v in p.vscsi if not ((v.slot, v.adapter_type, "s") in seen or seen.add((v.slot, v.adapter_type, "s")))]  # type: ignore[func-returns-value]
        p.vfc = [v for v in p.vfc if not ((v.slot, v.adapter_type, "f") in seen or seen.add((v.slot, v.adapter_type, "f")))]  # type: ignore[func-returns-value]
    for attr, key in (("seas", ("vios", "sea")), ("fc_ports", ("vios", "fc")), ("vscsi_maps", ("vios", "vhost", "vtd"))):
        seen2: set[Any] = set()
        rows = []
        for row in getattr(fr, attr):
            k = tuple(row.get(x) for x in key)
            if k not in seen2:
                seen2.add(k)
                rows.append(row)
        setattr(fr, attr, rows)


def _gb(v: Any) -> int | None:
    x = _f(v)
    return None if x is None else int(round(x * _GB))


def _scanner_row(b: _Builder, it: _Item) -> None:
    """One HMC Scanner row into its frame (sheets: see sources/hmcscanner.py)."""
    r = it.rec
    v: dict[str, str] = r.values if isinstance(getattr(r, "values", None), dict) else {}
    table = getattr(r, "table", "") or r.sheet
    sysname = _s(getattr(r, "system", None)) or _s(v.get("Managed System Name")) or _s(v.get("Managed System"))
    if not sysname:
        return
    fr = b.frame(sysname, it)
    ev = it.ev(None)
    if table == "System_Summary":
        fr.model = _s(v.get("Type Model")) or fr.model
        fr.serial = _s(v.get("Serial")) or fr.serial
        fr.state = _s(v.get("Status")) or fr.state
        for ours, col in (("cores_installed", "Tot Cores"), ("cores_configurable", "Act Cores"),
                          ("cores_available", "Curr Avail Cores")):
            if _f(v.get(col)) is not None and getattr(fr, ours) is None:
                setattr(fr, ours, _f(v.get(col)))
                fr.evidence[ours] = ev
        fr.cores_active = fr.cores_configurable
        for ours, col in (("mem_installed", "Tot GB"), ("mem_configurable", "Act GB"), ("mem_firmware", "Firm GB"),
                          ("mem_available", "Curr Avail GB")):
            if _gb(v.get(col)) is not None and getattr(fr, ours) is None:
                setattr(fr, ours, _gb(v.get(col)))
                fr.evidence[ours] = ev
        if _f(v.get("Pool Size")) is not None:
            pool = fr.pools.setdefault(0, SharedPool(0, "DefaultPool"))
            if pool.max_units is None:
                pool.max_units = _f(v.get("Pool Size"))
                pool.evidence["max_units"] = ev
        if fr.serial:
            b.serials[fr.serial] = fr.name
        fr.evidence.setdefault("type_model", ev)
    elif table == "LPAR_Summary":
        p = b.part(fr, _s(v.get("Name")), _i(v.get("ID")))
        if p is None:
            return
        p.env = p.env or _s(v.get("Environment"))
        p.state = p.state or _s(v.get("Status"))
        p.os_version = p.os_version or _s(v.get("OS Version"))
        p.profile_name = p.profile_name or _s(v.get("Current profile")) or _s(v.get("Default profile"))
        p.evidence.setdefault("lpar_env", ev)
        p.evidence.setdefault("lpar", ev)
    elif table == "LPAR_CPU":
        p = b.part(fr, _s(v.get("Name")), None)
        if p is None:
            return
        mode = _s(v.get("Mode"))
        p.proc_mode = p.proc_mode or mode
        p.sharing_mode = p.sharing_mode or _s(v.get("Sharing Mode"))
        for ours, col, conv, prof in (("vps", "Curr CPU", _i, "desired_procs"), ("min_vps", "Min CPU", _i, "min_procs"),
                                      ("max_vps", "Max CPU", _i, "max_procs"), ("ec", "Curr Ent", _f, "desired_proc_units"),
                                      ("min_ec", "Min Ent", _f, "min_proc_units"), ("max_ec", "Max Ent", _f, "max_proc_units"),
                                      ("weight", "Weight", _i, "uncap_weight")):
            x = conv(v.get(col))
            if x is not None and getattr(p, ours) is None:
                setattr(p, ours, x)
                p.evidence[ours] = ev
            if x is not None and prof not in p.running:
                p.running[prof] = str(x)
                p.running_evidence[prof] = ev
        if _s(v.get("Sharing Mode")) and "sharing_mode" not in p.running:
            p.running["sharing_mode"], p.running_evidence["sharing_mode"] = v["Sharing Mode"].strip(), ev
        p.pool_name = p.pool_name or _s(v.get("Pool Name"))
        if p.pool_name and p.pool_id is None:
            if p.pool_name == "DefaultPool":
                p.pool_id = 0
            else:
                known = [pl.id for pl in fr.pools.values() if pl.name == p.pool_name]
                if known:
                    p.pool_id = known[0]
        if p.pool_name and p.pool_name != "DefaultPool" and _f(v.get("Pool Max")) is not None and p.pool_id is not None:
            pool = fr.pools.setdefault(p.pool_id, SharedPool(p.pool_id, p.pool_name))
            pool.max_units = pool.max_units or _f(v.get("Pool Max"))
            pool.evidence.setdefault("max_units", ev)
    elif table == "LPAR_MEM":
        p = b.part(fr, _s(v.get("Name")), None)
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
        p.mem_mode = p.mem_mode or _s(v.get("Mode"))
        if _f(v.get("ExpFact")) and p.ame_factor is None:
            p.ame_factor = _f(v.get("ExpFact"))
    elif table == "LPAR_Profiles":
        p = b.part(fr, _s(v.get("Lpar Name")), _i(v.get("ID")))
        if p is None:
            return
        p.env = p.env or _s(v.get("Env"))
        attrs = {"name": v.get("Profile Name", ""), "lpar_name": p.name}
        cols = {"min_mem": "MinMem", "desired_mem": "DesMem", "max_mem": "MaxMem", "mem_mode": "MemMode",
                "hpt_ratio": "HPT_ratio", "proc_mode": "ProcMode", "min_proc_units": "MinEnt",
                "desired_proc_units": "DesEnt", "max_proc_units": "MaxEnt", "min_procs": "MinProc",
                "desired_procs": "DesProc", "max_procs": "Maxproc", "sharing_mode": "ShMode", "uncap_weight": "Weight",
                "shared_proc_pool_id": "ProcPoolID", "shared_proc_pool_name": "ProcPoolName", "mem_expansion": "MemExp"}
        for k, col in cols.items():
            x = _s(v.get(col))
            if x is None:
                continue
            if k in ("min_mem", "desired_mem", "max_mem"):
                x = str(_gb(x))
            attrs[k] = x
        profiles = p.__dict__.setdefault("_profiles", {})
        profiles[attrs["name"]] = (attrs, {k: ev for k in attrs})
        if (_s(v.get("Active")) or "").lower() == "true":
            p.profile_name = attrs["name"]
    elif table == "Virtual Ethernet Slots":
        p = b.part(fr, _s(v.get("LPAR name")), None)
        if p is None:
            return
        trunk = (_s(v.get("Trunk")) or "").lower() == "true"
        p.veth.append(VirtualEth(_i(v.get("Slot")), _i(v.get("Port VLAN id")), _int_list(v.get("IEEE VLAN ids")),
                                 trunk, _i(v.get("Trunk Priority")) if trunk else None, _s(v.get("Virtual Switch")),
                                 bool(_int_list(v.get("IEEE VLAN ids"))), _s(v.get("MAC Addresss") or v.get("MAC Address")),
                                 _s(v.get("State")), evidence=ev))
    elif table in ("Virtual_SCSI", "Virtual_Fibre"):
        p = b.part(fr, _s(v.get("LPAR name")), None)
        if p is None:
            return
        remote = _s(v.get("Remote LPAR"))
        other = fr.partitions.get(remote or "")
        slot = VirtualSlot("vscsi" if table == "Virtual_SCSI" else "vfc", _i(v.get("Slot")),
                           (_s(v.get("Type")) or "").lower(), other.id if other else None, remote,
                           _i(v.get("Remote Slot")),
                           wwpns=[w for w in (_s(v.get("WWPN #1")), _s(v.get("WWPN #2"))) if w],
                           port=_s(v.get("Physical FC Slot")), evidence=ev)
        (p.vscsi if slot.protocol == "vscsi" else p.vfc).append(slot)
    elif table == "SEA":
        row = {k: _s(x) for k, x in v.items() if k and not k.isdigit()}
        row.update(vios=_s(v.get("VIOS")), sea=_s(v.get("SEA")), evidence=ev)
        fr.seas.append(row)
    elif table == "FC":
        fr.fc_ports.append({"vios": _s(v.get("VIOS")), "fc": _s(v.get("FC")), "num_cmd_elems": _s(v.get("num_cmd_elems")),
                            "max_xfer_size": _s(v.get("max_xfer_size")), "wwpn": _s(v.get("wwpn")), "evidence": ev})
    elif table == "VSCSI_Map":
        m = re.match(r'^\s*(0x[0-9a-fA-F]+)?\s*"?([^"]*)"?', v.get("Client") or "")
        fr.vscsi_maps.append({"vios": _s(v.get("VIOS")), "slot": _i(v.get("Slot")), "vhost": _s(v.get("Name")),
                              "client_id": int(m.group(1), 16) if m and m.group(1) else None,
                              "client_name": _s(m.group(2)) if m else None, "vtd": _s(v.get("VTD")),
                              "lun": _s(v.get("LUN")), "backing": _s(v.get("Backing device")), "evidence": ev})


def _deltas(items: list[_Item], what: str) -> list[UseSample]:
    """Processor units used per interval from cumulative cycle counters."""
    out: list[UseSample] = []
    used_key = ("capped_cycles", "uncapped_cycles") if what == "lpar" else ("utilized_pool_cycles",)
    for prev, cur in zip(items, items[1:]):
        a, b = prev.rec, cur.rec
        t0, t1 = a.num("time_cycles"), b.num("time_cycles")
        if t0 is None or t1 is None or t1 == t0:
            continue
        u0 = [a.num(k) for k in used_key]
        u1 = [b.num(k) for k in used_key]
        if any(x is None for x in u0 + u1):
            continue
        used = sum(u1) - sum(u0)  # type: ignore[arg-type]
        # time_cycles is counted descending by lslparutil (newest first): take the absolute interval
        interval = abs(t1 - t0)
        out.append(UseSample(b.time, round(abs(used) / interval, 3), cur.ev(used_key[0])))
    return out
