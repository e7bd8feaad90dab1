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
    and last time, over the window the log covers; TEMP and INFO entries are left out. UNKN hardware entries
    (severity not known to the logger: LVM logs a lost quorum and a missing disk so) count with them. One
    error logged on many resources in the same minute (a path or fabric event, a partition migration) is one
    finding for all of them, not one per disk.""",
)
def errpt_permanent(host: Host, cfg: Config) -> Iterator[Finding]:
    entries = [s for s in host.errors if s.record.err_class in _CLASSES
               and (s.record.type == "PERM" or (s.record.type == "UNKN" and s.record.err_class == "H"))]
    if not entries:
        return
    stamps = sorted(t for t in (_stamp(s.record) for s in host.errors) if t)
    window = f"log from {stamps[0]} to {stamps[-1]}" if stamps else "log window unknown (no dated entries)"
    bursts, entries = _bursts(entries)
    for ident, group in bursts:
        yield _burst_finding(host, ident, group, window)
    groups: dict[tuple[str, str], list[Any]] = {}
    for s in entries:
        groups.setdefault((s.record.resource, s.record.err_class), []).append(s)
    for (resource, cls), group in sorted(groups.items()):
        dated = sorted(t for t in (_stamp(s.record) for s in group) if t)
        labels = sorted({s.record.label or s.record.identifier for s in group})
        descr = sorted({s.record.description for s in group if s.record.description})
        first, last = (dated[0], dated[-1]) if dated else ("?", "?")
        kinds = "permanent" if all(s.record.type == "PERM" for s in group) else "permanent or unknown-severity"
        msg = (f"{resource} on {host.name}: {len(group)} {kinds} {_CLASSES[cls]} error(s) "
               f"({', '.join(labels[:4])}{'...' if len(labels) > 4 else ''}: {'; '.join(descr[:4])}), "
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
                      values={"count": len(group), "class": _CLASSES[cls],
                              "type": "/".join(sorted({s.record.type for s in group})), "first": first,
                              "last": last, "window": window})


BURST_RESOURCES = 3  # resources logging one identifier in the same minute: one event, not a fault per device


def _bursts(entries: list[Any]) -> tuple[list[tuple[str, list[Any]]], list[Any]]:
    """(identifier, its entries) of each burst: one error identifier logged on BURST_RESOURCES or more
    resources, all in one minute; and the entries left for the per-resource findings."""
    by_id: dict[str, list[Any]] = {}
    for s in entries:
        by_id.setdefault(s.record.identifier, []).append(s)
    bursts = [(ident, group) for ident, group in sorted(by_id.items())
              if len({s.record.resource for s in group}) >= BURST_RESOURCES
              and len({(_stamp(s.record) or "?")[:16] for s in group}) == 1 and _stamp(group[0].record)]
    taken = {id(s) for _, group in bursts for s in group}
    return bursts, [s for s in entries if id(s) not in taken]


def _burst_finding(host: Host, ident: str, group: list[Any], window: str) -> Finding:
    resources = sorted({s.record.resource for s in group})
    rec = group[0].record
    shown = ", ".join(resources[:8]) + (f" and {len(resources) - 8} more" if len(resources) > 8 else "")
    fix = Commands(root=[f"errpt -a -j {ident} | more   # the detail data of one entry tells the path or adapter",
                         "lspath | grep -v Enabled ; lsmpio -ar   # paths still failed or missing after the event",
                         "errpt | head -40   # what the log shows around it (a partition migration, an adapter, a switch)",
                         "# one cause for all of them: repair the path, adapter or fabric, not each device"])
    if host.is_vios:
        fix.padmin = [f"errlog -ls | grep {ident}", "# or oem_setup_env and the root commands"]
    return finding(errpt_permanent, host, f"{len(resources)} resources ({ident})",
                   f"{len(resources)} resources on {host.name} logged {ident} ({rec.label or rec.description}) "
                   f"in the same minute, {_stamp(rec)}: one event ({shown}); {window}.",
                   evidence=[s.ev() for s in group[:5]], fix=fix,
                   rollback=Commands(root=["# diagnosis only: nothing to roll back"]),
                   values={"count": len(group), "resources": len(resources), "identifier": ident,
                           "type": "/".join(sorted({s.record.type for s in group})), "first": _stamp(rec),
                           "last": _stamp(rec), "window": window})
