"""The plan stage: every finding's proposed changes merged into one coherent, feasible, ordered plan.

Between the rules / sizing and the renderers: reads the model and the findings, never the
reports. ``build_plan(estate, findings)`` returns a :class:`~lparscope.plan.model.Plan`.
"""

from .build import build_plan
from .model import Plan, PlannedChange, Step

__all__ = ["build_plan", "Plan", "PlannedChange", "Step"]
