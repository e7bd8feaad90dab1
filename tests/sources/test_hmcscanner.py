import io
from pathlib import Path

import pytest

from lparscope.sources import hmcscanner as h
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "hmcscanner"


def parse(name: str):
    text = (FIX / name).read_text()
    assert h.detect(text) >= 80
    assert [seg.kind for seg in split_and_classify(text)] == ["hmcscanner"]
    return h.parse(text)


def test_lpar_cpu_rows_and_typed_view():
    r = parse("LPAR_CPU.csv")
    rows = h.rows(r.records, "LPAR_CPU")
    assert [x.values["Name"] for x in rows] == ["vios1", "aix1", "db1"] and rows[0].line == 2
    assert rows[1].system == "p10frame1" and rows[1].num("Curr Ent") == 2.0
    cpu = {c.name: c for c in h.lpar_cpu(r.records)}
    assert (cpu["vios1"].weight, cpu["aix1"].pool, cpu["db1"].mode, cpu["db1"].curr_ent) == (255, "SQLPool", "ded", None)
    assert isinstance(r.records[0], h.ScannerTable) and r.records[0].columns[0] == "Name"


def test_virtual_ethernet_per_system_blocks_and_vswitches():
    r = parse("Virtual_Ethernet.csv")
    slots = h.virtual_ethernet(r.records)
    assert [(s["system"], s["lpar_name"], s["slot"], s["is_trunk"], s["trunk_priority"], s["vlans"]) for s in slots] == [
        ("p10frame1", "vios1", 10, True, 1, [100, 200]), ("p10frame1", "vios2", 10, True, 2, [100, 200]),
        ("p10frame1", "aix1", 2, False, 0, [])]
    sw = h.vswitches(r.records)
    assert [(x["system"], x["name"], x["default"], x["vlans"]) for x in sw] == [
        ("p10frame1", "ETHERNET0", True, [1, 100, 200]), ("p10frame1", "VSW_BACKUP", False, [300]),
        ("p9frame2", "ETHERNET0", True, [])]


def test_sea_sheet_has_two_tables():
    r = parse("SEA.csv")
    sea = h.rows(r.records, "SEA", "SEA")
    ec = h.rows(r.records, "SEA", "Etherchannel")
    assert [(x.values["VIOS"], x.values["ha_mode"], x.values["thread"], x.values["thread#2"]) for x in sea] == [
        ("vios1", "auto", "1", "1"), ("vios2", "auto", "1", "1")]
    assert ec[0].values["mode"] == "8023ad" and ec[0].system == "p10frame1"


def test_header_and_system_summary():
    r = parse("Header.csv")
    assert h.key_values(r.records, "Header")["HMC Scanner Version"] == "0.11.50"
    (s,) = h.systems(parse("System_Summary.csv").records)
    assert (s.name, s.serial, s.cores_installed, s.pool_cores, s.firmware_gb, s.memory_gb) == ("p10frame1", "78AB001", 20.0, 16.0, 27.25, 1024.0)


def test_unknown_sheet_kept_generically():
    text = (FIX / "Unknown_Sheet.csv").read_text()
    assert h.detect(text) == 0  # nothing says it is HMC Scanner
    r = h.parse_sheet("Perf_Data", text)
    rows = h.rows(r.records, "Perf_Data")
    assert [x.values for x in rows] == [{"Colour": "red", "Shape": "square", "Count": "3"},
                                        {"Colour": "blue", "Shape": "circle", "Count": "5"}]
    marked = "# HMC Scanner sheet: Perf_Data\n" + text
    assert h.detect(marked) >= 90 and h.rows(h.parse(marked).records, "Perf_Data")[0].line == 3


def test_bad_input_never_raises():
    for junk in ["", '"unterminated\n', ",,,\n,,,", "\x00", "Name,Mode,Curr GB,Max GB\n1,2"]:
        h.parse(junk)


def test_workbook_xlsx_round_trip():
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "LPAR_CPU"
    for line in (FIX / "LPAR_CPU.csv").read_text().splitlines():
        ws.append([float(c) if c.replace(".", "", 1).isdigit() else c for c in line.split(",")])
    buf = io.BytesIO()
    wb.save(buf)
    sheets = h.workbook_sheets(buf.getvalue())
    assert [n for n, _ in sheets] == ["LPAR_CPU"]
    assert sheets[0][1].splitlines()[1].startswith("vios1,On,shared,1,2,,4,0.5,1,,4,255,")
    p = h.parse_workbook(buf.getvalue())
    assert [c.name for c in h.lpar_cpu(p.records)] == ["vios1", "aix1", "db1"]


def test_workbook_refuses_other_bytes():
    with pytest.raises(ValueError):
        h.workbook_sheets(b"name=aix1,lpar_id=3")
