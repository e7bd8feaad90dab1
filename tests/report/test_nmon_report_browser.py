"""The whole HTML report of an nmon recording (findings, sizing, charts) opens offline in
headless Chromium with no request but the page itself and no console error."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from lparscope.pipeline import analyze
from lparscope.report.html import render_html
from lparscope.report.json_report import build_report
from lparscope.report.nmon_charts import estate_charts

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip("no chromium binary", allow_module_level=True)

NMON = Path(__file__).parents[1] / "fixtures" / "nmon" / "aix_small.nmon"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def test_nmon_report_opens_offline_without_errors(tmp_path):
    a = analyze([str(NMON)])
    page_file = tmp_path / "report.html"
    page_file.write_text(render_html(build_report(a), estate_charts(a.estate)), encoding="utf-8")
    requests, errors = [], []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.on("request", lambda r: requests.append(r.url))
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_file.as_uri())
        page.wait_for_selector("#charts canvas")
        canvases = page.eval_on_selector_all("#charts canvas", "els => els.length")
        browser.close()
    assert requests == [page_file.as_uri()]
    assert errors == []
    assert canvases >= 1
