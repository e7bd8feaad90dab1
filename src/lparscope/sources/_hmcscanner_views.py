"""The records of the HMC Scanner reader (a sheet row, a table header) and the typed views the
model takes of them (systems, LPAR CPU and memory, virtual Ethernet, virtual switches, key/value
sheets). ``lparscope.sources.hmcscanner`` reads the sheets and re-exports these."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .base import to_float


@dataclass
class ScannerRow:
    """One row of an HMC Scanner sheet; ``values`` maps the header's column names to the cells.

    Rows without a header (key/value sheets, transposed tables, titles) use the column
    numbers "0", "1", ... as keys. ``system`` is the managed system of the row (its
    "Managed System Name" column, or the title row above its table).
    """

    sheet: str
    values: dict[str, str]
    line: int
    table: str = ""
    system: str | None = None

    def text(self, col: str) -> str | None:
        v = self.values.get(col)
        return v if v not in (None, "") else None

    def num(self, col: str) -> float | None:
        return to_float(self.values.get(col, "").strip())

    def int(self, col: str) -> int | None:
        f = self.num(col)
        return int(f) if f is not None and f.is_integer() else None

    def flag(self, col: str) -> bool | None:
        v = self.values.get(col, "").strip().lower()
        return True if v in {"true", "yes", "on", "1"} else False if v in {"false", "no", "off", "0"} else None


@dataclass
class ScannerTable:
    """A table header met in a sheet: says the table is present even when it has no rows (no vNIC, no CoD event)."""

    sheet: str
    table: str
    columns: list[str]
    line: int
    system: str | None = None


# --- typed views ---------------------------------------------------------------------------


def rows(records: list[Any], sheet: str, table: str | None = None) -> list[ScannerRow]:
    """The rows of one sheet (and table), in order."""
    return [r for r in records if isinstance(r, ScannerRow) and r.sheet == sheet and (table is None or r.table == table)]


@dataclass
class ScannerSystem:
    name: str
    state: str | None
    type_model: str | None
    serial: str | None
    ghz: float | None
    cores_installed: float | None
    cores_active: float | None
    cores_available: float | None
    pool_cores: float | None
    virtual_procs: float | None
    lpars: int | None
    memory_gb: float | None
    memory_active_gb: float | None
    firmware_gb: float | None
    memory_available_gb: float | None
    firmware_level: str | None
    line: int


def systems(records: list[Any]) -> list[ScannerSystem]:
    """``System_Summary`` rows, typed (cores and GB as float)."""
    return [ScannerSystem(r.values.get("Managed System", ""), r.text("Status"), r.text("Type Model"), r.text("Serial"),
                          r.num("GHz"), r.num("Tot Cores"), r.num("Act Cores"), r.num("Curr Avail Cores"),
                          r.num("Pool Size"), r.num("Virt Procs"), r.int("#LPAR"), r.num("Tot GB"), r.num("Act GB"),
                          r.num("Firm GB"), r.num("Curr Avail GB"),
                          " ".join(filter(None, [r.text("EC Number"), r.text("Activated Level")])) or None, r.line)
            for r in rows(records, "System_Summary")]


@dataclass
class ScannerLparCpu:
    name: str
    system: str | None
    serial: str | None
    status: str | None
    mode: str | None  # shared / ded
    min_vp: float | None
    curr_vp: float | None
    max_vp: float | None
    min_ent: float | None
    curr_ent: float | None
    max_ent: float | None
    weight: int | None
    sharing_mode: str | None
    pool: str | None
    line: int


def lpar_cpu(records: list[Any]) -> list[ScannerLparCpu]:
    """``LPAR_CPU`` rows: virtual processors (or dedicated cores), entitlement, weight, pool."""
    return [ScannerLparCpu(r.values.get("Name", ""), r.system, r.text("Managed System Serial"), r.text("Status"),
                           r.text("Mode"), r.num("Min CPU"), r.num("Curr CPU"), r.num("Max CPU"), r.num("Min Ent"),
                           r.num("Curr Ent"), r.num("Max Ent"), r.int("Weight"), r.text("Sharing Mode"),
                           r.text("Pool Name"), r.line)
            for r in rows(records, "LPAR_CPU")]


@dataclass
class ScannerLparMem:
    name: str
    system: str | None
    mode: str | None
    min_gb: float | None
    curr_gb: float | None
    max_gb: float | None
    expansion_factor: float | None
    line: int


def lpar_mem(records: list[Any]) -> list[ScannerLparMem]:
    """``LPAR_MEM`` rows in GB (AME factor when set)."""
    return [ScannerLparMem(r.values.get("Name", ""), r.system, r.text("Mode"), r.num("Min GB"), r.num("Curr GB"),
                           r.num("Max GB"), r.num("ExpFact"), r.line)
            for r in rows(records, "LPAR_MEM")]


def virtual_ethernet(records: list[Any]) -> list[dict[str, Any]]:
    """``Virtual_Ethernet`` slots, typed like ``hmc_hwres.veth``."""
    out = []
    for r in rows(records, "Virtual_Ethernet", "Virtual Ethernet Slots"):
        vlans = [int(v) for v in re.split(r"[,\s]+", r.values.get("IEEE VLAN ids", "")) if v.isdigit()]
        out.append({"lpar_name": r.values.get("LPAR name"), "system": r.system, "slot": r.int("Slot"),
                    "state": r.text("State"), "is_required": r.flag("Required"), "is_trunk": bool(r.flag("Trunk")),
                    "trunk_priority": r.int("Trunk Priority") or 0, "mac": r.text("MAC Addresss") or r.text("MAC Address"),
                    "vswitch": r.text("Virtual Switch"), "pvid": r.int("Port VLAN id"), "vlans": vlans, "line": r.line})
    return out


def vswitches(records: list[Any]) -> list[dict[str, Any]]:
    """Virtual switches of each system from the transposed ``Virtual Switches`` table: name and VLAN ids."""
    out: list[dict[str, Any]] = []
    by_sys: dict[tuple[str | None, int], dict[str, Any]] = {}
    for r in rows(records, "Virtual_Ethernet", "Virtual Switches"):
        key = r.values.get("0", "")
        for col, cell in r.values.items():
            if col == "0" or not cell:
                continue
            sw = by_sys.setdefault((r.system, int(col)), {"system": r.system, "name": None, "default": False,
                                                          "vlans": [], "line": r.line})
            if key == "Name":
                sw["name"] = cell.replace("(Default)", "")
                sw["default"] = "(Default)" in cell
            elif key.lower().startswith("vlan"):
                sw["vlans"] = [int(v) for v in re.split(r"[,\s]+", cell) if v.isdigit()]
    out.extend(v for _, v in sorted(by_sys.items(), key=lambda kv: (kv[1]["line"], kv[0][1])))
    return out


def key_values(records: list[Any], sheet: str) -> dict[str, str]:
    """A key/value sheet (``Header``; ``HMC``: hardware and software pairs side by side, then network) as one dict.

    The per-interface table of the ``HMC`` sheet (``IPv4 addr`` per eth0, eth1 ...) is left out.
    """
    out: dict[str, str] = {}
    network = False
    for r in rows(records, sheet):
        v = r.values
        if v.get("0") == "Network":
            network = True
            continue
        if network and not v.get("0"):
            break  # the interface table
        pairs = [(v.get("0", ""), v.get("1", ""))] if network else \
            [(v.get("0", ""), v.get("1", "")), (v.get("3", ""), v.get("4", ""))]
        for k, val in pairs:
            if k and val and k not in out:
                out[k] = val
    return out
