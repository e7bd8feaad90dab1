"""The VIOS's Live Partition Mobility pseudo-device (vioslpm0): its concurrency level left to the HMC
(rules-catalogue LPM-05).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host
from ..changes import attr_change
from ..config import Config
from ..engine import Finding, finding, rule
from .level import level_tuple

DEFAULT_CONCURRENCY = "4"  # VIOS 2.2.4.0 and later (3 on 2.2.2.0-2.2.3.x)
HMC_SIZED_FROM = (3, 1, 2)  # with HMC 9.2.950+, the HMC sizes each migration's resources from this VIOS level


@rule(
    id="VIOS-LPM-CONCURRENCY",
    title="vioslpm0 concurrency_lvl changed from its default on a VIOS whose migrations the HMC sizes",
    severity="warning",
    category="vios",
    source="rules-catalogue LPM-05 (IBM Power10 documentation: concurrency level attribute of the VIOS "
           "LPM pseudo-device)",
    rationale="""concurrency_lvl on the VIOS's LPM pseudo-device sets how many threads and buffers a
    mover service partition gives each migration. From VIOS 3.1.2 with HMC 9.2.950 or later, the HMC
    chooses those resources for each migration; a value set on the VIOS overrides that choice, so it
    should stay at its default (4). How many migrations run at once is cfg_msp_lpm_ops, a different
    attribute.""",
)
def lpm_concurrency(host: Host, cfg: Config) -> Iterator[Finding]:
    dev = host.devices.get("vioslpm0")
    level = host.levels.get("ioslevel")
    if not host.is_vios or dev is None or level is None or level_tuple(level.value) < HMC_SIZED_FROM:
        return
    value = dev.attr("concurrency_lvl")
    if value is None or value == DEFAULT_CONCURRENCY:
        return
    fix, undo = attr_change(host, "vioslpm0", {"concurrency_lvl": DEFAULT_CONCURRENCY}, {"concurrency_lvl": value})
    yield finding(lpm_concurrency, host, "vioslpm0",
                  f"{host.name} (VIOS {level.value}): vioslpm0 concurrency_lvl={value} overrides the resources the "
                  f"HMC (9.2.950 or later) would choose for each migration; the default is {DEFAULT_CONCURRENCY}.",
                  evidence=dev.attr_ev("concurrency_lvl") + [level.evidence], fix=fix, rollback=undo,
                  values={"current": f"concurrency_lvl={value}", "suggested": f"concurrency_lvl={DEFAULT_CONCURRENCY}"})
