"""Open the rendered report in headless Chromium (system binary) through Playwright."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

from lparscope.report.html import render_html
from sample_report import sample_report

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install 'playwright>=1.40')")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no chromium binary (looked for 'chromium' on PATH and {CHROMIUM})",
                allow_module_level=True)

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOT = Path("/tmp/lparscope_report.png")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def report_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.html"
    path.write_text(render_html(sample_report()), encoding="utf-8")
    return path


class Loaded:
    """A page opened on the report, with everything it asked for and complained about."""

    def __init__(self, browser: Any, path: Path, javascript: bool = True) -> None:
        self.url = path.as_uri()
        self.context = browser.new_context(java_script_enabled=javascript,
                                           viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", self._dialog)
        self.page.goto(self.url, wait_until="load")
        self.page.wait_for_timeout(200)  # let late requests or errors surface

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()


@pytest.fixture()
def loaded(browser: Any, report_file: Path) -> Iterator[Loaded]:
    view = Loaded(browser, report_file)
    yield view
    view.context.close()


def _visible(page: Any, selector: str) -> list[bool]:
    return page.eval_on_selector_all(
        selector, "els => els.map(e => e.getClientRects().length > 0)")


def test_no_network_no_errors_no_injected_script(loaded: Loaded) -> None:
    assert loaded.requests == [loaded.url]
    assert loaded.errors == []
    assert loaded.dialogs == []  # hostile <script>/onerror payloads did not run
    assert loaded.page.eval_on_selector_all("img", "els => els.length") == 0
    assert loaded.page.eval_on_selector_all("script", "els => els.length") == 1


def test_finding_titles_are_visible(loaded: Loaded) -> None:
    text = loaded.page.inner_text("body")
    for finding in sample_report()["findings"]:
        assert finding["title"] in text
    assert "x{{7*7}}y" in loaded.page.inner_text("#findings") or "x{{7*7}}y" in text
    assert "<script>alert(1)</script>" in text  # shown as text, not executed


def test_severity_filter_hides_findings(loaded: Loaded) -> None:
    page = loaded.page
    assert page.is_visible("#filters")
    assert all(_visible(page, "details.finding"))
    page.uncheck("input.sev-filter[value=critical]")
    assert _visible(page, "details.finding[data-severity=critical]") == [False, False]
    assert all(_visible(page, "details.finding:not([data-severity=critical])"))
    assert page.inner_text("#filter-status") == "3 of 5 shown"
    page.uncheck("input.sev-filter[value=warning]")
    assert _visible(page, "details.finding") == [False, False, False, False, True]
    page.check("input.sev-filter[value=critical]")
    page.check("input.sev-filter[value=warning]")
    assert all(_visible(page, "details.finding"))
    assert loaded.errors == []


def test_host_and_text_filters(loaded: Loaded) -> None:
    page = loaded.page
    hostile = sample_report()["findings"][3]["host"]
    page.select_option("#host-filter", value=hostile)  # the hostile host name round-trips
    assert page.eval_on_selector_all(
        "details.finding", "els => els.filter(e => !e.hidden).map(e => e.dataset.host)") == [hostile]
    page.select_option("#host-filter", value="")
    page.fill("#text-filter", "fcs1")
    assert page.eval_on_selector_all(
        "details.finding",
        "els => els.filter(e => !e.hidden).map(e => e.querySelector('.rule').textContent)",
    ) == ["VIOS-FC-NUM-CMD-ELEMS"]
    page.fill("#text-filter", "")
    assert all(_visible(page, "details.finding"))


def test_readable_without_javascript(browser: Any, report_file: Path) -> None:
    view = Loaded(browser, report_file, javascript=False)
    try:
        text = view.page.inner_text("body")
        for finding in sample_report()["findings"]:
            assert finding["title"] in text
        assert "Hosts" in text and "Inputs" in text
        assert not view.page.is_visible("#filters")  # controls need JS, so stay hidden
        view.page.click("#finding-1 > summary")  # <details> opens natively
        assert "Online Virtual CPUs : 24" in view.page.inner_text("#finding-1")
        assert view.requests == [view.url]
    finally:
        view.context.close()


def test_print_media_expands_details(loaded: Loaded) -> None:
    page = loaded.page
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert page.eval_on_selector_all("details", "els => els.every(d => d.open)")
    assert page.is_visible("#finding-5 pre")
    assert not page.is_visible("#filters")


def test_screenshot(loaded: Loaded) -> None:
    loaded.page.click("#finding-1 > summary")
    loaded.page.click("#finding-3 > summary")
    loaded.page.screenshot(path=str(SCREENSHOT), full_page=True)
    assert SCREENSHOT.stat().st_size > 10_000
