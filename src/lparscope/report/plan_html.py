"""Context for the plan partial of the HTML report (templates/plan.html.j2): steps, changes per
partition and per host with before / after, frame pools before / after, infeasible changes,
conflicts and the names the inputs did not give. Values are left as data; the template escapes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .legend import disruption_legend


def _v(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.2f}".rstrip("0").rstrip(".")
    return "" if x is None else str(x)


def plan_context(report: dict[str, Any]) -> dict[str, Any]:
    plan = report.get("plan")
    if not isinstance(plan, dict):
        return {"plan": None}
    changes = [c for c in plan.get("changes", []) if isinstance(c, Mapping)]  # views (dict_views.py)
    by_target: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for c in changes:
        if c.get("kind") in ("partition", "profile"):
            key = ("partition", f"{c.get('partition') or c.get('object')}" + (f" on {c['frame']}" if c.get("frame") else ""))
        else:
            key = ("host", str(c.get("host")))
        by_target.setdefault(key, []).append({
            "id": c.get("id"), "what": c.get("attribute") if key[0] == "partition" else f"{c.get('object')} {c.get('attribute')}",
            "before": _v(c.get("current")), "after": _v(c.get("target")) if c.get("status") == "planned" else _v(c.get("current")),
            "proposed": _v(c.get("target")), "status": c.get("status"), "method": c.get("method"),
            "disruption": c.get("disruption"), "step": c.get("step"), "blocked": c.get("blocked"),
            "reasons": ", ".join(str(r.get("rule_id")) for r in c.get("reasons", []) if isinstance(r, dict)),
            "notes": list(c.get("notes") or []) + ([c["unverified"]] if c.get("unverified") else []),
        })
    groups = [{"kind": k[0], "name": k[1], "rows": rows} for k, rows in sorted(by_target.items())]
    ids = {c.get("id"): c for c in changes}
    steps = []
    for s in plan.get("steps", []):
        steps.append(dict(s, items=[f"{i}: {_v(ids[i].get('current'))} \u2192 {_v(ids[i].get('target'))}"
                                    for i in s.get("changes", []) if i in ids]))
    words = [s.get("disruption") for s in steps] + [c.get("disruption") for c in changes]
    words += ["maintenance window"] * any(s.get("maintenance_window") for s in steps)
    words += ["dlpar"] * any(c.get("method") == "dlpar" for c in changes)
    return {"plan": plan, "plan_legend": disruption_legend(words), "plan_groups": groups, "plan_steps": steps, "plan_frames": plan.get("frames", []),
            "plan_infeasible": [c for c in changes if c.get("status") == "infeasible"]}
