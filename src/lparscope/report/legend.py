"""What the report's severities and disruption words mean, in the report's own words.

The HTML page shows them as a legend next to the findings and the plan (only the words the section
uses) and as ``title=`` tooltips on every badge and tag. Severity wording follows docs/rules.md;
finding disruptions are the rules' ``DISRUPTIONS``, plan disruptions the plan's step and change words.
"""

from __future__ import annotations

from collections.abc import Iterable

SEVERITY_MEANING: dict[str, str] = {
    "critical": "data or packets are being lost, or a documented large performance loss, now: fix first",
    "warning": "against the documented practice, with a cost in performance or availability: plan the change",
    "info": "advice or context: worth knowing, a change only if the context calls for it",
}

# Finding disruptions (rules) and plan disruptions (steps and changes): what making the change costs.
DISRUPTION_MEANING: dict[str, str] = {
    "dlpar": "changed on the running partition (DLPAR, from the HMC): no restart",
    "reboot": "applies at the next reboot of the host (made now, it waits for it)",
    "restart-needed": "applies when what it belongs to restarts: the partition activated again from its "
                      "profile, the WPAR, the daemon or the mount",
    "interface-down": "the network interface is detached while it changes: its connections drop",
    "interface down": "the network interface is detached while it changes: its connections drop",
    "partition restart": "the profile is changed; it applies when the partition is shut down and activated "
                         "from that profile",
    "failover": "a VIOS network (SEA) change: its traffic fails over to the partner VIOS first",
    "maintenance window": "the step stops a service or loses redundancy while it runs: schedule it",
    "none": "made online, nothing stops",
}
ONLINE = "online change"
DISRUPTION_MEANING[ONLINE] = "no disruption recorded: the change is made online"


def meaning(word: object) -> str:
    """The tooltip of a severity or disruption word ('' for a word the report does not define)."""
    key = str(word or "").strip().lower()
    return SEVERITY_MEANING.get(key) or DISRUPTION_MEANING.get(key, "")


def disruption_legend(words: Iterable[object]) -> list[tuple[str, str]]:
    """(word, meaning) for each distinct known word, in the order of DISRUPTION_MEANING."""
    present = {str(w).strip().lower() for w in words if w}
    return [(w, m) for w, m in DISRUPTION_MEANING.items() if w in present]
