"""The plan proved on the example frame's traces: its processor changes replayed step by step,
and a step that starves a partition it does not touch becomes a check in the plan."""

from __future__ import annotations

from pathlib import Path

from lparscope.model.change import ProposedChange
from lparscope.pipeline import analyze
from lparscope.plan.model import Plan, PlannedChange
from lparscope.simulate.plan_bridge import flag_plan, plan_changes, step_effects
from lparscope.simulate.traces import estate_traces

EXAMPLE = str(Path(__file__).parents[2] / "examples" / "estate")


def _pc(lpar: str, attr: str, current: object, target: object, step: int, kind: str = "partition") -> PlannedChange:
    ch = ProposedChange(kind, lpar, attr, current, target, "dlpar" if kind == "partition" else "profile",
                        host=lpar, frame="p9frame1")
    return PlannedChange(f"{lpar}.{attr}", ch, [], frame="p9frame1", lpar=lpar, step=step)


def test_plan_steps_replayed_in_order_and_a_starving_step_is_flagged() -> None:
    a = analyze([EXAMPLE])
    (tr,) = estate_traces(a.estate)
    plan = Plan(changes=[
        _pc("aix2", "desired_proc_units", 2.0, 2.5, 1), _pc("aix2", "desired_procs", 2, 3, 1),
        _pc("aix2", "sharing_mode", "cap", "uncap", 1),
        _pc("aix3", "desired_proc_units", 1.0, 8.0, 2), _pc("aix3", "desired_procs", 24, 10, 2),
        _pc("aix3", "desired_proc_units", 1.0, 7.0, 3, kind="profile"),  # the DLPAR value is what runs
    ])
    staged = plan_changes(plan, tr)
    assert sorted((s, c.target, c.attr, c.value) for s, c in staged) == [
        (1, "aix2", "desired_proc_units", "2.5"), (1, "aix2", "desired_procs", "3"), (1, "aix2", "sharing_mode", "uncap"),
        (2, "aix3", "desired_proc_units", "8.0"), (2, "aix3", "desired_procs", "10")]
    effects = step_effects(tr, staged)
    assert [e["step"] for e in effects] == [1, 2]
    assert effects[0]["starves"] == []  # aix2 runs its batch at night, when the pool is idle
    assert [s["partition"] for s in effects[1]["starves"]] == ["aix1"]  # aix3's 8 guaranteed cores
    flagged = flag_plan(a.estate, plan)
    assert flagged == effects
    assert any("plan step 2" in c and "aix1" in c for c in plan.checks)


def test_no_plan_or_no_processor_change_means_no_replay() -> None:
    a = analyze([EXAMPLE])
    assert flag_plan(a.estate, None) == []
    (tr,) = estate_traces(a.estate)
    assert plan_changes(Plan(changes=[_pc("aix1", "mem_expansion", 1.0, 1.2, 1)]), tr) == []
