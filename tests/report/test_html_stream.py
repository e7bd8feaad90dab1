"""The HTML report written as it is made (report/html.write_html) is the document render_html returns,
and the findings are made one at a time, in the order the page shows them."""

from __future__ import annotations

from pathlib import Path

from lparscope.cli import build_report
from lparscope.pipeline import analyze
from lparscope.report import html, json_report

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "estate"


def test_written_document_is_the_rendered_one(tmp_path, monkeypatch):
    report = build_report(analyze([str(EXAMPLE)]), views=True)
    monkeypatch.setattr(json_report, "WRITE_CHARS", 1000)  # many writes: none may lose or repeat a piece
    html.write_html(report, None, tmp_path / "r.html")
    assert (tmp_path / "r.html").read_text(encoding="utf-8") == html.render_html(report)


def test_findings_are_made_when_shown_in_severity_then_host_order(monkeypatch):
    report = build_report(analyze([str(EXAMPLE)]), views=True)
    made: list[str] = []
    real = html._finding

    def spy(raw):  # type: ignore[no-untyped-def]
        made.append(f"{raw.get('severity')}/{raw.get('host')}")
        return real(raw)

    monkeypatch.setattr(html, "_finding", spy)
    chunks = html.html_chunks(report)
    next(chunks)  # the page has started: no finding made yet
    assert made == []
    page = next(chunks) + "".join(chunks)
    assert len(made) == len(report["findings"]) and "finding-1" in page
    ranks = [(html.SEVERITIES.index(m.split("/")[0]), m.split("/")[1]) for m in made]
    assert ranks == sorted(ranks)
