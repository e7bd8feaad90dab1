"""The what-if page: before/after tables and charts (demand vs granted, unmet, pool use).

Charts use the same spec format and partial as the analysis report (``charts.html.j2``, the
vendored uPlot); :func:`whatif_charts` builds them from the replay's arrays, so the analysis
report can include them too (see ``html_partial``).
"""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, PackageLoader

from .charts import EC_COLOR, PALETTE, VP_COLOR, _Axis, _line, _spec, chart_context

BEFORE_COLOR, AFTER_COLOR, DEMAND_COLOR, UNMET_COLOR = "#8c959f", "#1d5fb4", "#111827", "#b42318"


def _frame_charts(c: Any) -> list[dict[str, Any]]:
    tr = c.trace
    axis = _Axis(tr.times)
    host = f"frame {tr.frame}"
    shared = [i for i, p in enumerate(tr.settings.partitions) if not p.dedicated]
    cap_b = c.before.capacity
    series = [
        _line("capacity", axis.json(cap_b), color=VP_COLOR, dash=[6, 4]),
        _line("used, today's settings", axis.json(c.before.granted[shared].sum(axis=0)), color=BEFORE_COLOR),
        _line("used, changed settings", axis.json(c.after.granted[shared].sum(axis=0)), color=AFTER_COLOR, width=2),
        _line("demand", axis.json(c.demand[shared].sum(axis=0)), color=DEMAND_COLOR, width=1, dash=[2, 3]),
    ]
    out = [_spec("whatif-pool", host, "Shared pool: cores used before and after", "cores", axis, series,
                 note="demand above the capacity cannot be served by any setting")]
    for i, label in enumerate(tr.labels):
        if tr.source[i].startswith("assumed"):
            continue
        p_b, p_a = tr.settings.partitions[i], c.after_settings.partitions[i]
        lines = [
            _line("demand", axis.json(c.demand[i]), color=DEMAND_COLOR, width=1, dash=[2, 3]),
            _line("granted, today", axis.json(c.before.granted[i]), color=BEFORE_COLOR),
            _line("granted, changed", axis.json(c.after.granted[i]), color=AFTER_COLOR, width=2),
            _line("unmet, today", axis.json(c.before.unmet[i]), color=PALETTE[6], width=1),
            _line("unmet, changed", axis.json(c.after.unmet[i]), color=UNMET_COLOR, width=1.5,
                  fill="rgba(180,35,24,0.15)"),
            _line(f"EC {p_a.ec:g}", color=EC_COLOR, dash=[6, 4], constant=p_a.ec),
        ]
        note = (f"today: EC {p_b.ec:g}, {p_b.vp:g} VP, {'uncapped' if p_b.uncapped else 'capped'}; "
                f"changed: EC {p_a.ec:g}, {p_a.vp:g} VP, {'uncapped' if p_a.uncapped else 'capped'}")
        if tr.censored[i].any():
            note += f"; {int(tr.censored[i].sum())} censored interval(s): demand there is at least the measured use"
        out.append(_spec("whatif-partition", host, f"{label}: demand, granted and unmet", "cores", axis, lines,
                         note=note))
    return out


def whatif_charts(comparisons: list[Any]) -> list[dict[str, Any]]:
    """Chart specs for every replayed frame."""
    out: list[dict[str, Any]] = []
    for c in comparisons:
        if c.trace.times.size:
            out += _frame_charts(c)
    return out


def _env() -> Environment:
    return Environment(loader=PackageLoader("lparscope", "report/templates"), autoescape=True,
                       trim_blocks=True, lstrip_blocks=True)


def render_whatif_html(report: dict[str, Any], charts: list[dict[str, Any]]) -> str:
    """A self-contained page of the ``whatif`` report section with its charts."""
    return _env().get_template("whatif.html.j2").render(w=report.get("whatif", {}), version=report.get("version", ""),
                                                          **chart_context(charts))


def html_partial(section: dict[str, Any]) -> str:
    """The tables alone (no charts), for a report that wants to include the what-if section."""
    return _env().get_template("whatif_section.html.j2").render(w=section)


__all__ = ["whatif_charts", "render_whatif_html", "html_partial"]
