"""Findings say what the plan does: one target per setting, everywhere the setting is shown.

A rule proposes a value from what it alone sees (aix1: "3 VP" from its lparstat series). The plan
may settle on another one: a stronger proposal won the merge, a limit raised it (the HMC's
utilisation samples peak at 7.5 cores, so 3 VPs would cap the partition), or the frame cannot
take it (infeasible). A finding that kept showing its own value and commands would then contradict
the plan, and an administrator typing both would undo one with the other. So, once the plan is
built, each finding whose changes the plan settled differently is rewritten from the plan:

* its ``changes`` carry the plan's targets, and its ``fix`` / ``rollback`` commands are derived from
  them again (note lines and checks the rule wrote beside them are kept);
* a change the plan cannot make (infeasible, or a conflict between rules) leaves a comment line
  saying why, in place of a command that cannot be applied as written;
* ``values["suggested"]`` shows the plan's target, and ``values["rule_suggested"]`` what the rule
  alone proposed; ``plan_refs`` lists the plan change ids with their status (JSON ``plan``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from ..model.change import HMC_KINDS, ProposedChange, command_forms, fmt_value
from ..model.estate import Estate
from ..rules.changes import propose
from ..rules.engine import Commands
from .merge import Conflict, _num, same_value
from .model import Plan, PlannedChange, hmc_value
from .names import Joins, joins, name_findings

#: How a partition setting reads in a sentence (the report's words; HMC attribute names otherwise).
_LABELS = {
    "desired_proc_units": "EC {}",
    "desired_procs": "{} VP",
    "desired_mem": "memory {} MB",
    "max_mem": "maximum memory {} MB",
    "max_proc_units": "maximum EC {}",
    "max_procs": "maximum {} VP",
    "mem_expansion": "AME factor {}",
    "uncap_weight": "weight {}",
    "sharing_mode": "{}",
}


def label(change: ProposedChange, value: Any) -> str:
    """``EC 1.40``, ``9 VP``, ``hdisk0 queue_depth=32``: a setting and its value, in the report's words."""
    v = value
    n = _num(value)
    if change.attribute == "desired_proc_units" and n is not None:
        v = f"{n:.2f}"
    elif n is not None and float(n).is_integer():
        v = int(n)
    if change.on_hmc:
        return _LABELS.get(change.attribute, change.attribute + "={}").format(v)
    if change.kind == "tunable":
        return f"{change.object} {change.attribute}={v}"
    return f"{change.object} {change.attribute}={v}"


def _setting(kind: str, host: str, obj: str, attribute: str) -> tuple[str, ...]:
    """A setting's key without the managed system (a conflict does not record it): one form for
    conflicts and for the findings' changes looked up in them."""
    if kind in HMC_KINDS:
        return ("hmc", obj, attribute)
    return (host, "tunable" if kind == "tunable" else "device", obj, attribute)


def _swapped(estate: Estate, host: str, cmds: Commands, index: Joins | None = None) -> Commands:
    """The same command texts with the managed-system and profile names the model knows."""
    ns = SimpleNamespace(host=host, fix=cmds, rollback=Commands())
    name_findings(estate, [ns], index)
    return cmds


#: Programs that only look: a line of the rule's own that runs one of them stays beside the plan's commands.
_LOOK = frozenset({"lsattr", "lsdev", "lssyscfg", "lshwres", "lsmap", "lspath", "entstat", "netstat", "ioslevel",
                   "oslevel", "lparstat", "vmstat", "iostat", "lspv", "lsvg", "lsps", "svmon", "amepat",
                   "oem_setup_env", "exit"})


def _extras(estate: Estate, host: str, block: Commands, generated: Commands,
            stale: list[str], index: Joins | None = None) -> dict[str, tuple[list[str], list[str]]]:
    """Lines of a fix the changes did not generate that still hold beside the plan's targets: checks
    (read-only commands) and notes, as (those before the first generated command, those after): a
    check that notes the value before the change stays before it. Commands of the rule's own (a
    profile save, an alternative) and notes naming the value the plan did not keep are left out: the
    plan decided."""
    gen = _swapped(estate, host, generated, index)
    out: dict[str, tuple[list[str], list[str]]] = {}
    for form in ("root", "padmin", "hmc"):
        made = list(getattr(gen, form))
        head: list[str] = []
        keep: list[str] = head
        dropped = False  # a note right after a command left out speaks of that command
        for line in getattr(block, form):
            if line in made:
                made.remove(line)
                dropped = False
                keep = [] if keep is head else keep
                continue
            text = line.strip()
            if text.startswith("#"):
                if dropped or re.match(r"#\s*or\b", text) or any(
                        re.search(rf"(?<![\w.]){re.escape(v)}(?![\w.])", text) for v in stale):
                    continue
                keep.append(line)
            elif text.split(None, 1)[:1] and text.split(None, 1)[0] in _LOOK:
                keep.append(line)
                dropped = False
            else:
                dropped = True
                keep = [] if keep is head else keep
        out[form] = (head, keep if keep is not head else [])
    return out


def _rebuild(estate: Estate, f: Any, new: list[ProposedChange], skipped: list[str], stale: list[str],
             index: Joins | None = None, profile_was: dict[tuple, Any] | None = None) -> None:
    """Fix and rollback commands of ``f`` derived from ``new`` (the plan's targets), keeping the
    lines of the old fix the old changes did not generate. ``profile_was``: the profile's own value of
    a DLPAR change whose profile differed from the running value (the rollback puts that one back)."""
    old_fix, old_undo = propose(*f.changes)
    keep_fix = _extras(estate, f.host, f.fix, old_fix, stale, index)
    keep_undo = _extras(estate, f.host, f.rollback, old_undo, stale, index)
    fix, undo = propose(*new)
    for c in new:
        was = (profile_was or {}).get(c.key())
        if was is not None and c.method == "dlpar":  # the profile line of the undo: the profile's value
            running = command_forms(c, target=c.current)["hmc"][-1]
            undo.hmc = [command_forms(c, target=was)["hmc"][-1] if x == running else x for x in undo.hmc]
    fix, undo = _swapped(estate, f.host, fix, index), _swapped(estate, f.host, undo, index)
    fix.hmc, undo.hmc = one_profile_command(fix.hmc), one_profile_command(undo.hmc)
    form = "hmc" if any(c.on_hmc for c in f.changes) else "padmin" if f.fix.padmin and not f.fix.root else "root"
    for block, keep in ((fix, keep_fix), (undo, keep_undo)):
        for k in ("root", "padmin", "hmc"):
            head, tail = keep[k]
            setattr(block, k, [*head, *getattr(block, k), *tail])
    getattr(fix, form).extend(f"# not planned: {why}" for why in skipped)
    if not new and not undo:
        getattr(undo, form).append("# nothing to undo: the plan makes none of this finding's changes")
    fix.changes = list(new)
    f.fix, f.rollback = fix, undo


def align_findings(plan: Plan, findings: list[Any], estate: Estate) -> None:
    """Rewrite each finding's changes, commands and suggested value from the plan (module doc)."""
    by_key: dict[tuple, PlannedChange] = {c.change.key(): c for c in plan.changes}
    conflicts: dict[tuple, Conflict] = {}
    for c in plan.conflicts:
        conflicts[_setting(c.kind, c.host, c.object, c.attribute)] = c
    index = joins(estate)  # one look at the frames for every finding's commands
    profile_was: dict[tuple, Any] = {}
    serving: dict[str, list[PlannedChange]] = {}
    for c in plan.changes:
        if c.serves and c.status == "planned":
            serving.setdefault(c.serves, []).append(c)
    for f in findings:
        changes = list(getattr(f, "changes", None) or [])
        if not changes:
            continue
        refs: list[dict[str, Any]] = []
        new: list[ProposedChange] = []
        skipped: list[str] = []
        differs = False
        stale: list[str] = []
        made: list[PlannedChange] = []  # the plan's changes this finding now makes
        for ch in changes:
            pc = by_key.get(ch.key())
            if pc is None:
                cf = conflicts.get(_setting(ch.kind, ch.host, ch.object, ch.attribute))
                if cf is not None:
                    refs.append({"id": None, "attribute": ch.attribute, "object": ch.object, "proposed": ch.target,
                                 "target": None, "status": "conflict", "why": cf.why})
                    skipped.append(f"{label(ch, ch.target)}: rules disagree ({cf.why}); see the plan's conflicts")
                    differs = True
                    stale += _spellings(ch)
                else:
                    new.append(ch)
                continue
            target = pc.change.target
            ref = {"id": pc.id, "attribute": ch.attribute, "object": ch.object, "proposed": ch.target,
                   "target": target, "status": pc.status, "why": pc.blocked or "; ".join(pc.notes)}
            refs.append(ref)
            if pc.status == "infeasible":
                skipped.append(f"{label(ch, ch.target)}: {pc.blocked or 'infeasible on this frame'}")
                differs = True
                stale += _spellings(ch)
                continue
            if not same_value(target, ch.target):
                differs = True
                stale += _spellings(ch)
            # the plan's own change: its target and its method (a profile-only proposal merged into a
            # DLPAR change is made by DLPAR and written to the profile)
            for limit in serving.get(pc.id, []):  # a profile limit the plan moves so that this value fits
                new.append(limit.change)
                differs = True
            was = ch.current if pc.change.current is None else pc.change.current
            if pc.change.method == "profile" and hmc_value(pc.profile_value) is not None:
                was = hmc_value(pc.profile_value)  # a profile change is undone to the profile's value, not the running one
            new.append(replace(pc.change, current=was))
            made.append(pc)
            if pc.change.method != ch.method or (ch.current is None and pc.change.current is not None):
                differs = True  # another method, or a value to undo to the rule did not know (the HMC data's)
            if pc.change.method == "dlpar" and hmc_value(pc.profile_value) is not None \
                    and not same_value(hmc_value(pc.profile_value), was):
                profile_was[pc.change.key()] = hmc_value(pc.profile_value)  # a DLPAR change never saved
                differs = True
        f.plan_refs = refs
        if not differs:
            continue
        _rebuild(estate, f, new, skipped, stale, index, profile_was)
        rule_text = f.values.get("suggested")
        planned = [r for r in refs if r["status"] in ("planned", "in-place")]
        shown = ", ".join(label(c, c.target) for c in new if any(r["attribute"] == c.attribute
                                                                   and r["object"] == c.object for r in planned))
        if rule_text:
            f.values["rule_suggested"] = rule_text
        f.values["suggested"] = (shown + " (plan)") if shown else "not planned (see the plan)"
        f.changes = new
        if made and len(made) == len(new) and all(pc.catches_up for pc in made):  # the profile takes what runs
            f.disruption = [d for d in f.disruption if d != "restart-needed"]
        # the rule's own sentence may name the value it proposed: say in it what the plan does instead
        moved = [r for r in refs if r["status"] in ("planned", "in-place") and not same_value(r["target"], r["proposed"])]
        if moved and "The plan sets" not in f.message:
            f.message = (f.message.rstrip() + " The plan sets " + ", ".join(
                label(c, c.target) for c in new if any(r["attribute"] == c.attribute and r["object"] == c.object
                                                       for r in moved)) + " (see its reasons).")


_PROFILE_CMD = re.compile(r'^chsyscfg -r prof -m (?P<ms>\S+) -i "name=(?P<prof>[^,"]+),lpar_name=(?P<lpar>[^,"]+),(?P<pairs>[^"]+)"$')


def one_profile_command(lines: list[str]) -> list[str]:
    """The profile changes of one partition in one ``chsyscfg`` (at the place of the last one): the HMC
    checks a profile as a whole on each command, so a desired value above the old maximum, or a VP
    count the old entitlement cannot carry, is refused one attribute at a time but not together."""
    groups: dict[tuple[str, str, str], dict[str, str]] = {}
    last: dict[tuple[str, str, str], int] = {}
    for i, line in enumerate(lines):
        m = _PROFILE_CMD.match(line)
        if m:
            key = (m["ms"], m["prof"], m["lpar"])
            pairs = groups.setdefault(key, {})
            for pair in m["pairs"].split(","):
                attr, _, value = pair.partition("=")
                pairs.pop(attr, None)
                pairs[attr] = value
            last[key] = i
    if all(len(p) < 2 for p in groups.values()):
        return lines
    out: list[str] = []
    for i, line in enumerate(lines):
        m = _PROFILE_CMD.match(line)
        if not m:
            out.append(line)
            continue
        key = (m["ms"], m["prof"], m["lpar"])
        if last[key] == i:
            pairs = ",".join(f"{a}={v}" for a, v in groups[key].items())
            out.append(f'chsyscfg -r prof -m {key[0]} -i "name={key[1]},lpar_name={key[2]},{pairs}"')
    return out


def _spellings(ch: ProposedChange) -> list[str]:
    """The ways a note may write the target the plan did not keep (``32``, ``0.6`` / ``0.60``)."""
    out = {str(ch.target), fmt_value(ch.attribute, ch.target)}
    return sorted(v for v in out if v and v != "None")
