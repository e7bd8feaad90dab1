"""File, folder, host and partition names holding square brackets reach the terminal as they are.

Rich reads ``[bold]`` in a printed string as a style (the word vanishes from the line) and ``[/]``
as a closing tag (``MarkupError``: the command ends with a traceback). Names from the data are
never read as markup: in the report, in messages, errors, and the ``nmon export`` command.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lparscope.cli import app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _run(args: list[str]) -> tuple[int, str]:
    res = CliRunner().invoke(app, args, env={"COLUMNS": "500"})  # messages on one line each
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res.exit_code, ANSI.sub("", res.output)


@pytest.fixture()
def estate(tmp_path: Path) -> Path:
    root = tmp_path / "in"
    (root / "vios1[old]").mkdir(parents=True)
    text = (FIXTURES / "lparstat-i" / "aix72_shared_smt8_ame.txt").read_text()
    text = text.replace("lpdb07", "web[bold]01[/]").replace("LPDB07_PROD", "db[/]prod")
    (root / "vios1[old]" / "lparstat_i.txt").write_text(text)
    (root / "a[").mkdir()
    (root / "a[" / "]b").mkdir()  # the folder a[/]b
    (root / "a[" / "]b" / "lsattr.txt").write_text((FIXTURES / "lsattr" / "aix72_hdisk_vscsi_client.txt").read_text())
    (root / "[bold]x.txt").write_bytes(b"\x00\x01\x02\x03 not text" * 10)
    nmon = (FIXTURES / "nmon" / "aix_small.nmon").read_text()
    (root / "n[red]m.nmon").write_text(re.sub(r"(?m)^AAA,host,.*$", "AAA,host,nm[red]h[/]", nmon))
    return root


@pytest.mark.parametrize("colour", [False, True])
def test_analyze_prints_bracketed_names_literally(estate: Path, tmp_path: Path, colour: bool,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    if colour:  # the interactive terminal's path (styled Text), as well as the plain one
        monkeypatch.setenv("FORCE_COLOR", "1")
    out_dir = tmp_path / "out[/]"
    out_dir.mkdir(parents=True)
    code, out = _run(["analyze", str(estate), "--inputs", "--show", "all", "--json", str(out_dir / "r[bold].json")])
    assert code == 0, out
    for name in ("vios1[old]/lparstat_i.txt", "a[/]b/lsattr.txt", "[bold]x.txt", "n[red]m.nmon",
                 "web[bold]01[/]", "nm[red]h[/]", f"JSON report: {out_dir / 'r[bold].json'}"):
        assert name in out, name
    assert (out_dir / "r[bold].json").is_file()


def test_errors_name_bracketed_paths_literally(tmp_path: Path) -> None:
    empty = tmp_path / "e[bold]mpty"
    empty.mkdir()
    code, out = _run(["analyze", str(empty), "-q"])
    assert code == 2 and f"no supported command output found in: {empty}" in out, out
    code, out = _run(["analyze", str(FIXTURES / "lparstat-i"), "-q", "--json", str(tmp_path / "no[/]dir" / "r.json")])
    assert code == 2 and f"cannot write {tmp_path / 'no[/]dir' / 'r.json'}" in out, out
    bad = tmp_path / "c[bold].toml"
    bad.write_text("x = [\n")
    code, out = _run(["analyze", str(FIXTURES / "lparstat-i"), "-q", "--config", str(bad)])
    assert code == 2 and "c[bold].toml" in out, out


def test_nmon_export_names_bracketed_paths_literally(estate: Path, tmp_path: Path) -> None:
    code, out = _run(["nmon", "export", str(estate / "n[red]m.nmon"), str(tmp_path / "o[/]ut")])
    assert code == 0 and f"written to {tmp_path / 'o[/]ut'}" in out, out
    code, out = _run(["nmon", "export", str(estate / "[bold]x.txt"), str(tmp_path / "o2")])
    assert code == 2 and "[bold]x.txt: nothing to export" in out, out
    code, out = _run(["nmon", "export", str(tmp_path / "gone[/].nmon"), str(tmp_path / "o3")])
    assert code == 2 and "gone[/].nmon" in out, out
