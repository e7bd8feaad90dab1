"""lsnports (sources/lsnports.py): the NPIV-capable ports of a VIOS."""

from __future__ import annotations

from pathlib import Path

from lparscope.sources import lsnports, parsers
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "lsnports"


def test_ports_with_fabric_and_free_virtual_ports() -> None:
    text = (FIX / "vios31_lsnports.txt").read_text()
    assert lsnports.detect(text) >= 90
    r = lsnports.parse(text)
    assert r.warnings == [] and r.hostname == "vios9"
    assert [(p.name, p.fabric, p.tports, p.aports, p.awwpns, p.line) for p in r.records] == [
        ("fcs0", 1, 64, 61, 2042, 3), ("fcs1", 0, 64, 64, 2048, 4), ("fcs2", 1, 64, 64, 2048, 5)]
    assert r.records[1].physloc == "U78D2.001.WZS0ABC-P1-C6-T2"


def test_without_prompt_and_bad_rows() -> None:
    body = (FIX / "vios31_lsnports.txt").read_text().split("\n", 1)[1]
    assert [s.kind for s in split_and_classify(body, parsers())] == ["lsnports"]
    r = lsnports.parse(body + "fcs3             U78D2.001.WZS0ABC-P1-C7-T2          1     64\n")
    assert len(r.records) == 3 and [w.line for w in r.warnings] == [5]


def test_a_label_column_and_an_upper_case_header():
    from lparscope.sources import lsnports as lsn

    text = ("$ lsnports\nname             physloc                        fabric tports aports swwpns  awwpns  label\n"
            "fcs0             U78D2.001.WZS0ABC-P1-C2-T1          1     64     60   3088    3056  FabricA\n"
            "fcs1             U78D2.001.WZS0ABC-P1-C2-T2          1     64     64   3088    3088  not_supported\n")
    r = lsn.parse(text)
    assert [(p.name, p.aports, p.awwpns, p.label) for p in r.records] == [
        ("fcs0", 60, 3056, "FabricA"), ("fcs1", 64, 3088, "not_supported")] and r.warnings == []
    upper = text.replace("name             physloc                        fabric tports aports swwpns  awwpns  label",
                         "NAME             PHYSLOC                        FABRIC TPORTS APORTS SWWPNS  AWWPNS  LABEL")
    assert lsn.detect(upper.replace("$ lsnports\n", "")) >= 85 and len(lsn.parse(upper).records) == 2
