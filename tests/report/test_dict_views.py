"""The report's long lists are views (dict_views.py): each item reads as the dict it stands for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lparscope.dict_views import DictView, DictViews, plain
from lparscope.pipeline import analyze
from lparscope.report.json_report import _HOST_FIELDS, _INPUT_FIELDS, _SIZED_HOST_FIELDS, build_report, dumps

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "estate"


@pytest.fixture(scope="module")
def analysis():  # type: ignore[no-untyped-def]
    return analyze([str(EXAMPLE)])


def _eager(report: dict) -> dict:
    """The same report with every view made into the dicts and lists it stands for."""
    return json.loads(json.dumps(report, default=plain))


def test_plain_by_default(analysis) -> None:  # type: ignore[no-untyped-def]
    report = build_report(analysis)  # a library caller's: json.dumps needs nothing more
    assert json.loads(json.dumps(report)) == _eager(build_report(analysis, views=True)) | {
        "generated_at": report["generated_at"]}
    assert dumps(report) == dumps(dict(build_report(analysis, views=True), generated_at=report["generated_at"]))


def test_views_read_as_the_objects_dicts(analysis) -> None:  # type: ignore[no-untyped-def]
    report = build_report(analysis, views=True)
    assert isinstance(report["findings"], DictViews) and isinstance(report["inputs"], DictViews)
    assert isinstance(report["plan"]["changes"], DictViews)
    assert len(report["findings"]) == len(analysis.findings) > 0
    assert [dict(v) for v in report["findings"]] == [f.to_dict() for f in analysis.findings]
    assert report["findings"] == [f.to_dict() for f in analysis.findings]  # a view equals its dict
    assert [v.to_dict() for v in report["plan"]["changes"]] == [c.to_dict() for c in analysis.plan.changes]
    assert report["plan"]["changes"] == analysis.plan.to_dict()["changes"]
    first = report["findings"][0]
    assert first.get("rule_id") == analysis.findings[0].rule.id and first.get("no such key") is None
    assert report["findings"][-1:] == [analysis.findings[-1].to_dict()]
    with pytest.raises(TypeError):
        first["message"] = "changed"  # type: ignore[index]


def test_json_text_is_the_eager_reports(analysis) -> None:  # type: ignore[no-untyped-def]
    report = build_report(analysis, views=True)
    text = dumps(report)
    assert json.loads(text) == _eager(report)
    eager = dict(report, findings=[f.to_dict() for f in analysis.findings],
                 inputs=[dict(i) for i in report["inputs"]], hosts=[dict(h) for h in report["hosts"]],
                 plan=analysis.plan.to_dict())
    assert dumps(eager) == text  # the same text, byte for byte, laid out the same


def test_host_and_input_entries(analysis) -> None:  # type: ignore[no-untyped-def]
    report = build_report(analysis, views=True)
    sized = [h for h in report["hosts"] if "sizing" in h]
    assert sized and all(set(h) == set(_SIZED_HOST_FIELDS) for h in sized)
    assert all(set(h) == set(_HOST_FIELDS) for h in report["hosts"] if "sizing" not in h)
    assert {h["name"] for h in report["hosts"]} == set(analysis.estate.hosts)
    first = analysis.estate.inputs[0]
    assert report["inputs"][0] == {k: get(first) for k, get in _INPUT_FIELDS.items()}
    assert sum(h["counts"]["critical"] + h["counts"]["warning"] + h["counts"]["info"]
               for h in report["hosts"]) == sum(1 for f in analysis.findings if f.host in analysis.estate.hosts)


def test_plain_default() -> None:
    views = DictViews([1, 2], {"n": lambda x: x, "twice": lambda x: [x, x]})
    assert json.loads(json.dumps({"v": views, "one": views[0], "p": Path("a")}, default=plain)) == {
        "v": [{"n": 1, "twice": [1, 1]}, {"n": 2, "twice": [2, 2]}], "one": {"n": 1, "twice": [1, 1]}, "p": "a"}
    assert isinstance(views[1], DictView) and list(views[1]) == ["n", "twice"] and len(views[1]) == 2
    assert views != [{"n": 1}] and views == [{"n": 1, "twice": [1, 1]}, {"n": 2, "twice": [2, 2]}]


def test_empty_views_write_as_empty_lists(analysis) -> None:  # type: ignore[no-untyped-def]
    report = dict(build_report(analysis, views=True), findings=DictViews([], {}), inputs=DictViews([], {}))
    assert json.loads(dumps(report))["findings"] == [] and '"inputs": []' in dumps(report)


def test_frames_as_views_are_the_frame_section(analysis) -> None:  # type: ignore[no-untyped-def]
    from lparscope.report.frame import frame_section, frame_views

    views = frame_views(analysis.estate)
    assert len(views) > 0 and views == frame_section(analysis.estate)


def test_vios_sizing_worked_out_once_per_frame(analysis, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from lparscope.report import frame

    calls = []
    real = frame._sizing
    monkeypatch.setattr(frame, "_sizing", lambda estate, fr: calls.append(fr.name) or real(estate, fr))
    section = frame.frame_section(analysis.estate)  # vios_sizing and failover: two keys, one computation
    assert section and sorted(calls) == sorted(f["name"] for f in section)
    calls.clear()
    view = frame.frame_views(analysis.estate)[0]
    assert (view["vios_sizing"], view["failover"]) == (section[0]["vios_sizing"], section[0]["failover"])
    assert calls == [section[0]["name"]]  # the two keys of one view: one computation too
    assert build_report(analysis, views=True)["frames"] == build_report(analysis)["frames"]


def test_a_template_reads_keys_through_a_view(analysis) -> None:  # type: ignore[no-untyped-def]
    from jinja2 import Environment

    report = build_report(analysis, views=True)
    tpl = Environment().from_string("{% for f in findings %}{{ f.rule_id }} {{ f.host }};{% endfor %}")
    assert tpl.render(findings=report["findings"]) == "".join(
        f"{f.rule.id} {f.host};" for f in analysis.findings)
