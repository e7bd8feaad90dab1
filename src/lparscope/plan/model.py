"""The plan's own data: planned changes, ordered steps, conflicts, and the summary line."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..dict_views import DictViews
from ..model.change import SAFE_NAME, ProposedChange
from .merge import Conflict, Reason, _num_or_str, same_value

#: Changes that need a partition restart or a host reboot.
RESTART = {"partition restart", "reboot"}
#: Changes that need a maintenance window (service stops or loses redundancy while they are made).
WINDOW = RESTART | {"interface down"}


def hmc_value(value: Any) -> Any:
    """A value of the HMC data as a change holds it: a number as a number (16, 1.5), else the text."""
    if value is None or str(value).strip() in ("", "null", "none"):
        return None
    text = str(value).strip()
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


@dataclass
class PlannedChange:
    """One setting, one target, with where and how it is made and why."""

    id: str
    change: ProposedChange
    reasons: list[Reason]
    frame: str | None = None  # managed system name (None: the inputs do not tell)
    lpar: str | None = None  # partition name as the HMC knows it
    profile: str | None = None  # profile the partition runs with
    profile_value: Any = None  # the setting's value in that profile
    status: str = "planned"  # planned | in-place | infeasible
    blocked: str = ""  # why it is infeasible
    unverified: str = ""  # a check the data did not allow
    needs: list[str] = field(default_factory=list)  # names the inputs do not give
    notes: list[str] = field(default_factory=list)
    step: int | None = None
    serves: str = ""  # the id of the change this one is made for (a profile limit raised so that it fits)
    together: list[str] = field(default_factory=list)  # ids made in one command with it (no order of single ones holds)
    running_value: Any = None  # the value the partition runs with (HMC data), when known

    @property
    def catches_up(self) -> bool:
        """A profile change to the value the partition already runs with (a DLPAR change never saved):
        the next activation keeps what runs today, so nothing waits for a restart."""
        return (self.change.method == "profile" and self.running_value is not None
                and same_value(self.running_value, self.change.target))

    # short-hands
    @property
    def host(self) -> str:
        return self.change.host

    @property
    def method(self) -> str:
        return self.change.method

    @property
    def disruption(self) -> str:
        if self.catches_up:
            return "none"
        if self.change.failover and self.change.disruption == "none":
            return "failover"
        return self.change.disruption

    @property
    def window(self) -> bool:
        return self.disruption in WINDOW or self.change.failover

    @property
    def restart(self) -> bool:
        return self.disruption in RESTART

    @property
    def where(self) -> str:
        """Script the change is made from: the HMC (by frame) or the host itself."""
        return "hmc" if self.change.on_hmc else self.host

    def to_dict(self) -> dict[str, Any]:
        return {key: get(self) for key, get in PLANNED_FIELDS.items()}


# A planned change as the reports show it, key by key (to_dict makes them all; dict_views one at a time).
PLANNED_FIELDS: dict[str, Callable[[PlannedChange], Any]] = {
    "id": lambda p: p.id, "kind": lambda p: p.change.kind, "host": lambda p: p.change.host,
    "object": lambda p: p.change.object, "attribute": lambda p: p.change.attribute,
    # a profile change changes the profile's value (the running one may differ: a DLPAR change not saved)
    "current": lambda p: _num_or_str(hmc_value(p.profile_value) if p.change.method == "profile"
                                     and p.profile_value is not None else p.change.current), "target": lambda p: _num_or_str(p.change.target),
    "method": lambda p: p.change.method, "disruption": lambda p: p.disruption,
    "maintenance_window": lambda p: p.window, "basis": lambda p: p.change.basis, "frame": lambda p: p.frame,
    "partition": lambda p: p.lpar, "profile": lambda p: p.profile,
    "profile_value": lambda p: _num_or_str(p.profile_value), "status": lambda p: p.status,
    "blocked": lambda p: p.blocked, "unverified": lambda p: p.unverified, "needs": lambda p: list(p.needs),
    "prerequisites": lambda p: list(p.change.prerequisites),
    "notes": lambda p: list(p.notes) + ([p.change.note] if p.change.note else []),
    "vios": lambda p: p.change.vios, "failover": lambda p: p.change.failover, "step": lambda p: p.step,
    "together": lambda p: list(p.together),
    "reasons": lambda p: [r.to_dict() for r in p.reasons],
}


@dataclass
class Step:
    """Changes made together, in order: ``after`` names the steps that must be done first."""

    number: int
    where: str  # "hmc" or a host name
    frame: str | None
    title: str
    ids: list[str]
    disruption: str
    window: bool
    after: list[int] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)  # what to verify before starting

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "where": self.where, "frame": self.frame, "title": self.title,
                "changes": list(self.ids), "disruption": self.disruption, "maintenance_window": self.window,
                "after": list(self.after), "checks": list(self.checks)}


@dataclass
class Advice:
    """A finding whose fix is not a settable value (an update, a remap, a mount): kept as text."""

    rule_id: str
    host: str
    subject: str
    severity: str
    fix: dict[str, list[str]]

    def to_dict(self) -> dict[str, Any]:
        return {"rule_id": self.rule_id, "host": self.host, "subject": self.subject, "severity": self.severity,
                "fix": {k: list(v) for k, v in self.fix.items()}}


@dataclass
class Plan:
    changes: list[PlannedChange] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)  # frame-wide problems (profiles over the pool ...)
    advice: list[Advice] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)  # per frame and pool: before / after

    def planned(self) -> list[PlannedChange]:
        return [c for c in self.changes if c.status == "planned"]

    def by_id(self, id: str) -> PlannedChange | None:
        return next((c for c in self.changes if c.id == id), None)

    def hosts(self) -> list[str]:
        return sorted({c.host for c in self.planned() if c.host})

    def needs(self) -> list[str]:
        out: list[str] = []
        for c in self.changes:
            for n in c.needs:
                if n not in out:
                    out.append(n)
        return out

    def summary(self) -> str:
        p = self.planned()
        restart = sum(1 for c in p if c.restart)
        window = sum(1 for c in p if c.window)
        hosts = self.hosts()
        line = (f"Plan: {len(p)} change{'s' if len(p) != 1 else ''} on {len(hosts)} host{'s' if len(hosts) != 1 else ''} "
                f"({restart} need a restart, {window} a maintenance window)")
        extra = []
        infeasible = sum(1 for c in self.changes if c.status == "infeasible")
        if infeasible:
            extra.append(f"{infeasible} infeasible")
        if self.conflicts:
            extra.append(f"{len(self.conflicts)} conflict{'s' if len(self.conflicts) != 1 else ''}")
        return line + (": " + ", ".join(extra) if extra else "")

    def counts(self) -> dict[str, Any]:
        by_method: dict[str, int] = {}
        for c in self.planned():
            by_method[c.method] = by_method.get(c.method, 0) + 1
        return {"planned": len(self.planned()), "hosts": len(self.hosts()),
                "restart": sum(1 for c in self.planned() if c.restart),
                "maintenance_window": sum(1 for c in self.planned() if c.window),
                "in_place": sum(1 for c in self.changes if c.status == "in-place"),
                "infeasible": sum(1 for c in self.changes if c.status == "infeasible"),
                "conflicts": len(self.conflicts), "by_method": dict(sorted(by_method.items()))}

    def to_dict(self, views: bool = False) -> dict[str, Any]:
        """The plan as the reports show it; ``views``: its changes as dicts made when read (dict_views.py)."""
        return {"summary": self.summary(), "counts": self.counts(),
                "changes": DictViews(self.changes, PLANNED_FIELDS) if views else [c.to_dict() for c in self.changes],
                "steps": [s.to_dict() for s in self.steps],
                "conflicts": [c.to_dict() for c in self.conflicts],
                "checks": list(self.checks), "needs": self.needs(), "frames": list(self.frames),
                "advice": [a.to_dict() for a in self.advice]}


def change_id(c: ProposedChange, lpar: str | None = None, frame: str | None = None) -> str:
    """A stable id: ``<partition>.<attribute>`` on the HMC (``<frame>.<partition>.<attribute>`` when
    ``frame`` is given: a partition name the plan meets on two frames), ``<host>.<object>.<attribute>``
    on a host; a hash of the same parts when a part is not a plain name."""
    if c.on_hmc:
        parts = ([frame] if frame else []) + [lpar or c.object, c.attribute]
    else:
        parts = [c.host, c.object, c.attribute]
    if all(SAFE_NAME.match(p or "") for p in parts):
        return ".".join(parts)
    digest = hashlib.sha1("\0".join(str(p) for p in parts).encode("utf-8", "replace")).hexdigest()[:10]
    return f"c{digest}"
