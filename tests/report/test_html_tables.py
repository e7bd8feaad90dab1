"""The example estate's HTML page, read as text: every table scrolls inside its own box, the data
tables are sortable, severities and disruptions are explained, the WPAR note reads as prose."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markupsafe import escape

from lparscope.pipeline import analyze
from lparscope.report.html import render_html
from lparscope.report.json_report import build_report
from lparscope.report.legend import DISRUPTION_MEANING, SEVERITY_MEANING, disruption_legend, meaning
from sample_report import sample_report

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "estate"


@pytest.fixture(scope="module")
def built() -> tuple[str, dict]:
    report = build_report(analyze([str(EXAMPLE)]))
    return render_html(report), report


def _tables(page: str) -> list[tuple[str, str]]:
    """(class attribute, the text just before the tag) of every <table> outside scripts."""
    body = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    return [(m.group(1) or "", body[max(0, m.start() - 40):m.start()])
            for m in re.finditer(r'<table(?: class="([^"]*)")?[^>]*>', body)]


@pytest.mark.parametrize("which", ["example", "sample"])
def test_every_table_sits_in_a_box_that_scrolls(built: tuple[str, dict], which: str) -> None:
    page = built[0] if which == "example" else render_html(sample_report())
    tables = _tables(page)
    assert len(tables) > 5
    for cls, before in tables:
        assert before.rstrip().endswith('<div class="table-wrap">'), (cls, before)
    assert ".table-wrap { overflow-x: auto; max-width: 100%; }" in page


def test_data_tables_are_sortable(built: tuple[str, dict]) -> None:
    page = built[0]
    classes = [cls.split() for cls, _ in _tables(page)]
    assert {"plan-frames", "plan-changes", "frame-pool", "frame-memory", "inputs-table", "inventory",
            "hosts-table", "frame-drift"} <= {c for cl in classes for c in cl}
    for cl in classes:
        assert "sortable" in cl or cl == ["kv"], cl  # a host's key / value summary is not a list
    # the pool table's bar column is a picture, not a value
    assert '<th class="nosort">VP / EC / peak against the pool' in page
    # the WPAR total row stays under the rows it sums, whatever the order
    wpar = page.split('class="sortable frame-wpar"', 1)[1].split("</table>", 1)[0]
    assert "<tfoot><tr><th>Global LPAR</th>" in wpar


def test_severities_and_disruptions_are_explained(built: tuple[str, dict]) -> None:
    page, report = built
    findings = page.split('<section id="findings">', 1)[1].split("</section>", 1)[0]
    key = findings.split('<div class="key" role="note">', 1)[1].split("</div>", 1)[0]
    for sev, text in SEVERITY_MEANING.items():
        assert str(escape(text)) in key, sev
    used = {d for f in report["findings"] for d in f["disruption"]}
    assert used >= {"dlpar", "reboot", "restart-needed", "interface-down"}
    for word in used:
        assert f">{word}</span> {escape(meaning(word))}" in key, word
    plan = page.split('<section id="plan" class="plan">', 1)[1].split("</section>", 1)[0]
    plan_key = plan.split('<div class="key" role="note">', 1)[1].split("</div>", 1)[0]
    for word in ("partition restart", "failover", "reboot", "interface down", "maintenance window", "dlpar"):
        assert f">{word}</span> {escape(DISRUPTION_MEANING[word])}" in plan_key, word
    # tooltips on every badge and tag the findings and the plan show
    assert '<span class="badge sev-critical" title="' in findings
    assert f'<span class="tag disruptive" title="{escape(meaning("reboot"))}">reboot</span>' in findings
    assert f'<span class="badge" title="{escape(meaning("failover"))}">failover</span>' in plan


def test_every_disruption_word_the_report_can_show_has_a_meaning() -> None:
    from lparscope.rules.engine import DISRUPTIONS

    for word in (*DISRUPTIONS, "none", "partition restart", "reboot", "interface down", "failover",
                 "maintenance window", "online change", *SEVERITY_MEANING):
        assert meaning(word), word
    assert disruption_legend(["reboot", "dlpar", "nonsense", "reboot"]) == [
        ("dlpar", DISRUPTION_MEANING["dlpar"]), ("reboot", DISRUPTION_MEANING["reboot"])]


def test_wpar_note_reads_as_sentences_with_commands_as_code(built: tuple[str, dict]) -> None:
    page = built[0]
    wpar = page.split("<h4>WPAR consolidation sizing</h4>", 1)[1].split("</article>", 1)[0]
    assert "`" not in wpar
    assert "<code>lparscope whatif --wpar A,B,C</code>" in wpar
    assert '<ul class="wpar-reasons"><li>Peak window' in wpar
    assert re.search(r"\)\.</p>\s*<ul", wpar)  # the recommendation ends its sentence before the reasons


def test_wpar_note_with_odd_backticks_or_markup_stays_text() -> None:
    from jinja2 import Environment, PackageLoader

    env = Environment(loader=PackageLoader("lparscope.report", "templates"), autoescape=True)
    macro = env.get_template("frame.html.j2").module.prose  # type: ignore[attr-defined]
    assert str(macro("run `a <b>` then")) == "Run <code>a &lt;b&gt;</code> then."
    assert str(macro("one ` tick")) == "One ` tick."
    assert str(macro("")) == ""
