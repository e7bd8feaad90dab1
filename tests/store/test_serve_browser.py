"""The dashboard (lparscope serve) in headless Chromium: pages, filters, charts, no outside request."""

from __future__ import annotations

import os
import shutil
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from lparscope.store.serve import is_loopback, make_server, serve_for

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install 'playwright>=1.40')")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no chromium binary (looked for 'chromium' on PATH and {CHROMIUM})", allow_module_level=True)

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
LIFETIME = 180  # seconds: the test server stops by itself after this, whatever happens


@pytest.fixture(scope="module")
def server(two_collections: Path) -> Iterator[str]:
    srv = make_server(two_collections, "127.0.0.1", 0)
    thread = threading.Thread(target=serve_for, args=(srv, LIFETIME), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield b
        b.close()


class Visit:
    def __init__(self, browser: Any, base: str) -> None:
        self.base = base
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: m.type in ("error", "warning") and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def go(self, path: str) -> Any:
        response = self.page.goto(self.base + path, wait_until="load")
        self.page.wait_for_timeout(150)
        return response

    def check_clean(self) -> None:
        assert self.errors == []
        outside = [u for u in self.requests if not u.startswith(self.base + "/")]
        assert outside == []


@pytest.fixture()
def visit(browser: Any, server: str) -> Iterator[Visit]:
    v = Visit(browser, server)
    yield v
    v.check_clean()
    v.context.close()


def _newest_findings(store: Path) -> int:
    import duckdb

    con = duckdb.connect(str(store), read_only=True)
    try:
        return con.execute("""SELECT count(*) FROM findings WHERE collection_id =
                              (SELECT collection_id FROM collections ORDER BY collected_at DESC LIMIT 1)""").fetchone()[0]
    finally:
        con.close()


def test_overview_lists_hosts_frames_and_findings(visit: Visit, two_collections: Path) -> None:
    assert visit.go("/").status == 200
    page = visit.page
    hosts = page.eval_on_selector_all("#hosts tbody tr td:first-child", "els => els.map(e => e.textContent)")
    assert sorted(hosts) == ["aix1", "aix2", "aix3", "aix4", "aix5", "hmc1", "vios1", "vios2"]
    assert page.eval_on_selector_all("#frames a", "els => els.map(e => e.textContent)") == ["p9frame1"]
    # Every host's newest collection is the second one: its findings are the current ones.
    assert page.eval_on_selector_all("tr.finding", "els => els.length") == _newest_findings(two_collections)


def test_filters_by_severity_area_and_host(visit: Visit) -> None:
    visit.go("/")
    page = visit.page
    with page.expect_navigation():
        page.select_option("#severity-filter", "critical")  # submits on change (dashboard.js)
    assert "severity=critical" in page.url
    sev = page.eval_on_selector_all("tr.finding", "els => els.map(e => e.dataset.severity)")
    assert sev and set(sev) == {"critical"}
    visit.go("/?area=network&host=aix1")
    rows = page.eval_on_selector_all("tr.finding", "els => els.map(e => [e.dataset.area, e.dataset.host])")
    assert rows and all(r == ["network", "aix1"] for r in rows)


def test_frame_page_has_pool_charts_forecast_and_plan(visit: Visit) -> None:
    assert visit.go("/frame/p9frame1").status == 200
    page = visit.page
    assert page.eval_on_selector_all("figure.chart .uplot", "els => els.length") == 2  # 5-minute and daily
    assert "fewer than 3 days" in page.inner_text("#forecast")
    assert "DefaultPool" in page.inner_text("#pools")
    assert "summary.virtual_processors" in page.inner_text("#config-changes")
    assert "plan" in page.inner_text("main").lower()


def test_host_page_findings_drift_and_charts(visit: Visit) -> None:
    visit.go("/host/aix1")
    page = visit.page
    drift = page.inner_text("#config-changes")
    assert "summary.virtual_processors" in drift and "12" in drift and "4" in drift
    assert "CPU-VP-EC-LIMITS" in page.inner_text("#finding-changes")
    assert page.eval_on_selector_all("#findings tr.finding", "els => els.every(e => e.dataset.host === 'aix1')")
    visit.go("/host/aix5")
    assert page.eval_on_selector_all("figure.chart .uplot", "els => els.length") == 2
    assert "recommended_ec" in page.inner_text("#sizing")
    visit.go("/host/aix5?severity=warning")
    assert set(page.eval_on_selector_all("tr.finding", "els => els.map(e => e.dataset.severity)")) == {"warning"}
    page.screenshot(path=str(Path(os.environ.get("TMPDIR", "/tmp")) / "lparscope_dashboard.png"), full_page=True)


def test_unknown_pages_are_404(visit: Visit) -> None:
    assert visit.go("/host/nope").status == 404
    assert visit.go("/frame/%3Cscript%3E").status == 404
    assert "<script>" in visit.page.inner_text("#error")  # shown as text
    visit.errors.clear()  # the browser logs the 404 responses themselves


def test_security_headers_and_token(two_collections: Path, server: str) -> None:
    with urllib.request.urlopen(server + "/") as r:
        csp = r.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    srv = make_server(two_collections, "127.0.0.1", 0, token="s3cret")
    thread = threading.Thread(target=serve_for, args=(srv, 30), daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{srv.server_address[1]}"
    try:
        with pytest.raises(urllib.error.HTTPError) as denied:
            urllib.request.urlopen(base + "/")
        assert denied.value.code == 401
        with urllib.request.urlopen(base + "/?token=s3cret") as r:
            assert r.status == 200 and "HttpOnly" in r.headers["Set-Cookie"]
        req = urllib.request.Request(base + "/host/aix1", headers={"Authorization": "Bearer s3cret"})
        with urllib.request.urlopen(req) as r:
            assert r.status == 200
    finally:
        srv.shutdown()
        thread.join(timeout=10)
    assert is_loopback("127.0.0.1") and is_loopback("::1") and not is_loopback("0.0.0.0")
    assert make_server(two_collections, "0.0.0.0", 0).token  # off loopback a token is made up
