"""Fold an nmon recording into a host: the processor time series and the recording itself.

The LPAR section of AIX topas_nmon carries, per snapshot, the physical cores consumed
(PhysicalCPU), the entitlement, virtual and logical CPUs and the pool size; %entc is
PhysicalCPU / entitled x 100. The command outputs of the BBBP section go through the
ordinary parsers (see pipeline.read_nmon_file), so the rules see the same model as
for standalone command outputs.
"""

from __future__ import annotations

import math
from typing import Any

from ..numbers import finite_float
from .estate import Evidence, Host, Series


def _col(table: Any, *names: str) -> list[float] | None:
    for name in names:
        if name in getattr(table, "columns", []):
            return [float(v) for v in table.column(name)]
    return None


def _num(v: float) -> float | None:
    return finite_float(v)


def apply_recording(host: Host, rec: Any, path: str) -> None:
    """Keep the recording on the host and turn its LPAR section into the host's CPU series."""
    host.nmon, host.nmon_path = rec, path
    if path not in host.files:
        host.files.append(path)
    lpar = rec.tables.get("LPAR")
    if lpar is None:
        return
    physc = _col(lpar, "PhysicalCPU")
    entitled = _col(lpar, "entitled")
    if physc is None:
        return
    vps = _col(lpar, "virtualCPUs")
    pool = _col(lpar, "poolCPUs")
    series = Series()
    first = getattr(lpar, "first_line", 1) or 1
    row_lines = [int(x) for x in getattr(lpar, "lines", [])]
    for i, pc in enumerate(physc):
        row: dict[str, float | None] = {"physc": _num(pc)}
        ent = _num(entitled[i]) if entitled else None
        if ent and row["physc"] is not None:
            row["%entc"] = row["physc"] / ent * 100.0  # type: ignore[operator]
        if vps:
            row["vp"] = _num(vps[i])
        if pool:
            row["pool"] = _num(pool[i])
        series.samples.append(row)
        line = int(row_lines[i]) if i < len(row_lines) else first
        series.evidence.append(Evidence(path, line, f"LPAR snapshot {i + 1}"))
    if entitled:
        last = next((e for e in map(_num, reversed(entitled)) if e is not None), None)
        if last is not None:
            series.config["ent"] = f"{last:.2f}"
    host.cpu = series
