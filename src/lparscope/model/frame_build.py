"""Building frames from HMC records: :func:`build_frames`.

It walks every HMC record kept on the hosts (lssyscfg, lshwres, lslparutil, HMC Scanner rows) in
order: HMC CLI objects (``frame_hmc``), HMC Scanner rows (``frame_scanner``), lslparutil samples
(``frame_util``); then settles each partition's profile, fills the shared pools and joins
partitions to the hosts analysed from their own outputs, on evidence only (``frame_join``). The
types are in ``model/frame.py``, the record plumbing in ``frame_records``.
"""

from __future__ import annotations

from typing import Any

from .estate import Estate
from .frame import FramePartition, Frame, SharedPool, opt_str, vios_pairs
from .frame_hmc import hmc_object, settle_profile
from .frame_join import join_hosts
from .frame_merge import UNNAMED, assign_systems
from .frame_pcm import pcm_usage
from .frame_records import FrameSet, HmcItem, hmc_records, record_attrs, record_kind
from .frame_scanner import scanner_row
from .frame_scanner_usage import scanner_usage
from .frame_util import keep_sample, settle_use


def build_frames(estate: Estate) -> dict[str, Frame]:
    """Every managed system in the HMC data, with its partitions joined to the hosts analysed."""
    frames = Builder(estate).build()
    # partitions with no host of their own whose name is on several frames (vios1 on every frame):
    # their findings name the frame too, so that one host is not made of several partitions
    by_name: dict[str, list[tuple[str, FramePartition]]] = {}  # partition name -> (frame, partition), every frame
    for fr in frames.values():
        for p in fr.partitions.values():
            by_name.setdefault(p.name, []).append((fr.name, p))
    for seen in by_name.values():
        if len({frame for frame, _p in seen}) > 1:
            for frame, p in seen:
                if not p.host:
                    p.twin_frame = frame
    for fr in frames.values():  # each joined host learns its frame's type-model (POWER generation)
        for p in fr.partitions.values():
            host = estate.hosts.get(p.host or "")
            if host is None:
                continue
            host.frame_name, host.hpt_ratio, host.frame_hpt_ratio = fr.name, p.hpt_ratio, fr.default_hpt_ratio
            if fr.model:
                host.frame_model = fr.model
                host.frame_model_evidence = fr.evidence.get("model")
    return frames


class Builder(FrameSet):
    """Runs the readers per record kind in order, then joins partitions to hosts."""

    def system_for(self, items: list[HmcItem]) -> dict[int, str]:
        """Frame name for each HMC item (by id()); files merged on evidence (``frame_merge``). An HMC
        REST object names its managed system by UUID: the name is that of the system with that UUID."""
        by_uuid: dict[str, str] = {}
        for it in items:
            uuid = record_attrs(it.rec).get("uuid")
            if getattr(it.rec, "resource", None) == "sys" and uuid and (name := self._system_of(it.rec)):
                by_uuid[uuid.lower()] = name

        def system_of(rec: Any) -> str | None:
            uuid = record_attrs(rec).get("managed_system_uuid") if record_kind(rec) == "HmcObject" else None
            if not uuid:
                return self._system_of(rec)
            # no ManagedSystem object names it: the UUID keeps the system apart from others
            return self._system_of(rec) or by_uuid.get(uuid.lower()) or f"{UNNAMED} (managed system {uuid.lower()})"

        names, self.merged = assign_systems(items, system_of)
        return names

    @staticmethod
    def _system_of(rec: Any) -> str | None:
        sysname = opt_str(getattr(rec, "system", None))
        if sysname:
            return sysname
        a = record_attrs(rec) if record_kind(rec) != "ScannerRow" else {}
        if getattr(rec, "resource", None) == "sys":
            return opt_str(a.get("name"))
        return None

    def build(self) -> dict[str, Frame]:
        items = hmc_records(self.estate)
        names = self.system_for(items)
        hmc_items = [it for it in items if record_kind(it.rec) == "HmcObject"]
        order = {"sys": 0, "lpar": 1, "proc-sys": 2, "mem-sys": 2, "proc-pool": 2, "procpool": 3, "proc-lpar": 4,
                 "mem-lpar": 4, "prof": 5}
        for it in sorted(hmc_items, key=lambda i: order.get(i.rec.resource, 9)):
            fr = self.frame(names[id(it)], it, named=not names[id(it)].startswith(UNNAMED))
            hmc_object(self, fr, it)
        for it in items:
            if record_kind(it.rec) == "ScannerRow":
                scanner_row(self, it)
        for fr in self.frames.values():
            _dedupe(fr)
        for it in items:
            if record_kind(it.rec) == "UtilTable":
                fr = self.frame(names[id(it)], it, named=not names[id(it)].startswith(UNNAMED))
                keep_sample(fr, it)
        settle_use(self)
        for fr in self.frames.values():
            settle_profile(fr)
            self.pool_members(fr)
        scanner_usage(self, [it for it in items if record_kind(it.rec) == "ScannerUsage"], names)
        pcm_usage(self, [it for it in items if record_kind(it.rec) == "PcmSeries" and it.rec.times], names)
        self.frames = {n: f for n, f in self.frames.items()
                       if f.partitions or f.model or f.cores_configurable or f.mem_installed or f.mem_configurable or f.mem_use}
        for name, why in self.merged.items():
            if name in self.frames:
                self.frames[name].merged = why
        self.estate.joins = join_hosts(self.estate, self.frames)
        for fr in self.frames.values():
            fr.vios_pairs = vios_pairs(self.estate, fr)
        return self.frames

    def pool_members(self, fr: Frame) -> None:
        for p in fr.partitions.values():
            if not p.shared:
                continue
            pid = p.pool_id or 0
            pool = fr.pools.setdefault(pid, SharedPool(pid, p.pool_name if pid else (p.pool_name or "DefaultPool")))
            if p.name not in pool.partitions:
                pool.partitions.append(p.name)


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
