"""vNIC failover across a frame: each client vNIC should have backing devices on different physical
ports, owned by different VIOS, so that neither a link nor a VIOS takes the partition off the
network (rules-catalogue NET-16; the HMC data's vNIC objects, model/frame_vnic.py).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Estate
from ...model.frame import Frame, FramePartition
from ...model.frame_vnic import Vnic, VnicBacking
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .hmc import frames, ms, partition_option

SOURCE = "rules-catalogue NET-16 (vNIC failover: >= 2 backing devices on different physical ports / VIOS)"
_UP = ("OPERATIONAL", "UP", "ACTIVE")  # states of a working backing device (REST: OPERATIONAL, LINK_DOWN ...)


def _vnics(fr: Frame) -> Iterator[tuple[FramePartition, Vnic]]:
    """Each vNIC whose backing devices were all read (one the parser could not read is not guessed at)."""
    for p in sorted(fr.partitions.values(), key=lambda q: (q.id or 0, q.name)):
        for v in sorted(p.vnics, key=lambda x: x.slot or 0):
            if v.backings and (v.listed is None or v.listed <= len(v.backings)):
                yield p, v


def _port(b: VnicBacking) -> object:
    """The physical port under a backing device (a port the data does not give is not taken for another's)."""
    return b.port if b.port is not None else id(b)


def _working(b: VnicBacking) -> bool:
    return b.status is None or b.status.upper() in _UP


def _add_backing(fr: Frame, p: FramePartition, v: Vnic, avoid: set[str]) -> tuple[Commands, Commands]:
    """The HMC commands that add a backing device through another VIOS of the frame (its adapter and
    port are the administrator's choice: a port with a link, on another adapter), and take it away."""
    m = ms(fr)
    others = [q for q in fr.vios if q.name not in avoid and (q.uuid or "").lower() not in {a.lower() for a in avoid}]
    vios = f"{others[0].name}/{others[0].id}" if len(others) == 1 and others[0].id is not None else "<vios>/<vios id>"
    cap = next((b.capacity for b in v.backings if b.capacity is not None), None)
    device = f"sriov/{vios}/<sriov adapter id>/<physical port id>/{cap:g}" if cap is not None else \
        f"sriov/{vios}/<sriov adapter id>/<physical port id>/<capacity %>"
    target = partition_option(p)
    slot = v.slot if v.slot is not None else "<slot>"
    fix = Commands(hmc=[
        f"lshwres -m {m} -r sriov --rsubtype physport --level eth   # pick a port with a link, on another adapter than "
        + ", ".join(sorted({f'{b.adapter_id}' for b in v.backings if b.adapter_id is not None}) or ["the current one"]),
        f'chhwres -m {m} -r virtualio --rsubtype vnic -o s {target} -s {slot} -a "backing_devices+={device}"'])
    undo = Commands(hmc=[f'chhwres -m {m} -r virtualio --rsubtype vnic -o s {target} -s {slot} -a "backing_devices-={device}"'])
    return fix, undo


@rule(
    id="FRAME-VNIC-NO-FAILOVER",
    title="A vNIC has no working failover: one backing device, or all on one physical port",
    severity="warning",
    category="network",
    source=SOURCE,
    rationale="""A vNIC fails over only between its backing devices. With one backing device, or with every
    backing device on the same physical port (one cable, one switch port), a single link or adapter
    failure takes the partition off the network; a backing device whose link is down protects nothing
    until it is repaired. Each vNIC should have at least two working backing devices on different
    physical ports, owned by different VIOS.""",
    scope="estate",
)
def frame_vnic_no_failover(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        for p, v in _vnics(fr):
            working = [b for b in v.backings if _working(b)]
            ports = {_port(b) for b in v.backings}
            if len(v.backings) == 1:
                why = f"one backing device ({v.backings[0].where}): no vNIC failover"
            elif len(ports) == 1:
                owners = sorted({b.owner for b in v.backings})
                why = (f"its {len(v.backings)} backing devices all on one physical port ({v.backings[0].port_text}, "
                       f"through {', '.join(owners)})")
            elif len(working) <= 1:
                down = ", ".join(f"{b.where}: {b.status}" for b in v.backings if not _working(b))
                why = f"{len(working)} of its {len(v.backings)} backing devices work ({down})"
            else:
                continue
            fix, undo = _add_backing(fr, p, v, {b.vios or b.vios_uuid or "" for b in v.backings} - {""})
            yield finding(frame_vnic_no_failover, p.label, f"vNIC slot {v.slot}",
                          f"{fr.name}: the vNIC in slot {v.slot} of {p.name} has {why}.",
                          evidence=[e for e in [v.evidence, *(b.evidence for b in v.backings)] if e is not None],
                          fix=fix, rollback=undo, disruption=["dlpar"],
                          values={"current": f"{len(working)} working backing device(s) on {len(ports)} port(s)",
                                  "suggested": "2 or more working backing devices on different ports and VIOS"})


@rule(
    id="FRAME-VNIC-ONE-VIOS",
    title="Every backing device of a vNIC is on the same VIOS",
    severity="info",
    category="network",
    source=SOURCE,
    rationale="""Backing devices on different physical ports survive a link failure, but when they are all
    owned by one VIOS, that VIOS's update or failure takes the vNIC down: a backing device through the
    frame's other VIOS makes the vNIC as available as a dual-VIOS SEA.""",
    scope="estate",
)
def frame_vnic_one_vios(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        for p, v in _vnics(fr):
            owners = {b.vios or b.vios_uuid for b in v.backings}
            ports = {_port(b) for b in v.backings}
            if len(v.backings) < 2 or len(ports) < 2 or len(owners) != 1 or None in owners:
                continue  # a single device or a single port is the warning's case
            owner = str(next(iter(owners)))
            fix, undo = _add_backing(fr, p, v, {owner})
            yield finding(frame_vnic_one_vios, p.label, f"vNIC slot {v.slot}",
                          f"{fr.name}: the {len(v.backings)} backing devices of the vNIC in slot {v.slot} of {p.name} "
                          f"are all owned by {v.backings[0].vios or 'VIOS ' + owner}.",
                          evidence=[e for e in [v.evidence, *(b.evidence for b in v.backings)] if e is not None],
                          fix=fix, rollback=undo, disruption=["dlpar"],
                          values={"current": f"1 VIOS ({owner})", "suggested": "backing devices on 2 VIOS"})
