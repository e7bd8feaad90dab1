"""The terminal summary: order, filters, roll-up on large estates, width independence; CLI flags around it."""

from __future__ import annotations

import copy
import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from lparscope.cli import app
from lparscope.pipeline import analyze
from lparscope.report.json_report import build_report
from lparscope.report.terminal import View, render_terminal
from lparscope.report.triage import main_command, top_actions

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "estate"
FINDING_LINE = re.compile(r"^  ([CWI]) ([A-Z0-9-]+)  ")


@pytest.fixture(scope="module")
def report() -> dict:
    return build_report(analyze([str(EXAMPLE)]))


def render(report: dict, **kw) -> list[str]:
    buf = io.StringIO()
    render_terminal(report, Console(file=buf, width=40), view=View(**kw))
    return buf.getvalue().splitlines()


def test_quiet_summary_fits_sixty_lines_and_starts_with_the_summary() -> None:
    res = CliRunner().invoke(app, ["analyze", str(EXAMPLE), "-q"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert len(lines) <= 60, "\n".join(lines)
    assert lines[0].startswith("lparscope ") and "8 host(s)" in lines[0] and "1 frame(s)" in lines[0]
    assert lines[2].startswith("findings: 1 critical, 46 warning, 27 info")
    assert "Top actions" in lines and "Hosts" in lines
    assert not any(FINDING_LINE.match(x) for x in lines)  # -q lists no finding
    assert not any(x.strip().startswith("parsed ") for x in lines)  # inputs only as counts


@pytest.mark.parametrize("core", ["as installed", "absent", "switched off"])
def test_quiet_summary_fits_sixty_lines_whichever_nmon_path(core: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from lparscope.nmon import native

    if core == "absent":
        monkeypatch.setattr(native, "core", None)
    elif core == "switched off":
        monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", "0")
    assert len(native.describe()) < 80  # one line in an 80-column terminal
    res = CliRunner().invoke(app, ["analyze", str(EXAMPLE), "-q"])
    assert res.exit_code == 0 and len(res.output.splitlines()) <= 60, res.output


def test_top_actions_are_changes_by_severity_without_scary_preparatory_steps(report: dict) -> None:
    acts = top_actions(report)
    assert len(acts) == 10 and acts[0]["severity"] == "critical"
    ranks = ["critical", "warning", "info"]
    assert [ranks.index(a["severity"]) for a in acts] == sorted(ranks.index(a["severity"]) for a in acts)
    # two rules asking the same chhwres on aix5 are one action
    aix5 = [a for a in acts if a["host"] == "aix5"]
    assert len(aix5) == 1 and len(aix5[0]["rules"]) >= 2
    (buffers,) = [f for f in report["findings"] if f["rule_id"] == "NET-VETH-BUFFERS"]
    assert buffers["fix"]["root"][0] == "chdev -l en0 -a state=down"
    assert main_command(buffers, "aix").startswith("chdev -l ent0 -a min_buf_small=")


def test_filters_keep_only_what_was_asked(report: dict) -> None:
    lines = render(report, show_all=True, severities=["critical"])
    found = [FINDING_LINE.match(x) for x in lines if FINDING_LINE.match(x)]
    assert [m.group(2) for m in found] == ["WPAR-KERNEL-QDEPTH-MISMATCH"]
    lines = render(report, show_all=True, hosts=["aix1"])
    hosts = [x.split()[0] for x in lines[lines.index("Findings per host") + 1:] if x and not x.startswith(" ")]
    assert hosts == ["aix1"]
    assert len([x for x in lines if FINDING_LINE.match(x)]) == sum(f["host"] == "aix1" for f in report["findings"])
    lines = render(report, show_all=True, areas=["network"])
    ids = {FINDING_LINE.match(x).group(2) for x in lines if FINDING_LINE.match(x)}
    assert ids and all(i.startswith(("NET-", "MEAS-")) for i in ids)
    res = CliRunner().invoke(app, ["analyze", str(EXAMPLE), "--show", "all", "--severity", "info,critical", "--host", "vios1"])
    assert res.exit_code == 0
    letters = {FINDING_LINE.match(x).group(1) for x in res.output.splitlines() if FINDING_LINE.match(x)}
    assert letters == {"I"}
    assert CliRunner().invoke(app, ["analyze", str(EXAMPLE), "--severity", "urgent"]).exit_code == 2


def test_output_does_not_depend_on_the_terminal_width(report: dict) -> None:
    narrow, wide = io.StringIO(), io.StringIO()
    render_terminal(report, Console(file=narrow, width=40), view=View(show_all=True))
    render_terminal(report, Console(file=wide, width=300), view=View(show_all=True))
    assert narrow.getvalue() == wide.getvalue()
    assert max(map(len, narrow.getvalue().splitlines())) > 40  # long lines stay whole
    assert "\x1b[" not in narrow.getvalue()  # no colour codes in a pipe


def _large(report: dict, copies: int) -> dict:
    big = copy.deepcopy(report)
    big["hosts"], big["findings"] = [], []
    for n in range(copies):
        for h in report["hosts"]:
            big["hosts"].append({**h, "name": f"{h['name']}-{n}"})
        for f in report["findings"]:
            big["findings"].append({**f, "host": f"{f['host']}-{n}"})
    return big


def test_large_estate_is_rolled_up_unless_show_all(report: dict) -> None:
    big = _large(report, 125)  # 1,000 hosts
    lines = render(big, quiet=False)
    assert "Findings by rule" in lines and "Top actions" in lines
    assert not any(FINDING_LINE.match(x) for x in lines)
    assert any("findings are rolled up" in x for x in lines)
    rule_rows = lines[lines.index("Findings by rule") + 2:]
    assert any("CPU-EC-BELOW-VP" in x and " 375 " in f" {x} " for x in rule_rows)
    hosts = lines[lines.index("Hosts") + 2:]
    assert any("975 more hosts" in x for x in hosts[:40])  # the table keeps the 25 with most findings
    assert len(lines) < 170  # one line per rule, top action and listed host: not per finding
    assert len(render(_large(report, 250), quiet=False)) == len(lines)  # twice the hosts: as long
    every = render(big, show_all=True)
    assert len([x for x in every if FINDING_LINE.match(x)]) == len(big["findings"])


def test_unrecognised_inputs_are_summarised_by_reason(tmp_path: Path) -> None:
    for n in range(30):
        (tmp_path / f"notes{n}.txt").write_text(f"meeting notes number {n}\nnothing to see\n")
    res = CliRunner().invoke(app, ["analyze", str(EXAMPLE), str(tmp_path), "-q"])
    assert res.exit_code == 0, res.output
    reasons = [x for x in res.output.splitlines() if x.strip().startswith("unrecognised ")]
    assert reasons and reasons[0].strip().startswith("unrecognised 30 x ")
    assert len(res.output.splitlines()) <= 60
    res = CliRunner().invoke(app, ["analyze", str(tmp_path), str(EXAMPLE), "-q", "--inputs"])
    assert sum("notes" in x for x in res.output.splitlines()) == 30


def test_version_and_short_help() -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and re.fullmatch(r"lparscope \d+\.\d+\.\d+\S*\n", res.output)
    res = runner.invoke(app, ["-h"])
    assert res.exit_code == 0 and "analyze" in res.output
    res = runner.invoke(app, ["analyze", "-h"])
    assert res.exit_code == 0 and "--severity" in res.output


def test_unwritable_report_is_not_announced(tmp_path: Path) -> None:
    target = tmp_path / "missing-folder" / "r.html"
    res = CliRunner().invoke(app, ["analyze", str(EXAMPLE), "-q", "--html", str(target),
                                   "--json", str(tmp_path / "r.json")])
    assert res.exit_code == 2
    assert "HTML report:" not in res.output and "cannot write" in res.output
    assert f"JSON report: {tmp_path / 'r.json'}" in res.output.replace("\n", "")
    assert not target.exists() and not list(tmp_path.glob(".*lparscope-tmp"))


def test_report_to_a_pipe_or_device_is_written_in_place(tmp_path: Path) -> None:
    """``--json /dev/null`` (or a pipe) writes into it: the special file is never renamed over."""
    import json
    import os
    import stat
    import threading

    fifo = tmp_path / "report.pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    res = CliRunner().invoke(app, ["analyze", str(EXAMPLE), "-q", "--json", str(fifo)])
    reader.join(timeout=60)
    assert res.exit_code in (0, 1) and stat.S_ISFIFO(fifo.stat().st_mode)
    assert json.loads(got[0])["summary"]["files"]["parsed"] > 0
    assert not list(tmp_path.glob(".*lparscope-tmp"))


@pytest.mark.parametrize("write_chars", [None, 1, 4096])
def test_json_report_written_as_encoded_is_the_dumps_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          write_chars: int | None) -> None:
    from lparscope.report import json_report
    from lparscope.report.json_report import dumps, write_json

    if write_chars is not None:  # written in many pieces, as a thousand hosts' report is
        monkeypatch.setattr(json_report, "WRITE_CHARS", write_chars)
    report = build_report(analyze([str(EXAMPLE)]))
    write_json(report, tmp_path / "r.json")
    assert (tmp_path / "r.json").read_text(encoding="utf-8") == dumps(report)


def test_nmon_export_needs_a_named_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nmon = next(EXAMPLE.rglob("*.nmon"))
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(app, ["nmon", "export", str(nmon)])
    assert res.exit_code == 2 and list(tmp_path.iterdir()) == []
    res = CliRunner().invoke(app, ["nmon", "export", str(nmon), "tables"])
    assert res.exit_code == 0, res.output
    assert list((tmp_path / "tables").glob("*.csv"))


def test_nmon_export_of_a_hostile_recording_says_why(tmp_path: Path) -> None:
    """A recording the reader gives up on (here: more distinct sections than a recording may have)
    is a clear error naming the file, exit 2, no traceback and nothing written."""
    from lparscope.nmon.state import MAX_SECTIONS

    bad = tmp_path / "many.nmon"
    bad.write_text("AAA,host,aixbomb\nZZZZ,T0001,00:00:01,04-MAR-2024\n"
                   + "".join(f"S{i:06d},T0001,1.0\n" for i in range(MAX_SECTIONS + 1)))
    res = CliRunner().invoke(app, ["nmon", "export", str(bad), str(tmp_path / "tables")])
    assert res.exit_code == 2 and "more than 10,000 sections" in res.output
    assert isinstance(res.exception, SystemExit)  # the clean exit, not an exception escaping
    assert not (tmp_path / "tables").exists()


def test_a_host_measured_but_not_sized_says_why_not_none(report: dict) -> None:
    r = copy.deepcopy({k: report[k] for k in report if k != "hosts"})
    r["hosts"] = [{"name": "lpar9", "sizing": {
        "peak_window": None, "peak_source": "whole", "peak": {"mean": 1.19, "p95": 1.19, "max": 1.19},
        "recommended_ec": None, "recommended_vp": None, "current_ec": 0.4, "current_vp": 4,
        "reasons": ["peak window whole recording: 1 of 1 samples", "only 1 sample(s): too few to recommend EC and VPs"]}}]
    text = "\n".join(render(r, show_all=True))
    assert "no recommendation (only 1 sample(s): too few to recommend EC and VPs)" in re.sub(r"\s+", " ", text)
    assert "None" not in text


def test_a_run_without_hosts_says_so_without_empty_brackets(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("")
    lines = render(build_report(analyze([str(tmp_path)], workers=1)))
    assert lines[0].endswith("0 host(s), 0 frame(s)"), lines[0]
