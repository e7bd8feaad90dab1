"""The example estate's HTML report in headless Chromium: sticky navigation, filters kept in the URL
fragment across a reload, the hosts comparison table, no console error, no request but the file."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

from lparscope.pipeline import analyze
from lparscope.report.html import render_html
from lparscope.report.json_report import build_report
from lparscope.report.nmon_charts import estate_charts

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip("no chromium binary (apt-get install chromium)", allow_module_level=True)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "estate"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    a = analyze([str(EXAMPLE)])
    report = build_report(a)
    path = tmp_path_factory.mktemp("estate") / "report.html"
    path.write_text(render_html(report, estate_charts(a.estate)), encoding="utf-8")
    return path, report


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser: Any, built: tuple[Path, dict]) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    pg.requests, pg.errors = [], []  # type: ignore[attr-defined]
    pg.on("request", lambda r: pg.requests.append(r.url))
    pg.on("console", lambda m: m.type == "error" and pg.errors.append(m.text))
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.goto(built[0].as_uri(), wait_until="load")
    pg.wait_for_timeout(200)
    yield pg
    ctx.close()


def _shown(page: Any) -> int:
    return page.eval_on_selector_all("details.finding", "els => els.filter(e => !e.hidden).length")


def test_offline_and_quiet(page: Any, built: tuple[Path, dict]) -> None:
    page.click("nav.toc a[href='#findings']")
    page.select_option("#area-filter", value="network")
    page.reload(wait_until="load")
    page.wait_for_timeout(200)
    assert set(page.requests) == {built[0].as_uri()} or all(
        u.split("#")[0] == built[0].as_uri() for u in page.requests)
    assert page.errors == []


def test_navigation_links_reach_every_section(page: Any) -> None:
    links = page.eval_on_selector_all("nav.toc a", "els => els.map(e => e.getAttribute('href'))")
    for want in ("#summary", "#findings", "#frames", "#hosts", "#charts", "#inputs", "#rules"):
        assert want in links
    nav_height = page.eval_on_selector("nav.toc", "e => e.getBoundingClientRect().height")
    for href in links:
        page.click(f"nav.toc a[href='{href}']")
        page.wait_for_timeout(50)
        top = page.eval_on_selector(href, "e => e.getBoundingClientRect().top")
        at_end = page.evaluate("() => Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 2")
        assert (nav_height - 2 <= top <= nav_height + 40) or (at_end and 0 <= top < 900), (href, top)
        # the sticky navigation stays on screen
        assert page.eval_on_selector("nav.toc", "e => e.getBoundingClientRect().top") == 0


def test_filters_change_the_count_and_survive_a_reload(page: Any, built: tuple[Path, dict]) -> None:
    total = len(built[1]["findings"])
    assert page.inner_text("#filter-status") == f"{total} of {total} shown"
    page.uncheck("input.sev-filter[value=info]")
    no_info = sum(f["severity"] != "info" for f in built[1]["findings"])
    assert _shown(page) == no_info
    page.select_option("#host-filter", value="aix1")
    page.select_option("#area-filter", value="network")
    page.fill("#text-filter", "mtu")
    want = [f for f in built[1]["findings"] if f["severity"] != "info" and f["host"] == "aix1"
            and f["category"] == "network"]
    assert 0 < _shown(page) <= len(want) < total
    shown = _shown(page)
    assert page.inner_text("#filter-status") == f"{shown} of {total} shown"
    assert "sev=critical,warning" in page.url and "host=aix1" in page.url and "area=network" in page.url
    page.reload(wait_until="load")
    page.wait_for_timeout(100)
    assert _shown(page) == shown and page.inner_text("#filter-status") == f"{shown} of {total} shown"
    assert not page.is_checked("input.sev-filter[value=info]")
    assert page.input_value("#host-filter") == "aix1" and page.input_value("#area-filter") == "network"
    assert page.input_value("#text-filter") == "mtu"
    # a navigation click keeps the filters in the address
    page.click("nav.toc a[href='#hosts']")
    assert "host=aix1" in page.url
    page.click("#reset-filters")
    assert _shown(page) == total


def test_hosts_table_lists_every_host_and_its_counts_filter(page: Any, built: tuple[Path, dict]) -> None:
    rows = page.eval_on_selector_all("#hosts-table tbody tr", "els => els.map(e => e.dataset.host)")
    assert sorted(rows) == sorted(h["name"] for h in built[1]["hosts"])
    cells = page.eval_on_selector_all("#hosts-table tbody tr[data-host=aix4] td", "els => els.map(e => e.textContent.trim())")
    assert cells[:3] == ["aix4", "aix", "p9frame1"] and cells[-3:] == ["1", "5", "2"]  # 1 critical, 5 warnings (3 health findings), 2 info
    assert page.eval_on_selector_all("#hosts-table .badge", "els => els.every(e => e.textContent.trim() !== '0')")
    page.click("#hosts-table tbody tr[data-host=aix4] td:nth-child(10) a")  # its critical count
    assert _shown(page) == 1 and "host=aix4" in page.url
    page.click("#hosts-table thead th:nth-child(6)")  # sort by VP
    vps = page.eval_on_selector_all("#hosts-table tbody tr td:nth-child(6)", "els => els.map(e => e.textContent.trim())")
    nums = [float(v) for v in vps if v != "—"]
    assert nums == sorted(nums)


def test_tables_never_break_words(page: Any) -> None:
    broken = page.evaluate("""() => Array.from(document.querySelectorAll('td, th')).filter(c => {
        const s = getComputedStyle(c); return s.wordBreak === 'break-all' || s.overflowWrap === 'anywhere'; }).length""")
    assert broken == 0


@pytest.mark.parametrize("width", [1024, 1400])
def test_page_is_never_wider_than_the_screen(browser: Any, built: tuple[Path, dict], width: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    pg = ctx.new_page()
    pg.goto(built[0].as_uri(), wait_until="load")
    pg.wait_for_timeout(200)
    pg.eval_on_selector_all("details", "els => els.forEach(d => { d.open = true; })")  # inventories too
    sizes = pg.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    # every table that is wider than its box scrolls inside it
    wide = pg.evaluate("""() => Array.from(document.querySelectorAll('main table')).filter(t =>
        !t.closest('.uplot') && t.getBoundingClientRect().right > document.documentElement.clientWidth + 1 &&
        getComputedStyle(t.parentElement).overflowX !== 'auto').map(t => t.className)""")
    ctx.close()
    assert sizes[0] <= sizes[1], sizes
    assert wide == []


def _column(page: Any, table: str, n: int) -> list[str]:
    return page.eval_on_selector_all(f"{table} tbody tr td:nth-child({n})", "els => els.map(e => e.textContent.trim())")


def test_inputs_and_plan_tables_sort_on_a_click(page: Any) -> None:
    kinds = _column(page, "#inputs-table", 3)
    page.click("#inputs-table thead th:nth-child(3)")
    assert _column(page, "#inputs-table", 3) == sorted(kinds, key=str.lower)
    page.click("#inputs-table thead th:nth-child(3)")
    assert _column(page, "#inputs-table", 3) == sorted(kinds, key=str.lower, reverse=True)
    assert page.get_attribute("#inputs-table thead th:nth-child(3)", "aria-sort") == "descending"
    table = "table.plan-changes >> nth=0"
    before = page.locator(table).locator("tbody tr td:nth-child(3)").all_inner_texts()
    page.locator(table).locator("thead th:nth-child(3)").click()
    after = page.locator(table).locator("tbody tr td:nth-child(3)").all_inner_texts()
    number = re.compile(r"^-?\d+(\.\d+)?$")
    assert sorted(before) == sorted(after) and any(number.match(v) for v in after)
    assert after == sorted(after, key=lambda v: (0, float(v), "") if number.match(v) else (1, 0.0, v))


def test_sorting_is_numeric_natural_and_puts_empty_cells_last(page: Any) -> None:
    values = ["10", "9", "\u2014", "aix10", "aix2", "2.5 (by name)", "", "-1"]
    order = page.evaluate("""(values) => {
        const t = document.createElement('table'); t.className = 'sortable'; t.id = 'probe';
        t.innerHTML = '<thead><tr><th>v</th></tr></thead><tbody>' + values.map(v => '<tr><td>' + v + '</td></tr>').join('') + '</tbody>';
        document.querySelector('main').appendChild(t);
        const read = () => Array.from(t.tBodies[0].rows).map(r => r.cells[0].textContent);
        t.tHead.rows[0].cells[0].click(); const up = read();
        t.tHead.rows[0].cells[0].click(); return [up, read()];
    }""", values)
    assert order[0] == ["-1", "2.5 (by name)", "9", "10", "aix2", "aix10", "\u2014", ""]
    assert order[1] == ["aix10", "aix2", "10", "9", "2.5 (by name)", "-1", "\u2014", ""]
