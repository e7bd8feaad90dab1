import json
import shutil
import subprocess
from pathlib import Path

import pytest

from lparscope.pipeline import analyze
from lparscope.report.fixscript import render_fix_script
from lparscope.report.json_report import SCHEMA, build_report, dumps

EXAMPLE = Path(__file__).parents[2] / "examples" / "estate"


@pytest.fixture(scope="module")
def report():
    return build_report(analyze([str(EXAMPLE)]))


def test_json_report_follows_schema_1(report):
    data = json.loads(dumps(report))
    assert data["schema"] == SCHEMA == "lparscope.report/1"
    assert set(data) >= {"schema", "lparscope_version", "generated_at", "summary", "inputs", "hosts", "findings"}
    assert data["summary"]["findings"]["critical"] == 1
    sev_order = [f["severity"] for f in data["findings"]]
    assert sev_order == sorted(sev_order, key=["critical", "warning", "info"].index)
    f = data["findings"][0]
    assert set(f) >= {"rule_id", "title", "severity", "category", "host", "subject", "message", "rationale",
                      "source", "evidence", "fix", "rollback", "disruption", "values"}
    assert set(f["fix"]) == {"root", "padmin", "hmc"}
    vios1 = next(h for h in data["hosts"] if h["name"] == "vios1")
    assert vios1["role"] == "vios" and vios1["summary"]["ioslevel"] == "3.1.4.10"
    assert {m["vhost"] for m in vios1["inventory"]["vscsi_mappings"]} >= {"vhost0", "vhost1", "vhost2"}


def test_fix_script_groups_by_host_and_quotes_untrusted_text(report):
    hostile = dict(report)
    evil = dict(report["findings"][0], host="x'; rm -rf / #", subject="en0",
                fix={"root": ["chdev -l en0 -a mtu_bypass=on'$(reboot)'"], "padmin": [], "hmc": ["chhwres ..."]})
    hostile["findings"] = [evil]
    text = render_fix_script(hostile)
    assert "if [ \"$HOST\" = 'x'\\''; rm -rf / #' ]; then" in text
    assert "run 'chdev -l en0 -a mtu_bypass=on'\\''$(reboot)'\\'''" in text
    assert "# HMC: chhwres ..." in text


def test_fix_script_is_valid_ksh_and_only_prints_by_default(report, tmp_path):
    script = tmp_path / "fix.ksh"
    script.write_text(render_fix_script(report))
    text = script.read_text()
    for host in ("aix1", "aix4", "vios2"):
        assert f"if [ \"$HOST\" = '{host}' ]; then" in text
    shell = shutil.which("ksh") or shutil.which("bash")
    if shell is None:
        pytest.skip("no ksh or bash to check the syntax")
    assert subprocess.run([shell, "-n", str(script)], capture_output=True).returncode == 0
    # Run it as if on aix1 with a stub hostname: commands are printed, not executed.
    stub = tmp_path / "bin"
    stub.mkdir()
    (stub / "hostname").write_text("#!/bin/sh\necho aix1\n")
    (stub / "hostname").chmod(0o755)
    (stub / "chdev").write_text(f"#!/bin/sh\ntouch {tmp_path}/ran\n")
    (stub / "chdev").chmod(0o755)
    res = subprocess.run([shell, str(script)], capture_output=True, text=True,
                         env={"PATH": f"{stub}:/usr/bin:/bin"})
    assert res.returncode == 0, res.stderr
    assert "+ chdev -l en0 -a mtu_bypass=on" in res.stdout
    assert not (tmp_path / "ran").exists()
