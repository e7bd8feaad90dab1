"""Scenarios for a whole estate: each frame's traces replayed under today's settings and under
the user's changes, the plan's, or the measured sizing's; JSON-safe summaries with a verdict."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import changes as ch
from .plan_bridge import changes_by_frame, plan_changes, step_effects
from .proposal import sizing_changes
from .replay import Comparison, compare, summary
from .traces import CENSORED_EXTRA, FrameTrace, describe

SIZING = "the measured sizing (000 §3.1)"


def verdict(f: dict[str, Any], short: int) -> str:
    """One sentence: do the changes starve fewer intervals, and if not, why not."""
    b, a = f["starved_intervals_before"], f["starved_intervals_after"]
    if not f["changes"]:
        return "No change applies to this frame: both replays are the same."
    if a < b:
        return f"The changes reduce the intervals with a starved partition from {b} to {a}."
    why = []
    still = [p for p in f["partitions"] if p["after"]["starved_intervals"]]
    for p in still:
        s = p["settings_after"]
        why.append(f"{p['partition']} stays short in {p['after']['starved_intervals']} interval(s) with EC {s['ec']:g}, "
                   f"{s['vp']:g} VPs, {s['mode']}"
                   + (" (its measured use sat at a ceiling there: it wanted more)" if p["after"]["starved_censored"] else ""))
    if short:
        why.append(f"in {short} interval(s) the partitions want more than the pool's cores: no setting can serve them all")
    if f["starved_by_change"]:
        why.append("the changes take capacity from " + ", ".join(f["starved_by_change"]))
    if f["problems_new"]:
        why.append("the changed settings are not valid as written")
    pb, pa = f.get("starved_partition_intervals_before"), f.get("starved_partition_intervals_after")
    fewer = f" (starved partition-intervals {pb} -> {pa})" if pb is not None and pa is not None and pa < pb else ""
    reason = "; ".join(why) or "the changes do not raise the ceilings where the demand was refused"
    return f"The changes do not reduce the intervals with a starved partition ({b} -> {a}){fewer}: {reason}."


def replay_estate(plan: Any, traces: list[FrameTrace], wanted: list[ch.Change], source: str = "auto",
                  censored_extra: float = CENSORED_EXTRA, note: Callable[[str], None] | None = None,
                  keep: bool = True) -> tuple[list[dict[str, Any]], list[Comparison], str]:
    """Per frame: the summary dict, the comparison (arrays for charts; none kept when not ``keep``),
    and where the changes came from.

    ``source``: "auto" (the plan when it changes processors on the frame, else the sizing),
    "plan" or "sizing"; ignored when ``wanted`` holds the user's changes."""
    origins: list[str] = []
    comparisons, frames = [], []
    by_frame = changes_by_frame(plan)
    for tr in traces:
        staged = plan_changes(plan, tr, by_frame) if not wanted and source in ("auto", "plan") else []
        if wanted:
            todo, origin = wanted, "your changes"
        elif staged:
            todo, origin = [c for _, c in staged], "the plan"
        else:
            if source == "plan" and note is not None:
                note(f"the plan holds no processor change for {tr.frame}: replaying the measured sizing instead")
            todo, origin = sizing_changes(tr, censored_extra), SIZING
        new, used, notes = ch.apply(tr.settings, todo)
        c = compare(tr, new, used, notes, censored_extra)
        s = summary(c)
        shared = [i for i, p in enumerate(tr.settings.partitions) if not p.dedicated]
        short = int((c.demand[shared].sum(axis=0) > c.before.capacity + 1e-6).sum())
        s["changes_from"] = origin
        s["intervals_short_of_cores"] = short
        s["verdict"] = verdict(s, short)
        s["plan_steps"] = step_effects(tr, staged, censored_extra) if staged else []
        s["trace"] = describe(tr)
        if keep:
            comparisons.append(c)
        frames.append(s)
        if origin not in origins:
            origins.append(origin)
    return frames, comparisons, " and ".join(origins)
