"""Render a lparscope report dict (docs/report-schema.md) as one self-contained HTML page.

The page needs no network: CSS and the small filter script live inside the template.
Everything taken from the report is escaped by Jinja2's autoescaping; nothing from the
report is ever marked safe.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader

from ..dict_views import DictView
from .charts import chart_context
from .citations import cite_dicts
from .json_report import write_pieces
from .legend import ONLINE, SEVERITY_MEANING, disruption_legend, meaning
from .plan_html import plan_context
from .triage import host_frames, top_actions, unrecognised_reasons

SEVERITIES: tuple[str, ...] = ("critical", "warning", "info")

# Command forms of "fix" and "rollback", in the order an administrator applies them.
COMMAND_FORMS: tuple[tuple[str, str], ...] = (
    ("root", "root (AIX)"),
    ("padmin", "padmin (VIOS)"),
    ("hmc", "HMC"),
)

HOST_SUMMARY_FIELDS: tuple[tuple[str, str], ...] = (
    ("partition_type", "Partition type"),
    ("mode", "Mode"),
    ("entitled_capacity", "Entitled capacity"),
    ("virtual_processors", "Virtual processors"),
    ("weight", "Weight"),
    ("online_memory_mb", "Online memory (MB)"),
    ("maximum_memory_mb", "Maximum memory (MB)"),
    ("memory_mode", "Memory mode"),
    ("ame_factor", "AME factor"),
    ("oslevel", "oslevel"),
    ("ioslevel", "ioslevel"),
    ("pool_cores", "Pool cores"),
    ("system_cores", "System cores"),
)

INVENTORY_LISTS: tuple[tuple[str, str], ...] = (
    ("ethernet", "Ethernet adapters"),
    ("interfaces", "Interfaces"),
    ("disks", "Disks"),
    ("fc", "Fibre Channel adapters"),
    ("vscsi_mappings", "vSCSI mappings"),
    ("npiv_mappings", "NPIV mappings"),
    ("wpars", "WPARs"),
)


@lru_cache(maxsize=1)
def _environment() -> Environment:
    # autoescape=True (not select_autoescape): the template ends in ".j2", which
    # select_autoescape's default extension list would not recognise.
    env = Environment(
        loader=PackageLoader("lparscope", "report/templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["meaning"] = meaning  # a severity or disruption word's tooltip (legend.py)
    return env


def _finding_legend(findings: _Findings) -> list[tuple[str, str]]:
    """The disruption words the findings use (and "online change" when one has none), explained."""
    words: set[str] = set()
    for d in findings.values_of("disruption"):
        words |= {str(x) for x in d or []} or {ONLINE}
    return disruption_legend(words)


def _columns(rows: list[dict[str, Any]]) -> list[str]:
    """Union of the rows' keys, in order of first appearance."""
    seen: dict[str, None] = {}
    for row in rows:
        for key in row:
            seen.setdefault(str(key), None)
    return list(seen)


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [item for item in value or [] if isinstance(item, Mapping)]  # a finding is a view (dict_views.py)


def _severity_rank(finding: Mapping[str, Any]) -> int:
    severity = finding.get("severity") or "info"  # as _finding shows a finding without one
    return SEVERITIES.index(severity) if severity in SEVERITIES else len(SEVERITIES)


def _commands(block: Any) -> list[tuple[str, list[str]]]:
    """Non-empty command lists of a fix/rollback block as (label, commands)."""
    block = block if isinstance(block, dict) else {}
    return [(label, [str(c) for c in block.get(key) or []])
            for key, label in COMMAND_FORMS if block.get(key)]


def _finding(raw: dict[str, Any]) -> dict[str, Any]:
    values = raw.get("values") if isinstance(raw.get("values"), dict) else {}
    return {
        **raw,
        "severity": raw.get("severity") or "info",
        "evidence": _dicts(raw.get("evidence")),
        "fix_groups": _commands(raw.get("fix")),
        "rollback_groups": _commands(raw.get("rollback")),
        "disruption": [str(d) for d in raw.get("disruption") or []],
        "change": values,  # not "values": f.values would resolve to dict.values in Jinja
        "citations": cite_dicts(str(raw.get("source") or "")),
    }


class _Findings(Sequence[dict[str, Any]]):
    """The findings as the template shows them, each made when the template comes to it and let go
    after (9,000 findings' dicts, evidence and citations held at once were 60 MB and more)."""

    def __init__(self, raw: list[Mapping[str, Any]]) -> None:
        self._raw = raw

    def __len__(self) -> int:
        return len(self._raw)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [_finding(f) for f in self._raw[index]]
        return _finding(self._raw[index])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (_finding(f) for f in self._raw)

    def values_of(self, key: str) -> list[Any]:
        """One key of every finding, read without making the findings' dicts."""
        return [f.get(key) for f in self._raw]


def _host(raw: dict[str, Any], anchor: str) -> dict[str, Any]:
    summary = raw.get("summary") if isinstance(raw.get("summary"), dict) else {}
    inventory = raw.get("inventory") if isinstance(raw.get("inventory"), dict) else {}
    tables = []
    for key, label in INVENTORY_LISTS:
        rows = _dicts(inventory.get(key))
        if rows:
            tables.append({"key": key, "label": label, "columns": _columns(rows), "rows": rows})
    return {
        "name": raw.get("name") or "",
        "role": raw.get("role") or "unknown",
        "anchor": anchor,
        "summary": [(label, summary.get(key)) for key, label in HOST_SUMMARY_FIELDS],
        "tables": tables,
        "counts": raw.get("counts") if isinstance(raw.get("counts"), dict) else {},
    }


def _summary(report: dict[str, Any], findings: _Findings, hosts: list[Any],
             inputs: list[dict[str, Any]]) -> dict[str, Any]:
    """The report's summary block, with counts derived from the lists when it lacks them."""
    given = report.get("summary") if isinstance(report.get("summary"), dict) else {}
    by_severity = given.get("findings") if isinstance(given.get("findings"), dict) else None
    files = given.get("files") if isinstance(given.get("files"), dict) else None
    if by_severity is None:
        shown = [sev or "info" for sev in findings.values_of("severity")]
        by_severity = {s: shown.count(s) for s in SEVERITIES}
    if files is None:
        files = {s: sum(i.get("status") == s for i in inputs)
                 for s in ("parsed", "partly", "unrecognised")}
    hosts_count = given.get("hosts")
    return {
        "hosts": len(hosts) if hosts_count is None else hosts_count,
        "findings": by_severity,
        "files": files,
        "repeated_inputs": given.get("repeated_inputs") or 0,
        "repeated": given.get("repeated") or [],
    }


# Sections of the page in reading order: (anchor, label). A section appears in the navigation only
# when the page has it; "plan" and "whatif" are partials other stages add (report keys of the same name).
NAV: tuple[tuple[str, str], ...] = (
    ("summary", "Summary"), ("plan", "Plan"), ("whatif", "What-if"), ("findings", "Findings"),
    ("frames", "Frames"), ("hosts", "Hosts"), ("charts", "Charts"), ("inputs", "Inputs"), ("rules", "Rules"),
)


def _host_row(raw: dict[str, Any], frames: dict[str, str]) -> dict[str, Any]:
    s = raw.get("summary") if isinstance(raw.get("summary"), dict) else {}
    kind = str(s.get("partition_type") or "").split("-")[0].lower()
    mode = " ".join(x for x in (kind, str(s.get("mode") or "").lower()) if x)
    return {"frame": frames.get(str(raw.get("name") or ""), ""), "mode": mode,
            "ec": s.get("entitled_capacity"), "vp": s.get("virtual_processors"), "weight": s.get("weight"),
            "memory": s.get("online_memory_mb"), "level": s.get("ioslevel") or s.get("oslevel")}


def _sizing_by_host(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    from .frame import _sizing_rows

    out: dict[str, list[dict[str, Any]]] = {}
    for row in _sizing_rows(report):
        out.setdefault(str(row["host"]), []).append(row)
    return out


def _nav(present: set[str]) -> list[tuple[str, str]]:
    return [(anchor, label) for anchor, label in NAV if anchor in present]


def render_html(report: dict, charts: list[dict] | None = None) -> str:
    """Return the report as one self-contained HTML document (deterministic for one input)."""
    return "".join(html_chunks(report, charts))


def write_html(report: dict, charts: list[dict] | None, path: Path) -> None:
    """Write :func:`render_html`'s document to ``path`` as it is made: a thousand hosts' report is
    57 MB of text, which held whole (and its pieces before the join) doubled the run's peak memory."""
    write_pieces(html_chunks(report, charts), path)


def html_chunks(report: dict, charts: list[dict] | None = None) -> Iterator[str]:
    """The HTML document in pieces, in order (jinja2's ``generate``)."""
    raw_hosts = _dicts(report.get("hosts"))
    hosts = [_host(h, f"host-{n}") for n, h in enumerate(raw_hosts, start=1)]
    frames_of = host_frames(report)
    for h, raw in zip(hosts, raw_hosts):
        h["row"] = _host_row(raw, frames_of)
    anchors = {h["name"]: h["anchor"] for h in reversed(hosts)}
    raw_findings = sorted(_dicts(report.get("findings")), key=lambda f: (_severity_rank(f), str(f.get("host") or "")))
    findings = _Findings(raw_findings)
    inputs = _dicts(report.get("inputs"))
    finding_hosts = sorted({str(h) for h in findings.values_of("host") if h})
    rules = sorted(_dicts(report.get("rules")), key=lambda r: str(r.get("id") or ""))
    for r in rules:
        if not isinstance(r.get("citations"), list):
            r["citations"] = cite_dicts(str(r.get("source") or ""))
    rule_anchors = {str(r.get("id")): "rule-" + re.sub(r"[^A-Za-z0-9-]", "-", str(r.get("id"))) for r in rules}
    areas = sorted({str(c) for c in findings.values_of("category") if c})
    # each frame's dict made once: the template reads its sections (mappings, topology, drift ...)
    # several times, and a view makes a value each time it is read
    frames = [f.to_dict() if isinstance(f, DictView) else f for f in _dicts(report.get("frames"))]
    present = {"summary", "findings", "hosts", "inputs"}
    present |= {k for k, v in (("plan", report.get("plan")), ("whatif", report.get("whatif")), ("frames", frames),
                               ("charts", charts), ("rules", rules)) if v}
    return _environment().get_template("report.html.j2").generate(
        nav=_nav(present),
        sizing_rows=_sizing_by_host(report),
        actions=top_actions(report, 10),
        areas=areas,
        unrecognised=unrecognised_reasons(report),
        report=report,
        version=report.get("lparscope_version"),
        generated_at=report.get("generated_at"),
        summary=_summary(report, findings, hosts, inputs),
        severities=SEVERITIES,
        severity_meaning=SEVERITY_MEANING,
        finding_legend=_finding_legend(findings) if findings else [],
        findings=findings,
        finding_hosts=finding_hosts,
        hosts=hosts,
        host_anchors=anchors,
        inputs=inputs,
        rules=rules,
        rule_anchors=rule_anchors,
        frames=frames,
        joins=_dicts(report.get("joins")),
        **chart_context(charts or []),
        **plan_context(report),
    )
