"""Chart specs (lparscope.report.charts) and the charts.html.j2 partial."""

from __future__ import annotations

import json
import re
from datetime import time

import numpy as np
import pytest
from jinja2 import ChoiceLoader, DictLoader, Environment, PackageLoader

from lparscope.report import charts
from lparscope.sizing.cpu import size_partition

T0 = np.datetime64("2024-03-04T00:00")
HOSTILE = "</script><script>alert(1)</script>'\"&"

CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
       "img-src data:; base-uri 'none'; form-action 'none'")
PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{ csp }}">
<title>charts</title></head>
<body style="max-width:1200px;margin:0 auto;font:14px system-ui,sans-serif">
{% include "charts.html.j2" %}
</body></html>
"""


def standalone_page(specs: list[dict]) -> str:
    """A page made of the partial alone, under the report's Content-Security-Policy."""
    env = Environment(loader=ChoiceLoader([DictLoader({"page.html.j2": PAGE}),
                                           PackageLoader("lparscope", "report/templates")]),
                      autoescape=True, trim_blocks=True, lstrip_blocks=True)
    return env.get_template("page.html.j2").render(csp=CSP, **charts.chart_context(specs))


def day(minutes: int = 1440) -> np.ndarray:
    return T0 + np.arange(minutes) * np.timedelta64(1, "m")


def figure_trace() -> tuple[np.ndarray, np.ndarray]:
    t = day()
    minute = np.arange(t.size)
    rng = np.random.default_rng(3)
    physc = 5 + rng.normal(0, 0.5, t.size)
    busy = (minute >= 480) & (minute < 1110)
    physc[busy] = 25 + 6 * np.sin(minute[busy] / 50) + rng.normal(0, 2, busy.sum())
    return t, physc


def disks(n: int, minutes: int = 1440, seed: int = 7) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    base = rng.uniform(0, 60, n)
    return {f"hdisk{i}": np.clip(base[i] + rng.normal(0, 8, minutes), 0, 100) for i in range(n)}


def full_day_specs(n_disks: int = 200) -> list[dict]:
    t, physc = figure_trace()
    sizing = size_partition(t, physc, ec=20.0, vp=40, pool_cores=64, capped=False)
    net = {f"en{i}-{d}": np.abs(np.sin(np.arange(1440) / (30 + i))) * 1e4
           for i in range(3) for d in ("read", "write")}
    mem = {"real free": np.linspace(8000, 2000, 1440), "fs cache": np.linspace(1000, 6000, 1440)}
    return charts.chart_specs("aix1", t, physc=physc, ec=20.0, vp=40, sizing=sizing,
                              pool_idle=64 - physc * 1.5, pool_cores=64, memory=mem,
                              disk_busy=disks(n_disks), network=net)


def test_physc_chart_has_figure_3_1_lines() -> None:
    t, physc = figure_trace()
    sizing = size_partition(t, physc, ec=20.0, vp=40, pool_cores=64, capped=False)
    spec = charts.chart_specs("aix1", t, physc=physc, ec=20.0, vp=40, sizing=sizing)[0]
    assert spec["kind"] == "physc" and spec["unit"] == "cores"
    labels = [s["label"] for s in spec["series"]]
    assert labels[0] == "physc"
    assert labels[1:] == ["EC 20", "VP 40", f"recommended EC {sizing.recommended_ec:g}",
                          f"recommended VP {sizing.recommended_vp}"]
    assert [s["constant"] for s in spec["series"][1:]] == [20.0, 40.0, sizing.recommended_ec,
                                                            sizing.recommended_vp]
    assert len(spec["x"]) == len(spec["series"][0]["values"]) == 1440
    assert spec["x"][0] == 1709510400  # 2024-03-04T00:00 as recorded, encoded as UTC
    assert "peak window 08:00-18:30" in spec["note"] and "Figure 3-1" in spec["note"]


def test_specs_are_strict_json_with_gaps_as_null() -> None:
    t = day(10)
    physc = np.array([1.0, np.nan, 2.0, np.inf, 1.5, 1, 1, 1, 1, 1])
    spec = charts.physc_chart(t, physc, host="h")
    text = json.dumps(spec, allow_nan=False)
    assert spec["series"][0]["values"][1] is None and spec["series"][0]["values"][3] is None
    assert "NaN" not in text


def test_long_series_are_cut_keeping_peaks() -> None:
    t = day(10_000)
    v = np.zeros(10_000)
    v[7777] = 42.0
    spec = charts.physc_chart(t, v, host="h")
    values = spec["series"][0]["values"]
    assert len(values) <= charts.MAX_POINTS and len(spec["x"]) == len(values)
    assert max(values) == 42.0
    assert "maximum of 5 samples" in spec["note"]


def test_unsorted_times_and_nat_are_handled() -> None:
    t = np.array(["2024-01-01T10:02", "NaT", "2024-01-01T10:00", "2024-01-01T10:01"],
                 "datetime64[m]")
    spec = charts.physc_chart(t, np.array([3.0, 9.0, 1.0, 2.0]), host="h")
    assert spec["series"][0]["values"] == [1.0, 2.0, 3.0]
    assert spec["x"] == sorted(spec["x"])


def test_disks_top_n_and_others_band() -> None:
    busy = disks(200)
    spec = charts.disk_busy_chart(day(), busy, host="vios1")
    labels = [s["label"] for s in spec["series"]]
    assert len(labels) == charts.TOP_N + 3
    means = sorted(busy, key=lambda n: -busy[n].mean())
    assert labels[:charts.TOP_N] == means[:charts.TOP_N]
    assert labels[-3:] == ["others (190) max", "others (190) mean", "others (190) min"]
    assert spec["bands"] == [[charts.TOP_N, charts.TOP_N + 2, "rgba(140,149,159,0.22)"]]
    hi, lo = spec["series"][-3]["values"], spec["series"][-1]["values"]
    assert all(a >= b for a, b in zip(hi, lo))
    assert spec["y_max"] == 100.0
    assert "10 busiest of 200 disks" in spec["note"]
    few = charts.disk_busy_chart(day(), disks(3), host="h")
    assert len(few["series"]) == 3 and few["bands"] == []


def test_chart_specs_order_and_absent_series() -> None:
    specs = full_day_specs(20)
    assert [s["kind"] for s in specs] == ["physc", "pool", "memory", "disk", "network"]
    assert charts.chart_specs("h", day(5)) == []
    only = charts.chart_specs("h", day(5), disk_busy={"hdisk0": np.ones(5)})
    assert [s["kind"] for s in only] == ["disk"]
    with pytest.raises(ValueError):
        charts.disk_busy_chart(day(5), {"hdisk0": np.ones(6)}, host="h")


def test_library_is_vendored_with_licence() -> None:
    lib = charts.chart_library()
    assert lib["version"] == charts.UPLOT_VERSION
    assert "uPlot" in lib["js"] and len(lib["js"]) > 20_000
    assert ".uplot" in lib["css"]
    from importlib import resources
    licence = (resources.files("lparscope") / "report" / "static" / "uPlot.LICENSE").read_text()
    assert "MIT" in licence and "Leon Sorokin" in licence


def test_partial_escapes_input_and_embeds_library_once() -> None:
    t = day(30)
    specs = charts.chart_specs(HOSTILE, t, physc=np.ones(30),
                               disk_busy={HOSTILE: np.ones(30), "hdisk1": np.zeros(30)})
    html = standalone_page(specs)
    assert html.count("<script") == 3  # data, library, drawing script
    assert html.count("</script>") == 3  # the hostile name never closes an element
    assert "<script>alert(1)" not in html
    assert html.count("Leon Sorokin") <= 1 and html.count("uPlot v") <= 1
    data = re.search(r'<script type="application/json" id="lparscope-chart-data">(.*?)</script>',
                     html, re.S)
    assert data is not None
    parsed = json.loads(data.group(1))
    assert parsed[0]["host"] == HOSTILE and parsed[1]["series"][0]["label"] == HOSTILE
    assert "&lt;/script&gt;" in html  # the host heading, escaped by autoescape
    assert 'data-chart="0"' in html and 'data-chart="1"' in html


def test_partial_renders_nothing_without_charts() -> None:
    html = standalone_page([])
    assert "<script" not in html and "charts" not in html.split("<body", 1)[1].split("</body>")[0]


def test_template_marks_only_the_library_safe() -> None:
    from importlib import resources
    text = (resources.files("lparscope") / "report" / "templates" / "charts.html.j2").read_text()
    code = re.sub(r"\{#.*?#\}", "", text, flags=re.S)
    assert re.findall(r"\{\{[^}]*\|\s*safe\s*\}\}", code) == [
        "{{ chart_library.css | safe }}", "{{ chart_library.js | safe }}"]
    assert "{{ charts | tojson }}" in code


def test_peak_window_note_and_time_of_day() -> None:
    t, physc = figure_trace()
    spec = charts.physc_chart(t, physc, host="h", recommended_ec=25.0, recommended_vp=36,
                              peak_window=(time(8), time(18, 30)))
    assert spec["y_max"] == pytest.approx(36 * 1.05)
    assert "08:00-18:30" in spec["note"]


def test_series_without_samples_raise_no_warning_and_rank_last() -> None:
    """A disk with no sample at all (every value NaN) and instants where no disk of the "others"
    has one: no 'Mean of empty slice' on stderr, the empty series last, gaps as null."""
    import warnings

    t = day(60)
    busy = {f"hdisk{n}": np.full(60, float(n)) for n in range(12)}
    busy["hdisk99"] = np.full(60, np.nan)
    for n in range(10):
        busy[f"hdisk{n}"][:5] = np.nan  # the others band has no value at the first 5 minutes
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spec = charts.disk_busy_chart(t, busy, host="h", top_n=2)
    labels = [s["label"] for s in spec["series"]]
    assert labels[:2] == ["hdisk11", "hdisk10"]
    others = {s["label"]: s["values"] for s in spec["series"][2:]}
    assert others["others (11) max"][:5] == [None] * 5 and others["others (11) max"][5] == 9.0
    assert others["others (11) min"][5] == 0.0 and others["others (11) mean"][5] == 4.5
    assert others["others (11) mean"][0] is None
