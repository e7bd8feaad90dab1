"""Rules: small functions over the model, each with its metadata, and the loop that runs them.

A rule is declared with :func:`rule`::

    @rule(id="VIOS-CAPPED", title="VIOS runs capped", severity="warning",
          category="vios", source="000_31a80e54567cd02b.txt §3.5.1 (Table 3-9)",
          rationale="...")
    def vios_capped(host: Host, cfg: Config) -> Iterator[Finding]:
        ...
        yield finding(...)

Rules live in subpackages by area (``rules/processor/``, ``rules/network/`` ...), one concept per
module; :func:`all_rules` finds them all (see :mod:`.discovery`). Host rules receive one host at a time; estate rules (``scope="estate"``) receive the
whole :class:`~lparscope.model.estate.Estate`. A rule never parses text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..model.change import Commands, ProposedChange  # Commands: rules import it from here
from ..model.estate import Estate, Evidence, Host
from ..numbers import tame_figures
from .config import Config
from .discovery import import_rule_modules

SEVERITIES = ("critical", "warning", "info")
DISRUPTIONS = ("reboot", "interface-down", "dlpar", "restart-needed")


@dataclass
class Rule:
    id: str
    title: str
    severity: str
    category: str
    source: str
    rationale: str
    check: Callable[..., Iterable[Finding]]
    scope: str = "host"  # host | estate

    @property
    def location(self) -> str:
        """Where the rule lives under rules/: ``"network/sea"`` for rules/network/sea.py."""
        module = self.check.__module__
        prefix = __name__.rpartition(".")[0] + "."
        return (module[len(prefix):] if module.startswith(prefix) else module).replace(".", "/")


@dataclass
class Finding:
    rule: Rule
    host: str
    subject: str
    message: str
    evidence: list[Evidence] = field(default_factory=list)
    fix: Commands = field(default_factory=Commands)
    rollback: Commands = field(default_factory=Commands)
    disruption: list[str] = field(default_factory=list)
    values: dict[str, str] = field(default_factory=dict)
    severity: str | None = None  # overrides the rule's default when set
    changes: list[ProposedChange] = field(default_factory=list)  # structured: what the fix sets (lparscope.plan)
    plan_refs: list[dict[str, Any]] = field(default_factory=list)  # the plan's changes for them (plan/reconcile.py)
    # derived quantities the message states, by (object, quantity): ("vios1", "memory_estimate_mb") -> 4864.
    # Two findings never state different values for the same key (tests/rules/test_consistency.py).
    facts: dict[tuple[str, str], Any] = field(default_factory=dict)

    @property
    def level(self) -> str:
        return self.severity or self.rule.severity

    def to_dict(self) -> dict[str, Any]:
        return {key: get(self) for key, get in FINDING_FIELDS.items()}


# A finding as the reports show it (docs/report-schema.md), key by key: Finding.to_dict makes them all,
# the report (dict_views.py) one key at a time when read.
FINDING_FIELDS: dict[str, Callable[[Finding], Any]] = {
    "rule_id": lambda f: f.rule.id,
    "title": lambda f: f.rule.title,
    "severity": lambda f: f.level,
    "category": lambda f: f.rule.category,
    "host": lambda f: f.host,
    "subject": lambda f: f.subject,
    "message": lambda f: f.message,
    "rationale": lambda f: f.rule.rationale,
    "source": lambda f: f.rule.source,
    "evidence": lambda f: [{"path": e.path, "line": e.line, "excerpt": e.excerpt} for e in f.evidence],
    "fix": lambda f: f.fix.to_dict(),
    "rollback": lambda f: f.rollback.to_dict(),
    "disruption": lambda f: list(f.disruption),
    "values": lambda f: {k: str(v) for k, v in f.values.items()},
    "changes": lambda f: [c.to_dict() for c in f.changes],
    "plan": lambda f: [dict(r) for r in f.plan_refs],
    "facts": lambda f: [{"object": o, "quantity": q, "value": v} for (o, q), v in f.facts.items()],
}


REGISTRY: dict[str, Rule] = {}


def rule(*, id: str, title: str, severity: str, category: str, source: str, rationale: str,
         scope: str = "host") -> Callable[[Callable[..., Iterable[Finding]]], Callable[..., Iterable[Finding]]]:
    """Register a check function as a rule with its metadata."""
    if severity not in SEVERITIES:
        raise ValueError(f"unknown severity {severity!r} for {id}")

    def wrap(fn: Callable[..., Iterable[Finding]]) -> Callable[..., Iterable[Finding]]:
        if id in REGISTRY:
            raise ValueError(f"rule id {id} declared twice")
        r = Rule(id, title, severity, category, source, " ".join(rationale.split()), fn, scope)
        REGISTRY[id] = r
        fn.rule = r  # type: ignore[attr-defined]
        return fn

    return wrap


def finding(fn: Callable[..., Any], host: Host | str, subject: str, message: str, *,
            evidence: Iterable[Evidence | None] = (), fix: Commands | None = None,
            rollback: Commands | None = None, disruption: Iterable[str] = (),
            values: dict[str, Any] | None = None, severity: str | None = None,
            changes: Iterable[ProposedChange] = (),
            facts: dict[tuple[str, str], Any] | None = None) -> Finding:
    """A finding of the rule that ``fn`` implements; its structured changes are ``changes`` plus
    those the fix commands carry (rules/changes.py). ``facts`` are the derived quantities the
    message states, by (object, quantity), each computed by the one function of model/ or sizing/."""
    for d in disruption:
        if d not in DISRUPTIONS:
            raise ValueError(f"unknown disruption {d!r}")
    changes = list(changes)
    if changes and fix is None and rollback is None:  # commands derived from the declared changes
        from .changes import propose

        fix, rollback = propose(*changes)
    seen: list[Evidence] = []
    for e in evidence:
        if e is not None and e not in seen:
            seen.append(e)
    return Finding(
        rule=fn.rule,  # type: ignore[attr-defined]
        host=host if isinstance(host, str) else host.name,
        subject=subject,
        message=tame_figures(message),  # a damaged input's 1e300 as 1e+300, not 300 digits
        evidence=seen,
        fix=fix or Commands(),
        rollback=rollback or Commands(),
        disruption=list(disruption),
        values={k: tame_figures(str(v)) for k, v in (values or {}).items()},
        severity=severity,
        changes=_declared(changes, fix),
        facts=dict(facts or {}),
    )


def _declared(changes: list[ProposedChange], fix: Commands | None) -> list[ProposedChange]:
    """The finding's structured changes: declared, or carried by the fix commands (rules/changes.py)."""
    return list(changes) + [c for c in (fix.changes if fix is not None else []) if c not in changes]


def all_rules() -> dict[str, Rule]:
    """Every registered rule: importing each module under rules/ registers its rules."""
    import_rule_modules()
    return dict(REGISTRY)


_ORDER = {s: i for i, s in enumerate(SEVERITIES)}


def run(estate: Estate, cfg: Config) -> tuple[list[Finding], list[str]]:
    """All findings, ordered by severity then host; plus problems met running rules."""
    findings: list[Finding] = []
    problems: list[str] = []
    for r in all_rules().values():
        if not cfg.enabled(r.id):
            continue
        targets: list[Any] = [estate] if r.scope == "estate" else list(estate.hosts.values())
        for target in targets:
            try:
                for f in r.check(target, cfg):
                    if cfg.severity_override(r.id):
                        f.severity = cfg.severity_override(r.id)
                    findings.append(f)
            except Exception as exc:  # one broken rule must not stop the report
                where = "estate" if r.scope == "estate" else target.name
                problems.append(f"rule {r.id} failed on {where}: {type(exc).__name__}: {exc}")
    findings.sort(key=lambda f: (_ORDER[f.level], f.host, f.rule.id, f.subject))
    return findings, problems
