"""Rules on measured use: the sizing recommendation and VP-bound partitions (000 §3.1).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...model.estate import Evidence, Host
from ...model.nmon_physc import host_physc
from ...sizing.series_checks import vp_bound
from ..changes import partition_change, propose
from ..config import Config, threshold
from ..engine import Finding, finding, rule

EC_DRIFT = threshold("sizing_ec_drift", 0.25,
                     "relative difference between current and measured EC (peak-window average) that is reported")


def _row_evidence(host: Host, indexes: list[int]) -> list[Evidence]:
    if host.sizing is not None and host.sizing_evidence and not host.sizing.series.startswith("nmon"):
        rows = host.sizing_evidence  # sized from the HMC's samples: cite those
        found = [rows[i].evidence for i in indexes if 0 <= i < len(rows)]
        return [e for e in found if e is not None]
    if host.cpu is None or host.cpu.origin != "nmon":
        return []
    rows = host.cpu.evidence  # the recording's LPAR snapshots (model.nmon.SnapshotEvidence: each row's own file)
    return [rows[i] for i in indexes if 0 <= i < len(rows)]


@rule(
    id="CPU-SIZING-MEASURED",
    title="Entitlement or virtual processors differ from measured use",
    severity="warning",
    category="processor",
    source="000_31a80e54567cd02b.txt §3.1 (Table 3-1, Figure 3-1); §3.5.1 Table 3-9 for a VIOS",
    rationale="""The Redbook sizes a partition from its own workload: EC at the average processor use
    during the peak period, virtual processors at the highest use in that period (a VIOS with some
    headroom), never more VPs than the pool has cores. The recommendation below comes from the
    recorded physc series; percentiles are shown beside it for those used to sizing by P95/P99.""",
)
def sizing_measured(host: Host, cfg: Config) -> Iterator[Finding]:
    s = host.sizing
    if s is None or s.recommended_ec is None or s.recommended_vp is None:
        return
    if s.current_capped and s.current_ec and s.peak.max is not None and s.peak.max >= 0.95 * s.current_ec:
        return  # pinned at its cap: no measure of its demand, CPU-CAPPED-PINNED says what to do
    ec_off = s.current_ec is not None and abs(s.recommended_ec - s.current_ec) > cfg.t(EC_DRIFT) * s.current_ec
    vp_off = s.current_vp is not None and s.recommended_vp != s.current_vp
    cap_off = s.recommended_uncapped and s.current_capped
    if not (ec_off or vp_off or cap_off):
        return
    window = "-".join(t.strftime("%H:%M") for t in s.peak_window) if s.peak_window else "whole recording"
    pk = s.peak
    text = (f"{host.name}: peak window {window} ({s.peak_source}): average physc {pk.mean:.2f}, max {pk.max:.2f}, "
            f"P90/P95/P99 {pk.p90:.2f}/{pk.p95:.2f}/{pk.p99:.2f}; recommended EC {s.recommended_ec:.2f}, "
            f"{s.recommended_vp} VP{', uncapped' if s.recommended_uncapped else ''} "
            f"(now EC {s.current_ec}, {s.current_vp} VP{', capped' if s.current_capped else ''}).")
    fix, undo = propose(
        partition_change(host, "desired_proc_units", s.current_ec, s.recommended_ec, basis="measured")
        if s.current_ec is not None and ec_off else None,
        partition_change(host, "desired_procs", s.current_vp, s.recommended_vp, basis="measured")
        if s.current_vp is not None and vp_off else None,
        partition_change(host, "sharing_mode", "cap", "uncap", method="profile", basis="measured") if cap_off else None,
        fix_notes=[f"# why: {r}" for r in s.reasons[:4]])
    first = [r[0] for r in s.peak_ranges[:1]] + [r[1] for r in s.peak_ranges[-1:]]
    yield finding(sizing_measured, host, "partition", text, evidence=_row_evidence(host, first),
                  fix=fix, rollback=undo,
                  disruption=["dlpar"],
                  values={"current": f"EC {s.current_ec}, {s.current_vp} VP",
                          "suggested": f"EC {s.recommended_ec:.2f}, {s.recommended_vp} VP"})


@rule(
    id="CPU-VP-BOUND",
    title="Partition runs at its virtual processor ceiling",
    severity="warning",
    category="processor",
    source="000_31a80e54567cd02b.txt §3.1 (VPs = upper limit of use at peak); rules-catalogue CPU-11",
    rationale="""An uncapped partition cannot use more cores than it has virtual processors. When physc sits
    at the VP count while the pool still has idle cores, the VPs, not the pool, limit the workload.""",
)
def vp_ceiling(host: Host, cfg: Config) -> Iterator[Finding]:
    rec = host.nmon
    lpar = rec.tables.get("LPAR") if rec is not None else None
    if lpar is None or "PhysicalCPU" not in lpar.columns or "virtualCPUs" not in lpar.columns:
        return
    vps = np.asarray(lpar.column("virtualCPUs"), dtype=float)
    vps = vps[~np.isnan(vps)]
    if not vps.size:
        return
    pool_idle = np.asarray(lpar.column("PoolIdle"), dtype=float) if "PoolIdle" in lpar.columns else None
    res = vp_bound(lpar.times, host_physc(host, lpar), int(vps[-1]), pool_idle=pool_idle)
    if res is None:
        return
    ep = getattr(res, "episode", res)
    n_vp = int(vps[-1])
    yield finding(vp_ceiling, host, "partition",
                  f"{host.name}: physc at or near its {n_vp} VPs in {ep.n_hits} of {ep.n_samples} snapshots "
                  f"({ep.share:.0%}); longest run {ep.longest_run_seconds / 60:.0f} min.",
                  evidence=_row_evidence(host, list(ep.indexes[:2])),
                  changes=[partition_change(host, "desired_procs", n_vp, n_vp + 1, basis="measured", bound="min")],
                  disruption=["dlpar"], values={"current": f"{n_vp} VP", "suggested": f"{n_vp + 1} VP or more"})
