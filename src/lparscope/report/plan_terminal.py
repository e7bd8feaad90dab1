"""The plan in the terminal: the headline, the first steps with their changes, what is infeasible,
what conflicts, and the names the inputs did not give. Plain (text, style) lines for the
terminal renderer (report/terminal.py) to print."""

from __future__ import annotations

from typing import Any

Line = list[tuple[str, str | None]]


def _v(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.2f}".rstrip("0").rstrip(".")
    return "-" if x is None or x == "" else str(x)


def change_text(c: dict[str, Any]) -> str:
    what = c.get("partition") or c["object"]
    if c["kind"] in ("device", "interface", "tunable"):
        what = f"{c['host']} {c['object']}"
    return f"{what} {c['attribute']} {_v(c['current'])} -> {_v(c['target'])}"


def plan_lines(plan: dict[str, Any] | None, steps_shown: int = 8, compact: bool = False) -> list[Line]:
    """Lines for the terminal's plan section (empty when there is no plan). ``compact`` (-q): one
    line per step, the first five steps, problems as counts."""
    if not plan:
        return []
    out: list[Line] = [[(plan.get("summary", ""), "head")]]
    by_id = {c["id"]: c for c in plan.get("changes", [])}
    steps = plan.get("steps", [])
    if compact:
        steps_shown = 5
    for s in steps[:steps_shown]:
        where = f"HMC {s['frame']}" if s["where"] == "hmc" else s["where"]
        tags = [s["disruption"]] if s["disruption"] != "none" else []
        if s["maintenance_window"]:
            tags.append("maintenance window")
        if s["after"]:
            tags.append(f"after {', '.join(str(a) for a in s['after'])}")
        n = len(s["changes"])
        out.append([(f"{s['number']:>3}. ", None), (f"{where}: ", "head"),
                    (s["title"] + (f" ({n} change{'s' if n != 1 else ''})" if compact else ""), None),
                    (f"  [{'; '.join(tags)}]" if tags else "", "dim")])
        shown = [by_id[i] for i in s["changes"] if i in by_id]
        if compact:
            continue
        for c in shown[:4]:
            out.append([(f"       {c['id']}: {change_text(c)}  ({c['method']})", None)])
        if len(shown) > 4:
            out.append([(f"       ... {len(shown) - 4} more", "dim")])
    if len(steps) > steps_shown:
        out.append([(f"     ... {len(steps) - steps_shown} more step(s): see the fix scripts or the HTML / JSON report", "dim")])
    if compact:
        if plan.get("needs"):
            out.append([("  needs ", "dim"), (f"{len(plan['needs'])} name(s) the inputs do not give (see the HTML / JSON report)", None)])
        return out
    for c in plan.get("changes", []):
        if c["status"] == "infeasible":
            out.append([("  infeasible ", "critical"), (f"{c['id']}: {change_text(c)}: {c['blocked']}", None)])
    for k in plan.get("conflicts", []):
        out.append([("  conflict ", "warning"), (f"{k.get('host')} {k['object']} {k['attribute']}: {k['why']}", None)])
    for chk in plan.get("checks", []):
        out.append([("  check ", "warning"), (chk, None)])
    for need in plan.get("needs", []):
        out.append([("  needs ", "dim"), (need, None)])
    return out
