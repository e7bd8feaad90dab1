"""The plan as workbook sheets: one row per change (before / after, method, status, why) and one
per step. Rows are flat dicts for report/frame.py's sheet writer (which escapes cell text)."""

from __future__ import annotations

from typing import Any


def plan_sheets(report: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    plan = report.get("plan")
    if not isinstance(plan, dict):
        return []
    changes = []
    for c in plan.get("changes", []):
        changes.append({
            "id": c.get("id"), "status": c.get("status"), "step": c.get("step"), "kind": c.get("kind"),
            "host": c.get("host"), "frame": c.get("frame"), "partition": c.get("partition"), "profile": c.get("profile"),
            "object": c.get("object"), "attribute": c.get("attribute"), "before": c.get("current"),
            "after": c.get("target") if c.get("status") == "planned" else c.get("current"),
            "proposed": c.get("target"), "method": c.get("method"), "disruption": c.get("disruption"),
            "maintenance_window": c.get("maintenance_window"), "basis": c.get("basis"),
            "blocked": c.get("blocked"), "unverified": c.get("unverified"), "needs": "; ".join(c.get("needs", [])),
            "prerequisites": "; ".join(c.get("prerequisites", [])), "notes": "; ".join(c.get("notes", [])),
            "findings": ", ".join(f"{r.get('rule_id')}{'' if r.get('chosen') else ' (not chosen)'}"
                                  for r in c.get("reasons", [])),
        })
    steps = [{"step": s.get("number"), "where": s.get("where"), "frame": s.get("frame"), "title": s.get("title"),
              "changes": ", ".join(s.get("changes", [])), "disruption": s.get("disruption"),
              "maintenance_window": s.get("maintenance_window"), "after": ", ".join(map(str, s.get("after", []))),
              "checks": "; ".join(s.get("checks", []))} for s in plan.get("steps", [])]
    conflicts = [{"host": k.get("host"), "object": k.get("object"), "attribute": k.get("attribute"),
                  "current": k.get("current"), "why": k.get("why")} for k in plan.get("conflicts", [])]
    out = [("Plan", changes), ("Plan steps", steps), ("Plan frames", list(plan.get("frames", [])))]
    if conflicts:
        out.append(("Plan conflicts", conflicts))
    return out
