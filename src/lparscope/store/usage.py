"""Exact per-host, per-month usage summary of the series: ``usage_monthly``.

One row per host and calendar month (of the recorded time, ``YYYY-MM``): sample counts and exact
percentiles (linear interpolation, DuckDB ``quantile_cont`` = Spark ``percentile``) of the sized
series. Kept at ingest so that "P95 physc per partition per month" reads a few hundred rows
instead of scanning a year of snapshots.

A summary row is never merged from two partial summaries (percentiles do not merge): whenever an
ingest adds snapshots to a host-month, the row is recomputed from every snapshot of that
host-month the store holds (``recompute``). The same SQL builds the table of ``lparscope fleet``
(fleet.py); fleet_spark.py computes the same columns with Spark SQL.

Series (columns of series.METRICS; a value is missing when null or NaN):

- ``physc``: physical processor cores consumed (samples, mean, p50, p95, p99, peak);
- ``busy_pct``: ``cpu_user + cpu_sys`` of CPU_ALL, percent of the partition's logical CPUs (p95, peak);
- ``mem_used_mb``: ``mem_real_total_mb - mem_real_free_mb`` (p95, peak);
- ``entitled_max``: the largest entitled capacity seen in the month.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

# (name, SQL type) in table order; host + month is the key.
COLUMNS: list[tuple[str, str]] = [
    ("host", "VARCHAR"), ("month", "VARCHAR"), ("frame", "VARCHAR"),
    ("first_time", "TIMESTAMP"), ("last_time", "TIMESTAMP"), ("snapshots", "BIGINT"),
    ("samples", "BIGINT"), ("physc_mean", "DOUBLE"), ("physc_p50", "DOUBLE"), ("physc_p95", "DOUBLE"),
    ("physc_p99", "DOUBLE"), ("physc_peak", "DOUBLE"),
    ("busy_pct_p95", "DOUBLE"), ("busy_pct_peak", "DOUBLE"),
    ("mem_used_mb_p95", "DOUBLE"), ("mem_used_mb_peak", "DOUBLE"),
    ("entitled_max", "DOUBLE"),
]
NAMES = [c for c, _ in COLUMNS]
QUANTILES = (0.5, 0.95, 0.99)

CREATE = ("CREATE TABLE usage_monthly (" + ", ".join(f"{c} {t}" for c, t in COLUMNS)
          + ", PRIMARY KEY (host, month))")


def _ok(expr: str) -> str:
    return f"FILTER (WHERE ({expr}) IS NOT NULL AND NOT isnan({expr}))"


BUSY = "cpu_user + cpu_sys"
MEM = "mem_real_total_mb - mem_real_free_mb"

# {src}: a relation with host, frame, time and the metrics. The frame of a host-month is the one of
# its newest snapshot (a partition moved by Live Partition Mobility is still one partition).
SUMMARY_SQL = f"""
WITH q AS (
  SELECT host, strftime(time, '%Y-%m') AS month, arg_max(frame, time) AS frame,
         min(time) AS first_time, max(time) AS last_time, count(*) AS snapshots,
         count(physc) {_ok('physc')} AS samples,
         avg(physc) {_ok('physc')} AS physc_mean,
         quantile_cont(physc, [{', '.join(map(str, QUANTILES))}]) {_ok('physc')} AS pq,
         max(physc) {_ok('physc')} AS physc_peak,
         quantile_cont({BUSY}, 0.95) {_ok(BUSY)} AS busy_pct_p95,
         max({BUSY}) {_ok(BUSY)} AS busy_pct_peak,
         quantile_cont({MEM}, 0.95) {_ok(MEM)} AS mem_used_mb_p95,
         max({MEM}) {_ok(MEM)} AS mem_used_mb_peak,
         max(entitled) {_ok('entitled')} AS entitled_max
  FROM {{src}} GROUP BY host, month)
SELECT host, month, frame, first_time, last_time, snapshots, samples, physc_mean,
       pq[1] AS physc_p50, pq[2] AS physc_p95, pq[3] AS physc_p99, physc_peak,
       busy_pct_p95, busy_pct_peak, mem_used_mb_p95, mem_used_mb_peak, entitled_max
FROM q ORDER BY host, month"""


def _quote(path: str) -> str:
    return "'" + path.replace("'", "''") + "'"


def summarise_files(con: Any, files: list[tuple[str, str, str]]) -> list[tuple]:
    """Summary rows of the snapshots in ``files``: (path, frame, host) per Parquet file of the store."""
    if not files:
        return []
    import pyarrow as pa

    names = pa.table({"filename": [f[0] for f in files], "frame": [f[1] for f in files],
                      "host": [f[2] for f in files]})
    con.register("usage_files", names)
    try:
        paths = ", ".join(_quote(f[0]) for f in files)
        src = (f"(SELECT f.frame, f.host, s.* EXCLUDE (filename) FROM read_parquet([{paths}], filename = true) s "
               "JOIN usage_files f USING (filename))")
        return con.execute(SUMMARY_SQL.format(src=src)).fetchall()
    finally:
        con.unregister("usage_files")


def recompute(con: Any, root: Path, touched: Iterable[tuple[str, str]],
              new_files: list[tuple[str, str, str]] = ()) -> list[tuple]:  # type: ignore[assignment]
    """Summary rows of every (host, month) in ``touched``, from all of its snapshots.

    Reads the files the catalogue lists for that host and month plus ``new_files`` (path, frame,
    host: written by this ingest, not catalogued yet). Hosts are summarised one at a time so
    that memory stays bounded by one host's data.
    """
    by_host: dict[str, set[str]] = {}
    for host, month in touched:
        by_host.setdefault(host, set()).add(month)
    rows: list[tuple] = []
    for host in sorted(by_host):
        months = by_host[host]
        files = [(str(root / p), f, h) for p, f, h, d in con.execute(
            "SELECT path, frame, host, strftime(day, '%Y-%m') FROM series_files WHERE host = ?", [host]).fetchall()
            if d in months]
        files += [f for f in new_files if f[2] == host]
        rows += [r for r in summarise_files(con, files) if r[1] in months]
    return rows


def replace_rows(con: Any, rows: list[tuple]) -> None:
    """Put ``rows`` in place of the summary rows of the same host-months (inside the caller's transaction)."""
    if not rows:
        return
    con.executemany("DELETE FROM usage_monthly WHERE host = ? AND month = ?", [(r[0], r[1]) for r in rows])
    con.executemany(f"INSERT INTO usage_monthly VALUES ({', '.join('?' * len(NAMES))})", rows)


def backfill(con: Any, root: Path) -> None:
    """Migration step: the summary of every host-month of a store made before the summary existed."""
    touched = con.execute("SELECT DISTINCT host, strftime(day, '%Y-%m') FROM series_files").fetchall()
    replace_rows(con, recompute(con, root, touched))


def monthly(con: Any, hosts: set[str] | None = None) -> list[dict[str, Any]]:
    """The summary rows (as dicts), by host and month; ``hosts`` limits them (None = every host)."""
    cur = con.execute(f"SELECT {', '.join(NAMES)} FROM usage_monthly ORDER BY host, month")
    return [dict(zip(NAMES, r)) for r in cur.fetchall() if hosts is None or r[0] in hosts]


def arrow_schema():  # type: ignore[no-untyped-def]
    """The summary's columns as an Arrow schema (the fleet's usage_monthly.parquet, either engine)."""
    import pyarrow as pa

    kinds = {"VARCHAR": pa.string(), "TIMESTAMP": pa.timestamp("us"), "BIGINT": pa.int64(), "DOUBLE": pa.float64()}
    return pa.schema([(c, kinds[t]) for c, t in COLUMNS])


def _stats(v: Any, quantiles: tuple[float, ...]) -> tuple:
    """(count, mean, *quantiles, peak) of the finite values of ``v``; None where there are none."""
    import numpy as np

    v = v[~np.isnan(v)]
    if not v.size:
        return (0, None, *(None for _ in quantiles), None)
    q = np.percentile(v, [100 * x for x in quantiles])  # linear interpolation, as quantile_cont
    return (int(v.size), float(v.mean()), *(float(x) for x in q), float(v.max()))


def summarise_arrays(host: str, frames: Any, times: Any, cols: dict[str, Any]) -> list[tuple]:
    """The summary rows (COLUMNS order) of one host's snapshots, with numpy: SUMMARY_SQL's definitions.

    ``frames``: the frame of each snapshot; ``times``: datetime64[us]; ``cols``: float arrays of the
    metrics (NaN = missing). Used by the Spark engine, whose tasks each read one host-month.
    """
    import numpy as np

    months = times.astype("datetime64[M]")
    rows = []
    for month in np.unique(months):
        m = months == month
        t = times[m]
        pick = {k: v[m] for k, v in cols.items()}
        n, mean, p50, p95, p99, peak = _stats(pick["physc"], QUANTILES)
        _, _, busy95, busy_peak = _stats(pick["cpu_user"] + pick["cpu_sys"], (0.95,))
        _, _, mem95, mem_peak = _stats(pick["mem_real_total_mb"] - pick["mem_real_free_mb"], (0.95,))
        ent = pick["entitled"][~np.isnan(pick["entitled"])]
        last = int(np.argmax(t))  # first of the newest snapshots, as arg_max
        rows.append((host, str(month), str(frames[m][last]), t.min().item(), t.max().item(), int(m.sum()), n,
                     mean, p50, p95, p99, peak, busy95, busy_peak, mem95, mem_peak,
                     float(ent.max()) if ent.size else None))
    return rows
