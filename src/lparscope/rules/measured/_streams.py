"""The measured series a time-series rule can judge: an nmon section, or a vmstat interval output.

A rule asks for the columns it needs under its own names; it gets the nmon section when the host
has a recording with it (the longer series), else each vmstat run of the host. A vmstat output
without times (no ``-t`` column, no interval on its command line) is judged on the share of its
reports only: how long a condition lasted cannot be told from it (``Stream.timed``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import islice
from typing import Any

import numpy as np

from ...model.estate import Evidence, Host, Series
from ...model.rows import row_origin
from ...sizing import series_checks as sc

EPOCH = np.datetime64("2000-01-01T00:00:00", "s")  # vmstat times are relative: only their differences are used


@dataclass
class Stream:
    what: str  # how its samples are named in a message: "snapshots", "vmstat reports"
    times: np.ndarray  # datetime64[s], one per sample
    timed: bool  # False: the samples' spacing is not known (times are their order only)
    columns: dict[str, np.ndarray]  # the rule's names -> float arrays
    cite: Callable[[Iterable[int]], list[Evidence]]  # evidence of some samples (the first two asked)
    lcpu: float | None = None  # logical CPUs the stream's partition had

    @property
    def persistence(self) -> sc.Persistence:
        """When a condition counts as persistent: untimed samples tell a share, not a duration."""
        return sc.DEFAULT if self.timed else sc.Persistence(sc.DEFAULT.min_share, math.inf)

    def run_text(self, ep: Any) -> str:
        """", longest run 25 min" (seconds under two minutes); "" when the samples' spacing is not known."""
        if not self.timed:
            return ""
        secs = ep.longest_run_seconds
        return f", longest run {secs / 60:.0f} min" if secs >= 120 else f", longest run {secs:.0f} s"


def nmon_table(host: Host, name: str) -> Any:
    rec = host.nmon
    return rec.tables.get(name) if rec is not None else None


def column(table: Any, name: str) -> np.ndarray | None:
    return np.asarray(table.column(name), dtype=float) if name in table.columns else None


def nmon_rows(host: Host, table: Any, indexes: Iterable[int], limit: int = 2) -> list[Evidence]:
    lines = getattr(table, "lines", [])  # one per row: only the cited ones are read
    out = []
    for i in islice(indexes, limit):
        if 0 <= i < len(lines):
            path, row = row_origin(table, i, host.nmon_path or "?")  # joined recordings: the row's own file
            out.append(Evidence(path, int(lines[i]), f"{table.name} row {row + 1}"))
    return out


def nmon_lcpu(host: Host) -> float | None:
    lpar = nmon_table(host, "LPAR")
    if lpar is not None and "logicalCPUs" in lpar.columns:
        v = column(lpar, "logicalCPUs")
        v = v[~np.isnan(v)] if v is not None else None
        if v is not None and v.size:
            return float(v[-1])
    cpus = (host.nmon.header.get("cpus") or "").split(",")[0] if host.nmon else ""
    return float(cpus) if cpus.strip().isdigit() else None


def streams(host: Host, section: str, nmon_names: dict[str, str], vmstat_names: dict[str, str]) -> list[Stream]:
    """The nmon ``section`` with its ``nmon_names`` columns (ours -> nmon's) when the host's recording
    has them all, else every vmstat run of the host with its ``vmstat_names`` columns."""
    table = nmon_table(host, section)
    if table is not None:
        cols = {ours: column(table, theirs) for ours, theirs in nmon_names.items()}
        if all(c is not None for c in cols.values()):
            return [Stream("snapshots", table.times, True, cols,  # type: ignore[arg-type]
                           lambda idx, t=table: nmon_rows(host, t, idx), nmon_lcpu(host))]
    return [s for run in host.vmstat_runs if (s := _vmstat_stream(run, vmstat_names)) is not None]


def _vmstat_stream(run: Series, names: dict[str, str]) -> Stream | None:
    rows = run.samples
    if not rows or not all(theirs in rows[0] for theirs in names.values()):
        return None
    cols = {ours: np.array([r.get(theirs) if r.get(theirs) is not None else np.nan for r in rows], dtype=float)
            for ours, theirs in names.items()}
    elapsed = [r.get("elapsed_s") for r in rows]
    timed = all(e is not None for e in elapsed)
    secs = np.array(elapsed if timed else range(len(rows)), dtype=np.int64)
    lcpu = float(run.config["lcpu_count"]) if "lcpu_count" in run.config else None  # as the parser read it

    def cite(idx: Iterable[int]) -> list[Evidence]:
        return [run.evidence[i] for i in islice(idx, 2) if 0 <= i < len(run.evidence)]

    return Stream("vmstat reports", EPOCH + secs.astype("timedelta64[s]"), timed, cols, cite, lcpu)
