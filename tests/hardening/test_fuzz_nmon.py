"""Property tests for the nmon reader: mutated recordings never raise, and its two paths agree.

The project's nmon fixtures are mutated as the command outputs are (fuzz_inputs.mutate). Each
input is read by the pure path and, when it is built, by the native core: both must end with a
recording (damage becomes warnings) and give the same recording, warnings included. The long run
is ``python bench/fuzz.py --kinds nmon-pure,nmon-native``. Inputs found by fuzzing are kept in
tests/fixtures/fuzz/nmon__*.nmon and replayed first.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lparscope.nmon import NmonRecording, native, read_nmon

from ..nmon.test_native import assert_same
from .fuzz_inputs import ROOT, mutate, nmon_kinds, nmon_seeds
from .guard import timed

REGRESSIONS = sorted((ROOT / "tests" / "fixtures" / "fuzz").glob("nmon__*.nmon"))


def read_both(data: bytes, monkeypatch: pytest.MonkeyPatch) -> NmonRecording:
    monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", "0")
    pure, _ = timed(lambda: read_nmon(data), 20)
    assert isinstance(pure, NmonRecording)
    if native.available():
        monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", "1")
        fast, _ = timed(lambda: read_nmon(data), 20)
        assert_same(pure, fast)
    return pure


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_nmon_fuzz_regressions(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rec = read_both(path.read_bytes(), monkeypatch)
    assert rec.warnings, "a damaged recording is read with a warning naming its line"


def test_snapshot_number_beyond_int64_is_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "AAA,progname,topas_nmon\nAAA,date,02-NOV-2026\nZZZZ,T0001,00:00:01,02-NOV-2026\n" \
           f"ZZZZ,T{'9' * 300},00:05:01,02-NOV-2026\nZZZZ,T0003,00:10:01,02-NOV-2026\n"
    rec = read_both(text.encode(), monkeypatch)
    assert [line for line, msg in rec.warnings if "without a snapshot number" in msg] == [4]
    assert len(rec.times) == 2


def test_tag_ending_in_nul_is_not_taken_for_another_section(monkeypatch: pytest.MonkeyPatch) -> None:
    text = ("AAA,progname,topas_nmon\nCPU01,CPU 1 aix1,User%,Sys%\nZZZZ,T0001,00:00:01,02-NOV-2026\n"
            "CPU01,T0001,10.0,2.0\nCPU01\x00,T0001,99.0,99.0\n")
    rec = read_both(text.encode(), monkeypatch)
    assert rec.tables["CPU01"].values.tolist() == [[10.0, 2.0]]
    assert [line for line, msg in rec.warnings if "not an nmon record" in msg] == [5]


@settings(max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(nmon_seeds()), st.randoms(use_true_random=False))
def test_nmon_reader_never_raises_and_paths_agree(seed: str, rng: random.Random) -> None:
    data = mutate(seed, rng).encode("utf-8", "surrogatepass")
    with pytest.MonkeyPatch.context() as mp:
        read_both(data, mp)


def test_fuzz_harness_kinds() -> None:
    kinds = nmon_kinds()
    assert "nmon-pure" in kinds and ("nmon-native" in kinds) == native.available()
    rec = kinds["nmon-pure"].parse(nmon_seeds()[0])
    assert isinstance(rec, NmonRecording) and rec.tables
