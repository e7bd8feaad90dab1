"""16 MB large pages reserved but not used (rules-catalogue MEM-11).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host
from ..changes import root_commands, tunable_change
from ..config import Config
from ..engine import Finding, finding, rule
from ..host_facts import tunable_int

LARGE_PAGE_BYTES = 16 * 1024 * 1024  # the L row's page


@rule(
    id="MEM-LARGE-PAGES-UNUSED",
    title="16 MB large pages reserved but unused",
    severity="warning",
    category="memory",
    source="rules-catalogue MEM-11",
    rationale="""Large pages (vmo lgpg_regions x lgpg_size) are taken out of the memory the system can page
    and are pinned from boot, whether or not a program asks for them. A pool of 16 MB pages of which no
    page is in use is memory the partition cannot use for anything else. Either the workload meant to use
    it is not asking for large pages (DB2/Oracle shared memory, a JVM's -Xlp; a non-root user needs the
    CAP_BYPASS_RAC_VMM and CAP_PROPAGATE capabilities), or the pool is no longer needed and can be given
    back (size lgpg_regions to the consumer exactly).""",
)
def large_pages_unused(host: Host, cfg: Config) -> Iterator[Finding]:
    for src in host.of_kind("svmon-G")[-1:]:  # the last svmon -G read: the state the host was left in
        g = src.record
        large = g.page_size("L")
        if large is None or large.pool_size is None or large.pool_size <= 0 or large.inuse is None or large.inuse != 0:
            continue
        pool_mb = g.mb(large.pool_size, large.page_kb)
        regions, t = tunable_int(host, "lgpg_regions")
        if regions is None and pool_mb is not None:
            regions = int(round(pool_mb * 1024 * 1024 / LARGE_PAGE_BYTES))
        if regions is None:
            continue  # the output's unit is not known (its status says so): no exact command to give
        size_text = f"{pool_mb:,.0f} MB" if pool_mb is not None else f"{large.pool_size:g} ({g.unit})"
        evidence = [src.ev("L")] + ([t.ev()] if t is not None else [])
        check = ["svmon -G   # L row: inuse stays 0 while the workload runs?",
                 "ipcs -bm   # shared memory segments (a database asks for large pages here)"]
        # lgpg_size stays: the plan's one change is lgpg_regions, and its rollback needs the size kept
        fix = root_commands(host, check + ["vmo -r -o lgpg_regions=0", "bosboot -a", "shutdown -Fr   # at a planned time"])
        undo = root_commands(host, [f"vmo -r -o lgpg_regions={regions}", "bosboot -a", "shutdown -Fr"])
        yield finding(large_pages_unused, host, "vmo lgpg_regions",
                      f"{host.name}: {size_text} of 16 MB large pages reserved, none in use (svmon -G L row).",
                      evidence=evidence, fix=fix, rollback=undo, disruption=["reboot"],
                      changes=[tunable_change(host, "vmo", "lgpg_regions", str(regions), "0", boot=True)],
                      values={"current": f"{size_text} reserved, 0 in use", "suggested": "0 (or what the workload uses)"})
