"""nmon recordings as store series: one fixed set of metrics, Parquet partitioned by frame/host/date.

Layout (Hive style)::

    ROOT/frame=<frame>/host=<host>/date=<YYYY-MM-DD>/<name>.parquet    (the store: one file per collection and day)
    ROOT/frame=<frame>/host=<host>/month=<YYYY-MM>/<name>.parquet      (fleet, both engines: one file per host-month)

The store adds a collection at a time, so its files are small and per day; the fleet layout is
written in one go and compacted (fleet.compact) to one file per host and month, which is what a
scan of a year pays for (Spark above all pays per file).

Each file holds one row per snapshot with the columns of ``METRICS`` (float64, NaN when the
recording lacks the value; ``physc`` also where it is a value the partition cannot use, as
``model.nmon_physc`` tells it for sizing and the rules) and ``time`` (timestamp, as recorded: nmon times carry no zone, see
nmon/model.py). The partition columns live in the folder names, not in the files.
Every nmon table is still available in full through ``lparscope nmon export``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

# store column -> (nmon section, nmon column)
METRICS: dict[str, tuple[str, str]] = {
    "physc": ("LPAR", "PhysicalCPU"),
    "entitled": ("LPAR", "entitled"),
    "virtual_cpus": ("LPAR", "virtualCPUs"),
    "logical_cpus": ("LPAR", "logicalCPUs"),
    "pool_cpus": ("LPAR", "poolCPUs"),
    "pool_idle": ("LPAR", "PoolIdle"),
    "pool_id": ("LPAR", "Pool_id"),
    "weight": ("LPAR", "weight"),
    "capped": ("LPAR", "Capped"),
    "cpu_user": ("CPU_ALL", "User%"),
    "cpu_sys": ("CPU_ALL", "Sys%"),
    "cpu_wait": ("CPU_ALL", "Wait%"),
    "cpu_idle": ("CPU_ALL", "Idle%"),
    "mem_real_free_mb": ("MEM", "Real free(MB)"),
    "mem_real_total_mb": ("MEM", "Real total(MB)"),
}
COLUMNS = ["time", *METRICS]
PARTITIONS = ("frame", "host", "date")
UNKNOWN_FRAME = "unknown"


def arrow_schema():  # type: ignore[no-untyped-def]
    import pyarrow as pa

    return pa.schema([("time", pa.timestamp("us")), *((m, pa.float64()) for m in METRICS)])


def safe_part(value: str) -> str:
    """A partition value safe in a folder name (no separators, no '=' or control characters)."""
    return re.sub(r"[^A-Za-z0-9_.+@-]", "_", value.strip()) or "_"


def recording_frame(rec: Any) -> str:
    """The frame a recording was taken on, from its AAA header: MachineType*SerialNumber."""
    serial = (rec.header.get("SerialNumber") or "").strip()
    if not serial:
        return UNKNOWN_FRAME
    model = (rec.header.get("MachineType") or "").replace("IBM,", "").strip()
    return safe_part(f"{model}*{serial}" if model else serial)


def _values(table: Any, column: str) -> np.ndarray | None:
    try:
        if column == "PhysicalCPU":  # as sizing and the rules read it: a physc the partition cannot use is no sample
            from ..model.nmon_physc import lpar_physc

            return lpar_physc(table)
        return np.asarray(table.column(column), dtype=float)
    except (KeyError, ValueError, TypeError):
        return None


def recording_columns(rec: Any) -> dict[str, np.ndarray] | None:
    """The store columns of one recording, rows aligned on the LPAR (else CPU_ALL) snapshots."""
    base = rec.tables.get("LPAR") or rec.tables.get("CPU_ALL")
    if base is None or len(base) == 0:
        return None
    snaps = np.asarray(base.snapshots, dtype=np.int64)
    times = np.asarray(base.times).astype("datetime64[us]")
    keep = ~np.isnat(times)
    out: dict[str, np.ndarray] = {"time": times[keep]}
    for name, (section, column) in METRICS.items():
        col = np.full(len(snaps), np.nan)
        table = rec.tables.get(section)
        vals = _values(table, column) if table is not None else None
        if vals is not None:
            other = np.asarray(table.snapshots, dtype=np.int64)
            if table is base:
                col = vals
            else:  # align by snapshot number (sections may miss a snapshot)
                order = np.argsort(other, kind="stable")
                pos = np.searchsorted(other[order], snaps)
                pos = np.clip(pos, 0, max(len(other) - 1, 0))
                hit = other[order][pos] == snaps if len(other) else np.zeros(len(snaps), bool)
                col = np.where(hit, vals[order][pos] if len(other) else np.nan, np.nan)
        out[name] = col[keep]
    return out


PERIODS = {"date": "datetime64[D]", "month": "datetime64[M]"}


def by_day(columns: dict[str, np.ndarray], partition: str = "date") -> Iterator[tuple[str, dict[str, np.ndarray]]]:
    """Split columns into calendar days (``partition="month"``: months) of the recorded time, in time order."""
    order = np.argsort(columns["time"], kind="stable")
    cols = {k: v[order] for k, v in columns.items()}
    days = cols["time"].astype(PERIODS[partition])
    for day in np.unique(days):
        mask = days == day
        yield str(day), {k: v[mask] for k, v in cols.items()}


def to_arrow(columns: dict[str, np.ndarray]):  # type: ignore[no-untyped-def]
    import pyarrow as pa

    schema = arrow_schema()
    arrays = [pa.array(columns["time"], pa.timestamp("us"))]
    arrays += [pa.array(columns[m], pa.float64(), from_pandas=True) for m in METRICS]
    return pa.Table.from_arrays(arrays, schema=schema)


def write_days(root: Path, frame: str, host: str, columns: dict[str, np.ndarray],
               name: str, partition: str = "date") -> list[tuple[str, Path, int, Any, Any]]:
    """Write one Parquet file per day (or month); returns (day, path, rows, first time, last time) per file.

    The file is written under a temporary name and renamed, so a reader never sees half a file.
    """
    import os

    import pyarrow.parquet as pq

    written = []
    for day, cols in by_day(columns, partition):
        folder = root / f"frame={safe_part(frame)}" / f"host={safe_part(host)}" / f"{partition}={day}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.parquet"
        tmp = folder / f".{name}.parquet.tmp"
        pq.write_table(to_arrow(cols), tmp)
        os.replace(tmp, path)
        t = cols["time"]
        written.append((day, path, int(len(t)), t[0].item(), t[-1].item()))
    return written
