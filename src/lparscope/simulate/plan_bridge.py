"""Prove the plan on the measured traces: its partition changes as a scenario, and each step
replayed in order to see whether it starves a partition it does not touch.

The plan (``lparscope.plan``) is read by its attributes only (``changes``, ``steps``; each planned
change's ``change.kind / object / attribute / target``, ``frame``, ``lpar``, ``status``, ``step``):
this module does not import the plan stage, so the plan can use it without a cycle.
"""

from __future__ import annotations

from typing import Any

from ..model.estate import Estate
from .changes import PARTITION_ATTRS, POOL_ATTRS, Change, apply
from .pool import simulate
from .replay import starved
from .traces import CENSORED_EXTRA, FrameTrace, estate_traces


def _label(tr: FrameTrace, lpar: str | None, host: str | None) -> str | None:
    for name, label in zip(tr.hmc_names or tr.labels, tr.labels):
        if lpar and name == lpar:
            return label
    if host and host in tr.labels:
        return host
    return None


def changes_by_frame(plan: Any) -> dict[str | None, list[tuple[int, Any]]]:
    """The plan's planned processor changes by the frame they name (None: none), each with its place
    in the plan (the host's own changes, tunables and devices, are left out here once)."""
    out: dict[str | None, list[tuple[int, Any]]] = {}
    for n, pc in enumerate(getattr(plan, "changes", None) or []):
        if getattr(pc, "status", "planned") == "planned" and pc.change.kind in ("partition", "profile", "pool"):
            out.setdefault(pc.frame or None, []).append((n, pc))
    return out


def plan_changes(plan: Any, tr: FrameTrace, by_frame: dict[str | None, list[tuple[int, Any]]] | None = None
                 ) -> list[tuple[int | None, Change]]:
    """The plan's processor changes on this frame, with their step number (DLPAR before profile:
    one value per partition and attribute, the running one). ``by_frame``: :func:`changes_by_frame`
    of the plan, when every frame is looked at."""
    groups = by_frame if by_frame is not None else changes_by_frame(plan)
    mine = sorted([*(groups.get(tr.frame, []) if tr.frame else []), *groups.get(None, [])], key=lambda x: x[0])
    out: dict[tuple[str, str], tuple[int | None, Change]] = {}
    for _, pc in mine:
        ch = pc.change
        if getattr(pc, "status", "planned") != "planned" or ch.kind not in ("partition", "profile", "pool"):
            continue
        if pc.frame and pc.frame != tr.frame:
            continue
        if ch.kind == "pool":
            if ch.attribute not in POOL_ATTRS:
                continue
            target = f"pool{ch.object}"
        else:
            if ch.attribute not in PARTITION_ATTRS:
                continue
            label = _label(tr, pc.lpar or ch.object, ch.host)
            if label is None:
                continue
            target = label
        key = (target, ch.attribute)
        if key in out and ch.kind == "profile":
            continue  # the DLPAR change of the same setting is what runs
        out[key] = (pc.step, Change(target, ch.attribute, str(ch.target), f"plan step {pc.step} ({pc.id})"))
    return list(out.values())


def step_effects(tr: FrameTrace, staged: list[tuple[int | None, Change]],
                 censored_extra: float = CENSORED_EXTRA) -> list[dict[str, Any]]:
    """Replay the plan step by step (each step on top of the ones before it): which partitions a
    step starves that it does not change, in how many more intervals. Replayed once per trace,
    steps and ``censored_extra``; each call gets its own copy."""
    key = (tuple(staged), censored_extra)
    if key not in tr.replayed:
        tr.replayed[key] = _step_effects(tr, staged, censored_extra)
    return [{**e, "changes": list(e["changes"]), "starves": [dict(s) for s in e["starves"]]} for e in tr.replayed[key]]


def _step_effects(tr: FrameTrace, staged: list[tuple[int | None, Change]], censored_extra: float) -> list[dict[str, Any]]:
    demand = tr.demand(censored_extra)
    steps = sorted({s for s, _ in staged if s is not None})
    current = tr.settings
    prev = starved(simulate(demand, current), demand).sum(axis=1)
    out = []
    for n in steps:
        mine = [c for s, c in staged if s == n]
        current, _, _ = apply(current, mine)
        now = starved(simulate(demand, current), demand).sum(axis=1)
        touched = {c.target.lower() for c in mine}
        worse = [(lab, int(now[i] - prev[i])) for i, lab in enumerate(tr.labels)
                 if lab.lower() not in touched and now[i] > prev[i]]
        out.append({"step": n, "frame": tr.frame, "changes": [f"{c.target}.{c.attr}={c.value}" for c in mine],
                    "starves": [{"partition": lab, "more_intervals": k} for lab, k in worse]})
        prev = now
    return out


def flag_plan(estate: Estate, plan: Any, censored_extra: float = CENSORED_EXTRA,
              traces: list[FrameTrace] | None = None) -> list[dict[str, Any]]:
    """Replay the plan's steps on every frame with traces (``traces``: the estate's, when already
    built); add a check to the plan for each step that starves a partition it does not touch.
    Returns every step's effect."""
    if plan is None or not getattr(plan, "changes", None):
        return []
    effects: list[dict[str, Any]] = []
    by_frame = changes_by_frame(plan)
    for tr in estate_traces(estate) if traces is None else traces:
        staged = plan_changes(plan, tr, by_frame)
        if not staged:
            continue
        for e in step_effects(tr, staged, censored_extra):
            effects.append(e)
            for s in e["starves"]:
                msg = (f"what-if replay of {tr.frame}: plan step {e['step']} ({', '.join(e['changes'])}) leaves "
                       f"{s['partition']} short of what it used in {s['more_intervals']} more interval(s) of "
                       f"{tr.step_s // 60} min (measured use replayed, 000_31a80e54567cd02b.txt §3.1)")
                checks = getattr(plan, "checks", None)
                if isinstance(checks, list) and msg not in checks:
                    checks.append(msg)
    return effects
