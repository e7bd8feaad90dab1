"""Real names for HMC commands: the managed system, the partition and its profile, from the model.

A name the inputs do not give is left as None; the change then lists what it needs (shown in the
reports and as a placeholder in the HMC script, which refuses to run that change). A frame the HMC
data does not name is named by its machine type, model and serial when the host's outputs say them
(``9009-42A*7812C4X``, model/mtms.py): every HMC command takes that form.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..model.estate import Estate
from ..model.frame import Frame, FramePartition
from ..model.change import MS, hmc_word
from ..model.mtms import frame_of_host


@dataclass
class Joins:
    """Where to find frame partitions without walking every frame: by joined host, by partition name
    (in frame order, as :func:`locate` walks them). Built once per plan (the model does not change then)."""

    by_host: dict[str, list[tuple[Frame, FramePartition]]] = field(default_factory=dict)
    by_name: dict[str, list[Frame]] = field(default_factory=dict)
    frame_names: set[str] = field(default_factory=set)


def joins(estate: Estate) -> Joins:
    out = Joins()
    for fr in estate.frames.values():
        out.frame_names.add(fr.name)
        for key, p in fr.partitions.items():
            if p.host:
                out.by_host.setdefault(p.host, []).append((fr, p))
            out.by_name.setdefault(key, []).append(fr)
    return out


def locate(estate: Estate, host: str, lpar: str | None = None, frame_name: str | None = None, *,
           by_partition: bool = False, index: Joins | None = None) -> tuple[Frame | None, FramePartition | None]:
    """The frame and frame partition a change is made to.

    A host's change (``by_partition`` False): only the partition the host was joined to on evidence
    (``FramePartition.host``, model/frame_join.py); a host whose join was refused, ambiguous or not
    made has none, even when a partition bears its name. A change a frame rule made about a
    partition seen through the HMC (``ProposedChange.hmc_partition``): the partition ``lpar`` of
    the frame the change names, else the one partition of that name in all frames, when no other
    host is joined to it. ``index``: :func:`joins` of the estate, when many changes are located.
    """
    if index is None:
        return _walk(estate, host, lpar, frame_name, by_partition)
    ix = index
    only = frame_name if frame_name and frame_name in ix.frame_names else None
    if host:
        for fr, p in ix.by_host.get(host, ()):
            if only is None or fr.name == only:
                return fr, p
    if lpar and by_partition:
        named = [fr for fr in ix.by_name.get(lpar, ()) if (only is None or fr.name == only)
                 and fr.partitions[lpar].host in (None, host)]
        if len(named) == 1:  # the same name on several frames: ambiguous, not guessed (model/frame_join.py)
            return named[0], named[0].partitions[lpar]
    return None, None


def _walk(estate: Estate, host: str, lpar: str | None, frame_name: str | None, by_partition: bool
          ) -> tuple[Frame | None, FramePartition | None]:
    """:func:`locate` for one change: the frames walked until the partition is found."""
    frames = list(estate.frames.values())
    if frame_name:
        frames = [f for f in frames if f.name == frame_name] or frames
    for fr in frames:
        for p in fr.partitions.values():
            if p.host == host and host:
                return fr, p
    if lpar and by_partition:
        named = [fr for fr in frames if lpar in fr.partitions and fr.partitions[lpar].host in (None, host)]
        if len(named) == 1:
            return named[0], named[0].partitions[lpar]
    return None, None


def names(estate: Estate, host: str, obj: str, frame_name: str | None = None, *, by_partition: bool = False,
          index: Joins | None = None) -> tuple[str | None, str, str | None, list[str], Any]:
    """(managed system, partition name, profile, needs, frame partition) for an HMC change;
    ``by_partition`` and ``index`` as in :func:`locate`."""
    fr, fp = locate(estate, host, obj, frame_name, by_partition=by_partition, index=index)
    needs: list[str] = []
    frame = fr.name if fr is not None and fr.named else frame_name
    if frame is None and fr is None:
        frame = frame_of_host(estate, estate.hosts.get(host))  # by its frame serial or type-model and serial
    if fp is not None:
        lpar = fp.name
    else:
        h = estate.hosts.get(host)
        lpar = (h.partition.name if h is not None and h.partition is not None and h.partition.name else None) or obj
    profile = fp.profile_name if fp is not None else None
    if frame is None:
        needs.append(f"managed-system name of {lpar} (HMC: lssyscfg -r sys -F name; or the HMC outputs of its frame)")
    if profile is None:
        needs.append(f"profile name of {lpar} (HMC: lssyscfg -r lpar -m {hmc_word(frame or MS)} -F name,curr_profile)")
    return frame, lpar, profile, needs, fp


def name_findings(estate: Estate, findings: list[Any], index: Joins | None = None) -> None:
    """Put the managed-system, profile and partition names the model knows into the findings'
    command texts (rules write placeholders for the first two: a host's own outputs do not name its
    frame; and the partition name the host's outputs give, :attr:`Host.lpar_name`, which the HMC
    partition the host is joined to corrects)."""
    from ..model.change import PROFILE

    if index is None and len(findings) > 1:
        index = joins(estate)
    mtms: dict[str, str | None] = {}
    for f in findings:
        fr, fp = locate(estate, f.host, index=index)
        if fr is None:  # not in the HMC data: its frame by serial, or type-model and serial, as its outputs say them
            if f.host not in mtms:
                mtms[f.host] = frame_of_host(estate, estate.hosts.get(f.host))
            if mtms[f.host]:
                for block in (f.fix, f.rollback):
                    block.hmc[:] = [line.replace(MS, hmc_word(mtms[f.host])) for line in block.hmc]  # type: ignore[arg-type]
            continue
        # "-m <managed-system>" in every rule's text: a frame name with a space is quoted there; a profile
        # name stands inside the -i "name=...,..." string, quoted already
        swaps = [(MS, hmc_word(fr.name) if fr.named else None), (PROFILE, fp.profile_name if fp is not None else None)]
        host = estate.hosts.get(f.host)
        renamed = _partition_option(host.lpar_name, fp.name) if host is not None and fp is not None \
            and fp.name != host.lpar_name else None
        for block in (f.fix, f.rollback):
            for form in ("root", "padmin", "hmc"):
                lines = getattr(block, form)
                for old, new in swaps:
                    if new:
                        lines[:] = [line.replace(old, new) for line in lines]
                if renamed is not None and form == "hmc":
                    lines[:] = [renamed(line) for line in lines]


def _partition_option(old: str, new: str) -> Callable[[str], str]:
    """A function that names partition ``new`` instead of ``old`` where an HMC command names a
    partition (``-p``, ``lpar_name=``, ``lpar_names=``), and nowhere else in the line."""
    pattern = re.compile(r'(?:(?<=-p )|(?<=lpar_name=)|(?<=lpar_names=))' + re.escape(old) + r'(?=[\s",]|$)')
    return lambda line: pattern.sub(lambda _m: new, line)
