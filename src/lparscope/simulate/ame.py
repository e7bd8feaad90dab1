"""Active Memory Expansion: expansion factor <-> true memory <-> CPU cost, from amepat reports.

The shape is amepat's modeled table (000_31a80e54567cd02b.txt §3.2.2, Example 3-2): for a
workload's expanded memory size E, a factor f needs ``E / f`` of true memory (8.00 GB at 1.28 ->
6.25 GB), and the CPU amepat estimates for compression grows with the factor, then flattens where
the achievable compression runs out (0.41 cores at 1.28, 3.02 from 1.78 up). Between modeled rows
the model interpolates linearly; beyond them it says so rather than extrapolate.

Across runs (§3.2.9): when successive amepat recommendations contradict each other (8.00, then
2.29, then 8.00 again in Examples 3-13 to 3-15), the LPAR is oversized for its workload: size its
memory on "True Memory In-Use" first, then ask amepat again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

SOURCE = "000_31a80e54567cd02b.txt §3.2.2 (Example 3-2)"
SOURCE_OSCILLATION = "000_31a80e54567cd02b.txt §3.2.9 (Examples 3-13 to 3-20)"
CONTRADICTION = 0.20  # a recommendation moving by more than 20 % counts as a change of direction


@dataclass
class AmeCurve:
    """amepat's modeled rows of one report, sorted by factor."""

    expanded_mb: float
    factor: np.ndarray
    true_mb: np.ndarray
    cpu: np.ndarray  # physical processors for AME at each factor

    @classmethod
    def of(cls, report: Any) -> "AmeCurve | None":
        rows = [r for r in getattr(report, "modeled", []) or [] if r.cpu_usage is not None and r.expansion_factor > 0]
        if len(rows) < 2:
            return None
        rows.sort(key=lambda r: r.expansion_factor)
        expanded = (getattr(report, "modeled_expanded_memory_mb", None)
                    or rows[0].true_memory_mb * rows[0].expansion_factor)
        return cls(float(expanded), np.array([r.expansion_factor for r in rows]),
                   np.array([r.true_memory_mb for r in rows]), np.array([r.cpu_usage for r in rows]))

    def _inside(self, f: float) -> bool:
        return bool(self.factor[0] - 1e-9 <= f <= self.factor[-1] + 1e-9)

    def at_factor(self, f: float) -> dict[str, Any]:
        """True memory and AME CPU for an expansion factor."""
        true_mb = self.expanded_mb / f
        cpu = float(np.interp(f, self.factor, self.cpu)) if self._inside(f) else None
        return {"factor": round(f, 2), "true_memory_mb": round(true_mb, 1), "ame_cpu": None if cpu is None else round(cpu, 3),
                "modeled": self._inside(f)}

    def at_true_memory(self, true_mb: float) -> dict[str, Any]:
        """Factor and AME CPU for a true memory size (the expanded size kept)."""
        return self.at_factor(self.expanded_mb / true_mb)

    def for_cpu(self, budget: float) -> dict[str, Any] | None:
        """The highest modeled factor whose AME CPU stays within ``budget`` cores (least true memory)."""
        ok = np.flatnonzero(self.cpu <= budget + 1e-9)
        return self.at_factor(float(self.factor[ok[-1]])) if ok.size else None

    def knee(self) -> dict[str, Any]:
        """Where more factor stops saving memory per core of CPU: the row with the best
        memory saved per AME core, among rows that cost CPU (the first row when none do)."""
        saved = self.true_mb[0] - self.true_mb
        cost = np.where(self.cpu > 1e-9, self.cpu, np.nan)
        with np.errstate(invalid="ignore", divide="ignore"):
            per = saved / cost
        if np.all(np.isnan(per)):
            return self.at_factor(float(self.factor[-1]))
        return self.at_factor(float(self.factor[int(np.nanargmax(per))]))


def oscillation(factors: list[float]) -> dict[str, Any]:
    """Whether successive recommended factors contradict each other (up, then down, or the reverse,
    each by more than 20 %)."""
    moves = []
    for a, b in zip(factors, factors[1:]):
        if a > 0 and abs(b - a) / a > CONTRADICTION:
            moves.append(1 if b > a else -1)
    flips = sum(1 for x, y in zip(moves, moves[1:]) if x != y)
    out: dict[str, Any] = {"recommended_factors": [round(f, 2) for f in factors], "oscillating": flips >= 1,
                           "source": SOURCE_OSCILLATION}
    if flips:
        out["verdict"] = ("successive amepat recommendations contradict each other: the LPAR is oversized for its "
                          "workload; size its memory on True Memory In-Use first, then run amepat again")
    elif len(factors) < 3:
        out["verdict"] = "fewer than three amepat runs: oscillation cannot be judged yet"
    else:
        out["verdict"] = "the recommendations are consistent"
    return out


def host_ame(reports: list[Any]) -> dict[str, Any] | None:
    """The AME model of one host from its amepat reports, in the order they were read."""
    if not reports:
        return None
    last = reports[-1]
    curve = AmeCurve.of(last)
    out: dict[str, Any] = {"source": SOURCE, "runs": len(reports)}
    in_use = (getattr(last, "resource_stats", {}) or {}).get("true_memory_in_use")
    out["true_memory_mb"] = getattr(last, "true_memory_mb", None)
    out["true_memory_in_use_mb"] = in_use.average if in_use is not None else None
    if curve is not None:
        out["expanded_memory_mb"] = round(curve.expanded_mb, 1)
        out["curve"] = [curve.at_factor(float(f)) for f in curve.factor]
        out["knee"] = curve.knee()
        f = getattr(last, "recommended_expansion_factor", None)
        if f:
            out["recommended"] = curve.at_factor(float(f))
    factors = [r.recommended_expansion_factor for r in reports if getattr(r, "recommended_expansion_factor", None)]
    if factors:
        out["across_runs"] = oscillation([float(x) for x in factors])
    return out


def estate_ame(estate: Any) -> dict[str, Any]:
    """Every host with amepat reports (all runs kept in ``host.records['amepat']``)."""
    out = {}
    for name, h in sorted(estate.hosts.items()):
        reports = [s.record for s in h.records.get("amepat", [])] if getattr(h, "records", None) else []
        if not reports and getattr(h, "amepat", None) is not None:
            reports = [h.amepat]
        model = host_ame(reports)
        if model is not None:
            out[name] = model
    return out
