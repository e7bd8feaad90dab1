"""``lparscope whatif`` on the shipped example estate (hmc1/lslparutil_lpar.txt: a day of samples)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lparscope.cli import app

EXAMPLE = str(Path(__file__).parents[2] / "examples" / "estate")
runner = CliRunner()


def _run(tmp_path: Path, *args: str) -> dict:
    out = tmp_path / "w.json"
    r = runner.invoke(app, ["whatif", EXAMPLE, "--json", str(out), *args])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert data["schema"] == "lparscope.whatif/1"
    return data["whatif"]


def _frame(w: dict) -> dict:
    (f,) = [f for f in w["frames"] if f["frame"] == "p9frame1"]
    return f


def test_sizing_replay_starves_fewer_intervals_than_today(tmp_path: Path) -> None:
    w = _run(tmp_path, "--from", "sizing")  # the default replays the plan once it has processor changes
    f = _frame(w)
    assert w["changes_from"].startswith("the measured sizing")
    assert f["intervals"] == 288 and f["step_s"] == 300
    assert f["starved_intervals_after"] < f["starved_intervals_before"], f["verdict"]
    parts = {p["partition"]: p for p in f["partitions"]}
    # aix2 sat at its cap of 2.00 all night: every one of those intervals is censored and starved today
    assert parts["aix2"]["before"]["starved_intervals"] == parts["aix2"]["censored_intervals"] > 0
    assert parts["aix2"]["after"]["starved_intervals"] == 0
    assert parts["db1"]["source"].startswith("assumed")


def test_user_changes_replay_and_flag_a_partition_they_starve(tmp_path: Path) -> None:
    f = _frame(_run(tmp_path, "--change", "aix2.ec=2.5", "--change", "aix2.vp=4", "--change", "aix2.mode=uncap"))
    parts = {p["partition"]: p for p in f["partitions"]}
    assert parts["aix2"]["changed"] and parts["aix2"]["after"]["starved_intervals"] == 0
    assert f["starved_by_change"] == []
    # guaranteeing aix3 eight cores takes them from aix1 at the midday peaks
    f = _frame(_run(tmp_path, "--change", "aix3.ec=8", "--change", "aix3.vp=10"))
    assert "aix1" in f["starved_by_change"]
    assert "aix1" in f["verdict"] or f["starved_intervals_after"] < f["starved_intervals_before"]


def test_changes_file_and_usage_errors(tmp_path: Path) -> None:
    yml = tmp_path / "c.yaml"
    yml.write_text("aix2: {ec: 2.5, vp: 3, mode: uncap}\n")
    f = _frame(_run(tmp_path, "--changes", str(yml)))
    assert [c["origin"] for c in f["changes"]] == [f"{yml}:1"] * 3
    bad = tmp_path / "bad.yaml"
    bad.write_text("aix2:\n  ec: many\n")
    r = runner.invoke(app, ["whatif", EXAMPLE, "--changes", str(bad)])
    assert r.exit_code == 2 and "bad.yaml:2" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["whatif", EXAMPLE, "--change", "nosuch.ec=1"])
    assert r.exit_code == 2 and "nosuch" in r.output
    r = runner.invoke(app, ["whatif", str(Path(EXAMPLE) / "aix1")])
    assert r.exit_code == 2 and "no frame with measured processor use" in r.output


def test_consolidation_onto_targets_and_wpar_sizing(tmp_path: Path) -> None:
    w = _run(tmp_path, "--onto", "p10a=8:256", "--onto", "p10b=6:128", "--wpar", "aix1,aix4")
    con = w["consolidation"]
    placed = {n for t in con["targets"] for n in t["partitions"]}
    unplaced = {u["partition"] for u in con["unplaced"]}
    # every measured client partition is either placed or said not to fit; VIOS and db1 are not moved
    assert placed | unplaced == {"aix1", "aix2", "aix3", "aix4"} and not placed & unplaced
    for t in con["targets"]:
        assert t["peak_sum"] <= t["cores"] * 0.9 + 1e-9 and t["peak_sum"] <= t["sum_of_peaks"] + 1e-9
    g = con["wpar"]
    assert g["wpars"] == ["aix1", "aix4"] and g["recommended_vp"] >= g["peak_of_sum"]
    r = runner.invoke(app, ["whatif", EXAMPLE, "--onto", "p10a=lots"])
    assert r.exit_code == 2 and "NAME=CORES" in r.output


def test_ame_model_of_the_example_amepat_report(tmp_path: Path) -> None:
    m = _run(tmp_path)["ame"]["aix3"]
    assert m["runs"] == 1 and m["recommended"]["factor"] == 1.44
    assert all(r["true_memory_mb"] == round(m["expanded_memory_mb"] / r["factor"], 1) for r in m["curve"])


def test_analyze_report_carries_the_whatif_section_and_charts(tmp_path: Path) -> None:
    js, page = tmp_path / "a.json", tmp_path / "a.html"
    r = runner.invoke(app, ["analyze", EXAMPLE, "-q", "--json", str(js), "--html", str(page)])
    assert r.exit_code == 0, r.output
    w = json.loads(js.read_text())["whatif"]
    f = _frame(w)
    assert f["starved_intervals_after"] < f["starved_intervals_before"] and "aix3" in w["ame"]
    html = page.read_text()
    assert 'id="whatif"' in html and html.count("chart-whatif-") >= 7 and 'href="#whatif"' in html
