"""Disks whose reads are slow for any medium (rules-catalogue STO-03).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.estate import Host
from ..config import Config, threshold
from ..changes import root_commands
from ..engine import Finding, finding, rule

READ_SERVICE_MS = threshold("read_service_ms_high", 15.0,
                            "average read service time (iostat -D read avgserv, ms) above which a disk is reported "
                            "(rules-catalogue STO-03: 15 ms for HDD-backed arrays; flash shops may set 2)")
READ_SERVICE_MIN_RPS = threshold("read_service_min_rps", 5.0,
                                 "reads per second a report needs before its average service time counts "
                                 "(a handful of reads is no average; heuristic)")


@rule(
    id="STO-READ-SERVICE-SLOW",
    title="Disk reads slower than the media allows",
    severity="info",
    category="storage",
    source="rules-catalogue STO-03",
    rationale="""A read served by an HDD-backed array takes a few milliseconds, by flash about one: an average
    read service time above 15 ms (the catalogue's threshold for spinning disks; flash shops may set a
    lower one) means the I/O waits somewhere between the adapter and the storage: a busy or degraded
    array, a saturated port, or link errors. Service time is what the disk driver measures from sending
    to completion, so queue_depth does not lower it: investigate the path and the array before any
    queue tuning (and fix FC link errors first, STO-04).""",
)
def read_service_slow(host: Host, cfg: Config) -> Iterator[Finding]:
    limit, min_rps = cfg.t(READ_SERVICE_MS), cfg.t(READ_SERVICE_MIN_RPS)
    worst: dict[str, Any] = {}
    for s in host.of_kind("iostat-D", "DiskIoSample"):
        r = s.record
        if r.scope != "disk":
            continue  # Physical, an adapter: iostat's summary rows, not disks
        if r.read_avgserv is None or (r.rps or 0.0) < min_rps or r.read_avgserv <= limit:
            continue
        if r.disk not in worst or r.read_avgserv > worst[r.disk].record.read_avgserv:
            worst[r.disk] = s
    for disk, s in sorted(worst.items()):
        r = s.record
        when = "since boot" if r.interval == 0 else f"in report {r.interval + 1}"
        fix = root_commands(host, [
            f"iostat -DlT {disk} 5 12   # service times now, every 5 s for a minute",
            "fcstat -D <the fcs adapter of its paths>   # link errors first (rules-catalogue STO-04)",
            "# then the storage side: the array's response time for this LUN, its pool or RAID group, the ports"])
        yield finding(read_service_slow, host, disk,
                      f"{disk} on {host.name}: reads average {r.read_avgserv:.1f} ms ({r.rps:.0f} reads/s, {when}), "
                      f"above {limit:g} ms.",
                      evidence=[s.ev("read_avgserv"), s.ev("rps")], fix=fix,
                      values={"current": f"{r.read_avgserv:.1f} ms", "suggested": f"below {limit:g} ms"})
