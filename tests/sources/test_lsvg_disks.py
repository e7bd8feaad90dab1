"""lsvg -p / lsvg -P: a volume group's disks with their LVM state, and their mirror pools."""

from pathlib import Path

from lparscope.sources import lsvg_disks
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "lsvg-p"


def test_disk_states_and_free_partitions():
    text = (FIX / "aix72_lsvg_p_datavg_missing.txt").read_text()
    assert lsvg_disks.detect(text) == 95
    r = lsvg_disks.parse(text)
    assert r.warnings == [] and r.hostname == "aixora2"
    assert [(d.name, d.vg, d.state, d.total_pps, d.free_pps) for d in r.records] == [
        ("hdisk4", "oravg", "active", 799, 12), ("hdisk5", "oravg", "missing", 799, 0),
        ("hdisk9", "oravg", "removed", 799, 799)]
    assert r.records[2].distribution == "160..160..159..160..160" and r.records[1].line == 5
    assert r.records[0].lines["vg"] == 2


def test_summary_then_disks_and_mirror_pools_without_prompts_are_cut_apart():
    text = (FIX / "aix73_lsvg_summary_p_P.txt").read_text()
    segs = split_and_classify(text)
    assert [(s.kind, s.start) for s in segs] == [("lsvg", 1), ("lsvg-p", 18)]  # "mirvg:" goes with its table
    r = lsvg_disks.parse(segs[1].text)
    assert r.warnings == []
    assert [(d.name, d.vg, d.free_pps) for d in r.records[:2]] == [("hdisk10", "mirvg", 539), ("hdisk11", "mirvg", 539)]
    assert [(p.name, p.mirror_pool) for p in r.records[2:]] == [("hdisk10", "siteA"), ("hdisk11", "siteB")]


def test_rows_that_are_not_rows_warn():
    r = lsvg_disks.parse("# lsvg -p datavg\n0516-010 lsvg: Volume group must be varied on; use varyonvg command.\n")
    assert r.records == [] and len(r.warnings) == 1 and r.warnings[0].line == 2
