"""Rules on measured time series: run queue, paging, network errors, SEA traffic.

Each reads one nmon section kept on the host (host.nmon.tables) through a pure check of
lparscope.sizing.series_checks and cites the rows where the condition held. The run queue and
paging rules read the host's vmstat interval outputs when it has no recording with the section
(``_streams``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ...model.estate import Host
from ...sizing import series_checks as sc
from ..changes import MS, hmc_word
from ..memory.paging import memory_step_fix
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from ._streams import Stream, column, nmon_rows, nmon_table, streams


def _worst(found: list[tuple[Stream, Any]]) -> tuple[Stream, Any] | None:
    """Of the episodes found in several streams (vmstat runs), the one where the condition held most."""
    found = [(st, ep) for st, ep in found if ep is not None]
    return max(found, key=lambda x: (x[1].share, x[1].n_hits)) if found else None


@rule(
    id="CPU-RUNQ-PER-LCPU",
    title="More runnable threads than logical CPUs, persistently",
    severity="warning",
    category="processor",
    source="rules-catalogue CPU (run queue); nmon PROC Runnable or vmstat r (practitioner threshold, not from the seeds)",
    rationale="""On AIX the run queue counts running and ready threads. More of them than logical CPUs, for a
    sustained time, means threads wait for a processor: the partition needs more VPs or entitlement (or
    the workload queues by design). The threshold of 1 thread per logical CPU is a practitioner rule.""",
)
def runq(host: Host, cfg: Config) -> Iterator[Finding]:
    found = []
    for st in streams(host, "PROC", {"r": "Runnable"}, {"r": "r"}):
        if st.lcpu:
            found.append((st, sc.run_queue_per_lcpu(st.times, st.columns["r"], st.lcpu, persistence=st.persistence)))
    worst = _worst(found)
    if worst is None:
        return
    st, ep = worst
    p = host.partition
    check = "# or check for a runaway process first: topas, ps -ef -o pcpu,args | sort -rn | head"
    if p is not None and p.max_vps and p.online_vps and p.online_vps >= p.max_vps:
        # at its maximum VPs DLPAR cannot add one: the profile's max_procs first, at the next activation
        fix = Commands(hmc=[f"# {host.lpar_name} runs its maximum of {p.max_vps} virtual processors: raise max_procs "
                            "(and max_proc_units) in its profile; it applies at the next activation", check])
        undo = Commands(hmc=["# nothing changed by this finding"])
    else:
        fix = Commands(hmc=[f"chhwres -m {MS} -r proc -o a -p {hmc_word(host.lpar_name)} --procs 1 --procunits 0.5", check])
        undo = Commands(hmc=[f"chhwres -m {MS} -r proc -o r -p {hmc_word(host.lpar_name)} --procs 1 --procunits 0.5"])
    yield finding(runq, host, "run queue",
                  f"{host.name}: run queue above {ep.threshold:g} per logical CPU ({st.lcpu:.0f} lcpu) in {ep.n_hits} of "
                  f"{ep.n_samples} {st.what}; worst {ep.worst_value:.1f} per lcpu.",
                  evidence=st.cite([ep.worst_index] if ep.worst_index is not None else ep.indexes),
                  fix=fix, rollback=undo,
                  disruption=["dlpar"], values={"current": f"{ep.worst_value:.1f} runnable per lcpu", "suggested": "<= 1"})


@rule(
    id="MEM-PAGING-SPACE-SERIES",
    title="Paging to paging space through the recording",
    severity="warning",
    category="memory",
    source="rules-catalogue MEM-08; 000_31a80e54567cd02b.txt §3.2.6",
    rationale="""Paging-space page-ins and page-outs (nmon PAGE pgsin/pgsout, vmstat pi/po) sustained over the recording mean
    the partition's working set does not fit its real memory: add memory (or, with AME, lower the factor).""",
)
def paging_series(host: Host, cfg: Config) -> Iterator[Finding]:
    found = [(st, sc.paging_activity(st.times, st.columns["in"], st.columns["out"], persistence=st.persistence))
             for st in streams(host, "PAGE", {"in": "pgsin", "out": "pgsout"}, {"in": "pi", "out": "po"})]
    worst = _worst(found)
    if worst is None:
        return
    st, ep = worst
    _step, fix, undo = memory_step_fix(host, cfg)  # the same first step as MEM-PAGING-SPACE-ACTIVITY: one target
    yield finding(paging_series, host, "paging space",
                  f"{host.name}: paging-space pages in+out per second > 0 in {ep.n_hits} of {ep.n_samples} {st.what} "
                  f"(worst {ep.worst_value:.0f}/s{st.run_text(ep)}).",
                  evidence=st.cite(ep.indexes), fix=fix, rollback=undo,
                  disruption=["dlpar"], values={"current": f"{ep.share:.0%} of {st.what} paging", "suggested": "0"})


@rule(
    id="NET-ERRORS-SERIES",
    title="Network interface errors during the recording",
    severity="warning",
    category="network",
    source="rules-catalogue NET-13; nmon NETERROR",
    rationale="""Input/output errors or collisions on an interface are dropped or resent packets; a healthy link
    shows none. Look at the adapter below it (entstat -d: CRC, no resource, hypervisor failures).""",
)
def net_errors(host: Host, cfg: Config) -> Iterator[Finding]:
    t = nmon_table(host, "NETERROR")
    if t is None:
        return
    per_if: dict[str, np.ndarray] = {}
    for c in t.columns:
        iface = c.split("-")[0]
        v = column(t, c)
        if v is not None:
            per_if[iface] = np.nan_to_num(per_if.get(iface, np.zeros_like(v))) + np.nan_to_num(v)
    for ep in sc.network_errors(t.times, per_if)[:3]:
        ent = "ent" + (ep.subject or "en")[2:] if (ep.subject or "").startswith("en") else ep.subject
        yield finding(net_errors, host, ep.subject or "?",
                      f"{host.name}: {ep.subject} had errors in {ep.n_hits} of {ep.n_samples} snapshots (worst {ep.worst_value:.0f}).",
                      evidence=nmon_rows(host, t, ep.indexes),
                      fix=Commands(root=[f"entstat -d {ent} | egrep -i 'error|crc|resource|failure'", f"errpt -a -N {ent}"]),
                      rollback=Commands(root=["# the commands above only read counters: nothing to roll back"]),
                      values={"current": f"{ep.share:.0%} of snapshots with errors", "suggested": "0"})


@rule(
    id="VIOS-SEA-TRAFFIC",
    title="SEA traffic carried by the VIOS, with its processor cost",
    severity="info",
    category="vios",
    source="002_17cd08c97e154efa.txt (63%/80% of a POWER5 CPU per Gbit simplex/duplex); 000_31a80e54567cd02b.txt §3.5.1",
    rationale="""A Shared Ethernet Adapter costs VIOS processor in proportion to the traffic it bridges; the
    002 measurements give roughly 0.6-0.8 of a (POWER5) core per Gbit/s. The peak traffic measured here,
    set beside the VIOS entitlement, tells whether the VIOS has the processor its SEA needs.""",
)
def sea_traffic(host: Host, cfg: Config) -> Iterator[Finding]:
    t = nmon_table(host, "SEA")
    if t is None or not host.is_vios:
        return
    seas = sorted({c.split("-")[0] for c in t.columns if c.endswith("KB/s")})
    for sea in seas:
        r, w = column(t, f"{sea}-read-KB/s"), column(t, f"{sea}-write-KB/s")
        if r is None or w is None:
            continue
        dev = host.devices.get(sea)
        threaded = (dev.attr("thread") or "1").strip() != "0" if dev is not None else True  # as sizing/vios.py reads it
        tr = sc.sea_traffic(t.times, r, w, is_vios=True, subject=sea, threaded=threaded)
        if tr is None or tr.peak_gbit < 0.1:
            continue
        ec = host.partition.entitled_capacity if host.partition else None
        yield finding(sea_traffic, host, sea,
                      f"{host.name} {sea}: mean {tr.mean_gbit:.2f} Gbit/s, P95 {tr.p95_gbit:.2f}, peak {tr.peak_gbit:.2f}; "
                      f"by 002 ({'threaded' if threaded else 'not threaded'}) that is about "
                      f"{tr.cpu_estimate_duplex:.2f} (two-way) to {tr.cpu_estimate_simplex:.2f} (one-way) POWER5 cores at peak"
                      + (f" against EC {ec}." if ec else "."),
                      evidence=nmon_rows(host, t, [tr.peak_index]),
                      fix=Commands(padmin=[f"seastat -d {sea}   # per-client traffic (enable accounting first)"]),
                      rollback=Commands(padmin=["# reading only: nothing to roll back"]),
                      values={"current": f"peak {tr.peak_gbit:.2f} Gbit/s", "suggested": "VIOS EC covering it"})
