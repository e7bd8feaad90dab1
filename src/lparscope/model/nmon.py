"""Fold an nmon recording into a host: the processor time series and the recording itself.

The LPAR section of AIX topas_nmon carries, per snapshot, the physical cores consumed
(PhysicalCPU), the entitlement, virtual and logical CPUs and the pool size; %entc is
PhysicalCPU / entitled x 100. The command outputs of the BBBP section go through the
ordinary parsers (see pipeline.read_nmon_file), so the rules see the same model as
for standalone command outputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

import numpy as np

from ..numbers import LIMIT
from .estate import Evidence, Host, Series


def _col(table: Any, *names: str) -> list[float | None] | None:
    """The first of the columns present, each value finite and within range or None (as
    ``finite_float``, for a whole column at once)."""
    for name in names:
        if name in getattr(table, "columns", []):
            a = np.asarray(table.column(name), dtype=np.float64)
            ok = (np.isfinite(a) & (np.abs(a) <= LIMIT)).tolist()
            return [v if k else None for v, k in zip(a.tolist(), ok)]
    return None


class SnapshotEvidence(Sequence[Evidence]):
    """The evidence of each LPAR snapshot of a recording, made when asked: a long recording has
    tens of thousands of snapshots and the rules cite a few."""

    def __init__(self, path: str, lines: list[int]) -> None:
        self.path, self.lines = path, lines

    def __len__(self) -> int:
        return len(self.lines)

    @overload
    def __getitem__(self, i: int) -> Evidence: ...

    @overload
    def __getitem__(self, i: slice) -> list[Evidence]: ...

    def __getitem__(self, i: int | slice) -> Evidence | list[Evidence]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self.lines)))]
        k = i + len(self.lines) if i < 0 else i
        if not 0 <= k < len(self.lines):
            raise IndexError(i)
        return Evidence(self.path, self.lines[k], f"LPAR snapshot {k + 1}")


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
    n = len(physc)
    lines = np.asarray(getattr(lpar, "lines", []), dtype=np.int64).tolist()[:n]
    lines += [first] * (n - len(lines))
    rows: list[dict[str, float | None]] = [{"physc": pc} for pc in physc]
    for row, pc, ent in zip(rows, physc, entitled or [None] * n):
        if ent and pc is not None:
            row["%entc"] = pc / ent * 100.0
    for key, col in (("vp", vps), ("pool", pool)):
        if col:
            for row, v in zip(rows, col):
                row[key] = v
    series.samples = rows
    series.evidence = SnapshotEvidence(path, lines)  # type: ignore[assignment]  # read like a list
    if entitled:
        last = next((e for e in reversed(entitled) if e is not None), None)
        if last is not None:
            series.config["ent"] = f"{last:.2f}"
    host.cpu = series
