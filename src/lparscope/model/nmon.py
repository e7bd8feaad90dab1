"""Fold an nmon recording into a host: the processor time series and the recording itself.

The LPAR section of AIX topas_nmon carries, per snapshot, the physical cores consumed
(PhysicalCPU), the entitlement, virtual and logical CPUs and the pool size; %entc is
PhysicalCPU / entitled x 100. The command outputs of the BBBP section go through the
ordinary parsers (see pipeline.read_nmon_file), so the rules see the same model as
for standalone command outputs. The AIX level of the header (``AAA,AIX`` / ``AAA,TL``, njmon's
aix_version ...) is the host's oslevel when nothing else gave one (:func:`level_from_header`); an
``oslevel`` output read after it (a BBBP one, another file) takes its place.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import numpy as np

from ..nmon.join import join_recordings, other_partition, overlaps, time_span
from ..nmon.model import NAIVE
from ..numbers import LIMIT
from .estate import Evidence, Host, Series, Setting, Sourced
from .nmon_physc import host_physc, physc_note, settings_of
from .rows import RowsWhenAsked, row_origin


def _col(table: Any, name: str) -> np.ndarray | None:
    """The column as floats, NaN where a value is not finite or beyond what a system reports (as
    ``finite_float`` reads one value); None when the section has no such column."""
    if name not in getattr(table, "columns", []):
        return None
    a = np.array(table.column(name), dtype=np.float64)
    a[~(np.isfinite(a) & (np.abs(a) <= LIMIT))] = np.nan
    return a


class SnapshotRows(RowsWhenAsked[dict[str, float | None]]):
    """The processor sample of each LPAR snapshot as a dict (physc, %entc, vp, pool), made when
    asked, like :class:`SnapshotEvidence`: the sizing and the rules read whole columns
    (:meth:`column_values`, which ``Series.values`` uses), straight from the section's arrays."""

    def __init__(self, columns: dict[str, np.ndarray]) -> None:
        self.columns = columns  # in the rows' key order; NaN: the snapshot has no value
        self._n = len(columns["physc"])

    def __len__(self) -> int:
        return self._n

    def _row(self, k: int) -> dict[str, float | None]:
        row: dict[str, float | None] = {}
        for key, col in self.columns.items():
            v = float(col[k])
            if v == v:
                row[key] = v
            elif key != "%entc":  # %entc is there only when it could be worked out
                row[key] = None
        return row

    def column_values(self, column: str) -> list[float]:
        """The column's values, snapshots without one left out (``Series.values``)."""
        col = self.columns.get(column)
        return [] if col is None else col[~np.isnan(col)].tolist()


class SnapshotEvidence(RowsWhenAsked[Evidence]):
    """The evidence of each LPAR snapshot of a recording, made when asked: a long recording has
    tens of thousands of snapshots and the rules cite a few."""

    def __init__(self, path: str, lines: list[int], table: Any = None) -> None:
        self.path, self.lines, self.table = path, lines, table  # table: its source_of(row) names joined rows' files

    def __len__(self) -> int:
        return len(self.lines)

    def _row(self, k: int) -> Evidence:
        path, row = row_origin(self.table, k, self.path)
        return Evidence(path, self.lines[k], f"LPAR snapshot {row + 1}")


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


def apply_recording(host: Host, rec: Any, path: str) -> list[tuple[int, str]]:
    """Keep the recording on the host and turn its LPAR section into the host's CPU series.

    Recordings of one host that follow one another in time (a file a day) are all kept, and
    joined into one recording by :func:`join_parts` once every input is read. Of recordings that
    overlap in time, one is kept: the one with an LPAR section, then the one that ends last, then
    the one with most snapshots, then the first read. Returns what the recording's status must say,
    as (file line, warning): that it is not used, or what it replaces (nothing read is set aside
    without a word), and its physc values no partition of its settings can use (``nmon_physc``)."""
    glitch = physc_note(rec.tables.get("LPAR"), *settings_of(host))
    notes = [glitch] if glitch else []
    return notes + [(1, note) for note in _choose(host, rec, path)]


def _choose(host: Host, rec: Any, path: str) -> list[str]:
    """The recording kept or set aside (:func:`apply_recording`), and what its status says."""
    if path not in host.files:
        host.files.append(path)
    level_from_header(host, rec, path)
    span = time_span(rec)
    clash = []  # kept recordings this one cannot be joined with, and why
    for part in host.nmon_parts:
        if overlaps(part[2], span):
            clash.append((part, "they overlap in time"))
        elif other_one := other_partition(part[0], rec):
            clash.append((part, f"another {other_one}"))
    notes: list[str] = []
    new = _preference(rec)
    for (other, other_path, _), why in clash:
        old = _preference(other)
        if new <= old:
            return [f"not used for {host.name}'s time series: its recording {other_path} {_better(old, new)}, and the "
                    f"two cannot be joined ({why}; recordings of one partition are joined when they follow one another)"]
    for (other, other_path, _), why in clash:
        notes.append(f"used for {host.name}'s time series instead of its recording {other_path}: this one "
                     f"{_better(new, _preference(other))}, and the two cannot be joined ({why})")
    clash_parts = [part for part, _ in clash]
    host.nmon_parts = [p for p in host.nmon_parts if not any(p is c for c in clash_parts)]
    host.nmon_parts.append((rec, path, span))
    host.nmon_parts.sort(key=lambda p: p[2] or (0, 0))
    if len(host.nmon_parts) > 1:
        rec, path = max(((r, p) for r, p, _ in host.nmon_parts), key=lambda rp: _preference(rp[0]))
    notes += _use(host, rec, path)
    return notes


def level_from_header(host: Host, rec: Any, path: str) -> None:
    """The recording's header AIX level ("6100-06", njmon's "7100-05-03") as the host's ``oslevel``
    record and level, when no oslevel or ioslevel was read for the host (a fallback: a real
    ``oslevel`` read later replaces it, as one oslevel output replaces another)."""
    value = getattr(rec, "oslevel", None)
    if not value or "oslevel" in host.levels or "ioslevel" in host.levels:
        return
    from ..sources.levels import Level

    parts = tuple(int(p) for p in value.split("-"))
    line = rec.facts_lines.get("oslevel", 1)
    level = Level("oslevel", value, line, form="nmon header", release=f"{value[0]}.{value[1]}",
                  technology_level=parts[1], service_pack=parts[2] if len(parts) > 2 else None, parts=parts)
    # as model.build's oslevel applier folds an oslevel output (build imports this module)
    host.records.setdefault("oslevel", []).append(Sourced(level, path, 0))
    host.levels["oslevel"] = Setting(value, Evidence(path, line))


def join_parts(host: Host) -> str:
    """Join the host's recordings (:func:`apply_recording` kept them) into one, and make its series
    from the whole; returns what each part's status says about it ("" when there is one part)."""
    parts = host.nmon_parts
    if len(parts) < 2 or any(r is None for r, _, _ in parts):  # one recording, or joined already
        return ""
    host.nmon = None
    joined = join_recordings([(r, p) for r, p, _ in parts], drop_parts=True)
    _use(host, joined, parts[-1][1])
    first, last = parts[0][2], parts[-1][2]
    when = ""
    if first is not None and last is not None:  # spans are seconds of the tables' times (UTC when a zone was given)
        fmt = "%Y-%m-%d %H:%M"
        zone = "" if joined.tz == NAIVE else " UTC"
        when = (f", {datetime.fromtimestamp(first[0], timezone.utc).strftime(fmt)} to "
                f"{datetime.fromtimestamp(last[1], timezone.utc).strftime(fmt)}{zone}")
    host.nmon_parts = [(None, p, s) for _, p, s in parts]  # the parts' tables live on in the joined one only
    return (f"one of {len(parts)} recordings of {host.name} joined into one time series "
            f"({len(joined.times)} snapshots{when})")


def _use(host: Host, rec: Any, path: str) -> list[str]:
    """Make ``rec`` the host's recording and its LPAR section the host's processor series."""
    notes: list[str] = []
    host.nmon, host.nmon_path = rec, path
    lpar = rec.tables.get("LPAR")
    if lpar is None:
        return notes
    if "PhysicalCPU" not in lpar.columns:
        return notes
    physc = host_physc(host, lpar)  # impossible values (a glitch, 1e300) as NaN
    entitled = _col(lpar, "entitled")
    n = len(physc)
    columns = {"physc": physc}
    if entitled is not None:
        with np.errstate(divide="ignore", invalid="ignore"):
            columns["%entc"] = np.where(entitled != 0, physc / entitled * 100.0, np.nan)  # NaN stays NaN
    for key, name in (("vp", "virtualCPUs"), ("pool", "poolCPUs")):
        col = _col(lpar, name)
        if col is not None and n:
            columns[key] = col
    series = Series()
    first = getattr(lpar, "first_line", 1) or 1
    lines = np.asarray(getattr(lpar, "lines", []), dtype=np.int64).tolist()[:n]
    lines += [first] * (n - len(lines))
    series.samples = SnapshotRows(columns)  # type: ignore[assignment]  # read like a list of dicts
    series.evidence = SnapshotEvidence(path, lines, lpar)  # type: ignore[assignment]  # read like a list
    known = entitled[~np.isnan(entitled)] if entitled is not None else []
    if len(known):
        series.config["ent"] = f"{float(known[-1]):.2f}"
    if host.cpu is not None and host.cpu.origin != "nmon" and host.cpu.samples:
        notes.append(f"{host.name}'s processor series from its {host.cpu.origin or 'lparstat'} output ({len(host.cpu.samples)} samples) is "
                     f"replaced by this recording's LPAR section ({n} snapshots)")
    series.origin = "nmon"
    host.cpu = series
    return notes
