"""Pinned memory close to maxpin% (rules-catalogue MEM-13).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ...model.estate import Host
from ..changes import root_commands
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from ..host_facts import tunable_int
from .maximum import hmc_memory_change
from .paging import PAGING_ADD_SHARE

PINNED_SHARE = threshold(
    "pinned_to_maxpin_share", 0.9,
    "pinned memory at or above this share of maxpin% is reported (rules-catalogue MEM-13, K)")


@rule(
    id="MEM-PINNED-NEAR-MAXPIN",
    title="Pinned memory close to maxpin",
    severity="info",
    category="memory",
    source="rules-catalogue MEM-13 (K)",
    rationale="""AIX refuses to pin more than maxpin% of real memory; when pinned pages approach it, pinning
    requests (large pages, pbufs, pinned shared memory, network buffers) start to fail. The catalogue has
    this from domain knowledge only, so it is advisory: find the pinned consumers before the limit is
    reached.""",
)
def pinned_near_maxpin(host: Host, cfg: Config) -> Iterator[Finding]:
    pinned, pages = host.vmstat.get("pinned_pages"), host.vmstat.get("memory_pages")
    maxpin_s = host.vmstat.get("maxpin_percentage")
    maxpin_v, t = tunable_int(host, "maxpin%")
    if pinned is None or pages is None or not pages.value:
        return
    if maxpin_v is not None and t is not None:
        maxpin, maxpin_ev = float(maxpin_v), t.ev()
    elif maxpin_s is not None:
        maxpin, maxpin_ev = float(maxpin_s.value), maxpin_s.evidence
    else:
        return
    pct = 100.0 * float(pinned.value) / float(pages.value)
    if pct < maxpin * cfg.t(PINNED_SHARE):
        return
    fix = root_commands(host, ["svmon -G -O unit=MB   # pin column per segment type",
                                  "vmo -o lgpg_regions -o lgpg_size   # large pages are pinned"])
    p = host.partition
    step = math.ceil((p.online_memory_mb if p and p.online_memory_mb else 4096) * cfg.t(PAGING_ADD_SHARE) / 1024) * 1024
    fix.hmc = [hmc_memory_change(host, "a", step)]
    yield finding(pinned_near_maxpin, host, "pinned memory",
                  f"{host.name}: {int(pinned.value)} of {int(pages.value)} pages pinned ({pct:.1f}%), maxpin {maxpin:.0f}%.",
                  evidence=[pinned.evidence, pages.evidence, maxpin_ev], fix=fix,
                  rollback=Commands(hmc=[hmc_memory_change(host, "r", step)]), disruption=["dlpar"],
                  values={"current": f"{pct:.1f}% pinned", "suggested": f"< {maxpin * cfg.t(PINNED_SHARE):.0f}% (maxpin {maxpin:.0f}%)"})
