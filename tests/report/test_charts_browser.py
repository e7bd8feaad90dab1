"""Draw the charts partial in headless Chromium (system binary) through Playwright: offline,
no console errors, one canvas per chart, and a full day at 1-minute intervals on 200 disks
costs a bounded multiple of drawing a single series."""

from __future__ import annotations

import os
import shutil
import statistics
import time
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from lparscope.report import charts
from test_charts import HOSTILE, day, full_day_specs, standalone_page

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install 'playwright>=1.40')")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no chromium binary (looked for 'chromium' on PATH and {CHROMIUM})",
                allow_module_level=True)

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOT = Path("/tmp/lparscope_charts.png")
# A full day on 200 disks (five charts, ~40 lines) against one chart of one line. Both pay the
# same fixed cost (page, library parse). Measured on the development machine: about 3x; drawing
# all 200 disks as lines instead of top 10 + "others" band: about 26x. The bound sits between,
# generous enough that a busy machine does not fail it.
MAX_RATIO = 12.0


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


class Drawn:
    """A page opened on a chart page, with its requests and complaints, after the charts drew."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.url = path.as_uri()
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: m.type in ("error", "warning") and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        started = time.perf_counter()
        self.page.goto(self.url, wait_until="load")
        self.page.wait_for_selector("#lparscope-chart-data[data-rendered]", state="attached",
                                    timeout=60_000)
        self.seconds = time.perf_counter() - started

    def close(self) -> None:
        self.context.close()


def _write(tmp: Path, name: str, specs: list[dict]) -> Path:
    path = tmp / name
    path.write_text(standalone_page(specs), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("charts")
    one = [charts.physc_chart(day(), np.ones(1440), host="one")]
    return {"full": _write(tmp, "full.html", full_day_specs(200)),
            "one": _write(tmp, "one.html", one)}


@pytest.fixture()
def full(browser: Any, pages: dict[str, Path]) -> Iterator[Drawn]:
    view = Drawn(browser, pages["full"])
    yield view
    view.close()


def test_offline_no_errors_one_canvas_per_chart(full: Drawn) -> None:
    full.page.wait_for_timeout(200)  # let late requests or errors surface
    assert full.requests == [full.url]
    assert full.errors == [] and full.dialogs == []
    n = full.page.eval_on_selector_all("figure.chart", "els => els.length")
    assert n == 5
    assert full.page.get_attribute("#lparscope-chart-data", "data-rendered") == "5"
    per_chart = full.page.eval_on_selector_all(
        "figure.chart", "els => els.map(e => e.querySelectorAll('.chart-plot canvas').length)")
    assert per_chart == [1] * 5
    sizes = full.page.eval_on_selector_all(
        "figure.chart canvas", "els => els.map(c => [c.width, c.height])")
    assert all(w > 300 and h > 100 for w, h in sizes)
    legend = full.page.inner_text("figure.chart-disk .u-legend")
    assert "others (190) mean" in legend and "hdisk" in legend


def test_hostile_names_stay_text(browser: Any, tmp_path: Path) -> None:
    specs = charts.chart_specs(HOSTILE, day(60), physc=np.ones(60),
                               disk_busy={HOSTILE: np.ones(60)})
    view = Drawn(browser, _write(tmp_path, "hostile.html", specs))
    try:
        assert view.dialogs == [] and view.errors == []
        assert HOSTILE in view.page.inner_text("figure.chart-disk .u-legend")
        assert view.page.eval_on_selector_all("script", "els => els.length") == 3
    finally:
        view.close()


def test_cursor_shows_recorded_clock_time(full: Drawn) -> None:
    box = full.page.locator("figure.chart-physc .u-over").bounding_box()
    assert box is not None
    full.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    legend = full.page.inner_text("figure.chart-physc .u-legend")
    assert "2024" in legend or "3/4" in legend  # the recorded day, drawn in UTC
    assert "12:0" in legend or "11:5" in legend  # middle of the recorded day, whatever the TZ


def test_full_day_200_disks_renders_within_ratio_of_one_series(browser: Any,
                                                                pages: dict[str, Path]) -> None:
    def median_seconds(name: str, runs: int = 3) -> float:
        times = []
        for _ in range(runs):
            view = Drawn(browser, pages[name])
            times.append(view.seconds)
            view.close()
        return statistics.median(times)

    one = median_seconds("one")
    full_day = median_seconds("full")
    print(f"charts: full day, 200 disks {full_day:.3f}s; one series {one:.3f}s; ratio {full_day / one:.1f}")
    assert full_day <= MAX_RATIO * one, f"{full_day:.3f}s vs {one:.3f}s for one series"


def test_screenshot(full: Drawn) -> None:
    full.page.screenshot(path=str(SCREENSHOT), full_page=True)
    assert SCREENSHOT.stat().st_size > 20_000


def _ticks(view: Drawn, kind: str) -> list[str]:
    labels = view.page.get_attribute(f"figure.chart-{kind}", "data-x-ticks") or ""
    return [t.split("\n")[0] for t in labels.split("|")]


@pytest.mark.parametrize("seconds,step", [(125, 1), (145, 5), (600, 2)])
def test_short_recordings_get_distinct_time_labels(browser: Any, tmp_path: Path, seconds: int,
                                                   step: int) -> None:
    """A recording of a few minutes labelled 16:25 16:25 16:25 16:26 ...: seconds make them distinct."""
    from lparscope.report.charts_nmon import cpu_heatmap

    t = np.datetime64("2024-03-04T16:25:07") + np.arange(0, seconds, step) * np.timedelta64(1, "s")
    busy = np.linspace(10, 90, t.size)
    specs = [charts.physc_chart(t, busy / 100, host="short"),
             cpu_heatmap(t, [(f"CPU{n:02d}", busy) for n in range(4)], host="short")]
    view = Drawn(browser, _write(tmp_path, "short.html", specs))
    try:
        assert view.errors == []
        for kind in ("physc", "heatmap"):
            shown = [x for x in _ticks(view, kind) if x]
            assert len(shown) >= 2, (kind, shown)
            assert len(shown) == len(set(shown)), (kind, shown)
            assert shown == sorted(shown), (kind, shown)
    finally:
        view.close()


def test_a_day_keeps_hour_and_minute_labels(full: Drawn) -> None:
    for kind in ("physc", "disk"):
        shown = [x for x in _ticks(full, kind) if x]
        assert len(shown) >= 3 and all(len(x) == 5 for x in shown), shown  # HH:MM
        assert len(shown) == len(set(shown))
