"""HMC Scanner usage sheets: measured use per day or per hour, as time series.

With performance data (``-perf``/``-stats``) HMC Scanner adds sheets built from the HMC's
``lslparutil`` history: ``CPU_Pool_Usage``, ``Sys_RAM_Usage``, ``LPAR_CPU_Usage``,
``CPU_Pool_Daily_Usage``, ``LPAR_Daily_Usage_N``, ``CPU_Pool_Hourly_Usage``, ``LPAR_Hourly_Usage_N``
(25 partitions per LPAR sheet). Its time labels are written ``2025/8/14`` (a day) and
``2025/8/14 13`` (an hour); a value of -1 (or an empty cell) means no data. Two layouts are read:

one object per row, one time per column (the heat tables; a title row names the managed system
when no column does)::

    p10frame1
    LPAR,Item,2025/8/12,2025/8/13,2025/8/14
    aix1,Used,1.21,1.35,-1
    aix1,Ent,1.00,1.00,1.00

one time per row, one series per column::

    Day,Configurable GB,Available GB
    2025/8/12,1024,212.5

Output: one :class:`ScannerUsage` per series (object x measure), its points in time order,
each point with the line of the cell's row::

    ScannerUsage(sheet="LPAR_Daily_Usage_1", what="lpar", name="aix1", measure="used",
                 resolution="day", system="p10frame1", points=[(datetime(2025, 8, 12), 1.21), ...],
                 point_lines=[3, 3], line=3)

``what`` is ``lpar``, ``pool`` or ``system`` (from the sheet's name); ``measure`` is the row's
(or column's) label in lower case, ``used`` when the row has none (processor units used for
CPU sheets). Rows whose cells are not numbers are warnings with their line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from .base import ParseWarning, to_float

USAGE_SHEET = re.compile(r"(?i)^(?:cpu_?pool|sys(?:tem)?_?ram|lpar(?:_cpu)?)_(?:(?:daily|hourly)_)?usage(?:_n?\d+)?$")
_TIME = re.compile(r"^(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:[ T](\d{1,2})(?::(\d{2})(?::(\d{2}))?)?)?$")
_SYSTEM_COL = re.compile(r"(?i)managed system|^system$|^server$|^frame$")
_NAME_COL = re.compile(r"(?i)lpar|partition|^name$|pool")
_NO_DATA = -1.0


@dataclass
class ScannerUsage:
    """One measured series of an HMC Scanner usage sheet (see the module docstring)."""

    sheet: str
    what: str  # lpar | pool | system
    name: str | None
    measure: str
    resolution: str  # day | hour
    system: str | None = None
    points: list[tuple[datetime, float]] = field(default_factory=list)
    point_lines: list[int] = field(default_factory=list)
    line: int = 0


def is_usage_sheet(name: str | None) -> bool:
    """True for the names HMC Scanner gives its usage sheets (spaces or underscores)."""
    return bool(name) and USAGE_SHEET.match(name.strip().replace(" ", "_")) is not None  # type: ignore[union-attr]


def time_label(text: str) -> tuple[datetime, bool] | None:
    """'2025/8/14' -> (that day, False); '2025/8/14 13' -> (13:00 that day, True); None when not a time."""
    m = _TIME.match(text.strip())
    if not m:
        return None
    try:
        t = datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4) or 0), int(m.group(5) or 0),
                     int(m.group(6) or 0))
    except ValueError:
        return None
    return t, m.group(4) is not None


def _what(sheet: str) -> str:
    s = sheet.lower()
    return "pool" if "pool" in s else "system" if "ram" in s else "lpar"


def parse_usage(sheet: str, rows: list[tuple[int, list[str]]]) -> tuple[list[ScannerUsage], list[ParseWarning]]:
    """The series of one usage sheet from its (line, cells) rows."""
    what = _what(sheet)
    hourly_name = "hourly" in sheet.lower()
    series: dict[tuple, ScannerUsage] = {}
    warnings: list[ParseWarning] = []
    system: str | None = None
    header: list[str] | None = None
    times: dict[int, datetime] = {}  # wide layout: column -> time
    hourly = hourly_name
    after_gap = True
    for line, raw in rows:
        cells = [c.strip() for c in raw]
        while cells and not cells[-1]:
            cells.pop()
        if not cells:
            after_gap = True
            continue
        stamps = {i: time_label(c) for i, c in enumerate(cells) if c}
        stamps = {i: s for i, s in stamps.items() if s is not None}
        if stamps and min(stamps) > 0:  # a header row of times after the label columns: the wide layout
            header, times = cells, {i: s[0] for i, s in stamps.items()}
            hourly = hourly_name or any(s[1] for s in stamps.values())
            after_gap = False
            continue
        if after_gap and len(cells) == 1 and time_label(cells[0]) is None:
            system, header, times = cells[0], None, {}  # a managed system's block starts
            after_gap = False
            continue
        after_gap = False
        if times:
            _wide_row(series, sheet, what, hourly, system, header or [], times, line, cells, warnings)
        elif 0 in stamps and len(cells) >= 2:
            t, has_hour = stamps[0]
            _long_row(series, sheet, what, hourly_name or has_hour, system, header or [], t, line, cells, warnings)
        elif not any(to_float(c) is not None for c in cells if c):
            header = cells  # a header row of names (the long layout)
        else:
            warnings.append(ParseWarning(line, f"{sheet}: row not read (no time label for its values): {','.join(cells)[:60]!r}"))
    out = [s for s in series.values() if s.points]
    for s in out:
        order = sorted(range(len(s.points)), key=lambda k: s.points[k][0])
        s.points = [s.points[k] for k in order]
        s.point_lines = [s.point_lines[k] for k in order]
    return out, warnings


def _add(series: dict[tuple, ScannerUsage], key: tuple, make: ScannerUsage, t: datetime, v: float, line: int) -> None:
    s = series.setdefault(key, make)
    s.points.append((t, v))
    s.point_lines.append(line)


def _value(text: str, line: int, sheet: str, warnings: list[ParseWarning]) -> float | None:
    if not text:
        return None
    v = to_float(text.replace("%", "").strip())
    if v is None:
        warnings.append(ParseWarning(line, f"{sheet}: {text[:30]!r} is not a number (cell skipped)"))
        return None
    return None if v == _NO_DATA or v < 0 else v


def _wide_row(series: dict[tuple, ScannerUsage], sheet: str, what: str, hourly: bool, system: str | None,
              header: list[str], times: dict[int, datetime], line: int, cells: list[str],
              warnings: list[ParseWarning]) -> None:
    first = min(times)
    labels = cells[:first]
    name = measure = None
    sysname = system
    for i, text in enumerate(labels):
        col = header[i] if i < len(header) else ""
        if not text:
            continue
        if _SYSTEM_COL.search(col):
            sysname = text
        elif name is None and (_NAME_COL.search(col) or not col or i == 0):
            name = text
        else:
            measure = text
    if what == "system" and name is not None:  # Sys_RAM_Usage rows name the managed system, not an object
        if sysname is None:
            sysname = name
        elif measure is None:
            measure = name
        name = None
    measure = (measure or "used").lower()
    key = (sysname, name, measure, hourly)
    make = ScannerUsage(sheet, what, name, measure, "hour" if hourly else "day", sysname, line=line)
    for i, t in times.items():
        if i < len(cells):
            v = _value(cells[i], line, sheet, warnings)
            if v is not None:
                _add(series, key, make, t, v, line)
    if key not in series:
        series[key] = make  # kept (without points) so that later rows of the same series join it


def _long_row(series: dict[tuple, ScannerUsage], sheet: str, what: str, hourly: bool, system: str | None,
              header: list[str], t: datetime, line: int, cells: list[str], warnings: list[ParseWarning]) -> None:
    for j in range(1, len(cells)):
        v = _value(cells[j], line, sheet, warnings)
        if v is None:
            continue
        col = header[j] if j < len(header) and header[j] else f"col{j}"
        # a column per measure (Sys_RAM_Usage), else a column per partition or pool
        name, measure = (None, col.lower()) if what == "system" else (col, "used")
        key = (system, name, measure, hourly)
        make = ScannerUsage(sheet, what, name, measure, "hour" if hourly else "day", system, line=line)
        _add(series, key, make, t, v, line)
