"""``lparscope explain RULE``: what a rule checks, why, the documents behind it (by title, section and
address), its thresholds, and an example of its fix and rollback taken from a real finding.

The example comes from running the rule alone on data: ``--on PATH`` (the user's own outputs) or,
in a source checkout, the example estate shipped in ``examples/estate``. When the rule finds
nothing there, the page says so instead of inventing commands.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from .citations import citations

EXAMPLE_ESTATE = Path(__file__).resolve().parents[3] / "examples" / "estate"
FORMS = (("root", "root (AIX, or VIOS after oem_setup_env)"), ("padmin", "padmin (VIOS)"), ("hmc", "HMC"))


def example_finding(rule_id: str, on: list[str] | None) -> tuple[dict[str, Any] | None, str]:
    """The first finding of ``rule_id`` on ``on`` (or the example estate), as a dict, and where from."""
    paths = on or ([str(EXAMPLE_ESTATE)] if EXAMPLE_ESTATE.is_dir() else [])
    if not paths:
        return None, ""
    from ..pipeline import analyze
    from ..rules.config import Config

    analysis = analyze(paths, Config(only={rule_id}))
    where = " ".join(on) if on else "the example estate (examples/estate)"
    for f in analysis.findings:
        if f.rule.id == rule_id:
            return f.to_dict(), where
    return None, where


def explain(rule: Any, out: Console, on: list[str] | None = None) -> None:
    from ..rules.config import DEFAULTS, OWNERS

    p = lambda s: out.print(s, highlight=False, soft_wrap=True)  # noqa: E731
    p(f"[bold]{escape(rule.id)}[/]  {escape(rule.title)}")
    p(f"severity: {rule.severity}    area: {rule.category}    scope: {rule.scope}")
    p("")
    p(escape(rule.rationale))
    p("\n[bold]Sources[/]")
    for c in citations(rule.source):
        p(f"  - {escape(c.text())}" + (f"\n    {escape(c.url)}" if c.url else ""))
    p(f"  (as cited in the rule: {escape(rule.source)})")
    code = inspect.getsource(rule.check)
    used = [name for name in DEFAULTS if f'"{name}"' in code or OWNERS.get(name) == rule.check.__module__]
    if used:
        p("\n[bold]Thresholds[/] (override under \\[thresholds] in a --config file)")
        for name in used:
            value, why = DEFAULTS[name]
            p(f"  {name} = {value:g}  - {escape(why)}")
    finding, where = example_finding(rule.id, on)
    if finding is None:
        p("\n[bold]Fix and rollback[/]")
        p(f"  no finding of this rule in {escape(where)}: its commands are written for each case; run "
          f"`lparscope explain {rule.id} --on YOUR-OUTPUTS` to see them on your data" if where else
          f"  run `lparscope explain {rule.id} --on YOUR-OUTPUTS` to see them on your data")
        return
    p(f"\n[bold]Example[/] from {escape(where)}: {escape(finding['host'])} {escape(finding['subject'])}")
    p(f"  {escape(finding['message'])}")
    values = finding.get("values") or {}
    if values.get("current") or values.get("suggested"):
        p(f"  {escape(str(values.get('current', '-')))} -> {escape(str(values.get('suggested', '-')))}")
    for title, key in (("Fix", "fix"), ("Rollback", "rollback")):
        block = finding.get(key) or {}
        forms = [(label, block.get(k)) for k, label in FORMS if block.get(k)]
        p(f"\n[bold]{title}[/]" + ("" if forms else ": none written for this case"))
        for label, lines in forms:
            p(f"  {label}:")
            for line in lines:
                p(f"    {escape(line)}")
    if finding.get("disruption"):
        p(f"\nneeds: {', '.join(finding['disruption'])}")
