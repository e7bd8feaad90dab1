"""Spreadsheet exports never hold a formula taken from an input."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from lparscope.nmon import export, read_nmon
from lparscope.nmon.export import csv_cell
from lparscope.report.frame import xlsx_safe

NMON = (
    "AAA,progname,topas_nmon\nAAA,host,aix1\nAAA,note,=HYPERLINK(\"http://x\")\nAAA,interval,60\n"
    "ZZZZ,T0001,00:00:01,01-JAN-2024\n"
    "TOP,+PID,Time,%CPU,%Usr,%Sys,Threads,Size,ResText,ResData,CharIO,%RAM,Paging,Command,WLMclass\n"
    "TOP,6,T0001,1.0,0.5,0.5,1,100,10,10,0,0.1,0,=cmd|' /C calc'!A0,Unclassified\n"
    "TOP,7,T0001,1.0,0.5,0.5,1,100,10,10,0,0.1,0,@SUM(1+1),+x\n"
    "TOP,8,T0001,1.0,0.5,0.5,1,100,10,10,0,0.1,0,-2+3,\tz\n"
)


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1+1", "@SUM(A1)", "\tx", "\rx"])
def test_formula_starts_are_prefixed(text: str) -> None:
    assert csv_cell(text) == "'" + text and csv_cell("ksh") == "ksh"


def test_nmon_csv_export_escapes_text_cells(tmp_path: Path) -> None:
    f = tmp_path / "rec.nmon"
    f.write_text(NMON)
    rec = read_nmon(f)
    written = export(rec, "csv", tmp_path / "out")
    cells = []
    for path in written:
        with open(path, newline="", encoding="utf-8") as fh:
            cells += [c for row in csv.reader(fh) for c in row]
    assert cells, written
    text_cells = [c for c in cells if c and not c.replace(".", "").replace("-", "").replace("e", "").isdigit()]
    bad = [c for c in text_cells if c[0] in "=+@\t\r" or (c[0] == "-" and not _is_number(c))]
    assert not bad, bad
    assert "'=cmd|' /C calc'!A0" in cells and "'=HYPERLINK(\"http://x\")" in cells


def _is_number(c: str) -> bool:
    try:
        float(c)
        return True
    except ValueError:
        return False


def test_xlsx_cells_lose_control_characters() -> None:
    assert xlsx_safe("a\x1ab\x00c\td") == "abc\td" and xlsx_safe(float("inf")) == "inf" and xlsx_safe(3) == 3


def test_control_character_in_an_input_value_keeps_every_report(tmp_path: Path) -> None:
    from .test_isolation import REPORTS, run_cli

    f = tmp_path / "lparstat.txt"
    f.write_text("# lparstat -i\nNode Name : aix1\x1a\nPartition Name : aix1\nType : Shared-SMT-4\n"
                 "Mode : Uncapped\nEntitled Capacity : 0.50\nOnline Virtual CPUs : 4\n")
    code, out, report = run_cli(tmp_path, f)
    assert code == 0, out
    assert all((tmp_path / "out" / r).exists() for r in REPORTS)
