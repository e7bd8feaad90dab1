"""Live Partition Mobility readiness (rules/frame/lpm.py, rules-catalogue LPM-01): a client partition
that owns a physical I/O slot is reported, from lshwres -r io --rsubtype slot or HMC Scanner's
Physical_Slots sheet (model/frame_io.py); a VIOS, a free slot and a partition of unknown type are not.
Fixtures written here: tests/fixtures/lshwres/hmc10_io_slot_clients.txt (with the lssyscfg -r lpar
of the same frame) and tests/fixtures/hmcscanner-slots."""

from __future__ import annotations

import shutil
from pathlib import Path

from lparscope.pipeline import analyze

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SLOTS = FIXTURES / "lshwres" / "hmc10_io_slot_clients.txt"


def _estate(tmp_path: Path, *files: Path):  # type: ignore[no-untyped-def]
    (tmp_path / "hmc1").mkdir()
    for f in files:
        shutil.copy(f, tmp_path / "hmc1")
    return analyze([str(tmp_path)])


def test_a_client_owning_slots_is_reported_with_the_slot_commands(tmp_path):
    a = _estate(tmp_path, SLOTS, FIXTURES / "lssyscfg" / "hmc10_r_lpar.txt")
    fr = a.estate.frames["p10frame1"]
    assert [s.drc_index for s in fr.partitions["aix1"].io_slots] == ["21020012", "21030014"]
    assert [s.drc_index for s in fr.partitions["vios1"].io_slots] == ["21010010"]
    [f] = [f for f in a.findings if f.rule.id == "FRAME-LPM-PHYSICAL-IO"]
    assert f.host == "aix1" and "owns 2 physical I/O slot(s): U78DA.ND0.WZS0001-C4 (PCIe3 2-Port 16Gb FC Adapter)" in f.message
    assert f.fix.hmc[0].startswith("migrlpar -o v -m p10frame1 -t <target managed system> -p aix1")
    assert f.fix.hmc[2] == "chhwres -m p10frame1 -r io -o r --id 3 -l 21020012   # U78DA.ND0.WZS0001-C4 (PCIe3 2-Port 16Gb FC Adapter)"
    assert f.rollback.hmc[1].startswith("chhwres -m p10frame1 -r io -o a --id 3 -l 21030014")
    lines = SLOTS.read_text().splitlines()
    assert ["21020012" in lines[e.line - 1] or "21030014" in lines[e.line - 1] for e in f.evidence] == [True, True]


def test_partitions_of_unknown_type_are_not_judged(tmp_path):
    a = _estate(tmp_path, SLOTS)  # no lssyscfg -r lpar: which partitions are VIOS is not known
    assert a.estate.frames["p10frame1"].partitions["aix1"].io_slots
    assert not [f for f in a.findings if f.rule.id == "FRAME-LPM-PHYSICAL-IO"]


def test_hmc_scanners_physical_slots_sheet():
    a = analyze([str(FIXTURES / "hmcscanner-slots")])
    found = [(f.host, f.message) for f in a.findings if f.rule.id == "FRAME-LPM-PHYSICAL-IO"]
    assert found == [("web32", "p10frame11: web32 owns 1 physical I/O slot(s): U78DA.ND0.WZS0311-P0-C4 "
                               "(PCIe3 2-Port 16Gb FC Adapter). Live Partition Mobility cannot move it while it does.")]
