"""lparscope.heap: objects are settled (gc.freeze) only inside a run, and given back after it."""

import gc
from pathlib import Path

from lparscope import heap
from lparscope.pipeline import analyze

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "estate"


def test_settle_outside_a_run_does_nothing() -> None:
    gc.unfreeze()
    heap.settle()
    assert gc.get_freeze_count() == 0


def test_a_run_settles_and_gives_back() -> None:
    gc.unfreeze()
    kept = [object() for _ in range(10)]  # noqa: F841  (alive while the run settles)
    with heap.long_lived():
        with heap.long_lived():  # nested: one run
            heap.settle()
            assert gc.get_freeze_count() > 0
        assert gc.get_freeze_count() > 0  # the outer run is still on
    assert gc.get_freeze_count() == 0


def test_analyze_leaves_nothing_frozen() -> None:
    gc.unfreeze()
    a = analyze([str(EXAMPLE)], workers=1)
    assert a.findings
    assert gc.get_freeze_count() == 0


def test_a_run_makes_collections_rarer_and_puts_the_thresholds_back() -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(500, 7, 9)
        with heap.long_lived():
            assert gc.get_threshold() == heap.RUN_THRESHOLDS
            with heap.long_lived():
                assert gc.get_threshold() == heap.RUN_THRESHOLDS
            assert gc.get_threshold() == heap.RUN_THRESHOLDS  # the outer run is still on
        assert gc.get_threshold() == (500, 7, 9)
        analyze([str(EXAMPLE)], workers=1)
        assert gc.get_threshold() == (500, 7, 9)
    finally:
        gc.set_threshold(*before)
