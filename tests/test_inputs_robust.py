"""Inputs as administrators make them: AIX tar's absolute member names, single .bz2 / .xz files,
NUL bytes left by a glitch or a crash, file names that are not UTF-8, paths given twice."""

from __future__ import annotations

import bz2
import io
import json
import lzma
import os
import tarfile
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lparscope.cli import app
from lparscope.inputs import InputFile, Limits, collect, iter_inputs
from lparscope.pipeline import analyze, read_estate
from lparscope.report.json_report import build_report, dumps

LSATTR = b"# lsattr -El hdisk0\nqueue_depth  3  Queue DEPTH  True\nreserve_policy  single_path  Reserve Policy  True\n"
VMSTAT_V = (b"# vmstat -v\n  262144 memory pages\n  3 memory pools\n  120 pending disk I/Os blocked with no pbuf\n"
            b"  4000 filesystem I/Os blocked with no fsbuf\n")
NMON = b"AAA,progname,topas_nmon\nAAA,host,aix9\nZZZZ,T0001,10:00:00,01-JAN-2026\n"


def _tar(path: Path, members: list[tuple[str, bytes]], **kw) -> None:  # type: ignore[no-untyped-def]
    with tarfile.open(path, "w", **kw) as tf:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))


def _members(got) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.display.split("!", 1)[1] for f in got.files]


# 1. absolute member names

def test_absolute_tar_member_names_are_read_as_relative(tmp_path: Path) -> None:
    bundle = tmp_path / "perf.tar"  # AIX: tar cvf perf.tar /tmp/perf
    _tar(bundle, [("/tmp/perf/aix1/lsattr_hdisk0.txt", LSATTR), ("//tmp/perf/aix2/./lsattr.txt", LSATTR),
                  ("/tmp/perf/../perf/aix3/lsattr.txt", LSATTR), ("/../etc/x.txt", LSATTR),
                  ("/tmp/../../y.txt", LSATTR), ("aix4/../../z.txt", LSATTR)], format=tarfile.USTAR_FORMAT)
    before = sorted(p.name for p in tmp_path.iterdir())
    got = collect([str(bundle)])
    assert _members(got) == ["tmp/perf/aix1/lsattr_hdisk0.txt", "tmp/perf/aix2/lsattr.txt", "tmp/perf/aix3/lsattr.txt"]
    assert [f.folder for f in got.files] == ["aix1", "aix2", "aix3"]
    assert len(got.problems) == 3 and all("leaves the bundle" in p.message for p in got.problems)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing extracted, wherever the names point


def test_absolute_zip_member_name_is_read_and_a_drive_is_refused(tmp_path: Path) -> None:
    bundle = tmp_path / "perf.zip"
    with zipfile.ZipFile(bundle, "w") as zf:
        zf.writestr("/tmp/perf/aix1/lsattr.txt", LSATTR)
        zf.writestr("C:/perf/aix2/lsattr.txt", LSATTR)
    got = collect([str(bundle)])
    assert _members(got) == ["tmp/perf/aix1/lsattr.txt"]
    assert [p.message for p in got.problems] == ["member path leaves the bundle (../) or names a drive; refused"]


# 2. single .bz2 and .xz files

@pytest.mark.parametrize("suffix,pack", [(".bz2", bz2.compress), (".xz", lzma.compress)])
def test_single_bz2_and_xz_files_are_read_as_gz_is(tmp_path: Path, suffix: str, pack) -> None:  # type: ignore[no-untyped-def]
    given = tmp_path / "given"
    given.mkdir()
    (given / f"lsattr_hdisk0.txt{suffix}").write_bytes(pack(LSATTR))
    (given / f"aix9.nmon{suffix}").write_bytes(pack(NMON))
    _tar(tmp_path / "plain.tar", [("aix3/lsattr.txt", LSATTR)])
    (given / f"bundle.tar{suffix}").write_bytes(pack((tmp_path / "plain.tar").read_bytes()))
    got = {f.display.split("/given/")[1]: f for f in collect([str(given)]).files}
    assert got[f"lsattr_hdisk0.txt{suffix}"].text == LSATTR.decode()
    assert got[f"aix9.nmon{suffix}"].nmon == NMON  # expanded in memory for the nmon reader
    assert got[f"bundle.tar{suffix}!aix3/lsattr.txt"].text == LSATTR.decode()  # a tar in it is still a bundle


@pytest.mark.parametrize("pack", [bz2.compress, lzma.compress])
def test_bz2_and_xz_keep_the_size_limits_and_report_damage(tmp_path: Path, pack) -> None:  # type: ignore[no-untyped-def]
    bomb = tmp_path / "zeros.txt.z2"
    bomb.write_bytes(pack(b"0" * 2_000_000))
    got = collect([str(bomb)], Limits(max_file_bytes=100_000))
    assert not got.files and "too large: expands beyond" in got.problems[0].message
    got = collect([str(bomb)], Limits(max_expanded_bytes=500_000))
    assert not got.files and got.problems[0].message.startswith("too large:")
    cut = tmp_path / "cut.txt.z2"
    cut.write_bytes(pack(LSATTR * 200)[:60])
    got = collect([str(cut)])
    assert not got.files and got.problems[0].message.startswith("damaged file")


def test_text_that_starts_like_bzip2_is_text(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_bytes(b"BZh9 is how a bzip2 file starts\n")
    (got,) = collect([str(tmp_path)]).files
    assert got.text.startswith("BZh9")


# 3. NUL bytes

def _statuses(path: Path) -> list:  # type: ignore[type-arg]
    estate, _ = read_estate(iter_inputs([str(path)]), workers=1)
    return estate.inputs


def test_a_few_nul_bytes_are_removed_with_one_warning_naming_the_first_line(tmp_path: Path) -> None:
    lines = LSATTR.split(b"\n")
    (tmp_path / "lsattr_hdisk0.txt").write_bytes(b"\n".join([lines[0], lines[1][:5] + b"\0" + lines[1][5:],
                                                                 lines[2] + b"\0\0", b""]))
    (status,) = _statuses(tmp_path)
    assert status.status == "partly" and status.kind == "lsattr"
    assert status.warnings == [(2, "3 NUL bytes removed (the first on this line): damaged in a copy or transfer?")]
    (f,) = collect([str(tmp_path)]).files
    assert "\0" not in f.text and "queue_depth  3" in f.text


def test_a_short_output_with_a_nul_after_each_of_its_lines_is_text(tmp_path: Path) -> None:
    (tmp_path / "ioslevel.txt").write_bytes(b"$ ioslevel\n\x003.1.4.10\n\x00$\n\x00")  # 2 NUL runs in 28 bytes
    (f,) = collect([str(tmp_path)]).files
    assert f.text == "$ ioslevel\n3.1.4.10\n$\n" and [n for n, _ in f.notes] == [2, 3]


@pytest.mark.parametrize("pad", [1, 512, 4096 - len(LSATTR)])
def test_nul_padding_at_the_end_is_dropped_with_a_warning(tmp_path: Path, pad: int) -> None:
    (tmp_path / "lsattr_hdisk0.txt").write_bytes(LSATTR + b"\0" * pad)
    (status,) = _statuses(tmp_path)
    ((line, message),) = status.warnings
    assert line == 3 and message.startswith(f"{pad} NUL byte") and "after this line dropped" in message
    assert ("may end early" in message) == (pad >= 16)


def test_nuls_past_the_head_of_a_large_file_are_removed_where_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "lsattr_hdisk0.txt"
    body = LSATTR + b"".join(b"attr%d  value%d  Some attribute  True\n" % (i, i) for i in range(3000))
    big.write_bytes(body + b"\0" * 3000)
    (item,) = iter_inputs([str(big)])
    assert isinstance(item, InputFile) and item.deferred is not None
    (status,) = _statuses(big)
    assert status.status == "partly" and status.warnings[0][0] == 3 + 3000 and "3000 NUL bytes" in status.warnings[0][1]


def test_binary_files_are_still_not_read(tmp_path: Path) -> None:
    (tmp_path / "core").write_bytes(b"\x01\xf7" + b"\0" * 100 + b"XCOFF core")  # AIX 64-bit XCOFF magic
    (tmp_path / "elf").write_bytes(b"\x7fELF" + LSATTR)
    (tmp_path / "random.dat").write_bytes(bytes((i * 7919 + 13) % 256 for i in range(20000)))
    (tmp_path / "records.db").write_bytes(b"".join(b"aix%d\0\0\0\x01\x02tty%d\0\0\0" % (i, i) for i in range(200)))
    (tmp_path / "zeroed.txt").write_bytes(b"\0" * 4096)
    got = collect([str(tmp_path)])
    assert not got.files
    why = {Path(p.display).name: p.message for p in got.problems}
    assert why.pop("zeroed.txt").startswith("holds only NUL bytes")
    assert set(why.values()) == {"binary file (not a command output); not read"}


# 4. names that are not UTF-8

def _latin1_folder(tmp_path: Path) -> Path:
    top = tmp_path / "estate"
    try:
        os.makedirs(os.path.join(os.fsencode(top), b"h\xe9te1"))
        with open(os.path.join(os.fsencode(top), b"h\xe9te1", b"lsattr_\xe9.txt"), "wb") as fh:
            fh.write(LSATTR)
        with open(os.path.join(os.fsencode(top), b"h\xe9te1", b"vmstat_v.txt"), "wb") as fh:
            fh.write(VMSTAT_V)
    except OSError:
        pytest.skip("this file system takes UTF-8 names only")
    return top


def test_latin1_file_and_folder_names_are_shown_as_text(tmp_path: Path) -> None:
    top = _latin1_folder(tmp_path)
    got = collect([str(top)])
    assert [f.display for f in got.files] == [f"{top}/h\u00e9te1/lsattr_\u00e9.txt", f"{top}/h\u00e9te1/vmstat_v.txt"]
    assert {f.folder for f in got.files} == {"h\u00e9te1"}
    analysis = analyze([str(top)], workers=1)
    assert "h\u00e9te1" in analysis.estate.hosts
    dumps(build_report(analysis)).encode("utf-8")  # no surrogate left anywhere
    bundle = tmp_path / "coll.tar"  # GNU tar, names in Latin-1
    with tarfile.open(bundle, "w", format=tarfile.GNU_FORMAT, encoding="latin-1") as tf:
        info = tarfile.TarInfo("h\u00f4te2/lsattr_\u00e9.txt")
        info.size = len(LSATTR)
        tf.addfile(info, io.BytesIO(LSATTR))
    (f,) = collect([str(bundle)]).files
    assert f.display == f"{bundle}!h\u00f4te2/lsattr_\u00e9.txt" and f.folder == "h\u00f4te2"


def test_cli_reports_and_store_end_cleanly_on_latin1_names(tmp_path: Path) -> None:
    top = _latin1_folder(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    res = CliRunner().invoke(app, ["analyze", str(top), "-q", "--json", str(out / "r.json"), "--html",
                                   str(out / "r.html"), "--xlsx", str(out / "r.xlsx")])
    assert res.exit_code == 0, res.output
    report = json.loads((out / "r.json").read_text(encoding="utf-8"))
    assert "h\u00e9te1" in {h["name"] for h in report["hosts"]}
    assert "h\u00e9te1" in (out / "r.html").read_text(encoding="utf-8") and (out / "r.xlsx").stat().st_size
    from lparscope.store.ingest import ingest

    result = ingest([str(top)], tmp_path / "s.duckdb")
    assert result.added and result.hosts == 1


# 5. the same file given twice

def test_overlapping_paths_read_each_file_once(tmp_path: Path) -> None:
    top = tmp_path / "estate"
    (top / "aix1").mkdir(parents=True)
    (top / "aix1" / "lsattr_hdisk0.txt").write_bytes(LSATTR)
    (top / "aix1" / "vmstat_v.txt").write_bytes(VMSTAT_V)
    (top / "aix1" / "latest_vmstat.txt").symlink_to("vmstat_v.txt")
    once = build_report(analyze([str(top)], workers=1))
    again = analyze([str(top), str(top / "aix1"), str(top / "aix1" / "vmstat_v.txt"), str(tmp_path / "." / "estate")],
                    workers=1)
    twice = build_report(again)
    assert [i["path"] for i in twice["inputs"]] == [i["path"] for i in once["inputs"]]
    assert [f["message"] for f in twice["findings"]] == [f["message"] for f in once["findings"]]
    assert once["summary"]["repeated_inputs"] == 1  # the link inside the folder
    assert twice["summary"]["repeated_inputs"] == 1 + 3 + 1 + 3
    res = CliRunner().invoke(app, ["analyze", str(top), str(top / "aix1"), "-q"])
    assert res.exit_code == 0 and res.output.count("repeated input(s) skipped") == 1
    assert "4 repeated input(s) skipped" in res.output


def test_a_bundle_given_twice_is_read_once(tmp_path: Path) -> None:
    bundle = tmp_path / "coll.tar"
    _tar(bundle, [("aix1/lsattr.txt", LSATTR)])
    got = collect([str(bundle), str(tmp_path), str(tmp_path / ".." / tmp_path.name / "coll.tar")])
    assert _members(got) == ["aix1/lsattr.txt"] and len(got.repeated) == 2


def test_a_hard_link_is_read_once_and_named_with_the_file_it_is(tmp_path: Path) -> None:
    """A hard link (another name of one device and inode: a copy made with ``ln``, a collection
    unpacked twice with links) is the same file: read once, said once with both names."""
    top = tmp_path / "estate"
    (top / "aix1").mkdir(parents=True)
    (top / "other").mkdir()
    (top / "aix1" / "vmstat_v.txt").write_bytes(VMSTAT_V)
    (top / "aix1" / "lsattr_hdisk0.txt").write_bytes(LSATTR)
    os.link(top / "aix1" / "vmstat_v.txt", top / "other" / "vmstat_v.txt")
    os.link(top / "aix1" / "lsattr_hdisk0.txt", top / "aix1" / "zz_lsattr_copy.txt")
    report = build_report(analyze([str(top), str(top / "aix1" / "lsattr_hdisk0.txt")], workers=1))
    assert sorted(i["path"].removeprefix(str(top) + "/") for i in report["inputs"]) == [
        "aix1/lsattr_hdisk0.txt", "aix1/vmstat_v.txt"]
    assert [h["name"] for h in report["hosts"]] == ["aix1"]
    assert report["summary"]["repeated_inputs"] == 3
    assert [(r["path"].removeprefix(str(top) + "/"), r["same_as"].removeprefix(str(top) + "/"))
            for r in report["summary"]["repeated"]] == [
        ("aix1/zz_lsattr_copy.txt", "aix1/lsattr_hdisk0.txt"), ("other/vmstat_v.txt", "aix1/vmstat_v.txt"),
        ("aix1/lsattr_hdisk0.txt", "aix1/lsattr_hdisk0.txt")]
    res = CliRunner().invoke(app, ["analyze", str(top), "-q", "--inputs"], env={"COLUMNS": "500"})
    assert res.exit_code == 0, res.output
    assert f"{top}/other/vmstat_v.txt  the same file as {top}/aix1/vmstat_v.txt" in res.output


# 6. links that lead back to themselves, names holding control characters

def test_a_loop_of_links_is_one_unread_input_not_the_end_of_the_run(tmp_path: Path) -> None:
    top = tmp_path / "estate"
    (top / "aix1").mkdir(parents=True)
    (top / "aix1" / "lsattr_hdisk0.txt").write_bytes(LSATTR)
    (top / "aix1" / "loop").symlink_to("loop")  # Path.resolve raised RuntimeError: the whole run ended
    (top / "aix1" / "a").symlink_to("b")
    (top / "aix1" / "b").symlink_to("a")
    res = CliRunner().invoke(app, ["analyze", str(top), str(top / "aix1" / "loop"), "--inputs", "-q",
                                   "--json", str(tmp_path / "r.json")], env={"COLUMNS": "500"})
    assert res.exit_code == 0, res.output
    report = json.loads((tmp_path / "r.json").read_text())
    status = {i["path"].removeprefix(str(top) + "/"): (i["status"], i["reason"]) for i in report["inputs"]}
    assert status["aix1/lsattr_hdisk0.txt"][0] == "parsed"
    assert all("loop of links" in status[f"aix1/{n}"][1] for n in ("loop", "a", "b")), status
    assert "link to a missing file, or a loop of links" in res.output  # the loop given by its own name


def test_a_loop_among_the_inputs_does_not_turn_off_the_overwrite_guard(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to("loop")
    top = tmp_path / "estate"
    top.mkdir()
    (top / "vmstat_v.txt").write_bytes(VMSTAT_V)
    res = CliRunner().invoke(app, ["analyze", str(tmp_path / "loop"), str(top), "-q",
                                   "--json", str(top / "vmstat_v.txt")])
    assert res.exit_code == 2 and "never writes over what it reads" in res.output, res.output
    assert (top / "vmstat_v.txt").read_bytes() == VMSTAT_V
    res = CliRunner().invoke(app, ["analyze", str(top), "-q", "--json", str(tmp_path / "loop")])
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)


def test_control_characters_in_names_are_shown_as_escapes(tmp_path: Path) -> None:
    top = tmp_path / "in"
    top.mkdir()
    (top / "evil\nparsed  forged line.txt").write_bytes(LSATTR)
    (top / "esc\x1b[31mred.txt").write_bytes(VMSTAT_V)
    res = CliRunner().invoke(app, ["analyze", str(top), "--inputs", "-q", "--json", str(tmp_path / "r.json")])
    assert res.exit_code == 0, res.output
    assert "\x1b" not in res.output and "evil\\nparsed  forged line.txt" in res.output
    assert not any(line.startswith("parsed  forged") for line in res.output.splitlines())
    paths = {Path(i["path"]).name for i in json.loads((tmp_path / "r.json").read_text())["inputs"]}
    assert paths == {"evil\\nparsed  forged line.txt", "esc\\x1b[31mred.txt"}


def test_a_header_naming_no_host_gives_no_empty_host(tmp_path: Path) -> None:
    """``AAA,host,../../x`` or ``Node Name : ../../x`` (a damaged or hostile header) made a host named
    "" (its part before the first dot): the host is named after the folder, with a warning."""
    top = tmp_path / "coll"
    top.mkdir()
    nmon = (Path(__file__).parent / "fixtures" / "nmon" / "aix_small.nmon").read_text()
    (top / "perf.nmon").write_text(nmon.replace("AAA,host,aixtest1", "AAA,host,../../evil host"))
    lparstat = (Path(__file__).parent / "fixtures" / "lparstat-i" / "aix61_shared_capped_collapsed.txt").read_text()
    (top / "lparstat_i.txt").write_text("\n".join("Node Name : ../../evil host" if line.startswith("Node") else line
                                                  for line in lparstat.splitlines() if not line.startswith(("root@", "#"))))
    estate = analyze([str(top)], workers=1).estate
    assert "" not in estate.hosts and set(estate.hosts) == {"coll"}, list(estate.hosts)
    warned = [m for i in estate.inputs for _, m in i.warnings]
    assert any("AAA,host '../../evil host' is not a host name: the host is named coll" in m for m in warned), warned
    assert any("Node Name '../../evil host' is not a host name" in m for m in warned), warned


def test_a_file_compressed_twice_is_read_as_what_it_holds(tmp_path: Path) -> None:
    import gzip

    nmon = (Path(__file__).parent / "fixtures" / "nmon" / "aix_small.nmon").read_bytes()
    (tmp_path / "perf.nmon.gz").write_bytes(gzip.compress(gzip.compress(nmon)))  # was "binary file"
    (tmp_path / "vmstat_v.txt.gz").write_bytes(gzip.compress(bz2.compress(VMSTAT_V)))
    deep = nmon
    for _ in range(6):
        deep = gzip.compress(deep)
    (tmp_path / "deep.gz").write_bytes(deep)
    status = {Path(i.path).name: (i.kind, i.status, i.reason) for i in analyze([str(tmp_path)], workers=1).estate.inputs}
    assert status["perf.nmon.gz"][:2] == ("nmon", "parsed") and status["vmstat_v.txt.gz"][:2] == ("vmstat-v", "parsed")
    assert status["deep.gz"] == (None, "unrecognised", "compressed too many times over; not read")
