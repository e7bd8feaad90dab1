"""The documentation names every rule, and only rules that exist."""

import re
from pathlib import Path

from lparscope.rules.engine import all_rules

DOCS = Path(__file__).parents[1] / "docs"
ID_RE = re.compile(r"\b(?:CPU|MEM|AME|VIOS|STO|NET|WPAR|NFS|MEAS|FRAME|HEALTH)(?:-[A-Z0-9]+)+\b")


def test_coverage_table_names_every_rule():
    text = (DOCS / "coverage.md").read_text(encoding="utf-8")
    named = set(ID_RE.findall(text))
    rules = set(all_rules())
    assert rules - named == set(), "rules missing from docs/coverage.md"
    catalogue_ids = {n for n in named if re.fullmatch(r"(CPU|MEM|AME|VIOS|STO|NET)-\d+", n)}
    assert named - rules - catalogue_ids == set(), "docs/coverage.md names rules that do not exist"


def test_coverage_places_every_rule_in_its_module():
    """The "Rules by where they live" table names each rule under the module that declares it."""
    text = (DOCS / "coverage.md").read_text(encoding="utf-8")
    section = text.split("## Rules by where they live", 1)[1]
    listed: dict[str, str] = {}
    for row in re.finditer(r"^\| `([\w/]+)\.py` \|.*\| ([^|]*) \|$", section, re.M):
        for rid in ID_RE.findall(row.group(2)):
            listed[rid] = row.group(1)
    assert listed == {rid: r.location for rid, r in all_rules().items()}
