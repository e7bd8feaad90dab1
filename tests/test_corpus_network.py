"""Real EtherChannel output from the corpus (../shared/corpus; skipped when absent): the aggregate's
own receive errors are read and judged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lparscope.pipeline import analyze
from lparscope.sources import entstat

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
EC = CORPUS / "entstat" / "snapper_etherchannel_ent10.txt"
pytestmark = pytest.mark.skipif(not EC.exists(), reason="../shared/corpus not present")


def test_real_8023ad_aggregate_summary_and_receive_errors(tmp_path: Path) -> None:
    r = entstat.parse(EC.read_text(encoding="utf-8", errors="replace"))
    assert r.warnings == []
    (rec,) = r.records
    ec = rec.etherchannel
    assert rec.adapter_class == "etherchannel" and ec.number_of_adapters == 2
    assert "802.3ad" in ec.mode and ec.aggregation_status == "Aggregated"
    assert ec.members == []  # this capture stops before the member sections
    shutil.copy(EC, tmp_path / "aixnode_entstat_-d_ent10.txt")
    found = [f for f in analyze([str(tmp_path)]).findings if f.rule.id == "NET-LAGG-RX-ERRORS"]
    assert len(found) == 1 and found[0].subject == "ent10"
    assert "rx errors 116277" in found[0].message and "26.283% of 442398" in found[0].message
    assert any("adapter_names" in c for c in found[0].fix.root)  # members unknown: how to find them


LSSEA = sorted((CORPUS / "other" / "vios_lssea").glob("lssea_*.log"))


@pytest.mark.skipif(not LSSEA, reason="no lssea reports in the corpus")
def test_real_lssea_reports_show_ports_without_lacp_partner(tmp_path: Path) -> None:
    for log in LSSEA:
        shutil.copy(log, tmp_path / log.name)
    found = {f.host: f for f in analyze([str(tmp_path)]).findings if f.rule.id == "NET-LAGG-LACP-PORT"}
    assert sorted(found) == [p.stem.split("_", 1)[1] for p in LSSEA]  # P10VIOF041A ... each VIOS
    for f in found.values():
        assert f.subject == "ent16" and "2 of 4 member port(s)" in f.message
        assert "ent1: no LACP partner" in f.message and "ent5: no LACP partner" in f.message
