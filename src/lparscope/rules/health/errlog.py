"""Permanent hardware and software errors in the AIX error log, grouped by resource (errpt)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.build_system import error_stamp
from ...model.estate import Host
from ..config import Config
from ..engine import Commands, Finding, finding, rule

_CLASSES = {"H": "hardware", "S": "software"}


def _stamp(rec: Any) -> str | None:
    """The entry's time as ``YYYY-MM-DDTHH:MM`` (errpt summary) or converted from errpt -a's Date/Time."""
    return rec.timestamp or error_stamp(rec.date)


@rule(
    id="HEALTH-ERRPT-PERMANENT",
    title="Permanent hardware or software errors in the error log",
    severity="warning",
    category="health",
    source="rules-catalogue STO-04, STO-06 (errpt is where FC and disk faults show first)",
    rationale="""A PERM entry is an error the system could not recover from by retrying: a failed path, an
    adapter reset, a disk operation error, a core dump. Repeated entries on one resource point at a part or
    a fabric port to replace before it fails for good, and they often explain a performance finding
    (paths, queue full, resets). Entries are grouped per resource and class with their count and the first
    and last time, over the window the log covers; TEMP and INFO entries are left out.""",
)
def errpt_permanent(host: Host, cfg: Config) -> Iterator[Finding]:
    entries = [s for s in host.errors if s.record.type == "PERM" and s.record.err_class in _CLASSES]
    if not entries:
        return
    stamps = sorted(t for t in (_stamp(s.record) for s in host.errors) if t)
    window = f"log from {stamps[0]} to {stamps[-1]}" if stamps else "log window unknown (no dated entries)"
    groups: dict[tuple[str, str], list[Any]] = {}
    for s in entries:
        groups.setdefault((s.record.resource, s.record.err_class), []).append(s)
    for (resource, cls), group in sorted(groups.items()):
        dated = sorted(t for t in (_stamp(s.record) for s in group) if t)
        labels = sorted({s.record.label or s.record.identifier for s in group})
        descr = sorted({s.record.description for s in group if s.record.description})
        first, last = (dated[0], dated[-1]) if dated else ("?", "?")
        msg = (f"{resource} on {host.name}: {len(group)} permanent {_CLASSES[cls]} error(s) "
               f"({', '.join(labels[:4])}{'...' if len(labels) > 4 else ''}: {'; '.join(descr[:2])}), "
               f"first {first}, last {last}; {window}.")
        ids = " ".join(sorted({s.record.identifier for s in group})[:4])
        fix = Commands(root=[f"errpt -a -N {resource}   # every entry of this resource, with its detail data",
                             f"errpt -a -j {ids.replace(' ', ',')}" if ids else "errpt -a",
                             "# open a service call with the detail data if the entries continue; "
                             "after the repair: errclear -N " + resource + " 0"])
        if host.is_vios:
            fix.padmin = [f"errlog -ls | grep -i {resource}", "# or oem_setup_env and the root commands"]
        yield finding(errpt_permanent, host, resource, msg, evidence=[s.ev() for s in group[:5]], fix=fix,
                      rollback=Commands(root=["# diagnosis only: nothing to roll back (errclear removes entries for good)"]),
                      values={"count": len(group), "class": _CLASSES[cls], "type": "PERM", "first": first,
                              "last": last, "window": window})
