"""The order of one partition's changes inside a step, so that every command leaves it valid.

The HMC checks each command on its own: a profile whose desired processing units are above its
maximum is refused, and so is a running partition whose entitlement its virtual processors cannot
carry (each VP between 0.05 and 1.0 processing units on POWER8 and later, 0.1 and 1.0 before). So
within a step a maximum is raised before the value that needs it and a minimum lowered before the
value below it, and an entitlement cut waits for the VP cut that makes room (and the other way
round). The order is found by trying the changes one at a time from the partition's values before the
step (running values for DLPAR, the profile's for a profile step): the first order, closest to the
usual one, whose every intermediate state holds. When none holds (a cut on both sides of a limit),
the usual order is kept and the change says the commands go together.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from ..model.frame import Frame, FramePartition
from ..model.generation import generation_of, vp_range
from .merge import _num
from .model import PlannedChange

MAX_TRIED = 6  # changes of one partition tried in every order (720 orders); more keep the usual order

# (minimum, desired, maximum) attribute names and the running fields behind them
_TRIPLES = (("min_proc_units", "desired_proc_units", "max_proc_units", "min_ec", "ec", "max_ec"),
            ("min_procs", "desired_procs", "max_procs", "min_vps", "vps", "max_vps"),
            ("min_mem", "desired_mem", "max_mem", "mem_min", "mem", "mem_max"))


def _usual(c: PlannedChange) -> tuple[int, str]:
    """Limits that widen first, then the values, then limits that narrow."""
    attr = c.change.attribute
    up = (_num(c.change.target) or 0) > (_num(c.change.current) or 0)
    if attr.startswith("max_"):
        return (0 if up else 2, attr)
    if attr.startswith("min_"):
        return (2 if up else 0, attr)
    return (1, attr)


def _start(fp: FramePartition | None, profile: bool) -> dict[str, float | None]:
    state: dict[str, float | None] = {}
    for triple in _TRIPLES:
        for attr, field in zip(triple[:3], triple[3:]):
            running = _num(getattr(fp, field, None)) if fp is not None else None
            state[attr] = _num(fp.profile.get(attr)) if profile and fp is not None and fp.profile.get(attr) else running
    return state


def _holds(state: dict[str, float | None], shared: bool, gen: float | None) -> bool:
    for lo_attr, attr, hi_attr, *_ in _TRIPLES:
        lo, v, hi = state.get(lo_attr), state.get(attr), state.get(hi_attr)
        if v is not None and ((lo is not None and v < lo - 1e-9) or (hi is not None and v > hi + 1e-9)):
            return False
    ec, vps = state.get("desired_proc_units"), state.get("desired_procs")
    if shared and ec is not None and vps is not None:
        lo_vp, hi_vp = vp_range(ec, gen)
        if not lo_vp <= vps <= hi_vp:
            return False
    return True


def _valid_order(cs: list[PlannedChange], state: dict[str, float | None], shared: bool,
                 gen: float | None) -> list[PlannedChange] | None:
    for order in permutations(cs):
        s = dict(state)
        for c in order:
            s[c.change.attribute] = _num(c.change.target)
            if not _holds(s, shared, gen):
                break
        else:
            return list(order)
    return None


def sequence(cs: list[PlannedChange], fps: dict[str, tuple[Frame | None, FramePartition | None]]) -> list[PlannedChange]:
    """``cs`` (the HMC changes of one step) in an order each partition stays valid through."""
    by_lpar: dict[tuple[Any, Any], list[PlannedChange]] = {}
    for c in cs:
        by_lpar.setdefault((c.frame, c.lpar or c.change.object), []).append(c)
    out: list[PlannedChange] = []
    for key in sorted(by_lpar, key=lambda k: (str(k[0]), str(k[1]))):
        group = sorted(by_lpar[key], key=_usual)
        fr, fp = fps.get(group[0].id, (None, None))
        if len(group) > 1 and len(group) <= MAX_TRIED and fp is not None:
            profile = group[0].change.method == "profile"
            state = _start(fp, profile)
            for c in group:  # what the change itself says it starts from (the profile's value in a profile step)
                start = c.profile_value if profile and c.profile_value is not None else c.change.current
                if _num(start) is not None:
                    state[c.change.attribute] = _num(start)
            gen = generation_of(fr.model) if fr is not None else None
            found = _valid_order(group, state, bool(fp.shared), gen)
            if found is None and profile:  # one chsyscfg sets them all: the HMC checks the profile once
                for c in group:
                    c.together = [x.id for x in group]
                    c.notes.append("no order of single profile changes keeps the profile valid: set together "
                                   f"in one chsyscfg with {', '.join(x.id for x in group if x is not c)}")
            elif found is None:
                for c in group:
                    c.notes.append("no one-at-a-time order keeps the partition valid: make these changes of "
                                   f"{key[1]} in one command")
            else:
                group = found
        out += group
    return out


def direction(c: PlannedChange) -> int:
    """1 for an addition, -1 for a reduction, 0 when the values are not numbers or equal."""
    t, cur = _num(c.change.target), _num(c.change.current)
    return 0 if t is None or cur is None else (t > cur) - (t < cur)


def dlpar_path(cs: list[PlannedChange], fr: Frame | None, fp: FramePartition | None) -> bool:
    """Whether a partition's DLPAR changes can be made as the plan orders them (its reductions in one
    step, its additions in the next), each command leaving it valid: False when, e.g., the EC and the
    VPs must both fall so far that neither can go first (EC 4.0 to 1.2 with 20 VPs to 2 on POWER7)."""
    dl = [c for c in cs if c.status == "planned" and c.change.method == "dlpar"]
    if len(dl) < 2 or fp is None:
        return True
    state = _start(fp, profile=False)
    for c in dl:
        if _num(c.change.current) is not None:
            state[c.change.attribute] = _num(c.change.current)
    gen = generation_of(fr.model) if fr is not None else None
    for group in ([c for c in dl if direction(c) < 0], [c for c in dl if direction(c) > 0]):
        if len(group) > MAX_TRIED:
            continue
        found = _valid_order(sorted(group, key=_usual), state, bool(fp.shared), gen)
        if found is None:
            return False
        for c in found:
            state[c.change.attribute] = _num(c.change.target)
    return True
