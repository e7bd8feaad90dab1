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


def _preference(rec: Any) -> tuple[bool, Any, int]:
    """How a recording ranks for its host: has an LPAR section, ends later, has more snapshots."""
    lpar = rec.tables.get("LPAR")
    times = getattr(lpar, "times", None) if lpar is not None else None
    end = None
    if times is not None and len(times):
        known = times[~np.isnat(times)]
        end = known.max().astype("datetime64[s]").astype(np.int64).item() if known.size else None
    return lpar is not None, end if end is not None else -(2**62), len(rec.times)


def _better(kept: tuple[bool, Any, int], other: tuple[bool, Any, int]) -> str:
    """Why the ``kept`` recording is preferred, in words."""
    if kept[0] != other[0]:
        return "has an LPAR section"
    if kept[1] != other[1]:
        return "ends later"
    if kept[2] != other[2]:
        return "has more snapshots"
    return "was read first (both end at the same time with as many snapshots)"


def apply_recording(host: Host, rec: Any, path: str) -> list[str]:
    """Keep the recording on the host and turn its LPAR section into the host's CPU series.

    One recording per host is read for its time series (sizing, series checks, charts): of
    several, the one with an LPAR section that ends last, then the one with most snapshots, then
    the first read. Returns what the recording's status must say: that it is not the one used,
    or which series it replaces (nothing read is set aside without a word)."""
    if path not in host.files:
        host.files.append(path)
    notes: list[str] = []
    if host.nmon is not None and host.nmon is not rec:
        new, old = _preference(rec), _preference(host.nmon)
        if new <= old:
            return [f"not used for {host.name}'s time series: its recording {host.nmon_path} {_better(old, new)} "
                    f"(one nmon recording per host is read; this one's BBBP command outputs are)"]
        notes.append(f"used for {host.name}'s time series instead of its recording {host.nmon_path}: this one "
                     f"{_better(new, old)} (one nmon recording per host is read)")
    host.nmon, host.nmon_path = rec, path
    lpar = rec.tables.get("LPAR")
    if lpar is None:
        return notes
    physc = _col(lpar, "PhysicalCPU")
    entitled = _col(lpar, "entitled")
    if physc is None:
        return notes
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
    if host.cpu is not None and host.cpu.origin != "nmon" and host.cpu.samples:
        notes.append(f"{host.name}'s processor series from its lparstat output ({len(host.cpu.samples)} samples) is "
                     f"replaced by this recording's LPAR section ({n} snapshots)")
    series.origin = "nmon"
    host.cpu = series
    return notes
