"""Text inputs parsed in a process pool give exactly the estate, statuses and findings of a serial run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from lparscope import parse_pool
from lparscope.inputs import InputFile
from lparscope.pipeline import analyze
from lparscope.report.json_report import build_report

ROOT = Path(__file__).parents[1]
EXAMPLE = ROOT / "examples" / "estate"


def _copies(tmp: Path, n: int) -> Path:
    """n copies of the example estate, host names made unique (as bench/bench_analyze.py does)."""
    out = tmp / "estate"
    for i in range(n):
        shutil.copytree(EXAMPLE, out / f"c{i}")
    return out


def _report(path: Path, workers: int) -> dict:
    rep = build_report(analyze([str(path)], workers=workers))
    rep.pop("generated_at", None)
    return json.loads(json.dumps(rep, default=str))


def test_parallel_same_as_serial(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(parse_pool, "MIN_FILES", 4)  # a pool even for this small estate
    monkeypatch.setattr(parse_pool, "WINDOW", 2)  # many windows: results come back out of order
    monkeypatch.setattr(parse_pool, "BATCH_FILES", 3)  # many tasks of a few files each
    estate = _copies(tmp_path, 3)
    serial = _report(estate, 1)
    parallel = _report(estate, 2)
    assert serial["summary"] == parallel["summary"]
    assert serial == parallel
    assert serial["summary"]["files"]["parsed"] > 50


def test_prepared_inputs_keeps_order(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from lparscope.inputs import InputFile, iter_inputs

    monkeypatch.setattr(parse_pool, "MIN_FILES", 2)
    items = list(iter_inputs([str(_copies(tmp_path, 1))]))
    got = list(parse_pool.prepared_inputs(items, workers=2))
    assert [i.display for i, _ in got] == [i.display for i in items]
    assert any(pre is not None for item, pre in got if isinstance(item, InputFile) and item.nmon is None)


def test_batches_keep_every_input_in_order(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from lparscope.inputs import InputFile, InputProblem

    monkeypatch.setattr(parse_pool, "BATCH_FILES", 2)
    monkeypatch.setattr(parse_pool, "BATCH_CHARS", 10)
    items = [InputFile("a", "x", "h"), InputProblem("b", "gone"), InputFile("c", "y" * 20, "h"), InputFile("d", "z", "h"),
             InputFile("n", "", "h", nmon=Path("n.nmon")), InputFile("e", "w", "h")]
    batches = list(parse_pool._batches(items[:2], iter(items[2:])))
    assert [x for b in batches for x in b] == items
    # a batch ends after two text files or ten characters of text
    assert [[x.display for x in b] for b in batches] == [["a", "b", "c"], ["d", "n", "e"]]


def test_a_file_that_fails_in_a_batch_is_its_own_problem(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    real = parse_pool.prepare

    def prepare(display: str, text: str, registry: dict | None = None,
                strings: dict[str, str] | None = None) -> parse_pool.Prepared:
        if display == "bad":
            raise RuntimeError("boom")
        return real(display, text, registry, strings)

    monkeypatch.setattr(parse_pool, "prepare", prepare)
    got = parse_pool._prepare_batch([InputFile(d, t, "") for d, t in (("good", "hello\n"), ("bad", "x\n"), ("also", "hello\n"))])
    assert [bool(p.cut_error) for p in got] == [False, True, False]
    assert "boom" in got[1].cut_error


def test_a_worker_that_ends_loses_no_input(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A worker killed mid-run (out of memory, a signal): its files and the rest are read in the main
    process; the report is the serial one."""
    import os

    real = parse_pool._prepare_batch

    def dies_on_lsattr(files):  # type: ignore[no-untyped-def]
        if any("lsattr" in f.display for f in files):
            os._exit(1)
        return real(files)

    monkeypatch.setattr(parse_pool, "MIN_FILES", 4)
    monkeypatch.setattr(parse_pool, "BATCH_FILES", 3)
    estate = _copies(tmp_path, 2)
    serial = _report(estate, 1)
    monkeypatch.setattr(parse_pool, "_prepare_batch", dies_on_lsattr)  # forked workers inherit it
    assert _report(estate, 2) == serial


def test_windowed_reads_here_what_the_pool_cannot(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from concurrent.futures import Future

    from lparscope.inputs import InputFile

    class Broken:
        calls = 0

        def submit(self, fn, files):  # type: ignore[no-untyped-def]
            self.calls += 1
            if self.calls > 1:
                raise RuntimeError("pool broken")
            f: Future = Future()
            f.set_exception(RuntimeError("worker ended"))
            return f

    items = [InputFile(str(n), "x", "h") for n in range(5)]
    got = list(parse_pool._windowed(Broken(), iter([items[:2], items[2:4], items[4:]]), 1))
    assert got == [(i, None) for i in items]
