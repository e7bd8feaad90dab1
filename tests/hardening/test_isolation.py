"""One bad input never costs the run: each failure is that input's status, every report is written.

Inputs are written here, one per class of failure (damaged archives, a parser, the model, the
charts or a report writer raising); exit codes 0 / 1 / 2 / 3 as documented in the README.
"""

from __future__ import annotations

import gzip
import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lparscope.cli import app
from lparscope.inputs import collect
from lparscope.pipeline import analyze

LSATTR = "# lsattr -El sys0\nmaxuproc 4096 Maximum number of PROCESSES allowed per user True\n"
REPORTS = ("r.json", "r.html", "r.xlsx", "fix.ksh")


def run_cli(tmp_path: Path, *inputs: Path | str, extra: tuple[str, ...] = ()) -> tuple[int, str, dict]:
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    args = ["analyze", *map(str, inputs), "-q", "--inputs", "--json", str(out / "r.json"), "--html", str(out / "r.html"),
            "--xlsx", str(out / "r.xlsx"), "--fix-script", str(out / "fix.ksh"), *extra]
    res = CliRunner().invoke(app, args)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    report = json.loads((out / "r.json").read_text()) if (out / "r.json").exists() else {}
    return res.exit_code, res.output, report


def good(tmp_path: Path) -> Path:
    d = tmp_path / "aix1"
    d.mkdir(exist_ok=True)
    f = d / "lsattr.txt"
    f.write_text(LSATTR)
    return f


def status_of(report: dict, name: str) -> list[dict]:
    return [i for i in report["inputs"] if name in i["path"]]


def _tgz(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def test_truncated_tgz_keeps_the_members_before(tmp_path: Path) -> None:
    import os

    members = {f"aix1/lsattr{n}.txt": LSATTR.encode() + os.urandom(3000).hex().encode() for n in range(6)}
    data = _tgz(members)
    bad = tmp_path / "half.tgz"
    bad.write_bytes(data[: len(data) // 2])
    code, out, report = run_cli(tmp_path, bad, good(tmp_path))
    assert code == 0
    msgs = " ".join(i["reason"] for i in status_of(report, "half.tgz"))
    assert "damaged" in msgs
    assert all((tmp_path / "out" / r).exists() for r in REPORTS)


def _flip_after_header(data: bytes, at: int) -> bytes:
    b = bytearray(data)
    for i in range(at, min(at + 40, len(b))):
        b[i] ^= 0x5A
    return bytes(b)


def test_corrupt_deflate_in_gzip_and_zip(tmp_path: Path) -> None:
    body = ("AAA,progname,topas_nmon\nAAA,host,aix9\n" + "ZZZZ,T0001,00:00:01,01-JAN-2024\n" * 2000).encode()
    (tmp_path / "rec.nmon.gz").write_bytes(_flip_after_header(gzip.compress(body), 12))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("aix2/lsattr.txt", LSATTR * 200)
    raw = buf.getvalue()
    (tmp_path / "bundle.zip").write_bytes(_flip_after_header(raw, 30 + len("aix2/lsattr.txt") + 2))
    code, out, report = run_cli(tmp_path, tmp_path / "rec.nmon.gz", tmp_path / "bundle.zip", good(tmp_path))
    assert code == 0, out
    for name in ("rec.nmon.gz", "bundle.zip"):
        [st] = status_of(report, name)
        assert st["status"] == "unrecognised" and ("damaged" in st["reason"] or "unreadable" in st["reason"]), st


def test_damaged_zip_directory(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for n in range(3):
            zf.writestr(f"aix3/f{n}.txt", LSATTR)
    raw = bytearray(buf.getvalue())
    cd = raw.rfind(b"PK\x01\x02")  # last central directory entry: point its local header far back
    raw[cd + 42: cd + 46] = (2**32 - 100).to_bytes(4, "little")
    bad = tmp_path / "dir.zip"
    bad.write_bytes(bytes(raw))
    code, out, report = run_cli(tmp_path, bad, good(tmp_path))
    assert code == 0, out
    assert any("damaged" in i["reason"] or "unreadable" in i["reason"] for i in status_of(report, "dir.zip"))


@pytest.mark.parametrize("error", [RecursionError("deep"), MemoryError(), ZeroDivisionError("x"), EOFError()])
def test_parser_bug_is_a_per_file_status_and_exit_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    error: BaseException) -> None:
    from lparscope.sources import lparstat_info

    def boom(text: str) -> None:
        raise error
    monkeypatch.setattr(lparstat_info, "parse", boom)
    bad = tmp_path / "lparstat.txt"
    bad.write_text("# lparstat -i\nNode Name : aix1\nPartition Name : aix1\n")
    code, out, report = run_cli(tmp_path, bad, good(tmp_path))
    assert code == 3, out
    [st] = status_of(report, "lparstat.txt")
    assert st["line"] == 1 and "internal error in the lparstat-i parser" in st["reason"]
    assert status_of(report, "lsattr.txt")[0]["status"] == "parsed"
    assert all((tmp_path / "out" / r).exists() for r in REPORTS)
    assert "internal error" in out


def test_model_bug_names_file_and_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lparscope.model import build

    real = build.apply

    def apply(host, kind, parsed, path, offset):  # type: ignore[no-untyped-def]
        if kind == "lparstat-i":
            raise OverflowError("cannot convert float infinity to integer")
        return real(host, kind, parsed, path, offset)
    monkeypatch.setattr(build, "apply", apply)
    f = tmp_path / "two.txt"
    f.write_text(LSATTR + "# lparstat -i\nNode Name : aix1\nPartition Name : aix1\n")
    a = analyze([str(f)])
    [bad] = [i for i in a.estate.inputs if i.internal]
    assert bad.line == 3 and "adding it to the estate model" in bad.reason
    assert any(i.kind == "lsattr" and i.status == "parsed" for i in a.estate.inputs)
    assert a.internal and "two.txt:3" in a.internal[0]


def test_charts_and_writer_failures_leave_other_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import lparscope.cli as cli
    from lparscope.report import nmon_charts

    monkeypatch.setattr(nmon_charts, "estate_charts", lambda estate: 1 / 0)
    monkeypatch.setattr(cli, "render_fix_scripts", lambda plan, target: (_ for _ in ()).throw(KeyError("plan")))
    code, out, report = run_cli(tmp_path, good(tmp_path))
    assert code == 3, out
    written = {p.name for p in (tmp_path / "out").iterdir()}
    assert {"r.json", "r.html", "r.xlsx"} <= written and "fix.ksh" not in written
    assert "charts" in out and "fix.ksh" in out


def test_exit_codes(tmp_path: Path) -> None:
    assert run_cli(tmp_path, good(tmp_path))[0] == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("nothing to see\n")
    assert run_cli(tmp_path, empty)[0] == 2
    assert CliRunner().invoke(app, ["analyze", str(good(tmp_path)), "--fail-on", "bogus"]).exit_code == 2
    res = CliRunner().invoke(app, ["analyze", "--help"])
    assert "3 internal error" in " ".join(res.output.split())


def test_large_file_without_outputs_bails_out_on_its_head(tmp_path: Path) -> None:
    f = tmp_path / "app.log"
    f.write_text("2024-01-01 12:00:00 INFO something happened\n" * 200_000)  # ~9 MB
    a = analyze([str(f)])
    [st] = a.estate.inputs
    assert "first 64 KB" in st.reason


def test_collect_reports_damage_per_member(tmp_path: Path) -> None:
    good_member = _tgz({"aix1/a.txt": LSATTR.encode()})
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("inner/ok.tgz", good_member)
        zf.writestr("inner/bad.gz", b"\x1f\x8b\x08\x00" + b"\x00" * 6 + b"garbage-deflate")
    (tmp_path / "outer.zip").write_bytes(buf.getvalue())
    got = collect([str(tmp_path / "outer.zip")])
    assert [Path(f.display.split("!")[-1]).name for f in got.files] == ["a.txt"]
    assert any("bad.gz" in p.display and "damaged" in p.message for p in got.problems)


def test_a_report_path_that_is_an_input_is_refused_before_reading(tmp_path: Path) -> None:
    given = good(tmp_path)
    host = given.parent
    before = given.read_bytes()
    for option in ("--json", "--html", "--xlsx", "--fix-script"):
        for target in (given, host / "new-but-inside.json"):
            res = CliRunner().invoke(app, ["analyze", str(host), "-q", option, str(target)])
            if target == given:
                assert res.exit_code == 2 and "never writes over what it reads" in res.output, (option, res.output)
            else:  # a new file inside the input folder is not an input yet: written
                assert res.exit_code == 0, (option, res.output)
                target.unlink()
                for extra in host.glob("new-but-inside.json-*"):
                    extra.unlink()
    assert given.read_bytes() == before
    bundle = tmp_path / "aix1.tgz"
    bundle.write_bytes(_tgz({"aix1/a.txt": LSATTR.encode()}))
    res = CliRunner().invoke(app, ["analyze", str(bundle), "--html", str(bundle)])
    assert res.exit_code == 2 and bundle.read_bytes()[:2] == b"\x1f\x8b"
    same = tmp_path / "r.out"
    res = CliRunner().invoke(app, ["analyze", str(host), "--json", str(same), "--html", str(same)])
    assert res.exit_code == 2 and "name the same file" in res.output and not same.exists()


def test_json_to_standard_output_and_fix_scripts_into_a_folder(tmp_path: Path) -> None:
    host = good(tmp_path).parent
    res = CliRunner().invoke(app, ["analyze", str(host), "-q", "--json", "-"])
    assert res.exit_code == 0 and json.loads(res.stdout)["schema"] == "lparscope.report/1"  # stdout: the JSON alone
    folder = tmp_path / "scripts"
    folder.mkdir()
    res = CliRunner().invoke(app, ["analyze", str(host), "-q", "--fix-script", str(folder)])
    assert res.exit_code == 0 and (folder / "fix.ksh").is_file() and (folder / "fix-hmc.sh").is_file()


def test_a_report_an_earlier_run_wrote_in_the_input_folder_is_written_again(tmp_path: Path) -> None:
    host = good(tmp_path).parent
    args = ["analyze", str(tmp_path), "-q", "--json", str(tmp_path / "r.json"), "--html", str(tmp_path / "r.html"),
            "--xlsx", str(tmp_path / "r.xlsx"), "--fix-script", str(tmp_path / "fix.ksh")]
    for _ in range(2):  # "lparscope analyze . --html report.html", run again
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 0, res.output
    (host / "notes.json").write_text('{"mine": true}\n')  # a file of the collection that is no report
    res = CliRunner().invoke(app, ["analyze", str(tmp_path), "-q", "--json", str(host / "notes.json")])
    assert res.exit_code == 2 and (host / "notes.json").read_text() == '{"mine": true}\n'
