"""Without an HTML report the what-if replay keeps no arrays for charts, and its section is the same."""

from __future__ import annotations

from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.whatif_cli import analysis_whatif

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "estate"


def test_same_section_no_comparisons_kept() -> None:
    analysis = analyze([str(EXAMPLE)])
    with_charts, runs = analysis_whatif(analysis)
    without, none = analysis_whatif(analysis, charts=False)
    assert with_charts is not None and runs and len(runs) == len(with_charts["frames"])
    assert without == with_charts and none == []
