"""Rules read the estate and change nothing: the engine deals them out to forked processes
(rules/engine.py), where a change would be lost, and later stages read the estate as it was read."""

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
    findings, _ = run(estate, Config(), workers=1)
    assert findings
    assert pickle.dumps(estate, protocol=pickle.HIGHEST_PROTOCOL) == before
