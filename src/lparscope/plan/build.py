"""From findings to one plan: merge, name, check, order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..model.change import HMC_NAME, MTMS_NAME, SAFE_NAME, SAFE_VALUE, ProposedChange
from ..model.estate import Estate
from . import feasible
from .merge import Proposal, Reason, _num, merge, same_value
from .model import Advice, Plan, PlannedChange, change_id, hmc_value
from .names import joins, locate, name_findings, names
from .order import order


def proposals_of(findings: Iterable[Any]) -> tuple[list[Proposal], list[Advice]]:
    """Every structured change of every finding, with the finding behind it; findings whose fix
    is only text become advice."""
    props: list[Proposal] = []
    advice: list[Advice] = []
    for f in findings:
        changes = getattr(f, "changes", None) or []
        for c in changes:
            props.append(Proposal(c, Reason(f.rule.id, f.host, f.subject, f.level, c.target, c.basis, c.bound)))
        if not changes and f.fix:
            advice.append(Advice(f.rule.id, f.host, f.subject, f.level, f.fix.to_dict()))
    return props, advice


def _safe(c: PlannedChange) -> str:
    """Why a name or value of this change may not reach a command ("" when all are plain)."""
    ch = c.change
    # an HMC change names the frame, the partition and its profile; the host it is filed under (a
    # partition with no host of its own may be "vios1 (p9frame2)") reaches no command
    for what, v in ((("host", None) if ch.on_hmc else ("host", ch.host)), ("object", ch.object), ("partition", c.lpar),
                    ("frame", c.frame), ("profile", c.profile), ("attribute", ch.attribute)):
        hmc_name = ch.on_hmc and what in ("object", "partition", "frame", "profile")  # quoted in every command
        if v is not None and v != "" and not (SAFE_NAME.match(str(v)) or (what == "object" and str(v).isdigit())
                                              or (what == "frame" and MTMS_NAME.match(str(v)))
                                              or (hmc_name and HMC_NAME.match(str(v)))):
            return f"the {what} name {str(v)[:40]!r} is not a plain name: lparscope writes no command with it"
    if not SAFE_VALUE.match(str(ch.target)):
        return f"the target value {str(ch.target)[:40]!r} is not a plain value: lparscope writes no command with it"
    return ""


def _unserved(changes: list[PlannedChange]) -> None:
    """Changes that only make sense with another that cannot be made: a profile limit raised for an
    infeasible value, an AME factor lowered beside a memory addition of the same finding that does not
    fit (a lower factor alone would shrink the partition's expanded memory)."""
    by_id = {c.id: c for c in changes}
    for c in changes:
        base = by_id.get(c.serves) if c.serves else None
        if base is not None and base.status == "infeasible" and c.status == "planned":
            c.status, c.blocked = "infeasible", f"made for {base.id}, which cannot be made: {base.blocked}"
    memory = {(c.frame, c.lpar): c for c in changes if c.change.on_hmc and c.change.attribute == "desired_mem"}
    for c in changes:
        mem = memory.get((c.frame, c.lpar))
        if c.change.attribute != "mem_expansion" or c.status != "planned" or mem is None or mem.status != "infeasible":
            continue
        package = {(r.rule_id, r.subject) for r in mem.reasons}
        alone = [r for r in c.reasons if (r.rule_id, r.subject) not in package and _num(r.proposed) is not None]
        cur = _num(c.change.current)
        keep = max((_num(r.proposed) for r in alone), default=None)  # the smallest cut proposed without the memory
        if keep is None or cur is None or keep >= cur - 1e-9:
            c.status = "infeasible"
            c.blocked = (f"goes with {mem.id}, which cannot be made ({mem.blocked}): a lower expansion factor "
                         f"without that memory would shrink the expanded memory")
            continue
        if abs(keep - (_num(c.change.target) or 0)) > 1e-9:
            c.notes.append(f"{c.change.target} went with {mem.id}, which cannot be made: {keep:g} is what "
                           f"{', '.join(sorted({r.rule_id for r in alone}))} proposes without more memory")
            c.change.target = keep
            for r in c.reasons:
                r.chosen = (r.rule_id, r.subject) not in package and same_value(r.proposed, keep)


def build_plan(estate: Estate, findings: Iterable[Any]) -> Plan:
    """The plan for these findings on this estate (see docs/plan.md)."""
    findings = list(findings)
    index = joins(estate)  # the frames do not change while the plan is made
    name_findings(estate, findings, index)
    props, advice = proposals_of(findings)
    for p in props:  # HMC names first, so that host rules and frame rules name a partition the same way
        if p.change.on_hmc:
            frame, lpar, _profile, _needs, _fp = names(estate, p.change.host, p.change.object, p.change.frame,
                                                        by_partition=p.change.hmc_partition, index=index)
            p.change.frame, p.change.object = frame or p.change.frame, lpar
        host = estate.hosts.get(p.change.host)
        if host is not None and host.is_vios:
            p.change.vios = True
    merged, conflicts = merge(props)
    changes: list[PlannedChange] = []
    fps: dict[str, tuple[Any, Any]] = {}
    # a partition name on two frames (a DR copy, a test twin): its changes' ids name the frame too,
    # so that an id stays one change (--apply ID) and each change keeps its own frame
    on_frames: dict[str, set[str]] = {}
    for m in merged:
        if m.change.on_hmc and m.change.frame:
            on_frames.setdefault(str(m.change.object), set()).add(m.change.frame)
    twins = {name for name, frames in on_frames.items() if len(frames) > 1}

    def planned(ch: ProposedChange, reasons: list[Reason], notes: list[str]) -> PlannedChange:
        frame = lpar = profile = fp = None
        needs: list[str] = []
        if ch.on_hmc:
            frame, lpar, profile, needs, fp = names(estate, ch.host, ch.object, ch.frame, by_partition=ch.hmc_partition,
                                                    index=index)
            ch.object = lpar
            ch.frame = frame or ch.frame
        cid = change_id(ch, lpar, frame if ch.on_hmc and (lpar or ch.object) in twins else None)
        pc = PlannedChange(cid, ch, reasons, frame, lpar, profile, notes=list(notes), needs=needs)
        if fp is not None:
            pc.profile_value = fp.profile.get(ch.attribute)
            pc.running_value = fp.running.get(ch.attribute)
            if ch.current is None:  # a host rule may not see it (the sharing mode); the HMC data does
                ch.current = hmc_value(pc.profile_value if ch.method == "profile" else fp.running.get(ch.attribute))
        fps[pc.id] = locate(estate, ch.host, lpar, frame, by_partition=ch.hmc_partition, index=index)
        return pc

    for m in merged:
        pc = planned(m.change, m.reasons, m.notes)
        if m.change.method == "profile" and pc.profile_value is not None:
            in_place = same_value(pc.profile_value, m.change.target)
        else:
            in_place = m.in_place and (pc.profile_value is None or same_value(pc.profile_value, m.change.target))
        if in_place:
            pc.status = "in-place"
        changes.append(pc)

    def new_change(base: PlannedChange, attribute: str, target: Any, method: str, why: str) -> PlannedChange:
        b = base.change
        ch = ProposedChange("profile" if method == "profile" else "partition", b.object, attribute, None, target,
                            method, host=b.host, basis="limit", frame=base.frame or b.frame, vios=b.vios,
                            hmc_partition=b.hmc_partition)
        pc = planned(ch, [Reason("PLAN-LIMIT", b.host, "partition", "", target, "limit", "set", True)], [why])
        return pc

    checks = feasible.check(changes, estate, fps, new_change)
    _unserved(changes)
    for c in changes:
        why = _safe(c)
        if why and c.status != "in-place":
            c.status, c.blocked = "infeasible", why
    seen: dict[tuple, PlannedChange] = {}
    for c in changes:  # one target per setting, also after feasibility added limit changes
        k = c.change.key()
        if k in seen:
            raise AssertionError(f"two targets for {k}")
        seen[k] = c
    steps = order(changes, estate, fps)
    within = {cid: n for st in steps for n, cid in enumerate(st.ids)}  # a step's own order (plan/sequence.py)
    changes.sort(key=lambda c: (c.step is None, c.step or 0, within.get(c.id, 0), c.host, c.change.object,
                                c.change.attribute))
    return Plan(changes, conflicts, steps, checks, advice, feasible.frame_totals(changes, estate))
