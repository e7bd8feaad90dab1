"""Before / after: the same traces replayed under today's settings and under changed ones.

A partition is *starved* in an interval when it was refused more than ``STARVED_CORES`` (and 1 %
of its demand) of what it wanted. Unmet demand on an interval whose measurement was censored
(see ``traces``) is a lower bound; ``censored`` counts those intervals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..sizing.quantiles import percentiles
from .changes import Change
from .pool import FrameSettings, Replay, simulate
from .traces import CENSORED_EXTRA, FrameTrace

STARVED_CORES = 0.01


@dataclass
class Comparison:
    trace: FrameTrace
    demand: np.ndarray
    before: Replay
    after: Replay
    after_settings: FrameSettings
    changes: list[Change]
    notes: list[str]


def starved(r: Replay, demand: np.ndarray) -> np.ndarray:
    """Intervals each partition was refused cores by its pool; a dedicated partition never is (its
    demand beyond its own processors is its sizing, which the pool does not decide)."""
    out = r.unmet > np.maximum(STARVED_CORES, 0.01 * np.nan_to_num(demand))
    for i, ded in enumerate(r.dedicated):
        if ded:
            out[i] = False
    return out


def _r(x: float) -> float:
    return round(float(x), 3)


def partition_summary(r: Replay, demand: np.ndarray, i: int, trace: FrameTrace) -> dict[str, Any]:
    u = r.unmet[i]
    st = starved(r, demand)[i]
    worst = int(np.argmax(u)) if u.size else 0
    return {
        "starved_intervals": int(st.sum()),
        "starved_minutes": round(int(st.sum()) * trace.step_s / 60.0, 1),
        "starved_censored": int((st & trace.censored[i]).sum()),
        "unmet_core_hours": _r(u.sum() * trace.step_s / 3600.0),
        "p95_unmet": _r(percentiles(u, (95,))[0]) if u.size else 0.0,
        "worst_unmet": _r(u[worst]) if u.size else 0.0,
        "worst_at": str(trace.times[worst]) if u.size and u[worst] > 0 else None,
        "mean_granted": _r(r.granted[i].mean()) if u.size else 0.0,
        "peak_granted": _r(r.granted[i].max()) if u.size else 0.0,
    }


def pool_summary(r: Replay, s: FrameSettings) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pid, use in r.pool_use.items():
        ent = sum(p.ec for p in s.partitions if p.pool == pid and not p.dedicated)
        pl = s.pools.get(pid)
        out[str(pid)] = {"entitled": _r(ent), "max_units": pl.max_units if pl else None,
                         "reserved_units": pl.reserved_units if pl else 0.0,
                         "peak_use": _r(use.max()) if use.size else 0.0,
                         "p95_use": _r(percentiles(use, (95,))[0]) if use.size else 0.0}
    cap = r.capacity
    out["physical"] = {"cores": _r(cap.min()) if cap.size else 0.0,
                       "entitled": _r(sum(p.ec for p in s.partitions if not p.dedicated)),
                       "min_idle": _r(r.idle.min()) if r.idle.size else 0.0,
                       "p05_idle": _r(percentiles(r.idle, (5,))[0]) if r.idle.size else 0.0,
                       "intervals_without_idle": int((r.idle <= STARVED_CORES).sum())}
    return out


def compare(trace: FrameTrace, after: FrameSettings, changes: list[Change], notes: list[str],
            censored_extra: float = CENSORED_EXTRA) -> Comparison:
    demand = trace.demand(censored_extra)
    return Comparison(trace, demand, simulate(demand, trace.settings), simulate(demand, after),
                      after, changes, notes)


def _settings(s: FrameSettings, i: int) -> dict[str, Any]:
    p = s.partitions[i]
    return {"ec": p.ec, "vp": p.vp, "mode": "ded" if p.dedicated else ("uncap" if p.uncapped else "cap"),
            "weight": p.weight, "pool": p.pool}


def summary(c: Comparison) -> dict[str, Any]:
    """JSON-safe before/after per partition and per pool, plus what the changes cost others."""
    tr = c.trace
    parts = []
    for i, label in enumerate(tr.labels):
        b = partition_summary(c.before, c.demand, i, tr)
        a = partition_summary(c.after, c.demand, i, tr)
        changed = _settings(tr.settings, i) != _settings(c.after_settings, i)
        parts.append({"partition": label, "source": tr.source[i], "changed": changed,
                      "censored_intervals": int(tr.censored[i].sum()),
                      "settings_before": _settings(tr.settings, i),
                      "settings_after": _settings(c.after_settings, i), "before": b, "after": a})
    victims = [p["partition"] for p in parts
               if not p["changed"] and p["after"]["starved_intervals"] > p["before"]["starved_intervals"]]
    sb = int(starved(c.before, c.demand).any(axis=0).sum())
    sa = int(starved(c.after, c.demand).any(axis=0).sum())
    ent_b = sum(p.ec for p in tr.settings.partitions if not p.dedicated)
    ent_a = sum(p.ec for p in c.after_settings.partitions if not p.dedicated)
    return {
        "frame": tr.frame, "intervals": int(tr.times.size), "step_s": tr.step_s,
        "start": str(tr.times[0]), "end": str(tr.times[-1]),
        "changes": [{"target": ch.target, "attribute": ch.attr, "value": ch.value, "origin": ch.origin}
                    for ch in c.changes],
        "notes": c.notes, "problems_before": c.before.problems, "problems_after": c.after.problems,
        "problems_new": [x for x in c.after.problems if x not in c.before.problems],
        "starved_intervals_before": sb, "starved_intervals_after": sa,
        "starved_partition_intervals_before": int(starved(c.before, c.demand).sum()),
        "starved_partition_intervals_after": int(starved(c.after, c.demand).sum()),
        "entitled_before": _r(ent_b), "entitled_after": _r(ent_a),
        "cores_freed": _r(ent_b - ent_a),
        "starved_by_change": victims,
        "partitions": parts,
        "pools_before": pool_summary(c.before, tr.settings),
        "pools_after": pool_summary(c.after, c.after_settings),
    }
