"""Write the tables of an nmon recording for other tools: one CSV or Parquet file per section.

``export(rec, "csv", Path("out"))`` writes ``out/CPU_ALL.csv``, ``out/LPAR.csv`` ... each with
the columns ``snapshot,time,<the section's columns>,<its text columns>``::

    snapshot,time,User%,Sys%,Wait%,Idle%,Busy,PhysicalCPUs
    1,2016-02-10T17:28:10,32.2,29.2,0.1,38.5,,28

plus ``out/_header.csv`` (the AAA key/values). Parquet needs pyarrow, imported only then.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Literal

import numpy as np

from .model import NmonRecording, NmonTable


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.+-]", "_", name) or "_"


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str) -> str:
    """A text cell a spreadsheet will not run: one starting with = + - @ tab or CR gets a leading '
    (TOP command lines and AAA values come from the recorded system)."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def _arrow_table(table: NmonTable, for_csv: bool = False):  # type: ignore[no-untyped-def]
    import pyarrow as pa

    cell = csv_cell if for_csv else str
    arrays = [pa.array(table.snapshots, pa.int64()), pa.array(table.times)]
    names = ["snapshot", "time"]
    for j, col in enumerate(table.columns):
        arrays.append(pa.array(table.values[:, j], pa.float64(), from_pandas=True))
        names.append(cell(col))
    for col, vals in table.text.items():
        arrays.append(pa.array([cell(str(v)) for v in vals], pa.string()))
        names.append(cell(col))
    return pa.Table.from_arrays(arrays, names=_unique(names))


# Parquet's writer builds a dictionary for every column and falls back to plain values once it
# outgrows a page of this size (the default is 1 MiB). Measured values that hardly repeat filled a
# megabyte first: 40 % of the export of a 215 MB recording, for files 12 % larger. Columns that do
# repeat (a TOP table's PIDs, counters at 0, command names) stay well under it.
DICTIONARY_PAGE = 64 * 1024


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for n in names:
        k = seen.get(n, 0)
        seen[n] = k + 1
        out.append(n if k == 0 else f"{n}#{k + 1}")
    return out


def _write_csv_py(table: NmonTable, path: Path) -> None:
    import csv

    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(_unique(["snapshot", "time", *map(csv_cell, table.columns), *map(csv_cell, table.text)]))
        times = [("" if np.isnat(t) else str(t)) for t in table.times]
        for r in range(len(table)):
            vals = ["" if math.isnan(v) else repr(float(v)) for v in table.values[r].tolist()]
            w.writerow([int(table.snapshots[r]), times[r], *vals, *(csv_cell(str(a[r])) for a in table.text.values())])


def export(rec: NmonRecording, fmt: Literal["csv", "parquet"], outdir: Path) -> list[Path]:
    """Write one file per table (and ``_header.csv``) into ``outdir``; returns the paths written."""
    import csv  # here, not at the top: reading a recording should not pay for writing one
    from concurrent.futures import ThreadPoolExecutor

    if fmt not in ("csv", "parquet"):
        raise ValueError(f"unknown export format {fmt!r} (csv or parquet)")
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    arrow = None
    try:
        import pyarrow  # noqa: F401

        arrow = True
    except ImportError:
        if fmt == "parquet":
            raise RuntimeError("parquet export needs pyarrow: pip install pyarrow") from None
    def write(name: str, table: NmonTable) -> Path:
        path = outdir / f"{_safe(name)}.{fmt}"
        if fmt == "parquet":
            import pyarrow.parquet as pq

            pq.write_table(_arrow_table(table), path, dictionary_pagesize_limit=DICTIONARY_PAGE)
        elif arrow:
            import pyarrow.csv as pcsv

            pcsv.write_csv(_arrow_table(table, for_csv=True), path)
        else:
            _write_csv_py(table, path)
        return path

    # Tables are written in parallel (Arrow encodes and compresses outside the GIL), largest first.
    items = sorted(rec.tables.items(), key=lambda kv: -kv[1].values.size)
    workers = max(1, min(len(items), os.cpu_count() or 1)) if arrow else 1
    with ThreadPoolExecutor(max_workers=workers) as pool:
        paths = dict(zip((name for name, _ in items), pool.map(lambda kv: write(*kv), items)))
    written.extend(paths[name] for name in rec.tables)
    head = outdir / "_header.csv"
    with open(head, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["key", "value"])
        for k, v in rec.header.items():
            w.writerow([csv_cell(str(k)), csv_cell(str(v))])
        w.writerow(["time_zone", csv_cell(str(rec.tz))])
    written.append(head)
    return written
