"""Paging space activity since boot (rules-catalogue MEM-08, SZ-09; 000 §3.2.6), and Deferred Page Space
Allocation turned off (MEM-10).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ...model.estate import Host, Sourced
from ..changes import partition_change, propose, root_commands, tunable_change
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from ..host_facts import tunable_int
from .maximum import hmc_memory_change

PAGING_SINCE_BOOT = threshold(
    "paging_space_pages_since_boot", 10000.0,
    "paging-space page ins + outs since boot (one vmstat -s) at or above this are reported as info; any growth "
    "between two vmstat -s snapshots is a warning (rules-catalogue MEM-08; the count is a heuristic, K)")
COMP_PCT_HIGH = threshold(
    "computational_pct_high", 85.0,
    "vmstat -v computational-page percentage at or above this makes paging a warning (rules-catalogue MEM-08, K)")
PAGING_ADD_SHARE = threshold(
    "paging_add_memory_share", 0.25,
    "first memory step suggested against paging, as a share of online memory (a starting point, not a sizing)")


def memory_step_fix(host: Host, cfg: Config) -> tuple[int, Commands, Commands]:
    """(MB, fix, rollback) of the first memory step against paging (PAGING_ADD_SHARE of online memory, in
    whole GB): one target for every paging rule, filed as a desired_mem change when online memory is known."""
    p = host.partition
    step = math.ceil((p.online_memory_mb if p and p.online_memory_mb else 4096) * cfg.t(PAGING_ADD_SHARE) / 1024) * 1024
    fix = root_commands(host, ["svmon -P -O sortentity=pgsp,unit=MB -t 10   # which processes own the paged-out memory",
                               "lsps -a"])
    if p and p.online_memory_mb:
        mem_fix, undo = propose(partition_change(host, "desired_mem", p.online_memory_mb, p.online_memory_mb + step))
        fix.hmc, fix.changes = mem_fix.hmc, mem_fix.changes
    else:
        fix.hmc = [hmc_memory_change(host, "a", step), "# then raise desired_mem in the profile by the same amount"]
        undo = Commands(hmc=[hmc_memory_change(host, "r", step)])
    return step, fix, undo


def _vmstat_s_snapshots(host: Host) -> list[dict[str, Sourced]]:
    """Each vmstat -s output (grouped by file and position), in reading order."""
    snaps: dict[tuple[str, int], dict[str, Sourced]] = {}
    for s in host.of_kind("vmstat-s"):
        snaps.setdefault((s.path, s.offset), {})[s.record.name] = s
    return list(snaps.values())


@rule(
    id="MEM-PAGING-SPACE-ACTIVITY",
    title="Paging to paging space (real memory short)",
    severity="warning",
    category="memory",
    source="rules-catalogue MEM-08; 000_31a80e54567cd02b.txt §3.2.6 (vmstat -s paging space counters)",
    rationale="""Pages written to and read back from paging space mean the working set does not fit in real
    memory; every such fault costs a disk I/O. vmstat -s counts since boot, so one snapshot only says it
    happened at some time: growth between two snapshots, or a computational share near the whole memory,
    says it is happening now. Add memory (or fix the process that grows) and find the consumer with
    svmon.""",
)
def paging_space_activity(host: Host, cfg: Config) -> Iterator[Finding]:
    snaps = [s for s in _vmstat_s_snapshots(host)
             if "paging_space_page_outs" in s or "paging_space_page_ins" in s]
    if not snaps:
        return

    def total(snap: dict[str, Sourced]) -> int:
        return sum(int(snap[k].record.value) for k in ("paging_space_page_ins", "paging_space_page_outs") if k in snap)

    last = snaps[-1]
    ev = [last[k].ev() for k in ("paging_space_page_ins", "paging_space_page_outs") if k in last]
    comp = host.vmstat.get("percentage_of_memory_used_for_computational_pages")
    comp_v = float(comp.value) if comp is not None and isinstance(comp.value, (int, float)) else None
    if len(snaps) >= 2 and total(snaps[-1]) - total(snaps[0]) > 0:
        delta = total(snaps[-1]) - total(snaps[0])
        first = snaps[0]
        ev = [first[k].ev() for k in ("paging_space_page_ins", "paging_space_page_outs") if k in first] + ev
        msg, sev = f"{host.name}: paging-space page ins + outs grew by {delta} between two vmstat -s snapshots.", None
    elif total(last) >= cfg.t(PAGING_SINCE_BOOT):
        high = comp_v is not None and comp_v >= cfg.t(COMP_PCT_HIGH)
        msg = f"{host.name}: {total(last)} paging-space page ins + outs since boot"
        msg += (f", and computational pages use {comp_v:.1f}% of memory." if high
                else "; take two vmstat -s snapshots to see whether it still happens.")
        sev = None if high else "info"
    else:
        return
    if comp is not None and comp.evidence:
        ev.append(comp.evidence)
    step, fix, undo = memory_step_fix(host, cfg)
    yield finding(paging_space_activity, host, "paging space", msg, evidence=ev, fix=fix, rollback=undo,
                  disruption=["dlpar"], severity=sev,
                  values={"current": f"{total(last)} paging-space pages since boot"
                          + (f", comp {comp_v:.1f}%" if comp_v is not None else ""),
                          "suggested": f"no paging-space traffic; first step +{step} MB"})


@rule(
    id="MEM-DPSA-OFF",
    title="Deferred Page Space Allocation turned off (vmo defps=0)",
    severity="warning",
    category="memory",
    source="rules-catalogue MEM-10 (vmo defps = 1, the default)",
    rationale="""With Deferred Page Space Allocation (vmo defps=1, the default) a paging-space slot is taken
    only when a page is actually paged out. With defps=0 AIX reserves paging space for every page a
    program touches, so a paging space sized for real paging runs out on allocation alone, and processes
    are killed with paging space low while little is paged. Turn it back on unless an application was
    certified for early allocation (PSALLOC=early does that per process, deliberately).""",
)
def dpsa_off(host: Host, cfg: Config) -> Iterator[Finding]:
    value, s = tunable_int(host, "defps")
    if value is None or s is None or value != 0:
        return
    yield finding(dpsa_off, host, "vmo defps",
                  f"{host.name}: defps = 0: paging space is allocated when pages are touched, not when they are paged out.",
                  evidence=[s.ev()],
                  changes=[tunable_change(host, "vmo", "defps", 0, 1, note="rules-catalogue MEM-10")],
                  values={"current": 0, "suggested": 1})
