"""The fast entry point prints the version exactly as the full command line does, without loading it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from lparscope import entry
from lparscope.cli import app


@pytest.mark.parametrize("args", [["--version"], ["-V"], ["version"]])
def test_same_output_as_cli(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(sys, "argv", ["lparscope", *args])
    entry.main()
    fast = capsys.readouterr().out
    full = CliRunner().invoke(app, args)
    assert full.exit_code == 0
    assert fast == full.output


def test_version_loads_no_heavy_module() -> None:
    code = ("import sys; sys.argv = ['lparscope', '--version']; from lparscope.entry import main; main(); "
            "heavy = [m for m in ('numpy', 'pyarrow', 'typer', 'rich', 'jinja2', 'openpyxl', 'lparscope.cli') "
            "if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]"


def test_python_dash_m_runs_the_command_line(tmp_path) -> None:
    """``python -m lparscope`` is the console script: it analyses, with the same exit code."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run([sys.executable, "-m", "lparscope", "analyze", str(tmp_path), "-q"],
                         capture_output=True, text=True, env=env)
    assert run.returncode == 2, run.stderr  # an empty folder: no supported output (not "no __main__")
    assert "no supported command output" in run.stderr
