"""A frame the HMC data does not name is named by machine type, model and serial when the host's
outputs say them: ``-m '9009-42A*7812C4X'`` (quoted: a shell globs ``*``), in findings, the plan,
JSON, HTML and the HMC fix script; without them the ``<managed-system>`` placeholder stays."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from plan_helpers import finding, part
from stubs import install

from lparscope.model.change import ProposedChange
from lparscope.model.estate import Estate, Host, Partition, Sourced
from lparscope.model.mtms import host_mtms
from lparscope.plan import build_plan
from lparscope.report.fixscript_hmc import render_hmc_script
from lparscope.sources.prtconf import SystemConfig

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _estate(serial: str | None) -> Estate:
    e = Estate()
    h = Host("z", role="aix", partition=Partition(name="z", type="Shared-SMT-4", mode="Uncapped",
                                                  entitled_capacity=1.0, online_vps=6, max_vps=8))
    h.system = Sourced(SystemConfig(model="IBM,9009-42A", serial=serial), "z/prtconf.txt", 0)
    e.hosts["z"] = h
    return e


def test_the_frame_is_named_by_its_type_model_and_serial() -> None:
    e = _estate("7812C4X")
    assert host_mtms(e.hosts["z"]) == "9009-42A*7812C4X"
    f = finding("S", "z", part("z", "desired_proc_units", 1.0, 2.0, basis="measured"))
    f.fix.hmc = ["chhwres -m <managed-system> -r proc -o a -p z --procunits 1.00"]
    plan = build_plan(e, [f]).to_dict()
    (c,) = plan["changes"]
    assert c["frame"] == "9009-42A*7812C4X" and c["status"] == "planned"
    assert not any("managed-system name" in n for n in c["needs"])
    assert f.fix.hmc == ["chhwres -m '9009-42A*7812C4X' -r proc -o a -p z --procunits 1.00"]


def test_without_a_serial_the_placeholder_stays() -> None:
    e = _estate(None)
    assert host_mtms(e.hosts["z"]) is None
    f = finding("S", "z", part("z", "desired_proc_units", 1.0, 2.0, basis="measured"))
    f.fix.hmc = ["chhwres -m <managed-system> -r proc -o a -p z --procunits 1.00"]
    (c,) = build_plan(e, [f]).to_dict()["changes"]
    assert c["frame"] is None and any("managed-system name of z" in n for n in c["needs"])
    assert f.fix.hmc == ["chhwres -m <managed-system> -r proc -o a -p z --procunits 1.00"]


@pytest.mark.skipif(shutil.which("sh") is None, reason="no sh")
def test_the_hmc_script_quotes_the_type_model_and_serial(tmp_path: Path) -> None:
    e = _estate("7812C4X")
    plan = build_plan(e, [finding("S", "z", part("z", "desired_proc_units", 1.0, 2.0, basis="measured"))]).to_dict()
    script = tmp_path / "fix-hmc.sh"
    script.write_text(render_hmc_script(plan))
    (tmp_path / "9009-42Ax7812C4X").write_text("")  # what an unquoted 9009-42A*7812C4X would glob to
    state, env = install(tmp_path, "admin")
    r = subprocess.run(["sh", str(script)], env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert r.returncode == 0 and "chhwres -m '9009-42A*7812C4X' -r proc -p z" in r.stdout, r.stdout + r.stderr
    r = subprocess.run(["sh", str(script), "--hmc", "hscroot@hmc1", "--apply", "z.desired_proc_units"], env=env,
                       capture_output=True, text=True, timeout=60, cwd=tmp_path)
    # the frame's name is no longer what is missing: the profile's is (lssyscfg -r lpar names it)
    assert r.returncode == 1 and "the profile name is not in the inputs" in r.stdout, r.stdout + r.stderr
    assert (state / "ssh").read_text() == ""


def test_reports_name_the_frame_of_an_nmon_recording(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lparscope.cli import app

    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(FIXTURES / "nmon" / "aix_small.nmon", src)  # AAA,MachineType,IBM,9009-42A; AAA,SerialNumber,78A1B2C
    res = CliRunner().invoke(app, ["analyze", str(src), "--show", "all", "--json", str(tmp_path / "r.json"),
                                   "--html", str(tmp_path / "r.html")], env={"COLUMNS": "500"})
    assert res.exit_code == 0, res.output
    assert "chhwres -m '9009-42A*78A1B2C' -r proc" in res.output and "<managed-system>" not in res.output
    report = json.loads((tmp_path / "r.json").read_text())
    hmc = [line for f in report["findings"] for line in f["fix"]["hmc"] if line.startswith("chhwres")]
    assert hmc and all("-m '9009-42A*78A1B2C'" in line for line in hmc)
    assert {c["frame"] for c in report["plan"]["changes"] if c["kind"] in ("partition", "profile")} == {"9009-42A*78A1B2C"}
    assert "9009-42A*78A1B2C" in (tmp_path / "r.html").read_text()


def test_a_change_of_the_placeholder_kind_is_still_refused_by_the_script() -> None:
    # ProposedChange with a frame that is neither a name nor a type-model and serial: never a command
    c = ProposedChange("partition", "z", "desired_proc_units", 1.0, 2.0, "dlpar", host="z", frame="9009-42A*78 1")
    e = _estate(None)
    (pc,) = build_plan(e, [finding("S", "z", c)]).to_dict()["changes"]
    assert pc["status"] == "infeasible" and "not a plain name" in pc["blocked"]
