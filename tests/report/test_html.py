"""Unit tests of the HTML report renderer."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from markupsafe import escape

from lparscope.report.html import render_html
from lparscope.report.legend import SEVERITY_MEANING, meaning
from sample_report import HOSTILE_HOST, IMG, NON_ASCII, SCRIPT, TEMPLATE, sample_report


@pytest.fixture(scope="module")
def page() -> str:
    return render_html(sample_report())


def test_is_one_html_document(page: str) -> None:
    assert page.lstrip().startswith("<!DOCTYPE html>")
    assert page.rstrip().endswith("</html>")
    assert "<title>lparscope report</title>" in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page


def test_hostile_strings_are_escaped(page: str) -> None:
    assert SCRIPT not in page
    assert "<img" not in page
    assert IMG not in page
    assert html.escape(SCRIPT) in page  # &lt;script&gt;alert(1)&lt;/script&gt;
    assert "&lt;script&gt;" in page
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in page
    # The only <script> element is the page's own filter script.
    assert page.count("<script") == 1
    assert page.count("</script>") == 1


def test_hostile_host_name_escaped_in_attributes(page: str) -> None:
    escaped = html.escape(HOSTILE_HOST)  # html.escape uses &#x27; / &quot;; Jinja uses &#34;
    assert f'data-host="{HOSTILE_HOST}"' not in page
    assert 'data-host="aix2&#34;&gt;&lt;img src=x onerror=alert(1)&gt;"' in page
    assert escaped.replace("&quot;", "&#34;") in page


def test_template_syntax_in_input_is_literal(page: str) -> None:
    assert TEMPLATE in page  # x{{7*7}}y
    assert "x49y" not in page
    assert "notes_{{7*7}}.txt" in page


def test_non_ascii_survives(page: str) -> None:
    assert NON_ASCII in page
    assert '<meta charset="utf-8">' in page


def test_nothing_fetched_from_the_network(page: str) -> None:
    # document addresses of the citations are shown as text for the reader to copy, never linked
    assert '<span class="url">https://www.redbooks.ibm.com/abstracts/sg248080.html</span>' in page
    lowered = re.sub(r'<span class="url">[^<]*</span>', "", page).lower()
    for needle in ("http://", "https://", 'src="//', "src='//", 'href="//', "url(", "@import"):
        assert needle not in lowered, needle
    tags = _tags(page)
    loaders = {"img", "link", "iframe", "object", "embed", "audio", "video", "source", "base"}
    assert not loaders & {tag for tag, _ in tags}
    for tag, attrs in tags:
        assert "src" not in attrs, tag
        assert attrs.get("href", "#").startswith("#"), attrs
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)


def test_parsed_dom_has_only_expected_elements(page: str) -> None:
    # Hostile strings must not create elements when a browser parses the page.
    names = {tag for tag, _ in _tags(page)}
    assert names <= {
        "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "h4", "p",
        "div", "span", "main", "section", "label", "input", "select", "option", "button",
        "details", "summary", "code", "a", "dl", "dt", "dd", "ul", "li", "pre", "table",
        "thead", "tbody", "tr", "th", "td", "footer", "script", "nav", "ol", "strong", "br"}, names


def test_every_finding_is_rendered_with_evidence_and_fixes(page: str) -> None:
    report = sample_report()
    for finding in report["findings"]:
        assert html.escape(finding["rule_id"], quote=False) in page
        assert html.escape(finding["title"], quote=False) in page
        for ev in finding["evidence"]:
            location = f"{ev['path']}:{ev['line']}"
            assert _esc(location) in page, location
            assert _esc(ev["excerpt"]) in page
        for form in ("root", "padmin", "hmc"):
            for command in finding["fix"][form] + finding["rollback"][form]:
                assert _esc(command) in page, command
    assert page.count('class="finding ') == len(report["findings"])


def test_findings_ordered_by_severity(page: str) -> None:
    severities = re.findall(r'<details class="finding sev-(\w+)"', page)
    assert severities == ["critical", "critical", "warning", "warning", "info"]


def test_findings_ordered_even_if_input_is_not() -> None:
    report = sample_report()
    report["findings"].reverse()
    severities = re.findall(r'<details class="finding sev-(\w+)"', render_html(report))
    assert severities == ["critical", "critical", "warning", "warning", "info"]


def test_command_forms_labelled_and_disruption_shown(page: str) -> None:
    for label in ("root (AIX)", "padmin (VIOS)", "HMC"):
        assert f'<div class="cmd-label">{label}</div>' in page
    for tag in ("reboot", "interface-down", "dlpar"):
        assert f'<span class="tag disruptive" title="{escape(meaning(tag))}">{tag}</span>' in page
    assert "online change" in page
    assert '500<span class="arrow">→</span>1024' in page


def test_header_summary(page: str) -> None:
    assert "2026-11-22T10:00:00+00:00" in page
    assert "0.1.0" in page
    assert f'<span class="badge sev-critical" title="{SEVERITY_MEANING["critical"]}">critical 2</span>' in page
    assert f'<span class="badge sev-warning" title="{SEVERITY_MEANING["warning"]}">warning 2</span>' in page
    assert f'<span class="badge sev-info" title="{SEVERITY_MEANING["info"]}">info 1</span>' in page
    zero = sample_report()
    zero["summary"]["findings"]["critical"] = 0
    assert "critical 0" not in render_html(zero)  # badges only for non-zero counts


def test_inventory_tables_use_union_of_keys_and_skip_empty_lists(page: str) -> None:
    vios_eth = _section(page, 'class="sortable inventory inv-ethernet"')
    assert [c for c in ("name", "class", "description", "ha_mode") if f">{c}</th>" in vios_eth] == [
        "name", "class", "description", "ha_mode"]
    assert page.count('class="sortable inventory inv-wpars"') == 1  # vios1 has an empty wpars list
    assert page.count('class="sortable inventory inv-interfaces"') == 1  # aix2 has an empty one
    assert "00f6db0a3b2c1d4e" in page  # key only present on one aix1 disk row


def test_inputs_table_lists_every_input_and_warnings(page: str) -> None:
    inputs = _section(page, 'id="inputs"')
    for item in sample_report()["inputs"]:
        assert _esc(item["path"]) in inputs
    assert "line 12: unexpected field &lt;script&gt;" in inputs
    assert '<details class="warnings"><summary>2</summary>' in inputs
    assert 'status-unrecognised">unrecognised<' in inputs


def test_output_is_deterministic() -> None:
    assert render_html(sample_report()) == render_html(sample_report())


def test_empty_report_renders() -> None:
    page = render_html({"schema": "lparscope.report/1", "findings": [], "hosts": [], "inputs": []})
    assert "No findings." in page and "No hosts." in page and "No inputs." in page
    assert "lparscope report" in page


def test_bare_dict_and_missing_optional_keys_render() -> None:
    assert "No findings." in render_html({})
    page = render_html({
        "summary": None,
        "findings": [{"rule_id": "X-1", "severity": "warning", "title": "t", "fix": None,
                      "evidence": [{"path": "p.txt", "line": None, "excerpt": None}],
                      "values": None, "disruption": None}],
        "hosts": [{"name": "h", "summary": None, "inventory": None}],
        "inputs": [{"path": "p.txt", "kind": None, "warnings": None}],
    })
    assert "X-1" in page and "<code>p.txt</code>" in page
    assert f'<span class="badge sev-warning" title="{SEVERITY_MEANING["warning"]}">warning 1</span>' in page


class _TagCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def _tags(page: str) -> list[tuple[str, dict[str, str]]]:
    collector = _TagCollector()
    collector.feed(page)
    return collector.tags


def _esc(text: str) -> str:
    """Escape the way Jinja2/markupsafe does."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&#34;").replace("'", "&#39;"))


def _section(page: str, marker: str) -> str:
    start = page.index(marker)
    return page[start:page.index("</table>", start)] if "inventory" in marker else page[start:]


def test_navigation_lists_only_sections_the_page_has() -> None:
    plain = render_html(sample_report())
    nav = plain.split('<nav class="toc"', 1)[1].split("</nav>", 1)[0]
    hrefs = re.findall(r'href="#([a-z-]+)"', nav)
    assert hrefs[:2] == ["summary", "findings"] and "whatif" not in hrefs and "plan" not in hrefs
    for anchor in hrefs:
        assert f'id="{anchor}"' in plain, anchor
    report = sample_report()
    report["whatif"] = {"changes_from": f"the plan {SCRIPT}", "frames": []}
    page = render_html(report)
    assert 'href="#whatif"' in page and 'id="whatif"' in page and SCRIPT not in page
