"""LUNs near the IOPS their service time allows (rules-catalogue STO-18).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.estate import Host
from ..changes import attr_change
from ..config import Config, threshold
from ..engine import Finding, finding, rule

IOPS_SHARE = threshold("lun_iops_ceiling_share", 0.8,
                       "measured tps at or above this share of queue_depth / service time is reported (catalogue STO-02)")


def _svc_ms(r: Any) -> float | None:
    rps, wps, ra, wa = r.rps or 0.0, r.wps or 0.0, r.read_avgserv, r.write_avgserv
    if rps + wps > 0 and (ra is not None or wa is not None):
        return (rps * (ra or 0.0) + wps * (wa or 0.0)) / (rps + wps)
    vals = [v for v in (ra, wa) if v]
    return sum(vals) / len(vals) if vals else None


@rule(
    id="STO-LUN-IOPS-CEILING",
    title="Disk I/O rate close to its queue_depth / service time ceiling",
    severity="info",
    category="storage",
    source="rules-catalogue STO-02",
    rationale="""A disk cannot complete more than queue_depth I/Os per average service time: queue_depth 3 at
    10 ms allows at most 300 I/O per second. When the measured rate comes close to that ceiling the
    queue, not the storage, limits throughput: raise queue_depth within the vendor's limit or spread the
    data over more LUNs. Computed per iostat -D interval (the since-boot report is skipped) with the
    service time weighted by reads and writes.""",
)
def iops_ceiling(host: Host, cfg: Config) -> Iterator[Finding]:
    share = cfg.t(IOPS_SHARE)
    best: dict[str, tuple[float, Any, float, float]] = {}
    for s in host.of_kind("iostat-D", "DiskIoSample"):
        r = s.record
        if r.scope != "disk":
            continue  # Physical, an adapter: iostat's summary rows, not disks
        dev = host.devices.get(r.disk)
        qd = dev.attr("queue_depth") if dev else None
        svc = _svc_ms(r)
        if r.interval == 0 or not r.tps or not svc or not qd or not qd.isdigit() or int(qd) == 0:
            continue
        ceiling = int(qd) * 1000.0 / svc
        ratio = r.tps / ceiling
        if ratio >= share and ratio > best.get(r.disk, (0.0,))[0]:
            best[r.disk] = (ratio, s, ceiling, svc)
    for disk, (ratio, s, ceiling, svc) in sorted(best.items()):
        dev = host.devices[disk]
        qd = int(dev.attr("queue_depth") or 0)
        more = min(qd * 2, 256)
        fix, undo = attr_change(host, disk, {"queue_depth": more}, {"queue_depth": qd}, perm=True, root_notes=[
            "# within the storage vendor's maximum per LUN; or spread the data over more LUNs"])
        yield finding(iops_ceiling, host, disk,
                      f"{disk} on {host.name}: {s.record.tps:.0f} tps against a ceiling of {ceiling:.0f} "
                      f"(queue_depth {qd} / {svc:.2f} ms average service) = {ratio:.0%}"
                      + (f": more than queue_depth {qd} lets through at that service time, so the queue depth in force "
                         f"is not the {qd} read (an ODM value changed with -P and not active yet?) or the outputs are "
                         "from different times; check it before changing it" if ratio > 1.05 else "") + ".",
                      evidence=[s.ev("tps"), s.ev("read_avgserv"), s.ev("write_avgserv"), *dev.attr_ev("queue_depth")],
                      fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": f"queue_depth {qd}, ceiling {ceiling:.0f} IOPS", "suggested": f"queue_depth {more}"})
