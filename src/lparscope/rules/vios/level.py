"""The VIOS ioslevel against the levels with known defects (000 §3.5.4 Example 3-23;
rules-catalogue VIOS-08).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ...model.estate import Host
from ..config import Config
from ..engine import Commands, Finding, finding, rule

# ioslevel ranges affected by APAR IV94438 (rules-catalogue VIOS-06)
IV94438_LEVELS = (((2, 2, 4, 0), (2, 2, 4, 40)), ((2, 2, 5, 0), (2, 2, 5, 20)))


def level_tuple(level: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", str(level))[:4])


@rule(
    id="VIOS-IOSLEVEL",
    title="VIOS software level (ioslevel)",
    severity="info",
    category="vios",
    source="000_31a80e54567cd02b.txt §3.5.4 (Example 3-23)",
    rationale="""The VIOS code receives fixes and enhancements regularly; its level should be checked and kept
    current. This is a summary line per VIOS so the levels of the estate can be compared with the
    level IBM's Fix Level Recommendation Tool gives for the hardware.""",
)
def ioslevel(host: Host, cfg: Config) -> Iterator[Finding]:
    lv = host.levels.get("ioslevel")
    if not host.is_vios or lv is None:
        return
    t = level_tuple(lv.value)
    note = ""
    if any(lo <= t <= hi for lo, hi in IV94438_LEVELS):
        note = (" This level is in a range affected by APAR IV94438 (rules deployed before the update can set "
                "backing disks to reserve_policy=single_path): check the backing disks.")
    fix = Commands(padmin=["ioslevel", "# compare with the recommendation of IBM FLRT for this VIOS and its partner",
                           "updateios -commit", "updateios -accept -install -dev <directory with the update>",
                           "shutdown -restart   # one VIOS of a pair at a time"])
    undo = Commands(padmin=["updateios -reject   # removes an applied update that was not committed"])
    yield finding(ioslevel, host, "ioslevel", f"{host.name} runs VIOS {lv.value}.{note}", evidence=[lv.evidence],
                  fix=fix, rollback=undo, disruption=["reboot"], values={"current": lv.value, "suggested": "FLRT level"})
