"""HMC Scanner workbook, one sheet at a time (its per-sheet CSV export, or sheets of the .xls/.xlsx).

Input (sheet ``LPAR_CPU`` saved as CSV; every sheet has its own header row, some sheets
hold several tables separated by blank rows, some start each managed system with a
title row)::

    Name,Status,Mode,Min CPU,Curr CPU,Tgt CPU,Max CPU,Min Ent,Curr Ent,Tgt Ent,Max Ent,Weight,Sharing Mode,Pool Name,Pool Resv,Pool Max,VP:E %,Managed System Name,Managed System Serial
    aix1,On,shared,1,4,,4,0.1,2,,2,128,uncap,DefaultPool,,,200,p10frame1,78AB001
    vios1,On,shared,1,2,,2,0.5,1,,2,255,uncap,DefaultPool,,,200,p10frame1,78AB001

Output: one :class:`ScannerRow` per data row, the sheet recognised by its header::

    ScannerRow(sheet="LPAR_CPU", table="LPAR_CPU", line=2, system="p10frame1",
               values={"Name": "aix1", "Curr Ent": "2", "Weight": "128", ...})

Typed helpers: :meth:`ScannerRow.num` / ``int`` / ``flag``, :func:`rows` (one sheet or
table), :func:`systems`, :func:`lpar_cpu`, :func:`lpar_mem`, :func:`virtual_ethernet`,
:func:`vswitches`, :func:`key_values` (``Header`` / ``HMC`` sheets). Known sheets:
System_Summary, LPAR_Summary, LPAR_Profiles, LPAR_CPU, LPAR_MEM, Virtual_Ethernet
(per system: a transposed "Virtual Switches" table then "Virtual Ethernet Slots"),
Virtual_SCSI, VSCSI_Map, Virtual_Fibre, SEA (SEA, Etherchannel and SEA adapter tables),
FC, VIOS_disks, Physical_Slots, IO_slot_children, OnOff_CoD, CoD_Events, SRIOV_*,
vNIC, SW_cores, Header, HMC. Rows of other sheets are kept under their header. The usage
sheets (CPU_Pool_Usage, Sys_RAM_Usage, LPAR_Daily_Usage_N ...) become :class:`ScannerUsage`
time series (:mod:`._hmcscanner_usage`).

:func:`workbook_sheets` turns the binary workbook (.xls through ``xlrd`` >= 2.0, .xlsx
through ``openpyxl`` >= 3.0) into (sheet name, CSV text) pairs for :func:`parse_sheet`.
A CSV may start with a ``# HMC Scanner sheet: NAME`` line naming its sheet.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime
from typing import Any

from ._hmcscanner_usage import ScannerUsage, is_usage_sheet, parse_usage
from ._hmcscanner_views import (  # noqa: F401  (re-exported: records and typed views of this parser)
    ScannerRow,
    ScannerTable,
    ScannerSystem,
    ScannerLparCpu,
    ScannerLparMem,
    rows,
    systems,
    lpar_cpu,
    lpar_mem,
    virtual_ethernet,
    vswitches,
    key_values,
)
from .base import Parsed, to_float

KIND = "hmcscanner"
TITLE = "HMC Scanner sheets (CSV / .xls / .xlsx)"
COMMANDS: list[str] = []
STARTS = None

SHEET_MARK = re.compile(r"^#\s*HMC Scanner sheet:\s*(?P<name>\S(?:.*\S)?)\s*$")

# table name -> (sheet, columns that must all be in the header row); most specific first
SIGNATURES: list[tuple[str, str, frozenset[str]]] = [(t, s, frozenset(c)) for t, s, c in [
    ("System_Summary", "System_Summary", ("Managed System", "Type Model", "Serial", "Tot Cores")),
    ("LPAR_Summary", "LPAR_Summary", ("Name", "ID", "Status", "Environment", "OS Version")),
    ("LPAR_Profiles", "LPAR_Profiles", ("Lpar Name", "Profile Name", "DesMem", "DesEnt")),
    ("LPAR_CPU", "LPAR_CPU", ("Name", "Mode", "Curr Ent", "Weight", "Pool Name")),
    ("LPAR_MEM", "LPAR_MEM", ("Name", "Mode", "Curr GB", "Max GB")),
    ("Virtual Ethernet Slots", "Virtual_Ethernet", ("LPAR name", "Slot", "Trunk", "Trunk Priority", "Port VLAN id")),
    ("Virtual_Fibre", "Virtual_Fibre", ("LPAR name", "Slot", "Type", "Remote LPAR", "Remote Slot", "WWPN #1")),
    ("Virtual_SCSI", "Virtual_SCSI", ("LPAR name", "Slot", "Type", "Remote LPAR", "Remote Slot")),
    ("VSCSI_Map", "VSCSI_Map", ("VIOS", "Slot", "Client", "VTD", "Backing device")),
    ("SEA", "SEA", ("VIOS", "SEA", "ha_mode", "pvid")),
    ("Etherchannel", "SEA", ("VIOS", "Etherchannel", "mode")),
    ("SEA adapters", "SEA", ("VIOS", "SEA", "Virt Eth", "Priority", "Active")),
    ("FC", "FC", ("VIOS", "FC", "num_cmd_elems")),
    ("VIOS_disks", "VIOS_disks", ("UUID", "SIZE")),
    ("Physical_Slots", "Physical_Slots", ("LPAR", "Reqrd", "Adapter description", "drc_index")),
    ("IO_slot_children", "IO_slot_children", ("Physical Location", "Description", "Microcode Version")),
    ("OnOff_CoD", "OnOff_CoD", ("Type", "State", "Activated", "Unreturned")),
    ("CoD_Events", "CoD_Events", ("Time", "Event", "Managed System Name")),
    ("SRIOV_Phys_Ports", "SRIOV_Phys_Ports", ("Physical Port", "Label", "Max logical ports")),
    ("SRIOV_Logical_Ports", "SRIOV_Logical_Ports", ("LPAR", "Physical Port", "Logical Port", "Capacity")),
    ("vNIC", "vNIC", ("LPAR", "Slot", "Des mode", "Auto failover")),
    ("SW_cores", "SW_cores", ("LPAR Name", "Select", "Curr VPs", "Curr Ent")),
    ("Header", "Header", ("Manager Name",)),
    ("HMC", "HMC", ("Hardware", "Software")),
]]
_KNOWN = {sheet for _, sheet, _ in SIGNATURES}
_KV_SHEETS = {"Header", "HMC"}  # key,value rows (read with key_values)
_TRANSPOSED = {"Virtual Switches", "Processor Pools"}  # first column names the field, one object per column
_TITLES = {"Virtual Switches", "Virtual Ethernet Slots", "Network"}
_SYS_KEYS = ("Managed System Name", "Managed System")
_SERIAL_KEYS = ("Managed System Serial", "Serial")


# --- recognising a sheet -----------------------------------------------------------------


def _cells(row: list[str]) -> list[str]:
    out = [c.strip() for c in row]
    while out and not out[-1]:
        out.pop()
    return out


def _match(cells: list[str]) -> tuple[str, str] | None:
    names = {c for c in cells if c}
    for table, sheet, need in SIGNATURES:
        if need <= names:
            return table, sheet
    return None


def _read_rows(text: str, limit: int | None = None) -> list[tuple[int, list[str]]]:
    """(1-based first line, cells) per CSV record, quoted cells over several lines kept whole."""
    out: list[tuple[int, list[str]]] = []
    reader = csv.reader(io.StringIO(text))
    prev = 0
    try:
        for row in reader:
            out.append((prev + 1, row))
            prev = reader.line_num
            if limit is not None and len(out) >= limit:
                break
    except csv.Error:
        pass
    return out


def identify(text: str) -> str | None:
    """The sheet a CSV text comes from, by its header rows (or its ``# HMC Scanner sheet:`` line)."""
    rows = _read_rows(text[:100_000], 20)
    if rows and rows[0][1] and SHEET_MARK.match(rows[0][1][0]):
        return SHEET_MARK.match(rows[0][1][0]).group("name")  # type: ignore[union-attr]
    for _, row in rows:
        hit = _match(_cells(row))
        if hit:
            return hit[1]
    return None


def detect(text: str) -> int:
    rows = _read_rows(text[:100_000], 20)
    if not rows:
        return 0
    if rows[0][1] and SHEET_MARK.match(rows[0][1][0]):
        return 95
    first = next((i for i, (_, r) in enumerate(rows) if any(c.strip() for c in r)), None)
    if first is None:
        return 0
    if _match(_cells(rows[first][1])):
        return 90
    if any(_match(_cells(r)) for _, r in rows[first + 1:]):
        return 80  # a sheet that opens with a managed system's name (Virtual_Ethernet, SW_cores)
    return 0


# --- reading a sheet ---------------------------------------------------------------------


def _header_names(cells: list[str]) -> list[str]:
    names: list[str] = []
    seen: dict[str, int] = {}
    for i, c in enumerate(cells):
        name = c or f"col{i}"
        if name in seen:
            seen[name] += 1
            name = f"{name}#{seen[name]}"
        else:
            seen[name] = 1
        names.append(name)
    return names


def parse_sheet(name: str | None, text: str) -> Parsed:
    """Rows of one sheet; ``name`` is the sheet's name when known (a workbook), else it is recognised."""
    out = Parsed(kind=KIND)
    rows = _read_rows(text)
    if rows and rows[0][1] and SHEET_MARK.match(rows[0][1][0]):
        name = name or SHEET_MARK.match(rows[0][1][0]).group("name")  # type: ignore[union-attr]
        rows = rows[1:]
    sheet = name or identify(text) or "unknown"
    if is_usage_sheet(sheet):  # measured use per day / hour: _hmcscanner_usage
        out.records, out.warnings = parse_usage(sheet, rows)
        return out
    kv = sheet in _KV_SHEETS
    header: list[str] | None = None
    table = sheet
    system: str | None = None
    after_gap = True
    for lineno, raw in rows:
        cells = _cells(raw)
        if not any(cells):
            after_gap = True
            continue
        hit = None if kv else _match(cells)
        if hit:
            header, table = _header_names(cells), hit[0]
            out.records.append(ScannerTable(sheet, table, header, lineno, system))
            after_gap = False
            continue
        if not kv and after_gap and len(cells) == 1:
            if cells[0] in _TITLES:
                table = cells[0]
            else:
                system, table = cells[0], sheet  # a managed system's block starts
            header = None
            after_gap = False
            continue
        if not kv and header is None and after_gap and table not in _TRANSPOSED and sheet not in _KNOWN \
                and len([c for c in cells if c]) >= 2 and not any(to_float(c) is not None for c in cells if c):
            header = _header_names(cells)  # an unknown sheet: its first row is the header
            out.records.append(ScannerTable(sheet, table, header, lineno, system))
            after_gap = False
            continue
        after_gap = False
        if header is not None:
            values = {h: (cells[i] if i < len(cells) else "") for i, h in enumerate(header)}
            for i in range(len(header), len(cells)):
                if cells[i]:
                    values[f"col{i}"] = cells[i]
        else:
            values = {str(i): c for i, c in enumerate(cells)}
        row_sys = next((values[k] for k in _SYS_KEYS if values.get(k)), None) or system
        out.records.append(ScannerRow(sheet, values, lineno, table, row_sys))
    return out


def parse(text: str) -> Parsed:
    return parse_sheet(None, text)


# --- workbooks -----------------------------------------------------------------------------


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S") if (value.hour, value.minute, value.second) != (0, 0, 0) \
            else value.strftime("%Y-%m-%d")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def _to_csv(rows: list[list[Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for row in rows:
        w.writerow([_cell_text(v) for v in row])
    return buf.getvalue()


def workbook_sheets(data: bytes) -> list[tuple[str, str]]:
    """(sheet name, CSV text) of every sheet of an HMC Scanner .xls (OLE2) or .xlsx workbook.

    Raises ValueError when the bytes are neither, and RuntimeError naming the missing
    package when ``xlrd`` (.xls) or ``openpyxl`` (.xlsx) is not installed.
    """
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        try:
            import xlrd  # type: ignore[import-untyped]
        except ImportError as exc:
            raise RuntimeError("reading an .xls workbook needs the 'xlrd' package (pip install 'xlrd>=2.0')") from exc
        book = xlrd.open_workbook(file_contents=data, on_demand=True)
        out = []
        for sh in book.sheets():
            rows = []
            for r in range(sh.nrows):
                row = []
                for c in range(sh.ncols):
                    cell = sh.cell(r, c)
                    if cell.ctype == xlrd.XL_CELL_DATE:
                        try:
                            row.append(xlrd.xldate.xldate_as_datetime(cell.value, book.datemode))
                        except (ValueError, OverflowError):
                            row.append(cell.value)
                    elif cell.ctype == xlrd.XL_CELL_BOOLEAN:
                        row.append(bool(cell.value))
                    else:
                        row.append(cell.value)
                rows.append(row)
            out.append((sh.name, _to_csv(rows)))
        return out
    if data[:4] == b"PK\x03\x04":
        try:
            import openpyxl  # type: ignore[import-untyped]
        except ImportError as exc:
            raise RuntimeError("reading an .xlsx workbook needs the 'openpyxl' package (pip install 'openpyxl>=3.0')") from exc
        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            return [(ws.title, _to_csv([list(r) for r in ws.iter_rows(values_only=True)])) for ws in wb.worksheets]
        finally:
            wb.close()
    raise ValueError("not an Excel workbook (.xls or .xlsx)")


def parse_workbook(data: bytes) -> Parsed:
    """All sheets of a workbook as one Parsed (lines are per sheet: see ``ScannerRow.sheet``)."""
    out = Parsed(kind=KIND)
    for name, text in workbook_sheets(data):
        p = parse_sheet(name.replace(" ", "_"), text)
        out.records.extend(p.records)
        out.warnings.extend(p.warnings)
    return out
