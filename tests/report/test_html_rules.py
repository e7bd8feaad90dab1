import re
from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.report.html import render_html
from lparscope.report.json_report import build_report

EXAMPLE = Path(__file__).parents[2] / "examples" / "estate"


def test_each_finding_links_to_its_rule_text():
    report = build_report(analyze([str(EXAMPLE)]))
    page = render_html(report)
    links = set(re.findall(r'href="#(rule-[A-Za-z0-9-]+)"', page))
    anchors = set(re.findall(r'id="(rule-[A-Za-z0-9-]+)"', page))
    assert links and links <= anchors
    assert {f"rule-{f['rule_id']}" for f in report["findings"]} == links
    first = report["rules"][0]
    assert first["rationale"].split()[0] in page
