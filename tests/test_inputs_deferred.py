"""Large plain text files are listed without being read: their text is read where they are parsed
(a worker), and the analysis is the one of reading them at once."""

from __future__ import annotations

import gzip
from pathlib import Path

from lparscope import parse_pool
from lparscope.inputs import HEAD_BYTES, InputFile, Limits, iter_inputs
from lparscope.pipeline import analyze, read_estate
from lparscope.report.json_report import build_report

LSATTR = "# lsattr -El ent0\n" + "".join(f"attr{i} value{i} Description of attr{i} True\n" for i in range(4000))


def _items(path: Path, limits: Limits | None = None) -> list:
    return list(iter_inputs([str(path)], limits))


def test_large_plain_text_is_deferred_small_and_special_files_are_not(tmp_path: Path) -> None:
    big = tmp_path / "lsattr_ent0.txt"
    big.write_text(LSATTR)
    assert big.stat().st_size > HEAD_BYTES
    (tmp_path / "small.txt").write_text(LSATTR[:1000])
    (tmp_path / "utf16.txt").write_bytes(LSATTR.encode("utf-16"))
    (tmp_path / "packed.txt.gz").write_bytes(gzip.compress(LSATTR.encode()))
    (tmp_path / "binary.bin").write_bytes(LSATTR.encode()[:9000] + b"\x00" + LSATTR.encode())
    got = {Path(x.display).name: x for x in _items(tmp_path)}
    assert got["lsattr_ent0.txt"].deferred == (big, big.stat().st_size) and got["lsattr_ent0.txt"].text == ""
    assert got["lsattr_ent0.txt"].size == big.stat().st_size
    for name in ("small.txt", "utf16.txt", "packed.txt.gz"):
        assert got[name].deferred is None and got[name].text.startswith("# lsattr"), name
    assert got["binary.bin"].deferred is not None  # the NUL is past the head: read as text later, as before (latin-1)


def test_deferred_text_is_the_text_read_at_once(tmp_path: Path) -> None:
    big = tmp_path / "lsattr_ent0.txt"
    big.write_bytes(("Ã© " + LSATTR).encode("latin-1"))  # not UTF-8: read as latin-1 either way
    (f,) = _items(big)
    pre = parse_pool.prepare_input(f)
    assert not pre.skip and pre.results and parse_pool.prepare(f.display, big.read_bytes().decode("latin-1")).results


def test_parallel_and_serial_reads_of_deferred_files_agree(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(parse_pool, "MIN_FILES", 2)
    for host in ("aix1", "aix2", "aix3"):
        d = tmp_path / host
        d.mkdir()
        (d / "lsattr_ent0.txt").write_text(LSATTR)
    serial, parallel = analyze([str(tmp_path)], workers=1), analyze([str(tmp_path)], workers=2)
    a, b = build_report(serial), build_report(parallel)
    for r in (a, b):
        r.pop("generated_at")
    assert a == b
    assert {i["status"] for i in a["inputs"]} == {"parsed"}
    assert sum(len(h.devices["ent0"].attrs) for h in serial.estate.hosts.values()) == 3 * 4000


def test_a_deferred_file_gone_before_it_is_read_is_its_own_problem(tmp_path: Path) -> None:
    big = tmp_path / "lsattr_ent0.txt"
    big.write_text(LSATTR)
    items = _items(tmp_path)
    big.unlink()
    estate, _ = read_estate(items, workers=1)
    (status,) = estate.inputs
    assert status.status == "unrecognised" and status.reason.startswith("cannot read:")


def test_deferred_files_count_against_the_run_budget(tmp_path: Path) -> None:
    for n in range(3):
        (tmp_path / f"lsattr_{n}.txt").write_text(LSATTR)
    size = (tmp_path / "lsattr_0.txt").stat().st_size
    items = _items(tmp_path, Limits(max_total_bytes=2 * size + 10))
    assert [type(x).__name__ for x in items] == ["InputFile", "InputFile", "InputProblem"]
    assert "exceed" in items[2].message
    assert all(isinstance(x, InputFile) for x in items[:2])
