"""The chart specs nmon users expect beside physc (report/charts.py holds the spec format):
CPU user/sys/wait/idle, run queue per logical CPU, paging, disk throughput and service time,
Fibre Channel throughput, and a per-CPU heat map.

Each builder takes recorded times and numpy columns and returns one JSON-safe spec; none reads
a file. Many devices fold into the busiest :data:`charts.TOP_N` plus an "others" band, as the
disk busy chart does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from .charts import OTHERS_COLOR, PALETTE, TOP_N, _Axis, _line, _many, _spec

HEATMAP_POINTS = 480  # columns of the per-CPU heat map (each the maximum of its samples)
CPU_COLORS = {"User%": "#1d5fb4", "Sys%": "#b42318", "Wait%": "#c2410c", "Idle%": OTHERS_COLOR}


def cpu_chart(times: np.ndarray, columns: Mapping[str, np.ndarray], *, host: str) -> dict[str, Any]:
    """CPU_ALL User%, Sys%, Wait%, Idle% of the partition's logical CPUs (0-100 %)."""
    axis = _Axis(times)
    series = []
    for name in ("User%", "Sys%", "Wait%", "Idle%"):
        if name in columns:
            series.append(_line(name.rstrip("%").lower(), axis.json(columns[name]), color=CPU_COLORS[name],
                                width=1.5 if name != "Idle%" else 1.0, dash=[4, 3] if name == "Idle%" else None))
    return _spec("cpu", host, "CPU use: user, sys, wait, idle (% of the logical CPUs)", "%", axis, series,
                 y_max=100.0, note="nmon CPU_ALL; with shared processors these are shares of the partition's own use (see physc)")


def run_queue_chart(times: np.ndarray, runnable: np.ndarray, logical_cpus: np.ndarray | float, *,
                    host: str) -> dict[str, Any]:
    """PROC Runnable divided by the logical CPUs: above 1 threads wait for a CPU."""
    axis = _Axis(times)
    lcpu = np.asarray(logical_cpus, dtype=float)
    with np.errstate(all="ignore"):
        per = np.asarray(runnable, dtype=float) / np.where(lcpu > 0, lcpu, np.nan)
    series = [_line("runnable per logical CPU", axis.json(per), color=PALETTE[0], fill="rgba(29,95,180,0.08)"),
              _line("1 thread per logical CPU", color=PALETTE[4], dash=[6, 4], constant=1.0)]
    what = f"{float(lcpu):g} logical CPUs" if lcpu.ndim == 0 else "logical CPUs as recorded in each sample"
    return _spec("runqueue", host, "Run queue per logical CPU", "threads", axis, series,
                 note=f"nmon PROC Runnable / {what}")


def paging_chart(times: np.ndarray, columns: Mapping[str, np.ndarray], *, host: str) -> dict[str, Any]:
    """PAGE: paging space page-ins/outs (pgsin, pgsout) and file page-ins/outs (pgin, pgout) per second."""
    axis = _Axis(times)
    styles = {"pgsin": ("paging space in", PALETTE[4], None), "pgsout": ("paging space out", PALETTE[1], None),
              "pgin": ("file pages in", PALETTE[0], [4, 3]), "pgout": ("file pages out", PALETTE[2], [4, 3])}
    series = [_line(label, axis.json(columns[k]), color=color, dash=dash, width=1.5 if dash is None else 1.0)
              for k, (label, color, dash) in styles.items() if k in columns]
    return _spec("paging", host, "Paging (pages per second)", "pages/s", axis, series,
                 note="paging space traffic (solid) means real memory is short; file paging (dashed) is normal I/O")


def _per_device(read: Any, write: Any) -> dict[str, np.ndarray]:
    """Read + write per device from two nmon tables with the same device columns."""
    out: dict[str, np.ndarray] = {}
    for table in (read, write):
        if table is None:
            continue
        for name in table.columns:
            v = np.nan_to_num(np.asarray(table.column(name), dtype=float), nan=0.0)
            out[name] = out[name] + v if name in out and out[name].shape == v.shape else v
    return out


def disk_throughput_chart(times: np.ndarray, read: Any, write: Any, *, host: str,
                          top_n: int = TOP_N) -> dict[str, Any]:
    """DISKREAD + DISKWRITE (KB/s) per disk, the busiest by mean plus an "others" band."""
    return _many("disk-throughput", host, "Disk throughput (KB/s, read + write)", "KB/s", times,
                 _per_device(read, write), top_n=top_n, what="disks")


def disk_service_chart(times: np.ndarray, serv: Mapping[str, np.ndarray], *, host: str,
                       top_n: int = TOP_N) -> dict[str, Any]:
    """DISKSERV: average service time per transfer (ms) per disk."""
    return _many("disk-service", host, "Disk service time (ms per transfer)", "ms", times, serv,
                 top_n=top_n, what="disks")


def fc_chart(times: np.ndarray, read: Any, write: Any, *, host: str, top_n: int = TOP_N) -> dict[str, Any]:
    """FCREAD / FCWRITE (KB/s) per Fibre Channel adapter and direction."""
    series: dict[str, np.ndarray] = {}
    for table, what in ((read, "read"), (write, "write")):
        for name in (table.columns if table is not None else []):
            series[f"{name} {what}"] = np.asarray(table.column(name), dtype=float)
    return _many("fc", host, "Fibre Channel throughput (KB/s)", "KB/s", times, series, top_n=top_n,
                 what="adapter series")


_CPU_TABLE = re.compile(r"^CPU(\d+)$")


def cpu_tables(tables: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The per-logical-CPU tables (CPU01, CPU002 ...) in CPU order."""
    found = [(int(m.group(1)), name) for name in tables if (m := _CPU_TABLE.match(name))]
    return [(name, tables[name]) for _, name in sorted(found)]


def cpu_heatmap(times: np.ndarray, per_cpu: list[tuple[str, np.ndarray]], *, host: str,
                max_points: int = HEATMAP_POINTS) -> dict[str, Any]:
    """Busy % (100 - Idle%) of every logical CPU over time, one row per CPU; each cell is the
    maximum of its samples so short saturations stay visible."""
    axis = _Axis(times, max_points=max_points)
    rows = [name for name, _ in per_cpu]
    values = [axis.json(v) for _, v in per_cpu]
    spec = _spec("heatmap", host, f"Busy % per logical CPU ({len(rows)} CPUs)", "%", axis, [],
                 note="each row a logical CPU (nmon CPUnn: 100 - Idle%); darker is busier", y_max=100.0)
    spec.update({"rows": rows, "values": values})
    return spec
