"""One source of truth for derived numbers: two findings never state different values for the same
quantity of the same object (an HPT, a VIOS's memory or processor need, a pool's size or free
capacity). Each finding lists what it states in ``facts``; this test runs every rule on the example
estate and on every estate the fixtures make, and compares."""

from __future__ import annotations

from pathlib import Path

import pytest

from lparscope.pipeline import analyze
from lparscope.rules.engine import Finding, all_rules

ROOT = Path(__file__).parents[2]
FIXTURES = ROOT / "tests" / "fixtures"


def contradictions(findings: list[Finding]) -> list[str]:
    """Every (object, quantity) stated with two different values, with the rules that stated them."""
    seen: dict[tuple[str, str], tuple[object, str]] = {}
    out = []
    for f in findings:
        for key, value in f.facts.items():
            v = round(value, 6) if isinstance(value, float) else value
            if key in seen and seen[key][0] != v:
                out.append(f"{key}: {seen[key][1]} says {seen[key][0]}, {f.rule.id} ({f.host}) says {v}")
            seen.setdefault(key, (v, f"{f.rule.id} ({f.host})"))
    return out


def _estates() -> list[Path]:
    dirs = [ROOT / "examples" / "estate", FIXTURES]
    dirs += sorted(p for p in FIXTURES.rglob("*") if p.is_dir())
    return dirs


@pytest.mark.parametrize("where", _estates(), ids=lambda p: str(p.relative_to(ROOT)))
def test_same_quantity_same_value(where: Path) -> None:
    analysis = analyze([str(where)])
    assert contradictions(analysis.findings) == []


def test_the_example_states_derived_numbers() -> None:
    """The check has something to compare: the example's HPT findings state their numbers."""
    analysis = analyze([str(ROOT / "examples" / "estate")])
    keys = {k for f in analysis.findings for k in f.facts}
    assert ("aix2", "hpt_mb") in keys and ("aix2", "hpt_divisor") in keys
    stated = [f for f in analysis.findings if ("aix2", "hpt_mb") in f.facts]
    assert len({f.rule.id for f in stated}) >= 2  # the host rule and the frame rule both state it, alike


def test_contradictions_are_found() -> None:
    r = all_rules()["MEM-MAX-FAR-ABOVE-ONLINE"]
    a = Finding(r, "aix2", "partition", "", facts={("aix2", "hpt_mb"): 4096})
    b = Finding(r, "p9frame1", "HPT", "", facts={("aix2", "hpt_mb"): 2048})
    c = Finding(r, "p9frame1", "HPT", "", facts={("aix2", "hpt_mb"): 2048.0})
    assert len(contradictions([a, b])) == 1
    assert contradictions([b, c]) == []
