import json
from pathlib import Path

from jinja2 import Environment, PackageLoader

from lparscope.model.frame_build import build_frames
from lparscope.pipeline import analyze
from lparscope.report.frame import export_xlsx, frame_section
from lparscope.report.json_report import build_report

EXAMPLE = Path(__file__).parents[2] / "examples" / "estate"


def _analysis():
    a = analyze([str(EXAMPLE)])
    a.estate.frames = build_frames(a.estate)
    return a


def test_frame_section_is_json_ready_and_complete():
    sec = frame_section(_analysis().estate)
    json.dumps(sec)
    [fr] = sec
    assert fr["name"] == "p9frame1" and fr["summary"]["hpt_total_mb"] == 8064
    pool = fr["pools"][0]
    assert pool["size"] == 16.0 and pool["ec_total"] == 7.5 and pool["vp_total"] == 46
    assert fr["memory"]["budget"]["free_mb"] == 524288 - 203776 - 13568
    assert {"vswitch": "ETHERNET0", "vlan": 10, "bridged_by": ["vios1 (priority 1)", "vios2 (priority 2)"],
            "clients": ["aix1", "aix2", "aix4"]} in fr["topology"]["vlans"]
    assert {"client": "aix1", "client_slot": 10, "vios": "vios1", "vios_slot": 101, "vhost": "vhost0", "vtd": "vtscsi0",
            "backing": "hdisk2", "lun": "0x8100000000000000"} in fr["mappings"]["vscsi"]
    assert any(r["client"] == "aix1" and r["port"] == "fcs0" and r["vfchost"] == "vfchost0" for r in fr["mappings"]["vfc"])
    assert {"partition": "aix1", "attribute": "desired_proc_units", "profile": "1.5", "running": "0.5"} in fr["profile_drift"]
    assert [v["name"] for v in fr["vios_sizing"]] == ["vios1", "vios2"]


def test_partial_renders_escaped():
    a = _analysis()
    sec = frame_section(a.estate)
    sec[0]["partitions"][0]["name"] = "<script>x</script>"
    sec[0]["pools"][0]["partitions"][0]["partition"] = "<b>evil</b>"
    env = Environment(loader=PackageLoader("lparscope.report", "templates"), autoescape=True)
    html = env.get_template("frame.html.j2").render(frames=sec)
    assert "&lt;b&gt;evil&lt;/b&gt;" in html and "<b>evil</b>" not in html
    assert "p9frame1" in html and "<svg" in html and "http" not in html


def test_xlsx_export(tmp_path):
    import openpyxl

    a = _analysis()
    rep = build_report(a)
    rep["frames"] = frame_section(a.estate)
    rep["findings"].append(dict(rep["findings"][0], message="=HYPERLINK(\"http://x\")"))
    out = tmp_path / "r.xlsx"
    export_xlsx(rep, out)
    wb = openpyxl.load_workbook(out)
    assert {"Findings", "Hosts", "Frames", "Partitions", "Pools", "Memory", "vSCSI map", "vFC map"} <= set(wb.sheetnames)
    ws = wb["Findings"]
    header = [c.value for c in ws[1]]
    col = header.index("message") + 1
    cells = [ws.cell(row=r, column=col) for r in range(2, ws.max_row + 1)]
    evil = [c for c in cells if str(c.value).startswith("=HYPERLINK")]
    assert evil and all(c.data_type == "s" for c in evil)


def test_xlsx_sheets_have_filters_frozen_headers_fitted_widths_and_sizing(tmp_path):
    import openpyxl

    from lparscope.pipeline import analyze

    example = Path(__file__).resolve().parents[2] / "examples" / "estate"
    out = tmp_path / "r.xlsx"
    export_xlsx(build_report(analyze([str(example)])), out)
    wb = openpyxl.load_workbook(out)
    for ws in wb.worksheets:
        assert ws.freeze_panes == "A2", ws.title
        if ws.max_row == 1 and ws["A1"].value is None:
            continue  # an empty table (e.g. a plan with no changes) has no header to filter
        assert ws.auto_filter.ref and ws.auto_filter.ref.startswith("A1:"), ws.title
        widths = [ws.column_dimensions[c.column_letter].width for c in ws[1]]
        assert all(6 <= w <= 60 for w in widths), (ws.title, widths)
    ws = wb["Findings"]
    header = [c.value for c in ws[1]]
    assert ws.column_dimensions[ws.cell(1, header.index("rule_id") + 1).column_letter].width >= len("WPAR-KERNEL-QDEPTH-MISMATCH")
    sizing = wb["Sizing"]
    header = [c.value for c in sizing[1]]
    assert header[:9] == ["host", "window", "window_source", "samples", "average", "p90", "p95", "p99", "peak"]
    rows = [dict(zip(header, (c.value for c in r))) for r in sizing.iter_rows(min_row=2)]
    peak = next(r for r in rows if r["host"] == "aix5" and r["window"].startswith("peak"))
    assert peak["window"] == "peak 08:00-18:30" and peak["recommended_ec"] == 2.55 and peak["recommended_vp"] == 4
    assert peak["average"] <= peak["p90"] <= peak["p95"] <= peak["p99"] <= peak["peak"]


def test_wpar_consolidation_sizing_reaches_json_html_and_xlsx(tmp_path):
    import openpyxl

    a = _analysis()
    sec = frame_section(a.estate)
    w = sec[0]["wpar_consolidation"]
    json.dumps(w)
    # the example's four AIX clients with lslparutil samples, as WPARs of one global LPAR (000 §3.9.1)
    assert w["candidates"] == ["aix1", "aix2", "aix3", "aix4"] and set(w["measured_from"].values()) == {"lslparutil"}
    assert w["sum_of_averages"] == 6.581 and w["recommended_vp"] == 15 and w["current_vp_total"] == 41
    assert w["recommended_ec"] == 11.95 and w["intervals"] == 288 and "3.9.1" in w["source"]
    env = Environment(loader=PackageLoader("lparscope.report", "templates"), autoescape=True)
    html = env.get_template("frame.html.j2").render(frames=sec)
    assert "WPAR consolidation sizing" in html and "EC 11.95, 15 virtual processors" in html
    rep = build_report(a)
    rep["frames"] = sec
    out = tmp_path / "r.xlsx"
    export_xlsx(rep, out)
    assert "WPAR consolidation" in openpyxl.load_workbook(out).sheetnames
    for name in ("aix2", "aix3", "aix4"):
        a.estate.frames["p9frame1"].partitions[name].use = []
    assert frame_section(a.estate)[0]["wpar_consolidation"] is None  # one measured candidate left


def test_frame_sheets_keep_their_header_without_rows_and_it_names_the_rows_keys(tmp_path):
    """The example has no vNIC: its sheet still has the header a vNIC row would fill."""
    import openpyxl

    from lparscope.report.frame import EMPTY_SHEET_COLUMNS

    a = _analysis()
    rep = build_report(a)
    rep["frames"] = frame_section(a.estate)
    out = tmp_path / "r.xlsx"
    export_xlsx(rep, out)
    wb = openpyxl.load_workbook(out)
    assert rep["frames"][0]["mappings"]["vnic"] == []
    ws = wb["vNIC map"]
    assert ws.max_row == 1 and [c.value for c in ws[1]] == list(EMPTY_SHEET_COLUMNS["vNIC map"])
    # the sheets that have rows use exactly these columns, so an empty one looks like a full one
    for title in ("vSCSI map", "vFC map", "VLANs", "Memory", "Profile drift"):
        assert [c.value for c in wb[title][1]] == list(EMPTY_SHEET_COLUMNS[title]), title
