"""The HMC records kept on the hosts, and the set of frames they build up.

Every HMC record (``lssyscfg``, ``lshwres``, ``lslparutil`` objects, HMC Scanner rows) travels as an
:class:`HmcItem` with its evidence and the host it was found with. :class:`FrameSet` holds the frames
read so far and finds (or adds) a frame by name and a partition by name or id; the readers per record
kind (``frame_hmc``, ``frame_scanner``, ``frame_util``) fill it and ``frame_build`` runs them in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .estate import Estate, Evidence, Host, Sourced
from .frame import HMC_KINDS, Frame, FramePartition


@dataclass
class HmcItem:
    """One HMC record (lssyscfg / lshwres / lslparutil object, HMC Scanner row) and the host it came with."""

    rec: Any
    src: Sourced
    host: Host

    def ev(self, key: str | None = None) -> Evidence:
        return self.src.ev(key)


def hmc_records(estate: Estate) -> list[HmcItem]:
    """Every HMC record kept on the hosts, in host then kind order."""
    out = []
    for host in estate.hosts.values():
        for kind in HMC_KINDS:
            for s in host.records.get(kind, []):
                out.append(HmcItem(s.record, s, host))
    return out


def record_attrs(rec: Any) -> dict[str, str]:
    a = getattr(rec, "attrs", None)
    return a if isinstance(a, dict) else {}


def record_kind(rec: Any) -> str:
    return type(rec).__name__


class FrameSet:
    """The frames read so far, by name, and how to find or add a frame or a partition in them."""

    def __init__(self, estate: Estate):
        self.estate = estate
        self.frames: dict[str, Frame] = {}
        self.serials: dict[str, str] = {}  # serial -> frame name
        self.merged: dict[str, list[str]] = {}  # frame name -> why several files' records are that frame

    def frame(self, name: str, item: HmcItem | None = None, named: bool = True) -> Frame:
        if name not in self.frames:
            self.frames[name] = Frame(name, named=named, hmc=item.host.name if item else None)
        fr = self.frames[name]
        if item is not None:
            if record_kind(item.rec) == "UtilTable":  # lslparutil events: every resource they sample
                fr.sources.setdefault(item.src.path, set()).update(item.rec.resources)
                return fr
            res = getattr(item.rec, "resource", None) or getattr(item.rec, "sheet", None) or record_kind(item.rec)
            fr.sources.setdefault(item.src.path, set()).add(str(res))
        return fr

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
