"""Live Partition Mobility readiness on a frame: a client partition that owns physical I/O cannot be
moved (rules-catalogue LPM-01; the HMC data's physical slots, model/frame_io.py).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Estate
from ..changes import hmc_word
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .hmc import frames, ms, partition_option


@rule(
    id="FRAME-LPM-PHYSICAL-IO",
    title="A partition owns physical I/O adapters: Live Partition Mobility cannot move it",
    severity="info",
    category="vios",
    source="rules-catalogue LPM-01 (a mobile partition has virtual I/O only: vSCSI, NPIV, virtual Ethernet, vNIC)",
    rationale="""A partition moves to another frame only when all its I/O is virtual: a physical adapter
    in one of its slots (or an SR-IOV logical port of its own) blocks the migration, so the partition
    cannot be evacuated for a firmware update or a hardware repair. Its disks and networks can move to
    the VIOS (vSCSI or NPIV, virtual Ethernet or vNIC), after which the slot is removed from it. VIOS
    own their adapters by design and are not reported.""",
    scope="estate",
)
def frame_lpm_physical_io(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        m = ms(fr)
        for p in sorted(fr.partitions.values(), key=lambda q: (q.id or 0, q.name)):
            if not p.io_slots or not p.env or p.is_vios:
                continue  # a partition whose type the data does not give may be a VIOS: not judged
            slots = sorted(p.io_slots, key=lambda s: s.location or s.drc_index or "")
            target = partition_option(p)
            fix = [f"migrlpar -o v -m {m} -t <target managed system> -p {hmc_word(p.name)}   # the HMC's own validation lists every blocker",
                   f"# move {p.name}'s disks and networks on these adapters to the VIOS (vSCSI / NPIV, virtual Ethernet / vNIC); "
                   "remove the devices on the partition (rmdev -Rdl <adapter>), then each slot:"]
            undo = []
            for s in slots:
                drc = s.drc_index or "<drc index>"
                fix.append(f"chhwres -m {m} -r io -o r {target} -l {drc}   # {s.label}")
                undo.append(f"chhwres -m {m} -r io -o a {target} -l {drc}   # {s.label}")
            fix.append("# and from its profile (io_slots), so the next activation does not take them back")
            shown = ", ".join(s.label for s in slots[:4]) + (f" and {len(slots) - 4} more" if len(slots) > 4 else "")
            yield finding(frame_lpm_physical_io, p.label, "physical I/O",
                          f"{fr.name}: {p.name} owns {len(slots)} physical I/O slot(s): {shown}. Live Partition "
                          "Mobility cannot move it while it does.",
                          evidence=[s.evidence for s in slots if s.evidence is not None],
                          fix=Commands(hmc=fix), rollback=Commands(hmc=undo), disruption=["dlpar"],
                          values={"current": f"{len(slots)} physical slot(s)", "suggested": "virtual I/O only"})
