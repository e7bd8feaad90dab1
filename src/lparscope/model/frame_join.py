"""Joining the partitions of the HMC data to the hosts analysed from their own outputs, on evidence.

A host is joined to a frame partition only on evidence, and the basis is kept on the partition
(``FramePartition.join``) and in a :class:`JoinNote` per host (``Estate.joins``):

- ``partition name``: the host's own partition name (``lparstat -i`` Partition Name, else
  ``prtconf`` LPAR Info) is the HMC partition name;
- ``node name``: the host's name (its node name) is the HMC partition name, case aside;
- ``frame serial and partition id``: the host's frame serial (``prtconf`` Machine Serial Number,
  ``lsattr -El sys0`` systemid, the serial in a virtual adapter location code
  ``U9009.42A.784C1D0-V3-C10``, or an nmon recording's ``AAA,SerialNumber``) is the frame's
  serial, and its partition number (``lparstat -i``, ``prtconf`` LPAR Info, nmon
  ``AAA,LPARNumberName``) is the partition id.

A partition number alone is never evidence: every frame numbers its partitions from 1, so the
same number names unrelated partitions on every frame (even when the data holds one frame only:
the host may run on a frame whose HMC data was not collected). Such a candidate is listed as
refused, with the reason.

A candidate is refused when a known fact contradicts it: the host's partition number or frame
serial differs from the partition's; its partition name differs from the one its node name
matches (a frame serial and partition id match outweighs a different name: the note says so); or
the roles differ (a VIOS host and a partition whose environment is not ``vioserver``, an AIX host
and a ``vioserver`` partition).
A host that matches several partitions, or a partition that several hosts match, is ambiguous:
listed with its candidates, none joined.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from .estate import Estate, Evidence, Host
from .frame import Frame, FramePartition, host_serial as _physloc_serial

BASES = ("partition name", "node name", "frame serial and partition id")
Candidate = tuple[Frame, FramePartition, str, list[str]]  # frame, partition, basis, contradictions


@dataclass
class JoinNote:
    """How one host was (or was not) joined to a partition of the HMC data."""

    host: str
    status: str  # joined | ambiguous | refused | unjoined
    frame: str | None = None  # the partition joined (status joined)
    partition: str | None = None
    basis: str | None = None  # one of BASES (status joined)
    candidates: list[str] = field(default_factory=list)  # "frame/partition (id N)" the evidence pointed at
    reason: str = ""  # why not joined (or what was refused beside the join)
    evidence: list[Evidence] = field(default_factory=list)  # the host's facts used

    @property
    def warns(self) -> bool:
        """A join refused or left ambiguous: the reader must see it."""
        return self.status in ("ambiguous", "refused")

    def to_dict(self) -> dict[str, object]:
        return {"host": self.host, "status": self.status, "frame": self.frame, "partition": self.partition,
                "basis": self.basis, "candidates": list(self.candidates), "reason": self.reason,
                "evidence": [{"path": e.path, "line": e.line} for e in self.evidence]}


@dataclass
class HostFacts:
    """What a host's own outputs say about the partition it is: name, number, frame serial."""

    name: str | None = None
    number: int | None = None
    serial: str | None = None
    evidence: dict[str, Evidence] = field(default_factory=dict)


def host_facts(h: Host) -> HostFacts:
    f = HostFacts()
    p = h.partition
    if p is not None:
        f.name, f.number = p.name, p.number
        for ours in ("name", "number"):
            if ours in p.evidence and getattr(f, ours) is not None:
                f.evidence[ours] = p.evidence[ours]
    sysconf = h.system
    if sysconf is not None:
        rec = sysconf.record
        if f.name is None and getattr(rec, "lpar_name", None):
            f.name, f.evidence["name"] = rec.lpar_name, sysconf.ev("lpar_name")
        if f.number is None and getattr(rec, "lpar_number", None) is not None:
            f.number, f.evidence["number"] = rec.lpar_number, sysconf.ev("lpar_number")
        if getattr(rec, "serial", None):
            f.serial, f.evidence["serial"] = str(rec.serial), sysconf.ev("serial")
    sys0 = h.devices.get("sys0")
    if f.serial is None and sys0 is not None and sys0.attr("systemid"):
        f.serial = sys0.attr("systemid")
        ev = sys0.attr_ev("systemid")
        if ev:
            f.evidence["serial"] = ev[0]
    if f.serial is None:
        f.serial = _physloc_serial(h)
        ev = _physloc_evidence(h)
        if f.serial and ev is not None:
            f.evidence["serial"] = ev
    _nmon_facts(h, f)
    if not _plausible_serial(f.serial):  # an anonymised "<Serial Number>" tells nothing
        f.serial = None
        f.evidence.pop("serial", None)
    if f.name and f.name.startswith("<"):
        f.name = None
        f.evidence.pop("name", None)
    return f


def _nmon_facts(h: Host, f: HostFacts) -> None:
    """An nmon recording's header: ``AAA,SerialNumber,784C1D0`` and ``AAA,LPARNumberName,3,aix1``."""
    rec = h.nmon
    header = getattr(rec, "header", None) or {}
    lines = getattr(rec, "header_lines", None) or {}
    path = h.nmon_path or ""

    def ev(key: str) -> Evidence:
        return Evidence(path, lines.get(key, 1), f"AAA,{key},{header.get(key, '')}")

    if f.serial is None and header.get("SerialNumber"):
        f.serial, f.evidence["serial"] = header["SerialNumber"].strip(), ev("SerialNumber")
    number, _, name = (header.get("LPARNumberName") or "").partition(",")
    if f.number is None and number.strip().isdigit():
        f.number, f.evidence["number"] = int(number), ev("LPARNumberName")
    if f.name is None and name.strip():
        f.name, f.evidence["name"] = name.strip(), ev("LPARNumberName")


def _plausible_serial(s: str | None) -> bool:
    return bool(s) and re.fullmatch(r"[A-Z0-9]{5,12}", _serial_key(s or "")) is not None


def _physloc_evidence(h: Host) -> Evidence | None:
    for m in [*h.vscsi_mappings, *h.npiv_mappings, *h.net_mappings]:
        ev = getattr(m, "_evidence", None)
        if (getattr(m, "physloc", None) or "").startswith("U") and isinstance(ev, Evidence):
            return ev
    return None


def _serial_key(s: str) -> str:
    t = s.strip().upper()
    return t[4:] if t.startswith("IBM,") else t


def _serial_tail(s: str) -> str:
    """The last 7 characters of a serial: equal whenever :func:`same_serial` is true."""
    return _serial_key(s)[-7:]


def same_serial(a: str | None, b: str | None) -> bool | None:
    """None when either is unknown. ``IBM,02784C1D0`` (sys0 systemid: plant code + serial) is 784C1D0."""
    if not a or not b:
        return None
    x, y = _serial_key(a), _serial_key(b)
    if x == y:
        return True
    short, long_ = sorted((x, y), key=len)
    return len(short) >= 7 and len(long_) - len(short) <= 2 and long_.endswith(short)


def _label(fr: Frame, p: FramePartition) -> str:
    return f"{fr.name}/{p.name}" + (f" (id {p.id})" if p.id is not None else "")


def _contradictions(h: Host, f: HostFacts, fr: Frame, p: FramePartition, basis: str) -> list[str]:
    why: list[str] = []
    if basis == "node name" and f.name and f.name != p.name:
        why.append(f"the host's partition name is {f.name}, not {p.name}")
    if f.number is not None and p.id is not None and f.number != p.id:
        why.append(f"the host's partition number is {f.number}, the partition's id {p.id}")
    if same_serial(f.serial, fr.serial) is False:
        why.append(f"the host's frame serial is {f.serial}, the frame's {fr.serial}")
    return why + _role_conflicts(h, p)


def _role_conflicts(h: Host, p: FramePartition) -> list[str]:
    why: list[str] = []
    env = (p.env or "").lower()
    if h.role == "vios" and env and env != "vioserver":
        why.append(f"the host is a VIOS ({'; '.join(h.role_reasons) or 'its outputs say so'}) "
                   f"and the partition's environment is {p.env}")
    if h.role == "aix" and p.is_vios:
        why.append("the host is an AIX partition (no ioslevel, no SEA / vhost / vfchost in its outputs) "
                   "and the partition is a VIOS (lpar_env vioserver)")
    return why


def _bases(h: Host, f: HostFacts, fr: Frame, p: FramePartition) -> list[str]:
    out: list[str] = []
    if f.name and p.name == f.name:
        out.append("partition name")
    if p.name.lower() == h.name.lower():  # host names are case-blind; HMC names are often upper case
        out.append("node name")
    if f.number is not None and p.id == f.number and same_serial(f.serial, fr.serial):
        out.append("frame serial and partition id")
    return out


def _evidence(f: HostFacts, basis: str) -> list[Evidence]:
    keys = {"partition name": ("name",), "node name": (), "frame serial and partition id": ("serial", "number")}[basis]
    return [f.evidence[k] for k in keys if k in f.evidence]


def join_hosts(estate: Estate, frames: dict[str, Frame]) -> list[JoinNote]:
    """Join each host (not the HMC) to at most one partition on evidence; one note per host
    (none when there is no HMC partition at all)."""
    parts = [(fr, p) for fr in frames.values() for p in fr.partitions.values()]
    if not parts:
        return []
    # Partitions by each key a basis compares (name, lower-case name, id): each host looks only at
    # the partitions sharing one, in their usual order (all pairs made a thousand hosts' joins quadratic).
    # Partition ids repeat on every frame, so the id key holds the frame serial's last digits too
    # (what same_serial needs equal); ("number", id) serves a host no other key joins.
    index: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for i, (fr, p) in enumerate(parts):
        for key in (("name", p.name), ("lower", p.name.lower()), ("number", p.id)):
            index[key].append(i)
        if fr.serial:
            index[("id", _serial_tail(fr.serial), p.id)].append(i)
    notes: dict[str, JoinNote] = {}
    chosen: dict[str, tuple[Frame, FramePartition, str]] = {}
    for h in sorted((h for h in estate.hosts.values() if h.role != "hmc"), key=lambda x: x.name):
        f = host_facts(h)
        accepted: list[Candidate] = []
        refused: list[Candidate] = []
        near = set(index.get(("lower", h.name.lower()), ()))
        near.update(index.get(("name", f.name), ()) if f.name else ())
        if f.number is not None and f.serial:
            near.update(index.get(("id", _serial_tail(f.serial), f.number), ()))
        for fr, p in (parts[i] for i in sorted(near)):
            bases = _bases(h, f, fr, p)
            if not bases:
                continue
            why = _contradictions(h, f, fr, p, bases[0])
            (refused if why else accepted).append((fr, p, bases[0], why))
        if len(accepted) == 1:
            fr, p, basis, _ = accepted[0]
            chosen[h.name] = (fr, p, basis)
            renamed = (f"the host's partition name is {f.name}, the HMC's {p.name} (renamed between the collections?)"
                       if f.name and f.name != p.name else "")
            notes[h.name] = JoinNote(h.name, "joined", fr.name, p.name, basis, [_label(fr, p)],
                                     "; ".join(x for x in (renamed, _refused_text(refused)) if x), _evidence(f, basis))
        elif accepted:
            notes[h.name] = JoinNote(h.name, "ambiguous", candidates=[_label(fr, p) for fr, p, _, _ in accepted],
                                     reason=f"the same evidence ({', '.join(sorted({b for _, _, b, _ in accepted}))}) "
                                            f"points at {len(accepted)} partitions; none joined",
                                     evidence=_evidence(f, accepted[0][2]))
        elif refused:
            notes[h.name] = JoinNote(h.name, "refused", candidates=[_label(fr, p) for fr, p, _, _ in refused],
                                     reason=_refused_text(refused), evidence=_evidence(f, refused[0][2]))
        else:
            notes[h.name] = _unjoined(h, f, [parts[i] for i in index.get(("number", f.number), ())])
    _claimed_twice(chosen, notes)
    for name, (fr, p, basis) in chosen.items():
        p.host, p.join = name, basis
    return [notes[n] for n in sorted(notes)]


def _refused_text(refused: list[Candidate]) -> str:
    return "; ".join(f"{_label(fr, p)} matches by {basis} but {' and '.join(why)}" for fr, p, basis, why in refused)


def _unjoined(h: Host, f: HostFacts, numbered: list[tuple[Frame, FramePartition]]) -> JoinNote:
    """No name or serial evidence: a partition that has the host's number only (``numbered``: the
    partitions with that id) is a refused candidate."""
    if f.number is None:
        return JoinNote(h.name, "unjoined", reason="no partition of the HMC data has the host's partition name "
                        "or node name, and the host's outputs give no partition number")
    same_number = [(fr, p) for fr, p in numbered if same_serial(f.serial, fr.serial) is not False]
    if not same_number:
        return JoinNote(h.name, "unjoined", reason="no partition of the HMC data has the host's partition name, "
                        "node name, or frame serial and partition id", evidence=_evidence(f, BASES[2]))
    serial = f"frame serial {f.serial}" if f.serial else "no frame serial in the host's outputs"
    roles = sorted({w for _, p in same_number for w in _role_conflicts(h, p)})
    return JoinNote(h.name, "refused", candidates=[_label(fr, p) for fr, p in same_number],
                    reason=f"only the partition number {f.number} matches ({serial}; partition name "
                           f"{f.name or 'unknown'}): a number alone is no evidence, every frame numbers its partitions"
                           + "".join(f"; besides, {w}" for w in roles),
                    evidence=[f.evidence[k] for k in ("number", "name") if k in f.evidence])


def _claimed_twice(chosen: dict[str, tuple[Frame, FramePartition, str]], notes: dict[str, JoinNote]) -> None:
    """A partition several hosts would join: none of them joins it."""
    by_part: dict[tuple[str, str], list[str]] = {}
    for name, (fr, p, _) in chosen.items():
        by_part.setdefault((fr.name, p.name), []).append(name)
    for (frame, part), hosts in by_part.items():
        if len(hosts) < 2:
            continue
        for name in hosts:
            n = notes[name]
            n.status, n.reason = "ambiguous", (f"hosts {', '.join(sorted(hosts))} all match {frame}/{part} "
                                               f"(by {', '.join(notes[x].basis or '?' for x in sorted(hosts))}); none joined")
            n.frame = n.partition = n.basis = None
            del chosen[name]
