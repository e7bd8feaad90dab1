"""HMC Scanner usage sheets (per-day / per-hour use) into time series on frames, pools and partitions.

Fixtures in tests/fixtures/hmcscanner/*_Usage*.csv are written by us in the layout HMC Scanner
gives these sheets (time labels ``2025/8/14`` and ``2025/8/14 13``, -1 for no data, a title
row naming the managed system).
"""

from __future__ import annotations

import io
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from lparscope.sources import hmcscanner as h
from lparscope.sources._hmcscanner_usage import ScannerUsage, is_usage_sheet, time_label

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "hmcscanner"
USAGE = ["LPAR_Daily_Usage_1", "LPAR_Hourly_Usage_1", "CPU_Pool_Daily_Usage", "Sys_RAM_Usage"]


def series(name: str) -> dict[tuple, ScannerUsage]:
    p = h.parse((FIX / f"{name}.csv").read_text())
    assert all(isinstance(r, ScannerUsage) for r in p.records)
    return {(r.system, r.name, r.measure): r for r in p.records}


@pytest.mark.parametrize("name", ["CPU_Pool_Usage", "Sys_RAM_Usage", "LPAR_CPU_Usage", "CPU_Pool_Daily_Usage",
                                  "LPAR_Daily_Usage_N1", "LPAR_Daily_Usage_3", "CPU_Pool_Hourly_Usage",
                                  "LPAR_Hourly_Usage_2", "CPU Pool Usage"])
def test_usage_sheet_names(name: str) -> None:
    assert is_usage_sheet(name)


@pytest.mark.parametrize("name", ["LPAR_CPU", "LPAR_Summary", "Ent_Sys_Pools", "CPU", "Memory", None, ""])
def test_other_sheets_are_not_usage(name: str | None) -> None:
    assert not is_usage_sheet(name)


def test_time_labels() -> None:
    assert time_label("2025/8/14") == (datetime(2025, 8, 14), False)
    assert time_label("2025/8/14 13") == (datetime(2025, 8, 14, 13), True)
    assert time_label("2025-08-14 13:00:00") == (datetime(2025, 8, 14, 13), True)
    assert time_label("2025/13/40") is None and time_label("aix1") is None and time_label("1.5") is None


def test_lpar_daily_heat_table() -> None:
    s = series("LPAR_Daily_Usage_1")
    used = s[("p10frame1", "aix1", "used")]
    assert used.what == "lpar" and used.resolution == "day"
    assert used.points == [(datetime(2025, 8, 11), 1.21), (datetime(2025, 8, 12), 1.35), (datetime(2025, 8, 13), 1.9),
                           (datetime(2025, 8, 14), 1.48)]
    assert set(used.point_lines) == {6}  # the row of aix1 "Used" (the sheet-name line is line 1)
    assert [t.day for t, _ in s[("p10frame1", "vios1", "used")].points] == [11, 12, 13]  # -1: no data
    assert s[("p10frame1", "aix1", "vp")].points[0][1] == 4


def test_hourly_sheet_and_a_cell_that_is_not_a_number() -> None:
    p = h.parse((FIX / "LPAR_Hourly_Usage_1.csv").read_text())
    used = next(r for r in p.records if r.measure == "used")
    assert used.resolution == "hour" and [t.hour for t, _ in used.points] == [9, 10, 11]
    assert [(w.line, "'n/a' is not a number" in w.message) for w in p.warnings] == [(4, True)]


def test_pool_sheet_with_system_and_pool_columns() -> None:
    s = series("CPU_Pool_Daily_Usage")
    assert s[("p10frame1", "DefaultPool", "used")].points[1] == (datetime(2025, 8, 13), 6.1)
    assert s[("p10frame1", "DefaultPool", "size")].what == "pool"


def test_sys_ram_one_day_per_row_per_system() -> None:
    s = series("Sys_RAM_Usage")
    avail = s[("p10frame1", None, "available gb")]
    assert avail.what == "system" and avail.points == [(datetime(2025, 8, 12), 212.5), (datetime(2025, 8, 13), 180.0)]
    assert avail.point_lines == [4, 5]
    assert s[("p10frame2", None, "configurable gb")].points == [(datetime(2025, 8, 14), 512.0)]


def test_bad_rows_never_raise() -> None:
    text = "# HMC Scanner sheet: LPAR_Daily_Usage_1\nLPAR,2025/8/1,2025/8/2\naix1,x,\n,,\n\"unclosed\n"
    p = h.parse(text)
    assert any("not a number" in w.message for w in p.warnings)
    assert h.parse("# HMC Scanner sheet: Sys_RAM_Usage\n5,6,7\n").warnings


def test_workbook_with_date_cells() -> None:
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "LPAR_Daily_Usage_1"
    ws.append(["p10frame1"])
    ws.append(["LPAR", "Item", datetime(2025, 8, 12), datetime(2025, 8, 13)])
    ws.append(["aix1", "Used", 1.5, 2.25])
    ws2 = wb.create_sheet("Sys_RAM_Usage")
    ws2.append(["p10frame1"])
    ws2.append(["Day", "Configurable GB", "Available GB"])
    ws2.append([datetime(2025, 8, 12), 1024, 100])
    buf = io.BytesIO()
    wb.save(buf)
    recs = [r for r in h.parse_workbook(buf.getvalue()).records if isinstance(r, ScannerUsage)]
    got = {(r.sheet, r.name, r.measure): r.points for r in recs}
    assert got[("LPAR_Daily_Usage_1", "aix1", "used")] == [(datetime(2025, 8, 12), 1.5), (datetime(2025, 8, 13), 2.25)]
    assert got[("Sys_RAM_Usage", None, "available gb")] == [(datetime(2025, 8, 12), 100.0)]


def test_series_reach_partitions_pools_and_frames(tmp_path: Path) -> None:
    from lparscope.pipeline import analyze

    for name in USAGE + ["LPAR_CPU", "System_Summary"]:
        shutil.copy(FIX / f"{name}.csv", tmp_path / f"{name}.csv")
    a = analyze([str(tmp_path)], workers=1)
    fr = a.estate.frames["p10frame1"]
    aix1 = fr.partitions["aix1"]
    assert [(u.time.hour, u.physc) for u in aix1.use] == [(9, 1.62), (10, 2.85), (11, 3.1)]  # hourly beats daily
    assert aix1.use[1].evidence.path.endswith("LPAR_Hourly_Usage_1.csv") and aix1.use[1].evidence.line == 4
    vios1 = fr.partitions["vios1"]
    assert [u.physc for u in vios1.use] == [0.42, 0.47, 0.51]
    assert vios1.use[0].evidence.line == 4
    pool = fr.pools[0]
    assert [u.physc for u in pool.use] == [5.2, 6.1, 5.8] and pool.peak_use() == 6.1
    assert all(p.name != "NoSuchPool" for p in fr.pools.values())  # a pool the configuration does not name: not guessed
    assert [(m.time.day, m.configurable, m.available) for m in fr.mem_use] == [
        (12, 1024 * 1024, 212 * 1024 + 512), (13, 1024 * 1024, 180 * 1024), (14, 1024 * 1024, None)]
    assert fr.mem_use[0].evidence.line == 4
    other = a.estate.frames["p10frame2"]
    assert [(m.configurable, m.available) for m in other.mem_use] == [(512 * 1024, 64 * 1024)]
    status = {Path(i.path).name: i.status for i in a.estate.inputs}
    assert status["LPAR_Daily_Usage_1.csv"] == "parsed" and status["LPAR_Hourly_Usage_1.csv"] == "partly"


def test_sys_ram_heat_table_rows_name_the_system() -> None:
    text = ("# HMC Scanner sheet: Sys_RAM_Usage\n,,2025/8/12,2025/8/13\n"
            "p10frame1,Configurable GB,1024,1024\np10frame1,Available GB,200,150\n")
    got = {(r.system, r.name, r.measure): r.points for r in h.parse(text).records}
    assert got[("p10frame1", None, "available gb")] == [(datetime(2025, 8, 12), 200.0), (datetime(2025, 8, 13), 150.0)]
    titled = "# HMC Scanner sheet: Sys_RAM_Usage\np10frame2\nItem,2025/8/12\nConfigurable GB,512\n"
    assert [(r.system, r.name, r.measure) for r in h.parse(titled).records] == [("p10frame2", None, "configurable gb")]
