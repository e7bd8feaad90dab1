import json
import shutil
import subprocess
from pathlib import Path

import pytest

from lparscope.pipeline import analyze
from lparscope.report.fixscript import render_fix_scripts
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


def test_fix_scripts_are_valid_and_only_print_by_default(report, tmp_path):
    files = render_fix_scripts(report["plan"], tmp_path / "fix.ksh")
    names = sorted(p.name for p in files)
    assert "fix.ksh" in names and "fix-hmc.sh" in names
    stub = tmp_path / "bin"
    stub.mkdir()
    (stub / "hostname").write_text("#!/bin/sh\necho aix1\n")
    for cmd in ("chdev", "ssh", "schedo", "ioo"):
        (stub / cmd).write_text(f"#!/bin/sh\ntouch {tmp_path}/ran\n")
    for f in stub.iterdir():
        f.chmod(0o755)
    for path, text in files.items():
        path.write_text(text)
        shell = "sh" if path.suffix == ".sh" else (shutil.which("ksh") and "ksh")
        if not shell:
            continue
        assert subprocess.run([shell, "-n", str(path)], capture_output=True).returncode == 0, path.name
        res = subprocess.run([shell, str(path)], capture_output=True, text=True, cwd=tmp_path,
                             env={"PATH": f"{stub}:/usr/bin:/bin"})
        assert res.returncode == 0, (path.name, res.stderr)
    assert not (tmp_path / "ran").exists()


def test_fix_script_help_names_the_files_it_writes(tmp_path) -> None:
    """The help said PATH-<host>.ksh; the files are <stem>-<host>.ksh (out/fix.ksh: out/fix-aix1.ksh)."""
    import re

    from typer.testing import CliRunner

    from lparscope.cli import app
    from lparscope.report.fixscript import script_paths

    res = CliRunner().invoke(app, ["analyze", "--help"], env={"COLUMNS": "400", "TERMINAL_WIDTH": "400"})
    text = re.sub(r"[\s│]+", " ", re.sub(r"\x1b\[[0-9;]*m", "", res.output))
    assert "PATH-<host>" not in text and "<stem>-<host>.ksh" in text and "out/fix-aix1.ksh" in text
    paths = script_paths(tmp_path / "out" / "fix.ksh", ["aix1"])
    assert paths["aix1"].name == "fix-aix1.ksh" and paths["hmc"].name == "fix-hmc.sh"
