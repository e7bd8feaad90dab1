"""Rules read the estate and change nothing: the stages after them (plan, what-if, reports) read the
estate as the inputs gave it, and the rules could run in any order, or in other processes."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from lparscope.inputs import iter_inputs
from lparscope.pipeline import read_estate
from lparscope.rules.config import Config
from lparscope.rules.engine import run
from lparscope.sizing.measured import size_estate

ROOT = Path(__file__).parents[2]
ESTATES = [ROOT / "examples" / "estate", ROOT / "tests" / "fixtures"]


@pytest.mark.parametrize("path", ESTATES, ids=lambda p: p.name)
def test_running_the_rules_leaves_the_estate_as_it_was(path: Path) -> None:
    estate, _ = read_estate(iter_inputs([str(path)]), workers=1)
    size_estate(estate, None)
    before = pickle.dumps(estate, protocol=pickle.HIGHEST_PROTOCOL)
    findings, _ = run(estate, Config())
    assert findings
    assert pickle.dumps(estate, protocol=pickle.HIGHEST_PROTOCOL) == before
