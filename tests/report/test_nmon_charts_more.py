"""The charts nmon users expect (CPU, run queue, per-CPU heat map, paging, disk throughput and
service time, FC), the per-host sizing table, and in Chromium: CSV download, zoom reset, no error."""

from __future__ import annotations

import csv
import io
import os
import shutil
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from lparscope.pipeline import analyze
from lparscope.report.html import render_html
from lparscope.report.json_report import build_report
from lparscope.report.nmon_charts import ORDER, estate_charts

HOST = "aixheat"
N = 60  # 10-minute snapshots from 22:00: the recording spans two days


def write_nmon(path: Path, cpus: int = 4) -> Path:
    start = datetime(2026, 3, 3, 22, 0, 0)
    lines = ["AAA,progname,topas_nmon", "AAA,version,TOPAS-NMON", f"AAA,host,{HOST}", "AAA,interval,600",
             f"AAA,snapshots,{N}", "AAA,date,03-MAR-2026", "AAA,time,22:00:00",
             f"CPU_ALL,CPU Total {HOST},User%,Sys%,Wait%,Idle%,Busy,CPUs",
             *(f"CPU{c:02d},CPU {c} {HOST},User%,Sys%,Wait%,Idle%" for c in range(1, cpus + 1)),
             f"LPAR,Logical Partition {HOST},PhysicalCPU,virtualCPUs,logicalCPUs,poolCPUs,entitled,weight,PoolIdle",
             f"PROC,Processes {HOST},Runnable,Swap-in,pswitch",
             f"PAGE,Paging {HOST},faults,pgin,pgout,pgsin,pgsout",
             f"DISKREAD,Disk Read KB/s {HOST},hdisk0,hdisk1",
             f"DISKWRITE,Disk Write KB/s {HOST},hdisk0,hdisk1",
             f"DISKSERV,Disk Service Time msec/xfer {HOST},hdisk0,hdisk1",
             f"FCREAD,Fibre Channel Read KB/s,fcs0,fcs1",
             f"FCWRITE,Fibre Channel Write KB/s,fcs0,fcs1"]
    for i in range(N):
        t = start + timedelta(minutes=10 * i)
        tag = f"T{i + 1:04d}"
        lines.append(f"ZZZZ,{tag},{t:%H:%M:%S},{t.strftime('%d-%b-%Y').upper()}")
        busy = 20 + (i % 10) * 7
        lines.append(f"CPU_ALL,{tag},{busy * .7:.1f},{busy * .3:.1f},1.0,{99 - busy:.1f},,{cpus}")
        for c in range(1, cpus + 1):
            b = min(99.0, busy + 10 * c)
            lines.append(f"CPU{c:02d},{tag},{b * .7:.1f},{b * .3:.1f},0.5,{100 - b - .5:.1f}")
        lines.append(f"LPAR,{tag},{0.5 + busy / 100:.3f},2,{cpus},16,1.00,128,8.0")
        lines.append(f"PROC,{tag},{2 + i % 5},0,1000")
        lines.append(f"PAGE,{tag},100,{i},{i * 2},{i % 3},{i % 4}")
        lines.append(f"DISKREAD,{tag},{100 + i},{10 + i}")
        lines.append(f"DISKWRITE,{tag},{50 + i},{5}")
        lines.append(f"DISKSERV,{tag},{1.5 + (i % 4)},{0.8}")
        lines.append(f"FCREAD,{tag},{1000 + i},{900}")
        lines.append(f"FCWRITE,{tag},{400},{300 + i}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], dict, Path]:
    tmp = tmp_path_factory.mktemp("nmon")
    a = analyze([str(write_nmon(tmp / f"{HOST}.nmon"))])
    charts = estate_charts(a.estate)
    report = build_report(a)
    page = tmp / "report.html"
    page.write_text(render_html(report, charts), encoding="utf-8")
    return charts, report, page


def test_every_expected_chart_in_order(recorded: tuple[list[dict], dict, Path]) -> None:
    charts = [c for c in recorded[0] if c["host"] == HOST]
    kinds = [c["kind"] for c in charts]
    for want in ("physc", "cpu", "pool", "runqueue", "heatmap", "paging", "disk-throughput", "disk-service", "fc"):
        assert want in kinds, kinds
    assert kinds == sorted(kinds, key=ORDER.index)
    by = {c["kind"]: c for c in charts}
    assert [s["label"] for s in by["cpu"]["series"]] == ["user", "sys", "wait", "idle"]
    # run queue per logical CPU: Runnable / logicalCPUs from LPAR
    rq = by["runqueue"]["series"][0]["values"]
    assert rq[0] == pytest.approx(2 / 4) and rq[3] == pytest.approx(5 / 4)
    heat = by["heatmap"]
    assert heat["rows"] == ["CPU01", "CPU02", "CPU03", "CPU04"] and len(heat["values"][0]) == len(heat["x"]) == N
    assert heat["values"][0][0] == pytest.approx(30.5)  # 100 - Idle% (69.5)
    tput = {s["label"]: s["values"] for s in by["disk-throughput"]["series"]}
    assert tput["hdisk0"][0] == pytest.approx(150) and tput["hdisk1"][0] == pytest.approx(15)
    assert {s["label"] for s in by["fc"]["series"]} == {"fcs0 read", "fcs1 read", "fcs0 write", "fcs1 write"}
    assert [s["label"] for s in by["paging"]["series"]][:2] == ["paging space in", "paging space out"]


def test_sizing_table_per_host(recorded: tuple[list[dict], dict, Path]) -> None:
    page = recorded[2].read_text(encoding="utf-8")
    assert '<table class="sortable sizing">' in page
    table = page.split('<table class="sortable sizing">', 1)[1].split("</table>", 1)[0]
    for head in ("Window", "Average", "P90", "P95", "P99", "Peak", "Recommended EC", "Recommended VP"):
        assert f">{head}</th>" in table
    assert "whole recording" in table


sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason="no chromium binary (apt-get install chromium)")
def test_charts_draw_download_csv_and_reset_zoom(recorded: tuple[list[dict], dict, Path]) -> None:
    charts, _, page_file = recorded
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        page = ctx.new_page()
        errors: list[str] = []
        requests: list[str] = []
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        page.goto(page_file.as_uri(), wait_until="load")
        page.wait_for_selector("#lparscope-chart-data[data-rendered]", state="attached")
        assert requests == [page_file.as_uri()] and errors == []
        assert page.eval_on_selector_all("#charts canvas", "els => els.length") >= len(charts)
        heat_index = next(n for n, c in enumerate(charts) if c["kind"] == "heatmap") + 1
        page.hover(f"#chart-{heat_index} canvas", position={"x": 100, "y": 12})
        assert "CPU01" in page.inner_text(f"#chart-{heat_index} .heat-readout")
        rq_index = next(n for n, c in enumerate(charts) if c["kind"] == "runqueue") + 1
        with page.expect_download() as dl:
            page.click(f"#chart-{rq_index} button.csv")
        rows = list(csv.reader(io.StringIO(Path(dl.value.path()).read_text(encoding="utf-8"))))
        assert rows[0] == ["time", "runnable per logical CPU", "1 thread per logical CPU"]
        assert len(rows) == N + 1 and rows[1][0] == "2026-03-03 22:00:00" and float(rows[1][1]) == pytest.approx(0.5)
        assert rows[-1][0].startswith("2026-03-04")  # the second day
        # drag across the chart to zoom in, then the button restores the whole recording
        fig = f"#chart-{rq_index}"
        box = page.locator(f"{fig} .u-over").bounding_box()
        page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] / 2, steps=5)
        page.mouse.up()
        first, last = charts[rq_index - 1]["x"][0], charts[rq_index - 1]["x"][-1]
        lo, hi = map(int, page.get_attribute(fig, "data-x-range").split("-"))
        assert first < lo < hi < last
        page.click(f"{fig} button.zoom-reset")
        lo, hi = map(int, page.get_attribute(fig, "data-x-range").split("-"))
        assert (lo, hi) == (first, last)
        assert errors == []
        ctx.close()
        browser.close()
