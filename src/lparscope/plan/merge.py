"""One target per (object, attribute): how proposals from several findings are reconciled.

Precedence (documented in docs/plan.md):

1. **Limits win.** A proposal with ``bound`` ``min`` / ``max`` is a limit (the pool's cores, the
   VPs an entitlement allows, a maximum memory): the chosen target is moved inside every limit,
   whatever proposed it. Two limits that leave no room are a conflict.
2. **Measured over heuristic.** Among targets (``bound`` ``set``), those of the strongest basis
   are kept: ``limit`` > ``measured`` (sized from a measured series or a measuring tool such as
   amepat) > ``heuristic`` (a configuration rule of thumb).
3. **Same basis, same direction: the smaller step.** (A proposal to keep the current value yields
   to one that moves it: saving a running value into the profile agrees with a DLPAR change, which
   writes the profile too.) Targets of the same basis that all move the
   setting the same way (all raise it, or all lower it) give the one closest to the current
   value; the others are kept as notes ("raise further after measuring again").
4. **Otherwise a conflict.** Targets of the same basis that disagree on the direction, or
   different non-numeric values (modes), are a conflict: shown to the reader with every proposal,
   and no command is written for that setting.

A proposal whose value is already in place is kept as a reason but changes nothing. Every
proposal stays attached to the merged change (its reasons), chosen or not.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..model.change import BASES, ProposedChange

_RANK = {b: i for i, b in enumerate(BASES)}


@dataclass(slots=True)  # many instances: no per-instance dict
class Reason:
    """One finding's proposal for a setting."""

    rule_id: str
    host: str
    subject: str
    severity: str
    proposed: Any
    basis: str
    bound: str
    chosen: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"rule_id": self.rule_id, "host": self.host, "subject": self.subject, "severity": self.severity,
                "proposed": _num_or_str(self.proposed), "basis": self.basis, "bound": self.bound,
                "chosen": self.chosen}


@dataclass
class Proposal:
    change: ProposedChange
    reason: Reason


@dataclass
class Merged:
    """The single target kept for one setting, with every proposal behind it."""

    change: ProposedChange
    reasons: list[Reason]
    notes: list[str] = field(default_factory=list)
    in_place: bool = False  # the target equals the current value


@dataclass
class Conflict:
    """Proposals for one setting that cannot be reconciled: no command is written for it."""

    kind: str
    host: str
    object: str
    attribute: str
    current: Any
    reasons: list[Reason]
    why: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "host": self.host, "object": self.object, "attribute": self.attribute,
                "current": _num_or_str(self.current), "why": self.why,
                "proposals": [r.to_dict() for r in self.reasons]}


def _num(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _num_or_str(v: Any) -> Any:
    if v is None or isinstance(v, (int, float)):
        return v
    return str(v)


def same_value(a: Any, b: Any) -> bool:
    x, y = _num(a), _num(b)
    if x is not None and y is not None:
        return abs(x - y) < 1e-9
    return str(a).strip().lower() == str(b).strip().lower()


def merge(proposals: list[Proposal]) -> tuple[list[Merged], list[Conflict]]:
    """Group proposals by setting (``ProposedChange.key``) and keep one target for each."""
    groups: dict[tuple, list[Proposal]] = {}
    for p in proposals:
        groups.setdefault(p.change.key(), []).append(p)
    merged: list[Merged] = []
    conflicts: list[Conflict] = []
    for group in groups.values():
        result = _merge_one(group)
        (conflicts if isinstance(result, Conflict) else merged).append(result)  # type: ignore[arg-type]
    return merged, conflicts


def _conflict(group: list[Proposal], why: str) -> Conflict:
    c = group[0].change
    return Conflict(c.kind, c.host, c.object, c.attribute, c.current, [p.reason for p in group], why)


def _merge_one(group: list[Proposal]) -> Merged | Conflict:
    sets = [p for p in group if p.change.bound == "set"]
    mins = [p for p in group if p.change.bound == "min" and _num(p.change.target) is not None]
    maxs = [p for p in group if p.change.bound == "max" and _num(p.change.target) is not None]
    current = next((p.change.current for p in group if p.change.current is not None), None)
    lo = max(mins, key=lambda p: _num(p.change.target)) if mins else None  # type: ignore[arg-type,return-value]
    hi = min(maxs, key=lambda p: _num(p.change.target)) if maxs else None  # type: ignore[arg-type,return-value]
    if lo is not None and hi is not None and _num(lo.change.target) > _num(hi.change.target):  # type: ignore[operator]
        return _conflict(group, f"limits leave no value: at least {lo.change.target} ({lo.reason.rule_id}) "
                                f"and at most {hi.change.target} ({hi.reason.rule_id})")
    notes: list[str] = []
    if sets:
        top = min(_RANK[p.change.basis] for p in sets)
        best = [p for p in sets if _RANK[p.change.basis] == top]
        values: list[Proposal] = []
        for p in best:
            if not any(same_value(p.change.target, q.change.target) for q in values):
                values.append(p)
        moving = [p for p in values if current is None or not same_value(p.change.target, current)]
        if moving and len(moving) < len(values):  # "keep it as it is" yields to a proposal that moves it
            for p in values:
                if p not in moving:
                    notes.append(f"{p.reason.rule_id} proposed keeping {p.change.target}; "
                                 f"{moving[0].reason.rule_id} moves it")
            values = moving
        if len(values) == 1:
            winner = values[0]
        else:
            cur = _num(current)
            nums = [_num(p.change.target) for p in values]
            if cur is None or any(n is None for n in nums):
                shown = ", ".join(f"{p.change.target} ({p.reason.rule_id})" for p in values)
                return _conflict(group, f"different {BASES[top]} targets: {shown}")
            ups = [n > cur for n in nums]  # type: ignore[operator]
            downs = [n < cur for n in nums]  # type: ignore[operator]
            if not (all(ups) or all(downs)):
                shown = ", ".join(f"{p.change.target} ({p.reason.rule_id})" for p in values)
                return _conflict(group, f"{BASES[top]} targets pull both ways from {current}: {shown}")
            winner = min(values, key=lambda p: abs(_num(p.change.target) - cur))  # type: ignore[operator]
            for p in values:
                if p is not winner:
                    notes.append(f"{p.reason.rule_id} proposed {p.change.target}: the smaller step is taken "
                                 f"first; go further only after measuring again")
        chosen = [p for p in best if same_value(p.change.target, winner.change.target)]
        target = winner.change.target
        base = winner.change
    else:
        base_p = lo or hi
        if base_p is None:
            return _conflict(group, "no usable target")
        chosen = [base_p]
        target, base = base_p.change.target, base_p.change
        if lo is not None and hi is not None and current is not None and _num(current) is not None:
            # both limits, no target: keep the current value when it is inside them
            if _num(lo.change.target) <= _num(current) <= _num(hi.change.target):  # type: ignore[operator]
                target = current
    t = _num(target)
    if t is not None:
        if lo is not None and t < _num(lo.change.target):  # type: ignore[operator]
            notes.append(f"raised from {target} to the limit {lo.change.target} ({lo.reason.rule_id})")
            target, chosen = lo.change.target, chosen + [lo]
        elif hi is not None and t > _num(hi.change.target):  # type: ignore[operator]
            notes.append(f"lowered from {target} to the limit {hi.change.target} ({hi.reason.rule_id})")
            target, chosen = hi.change.target, chosen + [hi]
    elif lo is not None or hi is not None:
        return _conflict(group, f"a limit applies to the non-numeric target {target}")
    prereq: list[str] = []
    for p in group:
        for r in p.change.prerequisites:
            if r not in prereq:
                prereq.append(r)
    note = "; ".join(dict.fromkeys(p.change.note for p in chosen if p.change.note))
    change = replace(base, target=target, current=current, prerequisites=prereq, note=note,
                     basis=min((p.change.basis for p in chosen), key=lambda b: _RANK[b]), bound="set",
                     vios=any(p.change.vios for p in group), failover=any(p.change.failover for p in group))
    reasons = []
    for p in group:
        r = replace(p.reason, chosen=any(p is q for q in chosen))
        reasons.append(r)
    in_place = current is not None and same_value(current, target)
    return Merged(change, reasons, notes, in_place)
