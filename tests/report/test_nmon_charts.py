from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.report.html import render_html
from lparscope.report.json_report import build_report
from lparscope.report.nmon_charts import estate_charts

NMON = Path(__file__).parents[1] / "fixtures" / "nmon" / "aix_small.nmon"


def test_nmon_recording_gives_sizing_charts_and_findings(tmp_path):
    a = analyze([str(NMON)])
    (host,) = [h for h in a.estate.hosts.values() if h.nmon is not None]
    assert host.cpu is not None and host.cpu.samples  # LPAR section became the CPU series
    assert host.sizing is not None and host.sizing.n_samples == len(host.cpu.samples)
    charts = estate_charts(a.estate)
    assert charts and charts[0]["kind"] == "physc" and charts[0]["host"] == host.name
    report = build_report(a)
    entry = next(h for h in report["hosts"] if h["name"] == host.name)
    assert entry["sizing"]["recommended_ec"] is not None
    page = render_html(report, charts)
    assert 'id="charts"' in page and "uPlot" in page
