"""Property tests: no parser raises and every input finishes, whatever is done to its fixtures.

A short smoke run (a few dozen examples per parser, a few whole-pipeline runs); the long run is
``python bench/fuzz.py`` (counts in the note of issue 11). Regression inputs found by fuzzing are
in tests/fixtures/fuzz and are replayed here first.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lparscope.pipeline import analyze
from lparscope.sources import parsers

from .fuzz_inputs import ROOT, mutate, seeds
from .guard import timed

REGISTRY = parsers()
KINDS = sorted(REGISTRY)
REGRESSIONS = sorted((ROOT / "tests" / "fixtures" / "fuzz").glob("*.txt"))
SMOKE = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))


def check_parser(kind: str, text: str) -> None:
    """The parser contract under hostile input: detect() is an int in 0..100, parse() returns Parsed."""
    mod = REGISTRY[kind]
    score = mod.detect(text)
    assert 0 <= int(score) <= 100
    parsed = mod.parse(text)
    assert parsed.kind and isinstance(parsed.records, list)
    for w in parsed.warnings:
        assert isinstance(w.line, int) and isinstance(w.message, str)


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_fuzz_regressions(path: Path) -> None:
    kind = path.name.split("__")[0]
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    timed(lambda: check_parser(kind, text), 20)


@pytest.mark.parametrize("kind", KINDS)
def test_parser_never_raises(kind: str) -> None:
    pool = seeds()[kind] or ["\n".join(s for v in seeds().values() for s in v[:1])]

    @SMOKE
    @given(st.sampled_from(pool), st.randoms(use_true_random=False))
    def prop(seed: str, rng: random.Random) -> None:
        text = mutate(seed, rng)
        timed(lambda: check_parser(kind, text), 20)
    prop()


@settings(max_examples=6, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(KINDS), min_size=1, max_size=4), st.randoms(use_true_random=False))
def test_pipeline_never_fails_on_mutated_estates(tmp_path_factory: pytest.TempPathFactory, kinds: list[str],
                                                 rng: random.Random) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    for n, kind in enumerate(kinds):
        pool = seeds()[kind]
        if pool:
            (folder / f"host{n % 2}").mkdir(exist_ok=True)
            (folder / f"host{n % 2}" / f"{kind}_{n}.txt").write_text(mutate(rng.choice(pool), rng),
                                                                      encoding="utf-8", errors="surrogatepass")
    from lparscope.report.fixscript import render_fix_scripts
    from lparscope.report.html import render_html
    from lparscope.report.json_report import build_report, dumps

    analysis, _ = timed(lambda: analyze([str(folder)]), 60)
    assert not analysis.internal, analysis.internal
    report = build_report(analysis)
    dumps(report)
    render_html(report, None)
    render_fix_scripts(report.get("plan") or {}, folder / "fix.ksh")
