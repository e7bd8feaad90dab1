"""VIOS entitled capacity and virtual processors against what its Shared Ethernet Adapter needs: about
one core per 10 Gbit port, 2 EC / 3 VP for a 2 x 10 Gbit aggregation (003), and the measured SEA
traffic at 002's processor cost per Gbit (threaded or not). The numbers come from sizing/vios.py.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Estate
from ...model.frame import frame_of_host
from ...sizing.vios import size_vios
from ..changes import partition_change, propose
from ..config import Config
from ..engine import Finding, finding, rule


@rule(
    id="VIOS-CPU-BELOW-SEA-NEED",
    title="VIOS entitlement or virtual processors below what its SEA needs",
    severity="warning",
    category="vios",
    source="003_034cc79c9b4ed950.txt (CPU per 10Gbit port; L.A 2X10Gbit: two entitled CPU, three virtual processors); "
           "002_17cd08c97e154efa.txt (threaded / non-threaded SEA CPU table)",
    rationale="""An SEA on 10 Gbit adapters is processor-bound: 003 measured about one core per 10 Gbit port on a
    tuned SEA, and two entitled cores with three virtual processors for an SEA on a 2 x 10 Gbit link
    aggregation. 002 gives the cost of bridged traffic per Gbit (63% / 80% of a POWER5 core simplex /
    duplex, 72% / 87% threaded), so measured SEA traffic (nmon SEA) sets a need of its own; the larger of
    the two is used. A VIOS whose entitlement is below it starves the SEA at peak and every client's
    network slows down (000 §3.5.1 asks for a VIOS that is never short of processor). 002's figures are
    POWER5 measurements: newer cores need less, so the traffic-based need is an upper bound.""",
    scope="estate",
)
def vios_cpu_below_sea_need(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for host in estate.vios:
        p = host.partition
        if p is None or p.entitled_capacity is None or p.dedicated:
            continue
        on = frame_of_host(estate, host.name)
        s = size_vios(host, on[1] if on else None, on[0] if on else None)  # the one VIOS sizing (sizing/vios.py)
        if not s.sea_need_ec:
            continue
        ec, vps = p.entitled_capacity, p.online_vps
        short_ec = ec + 1e-9 < s.sea_need_ec
        short_vp = vps is not None and s.sea_need_vps is not None and vps < s.sea_need_vps
        if not short_ec and not short_vp:
            continue
        basis = "measured" if s.sea_peak_gbit else "heuristic"
        changes = []
        if short_ec:
            changes.append(partition_change(host, "desired_proc_units", ec, s.sea_need_ec, basis=basis, bound="min"))
        if short_vp:
            changes.append(partition_change(host, "desired_procs", vps, s.sea_need_vps, basis=basis, bound="min"))
        fix, undo = propose(*changes)
        have = f"EC {ec:g}" + (f", {vps} VP" if vps is not None else "")
        need = f"EC {s.sea_need_ec:g}" + (f", {s.sea_need_vps} VP" if s.sea_need_vps else "")
        yield finding(vios_cpu_below_sea_need, host, "partition",
                      f"VIOS {host.name} has {have}; its SEA needs {need} ({'; '.join(s.sea_need_parts)}).",
                      evidence=p.ev("entitled_capacity", "online_vps"), fix=fix, rollback=undo, disruption=["dlpar"],
                      values={"current": have, "suggested": need},
                      facts={(host.name, "sea_need_ec"): s.sea_need_ec, (host.name, "sea_need_vps"): s.sea_need_vps})
