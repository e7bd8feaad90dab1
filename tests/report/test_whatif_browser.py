"""The what-if page of the example estate in headless Chromium: offline, no console errors,
one drawn canvas per chart (pool before/after, demand vs granted and unmet per partition)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lparscope.cli import app

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip("no chromium binary", allow_module_level=True)

EXAMPLE = str(Path(__file__).parents[2] / "examples" / "estate")


def test_whatif_page_draws_offline_without_errors(tmp_path: Path) -> None:
    page_path = tmp_path / "whatif.html"
    r = CliRunner().invoke(app, ["whatif", EXAMPLE, "--html", str(page_path)])
    assert r.exit_code == 0, r.output
    html = page_path.read_text()
    assert "Frame p9frame1" in html and "http://" not in html.split("</head>")[0]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            requests: list[str] = []
            errors: list[str] = []
            page.on("request", lambda q: requests.append(q.url))
            page.on("console", lambda m: m.type in ("error", "warning") and errors.append(m.text))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_path.as_uri(), wait_until="load")
            page.wait_for_selector("#lparscope-chart-data[data-rendered]", state="attached", timeout=60_000)
            page.wait_for_timeout(200)
            assert errors == [] and requests == [page_path.as_uri()]
            n = page.eval_on_selector_all("figure.chart", "els => els.length")
            # the pool chart and one per partition with a trace (vios1, vios2, aix1..aix4)
            assert n == 7
            assert page.get_attribute("#lparscope-chart-data", "data-rendered") == str(n)
            per = page.eval_on_selector_all("figure.chart", "els => els.map(e => e.querySelectorAll('canvas').length)")
            assert per == [1] * n
            assert "unmet, changed" in page.inner_text("figure.chart-whatif-partition .u-legend")
        finally:
            browser.close()


def test_analysis_report_with_whatif_charts_draws_without_errors(tmp_path: Path) -> None:
    page_path = tmp_path / "report.html"
    r = CliRunner().invoke(app, ["analyze", EXAMPLE, "-q", "--html", str(page_path)])
    assert r.exit_code == 0, r.output
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("console", lambda m: m.type in ("error", "warning") and errors.append(m.text))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_path.as_uri(), wait_until="load")
            page.wait_for_selector("#lparscope-chart-data[data-rendered]", state="attached", timeout=60_000)
            page.wait_for_timeout(200)
            assert errors == []
            n = page.eval_on_selector_all("figure.chart-whatif-pool, figure.chart-whatif-partition", "els => els.length")
            assert n == 7
            drawn = page.eval_on_selector_all(
                "figure.chart-whatif-pool, figure.chart-whatif-partition", "els => els.map(e => e.querySelectorAll('canvas').length)")
            assert drawn == [1] * n
        finally:
            browser.close()
