"""Fleet scale: the per-host reading and sizing over a folder of collections and nmon files.

Two engines run the same functions of this module and write the same layout:

    OUT/series/frame=<frame>/host=<host>/month=<YYYY-MM>/*.parquet     (series.METRICS per snapshot)
    OUT/usage_monthly.parquet                                            (fleet ingest: usage.py summary)
    OUT/findings.parquet                                                 (fleet ingest: collections' findings)
    OUT/sizing.parquet                                                   (fleet size: one row per host)

``duckdb`` (the default) works in this process; ``spark`` (fleet_spark.py, ``pip install
lparscope[spark]``) hands the same work items to Spark executors. A work item is one nmon
recording (its series) or one collection: a top-level folder or bundle of command outputs (its
findings). Sizing reads a host's whole series from the Parquet layout, in time order, and calls
sizing.cpu.size_partition with the settings the recording itself carries (last entitled,
virtual CPUs, pool CPUs and capped flag of the nmon LPAR section).

Compaction: a host-month fed by several recordings (daily nmon files, say) first gets one file per
recording (or Spark task); ``compact`` then rewrites each such folder into one file sorted by time,
so the layout holds one file per host and month whatever the recordings were. Both engines run it.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from .series import METRICS, recording_columns, recording_frame, safe_part

FINDING_COLUMNS = ["collection", "host", "rule_id", "severity", "category", "subject", "title"]
SIZING_COLUMNS = ["host", "frame", "n_samples", "first_time", "last_time", "peak_source", "peak_mean",
                  "peak_p95", "peak_max", "overall_p95", "current_ec", "recommended_ec", "current_vp",
                  "recommended_vp", "recommended_uncapped"]


def _is_nmon_file(path: Path) -> bool:
    import gzip

    from ..inputs import is_nmon

    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
        if head[:2] == b"\x1f\x8b":
            with gzip.open(path, "rb") as gz:
                head = gz.read(4096)
    except OSError:
        return False
    return is_nmon(head)


def work_items(folder: Path) -> tuple[list[str], list[str]]:
    """(nmon recordings anywhere under ``folder``, collections: its other top-level entries)."""
    folder = Path(folder)
    if _is_nmon_file(folder):
        return [str(folder)], []
    nmon = sorted(str(p) for p in folder.rglob("*") if p.is_file() and _is_nmon_file(p))
    collections = []
    for entry in sorted(folder.iterdir()):
        if entry.is_file() and str(entry) in nmon:
            continue
        if entry.is_dir() and all(str(p) in nmon for p in entry.rglob("*") if p.is_file()):
            continue  # a folder of nmon recordings only
        collections.append(str(entry))
    return nmon, collections


def read_recording(path: str) -> tuple[str, str, dict[str, np.ndarray]] | None:
    """(frame, host, columns) of one nmon file: the store's per-host reading."""
    from ..nmon import read_nmon
    from ..input_items import short_host

    try:
        rec = read_nmon(path)
    except Exception:  # a broken recording is skipped, like a bad input in analyze
        return None
    cols = recording_columns(rec)
    if cols is None or not len(cols["time"]):
        return None
    host = (short_host(rec.host) if rec.host else "") or Path(path).name.split(".")[0]
    return recording_frame(rec), safe_part(host), cols


def recording_batch(path: str):  # type: ignore[no-untyped-def]
    """One recording as an Arrow table with the partition columns (frame, host, date) added."""
    import pyarrow as pa

    from .series import to_arrow

    got = read_recording(path)
    if got is None:
        return None
    frame, host, cols = got
    order = np.argsort(cols["time"], kind="stable")
    cols = {k: v[order] for k, v in cols.items()}
    table = to_arrow(cols)
    n = len(cols["time"])
    months = cols["time"].astype("datetime64[M]").astype(str)
    return table.append_column("frame", pa.array([frame] * n, pa.string())) \
                .append_column("host", pa.array([host] * n, pa.string())) \
                .append_column("month", pa.array(months, pa.string()))


def collection_findings(path: str) -> list[tuple]:
    """The findings of one collection (the whole analysis, as ``lparscope analyze`` runs it)."""
    from ..pipeline import analyze

    try:
        analysis = analyze([path])
    except Exception:
        return []
    name = Path(path).name
    return [(name, f.host, f.rule.id, f.rule.severity, f.rule.category, f.subject, f.rule.title)
            for f in analysis.findings]


def size_series(host: str, frame: str, times: np.ndarray, cols: dict[str, np.ndarray]) -> tuple:
    """One host's sizing row from its whole series (sorted by time)."""
    from ..sizing.cpu import size_partition

    def last(name: str) -> float | None:
        v = cols[name][~np.isnan(cols[name])]
        return float(v[-1]) if v.size else None

    vp, capped = last("virtual_cpus"), last("capped")
    s = size_partition(times.astype("datetime64[s]"), cols["physc"], ec=last("entitled"),
                       vp=int(vp) if vp is not None else None, pool_cores=last("pool_cpus"),
                       capped=None if capped is None else capped >= 1)
    return (host, frame, s.n_samples, times[0].item() if len(times) else None,
            times[-1].item() if len(times) else None, s.peak_source, s.peak.mean, s.peak.p95, s.peak.max,
            s.overall.p95, s.current_ec, s.recommended_ec, s.current_vp, s.recommended_vp, s.recommended_uncapped)


def sizing_schema():  # type: ignore[no-untyped-def]
    import pyarrow as pa

    f, i, t, s, b = pa.float64(), pa.int64(), pa.timestamp("us"), pa.string(), pa.bool_()
    types = [s, s, i, t, t, s, f, f, f, f, f, f, i, i, b]
    return pa.schema(list(zip(SIZING_COLUMNS, types)))


def finding_schema():  # type: ignore[no-untyped-def]
    import pyarrow as pa

    return pa.schema([(c, pa.string()) for c in FINDING_COLUMNS])


def size_arrow(table: Any):  # type: ignore[no-untyped-def]
    """Sizing rows (an Arrow table) from the series rows of one or more hosts (an Arrow table)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    rows = []
    for host in sorted(set(table.column("host").to_pylist())):
        part = table.filter(pc.equal(table.column("host"), host))
        part = part.sort_by([("time", "ascending")])
        times = part.column("time").to_numpy().astype("datetime64[us]")
        cols = {m: part.column(m).to_numpy(zero_copy_only=False).astype(float) for m in METRICS}
        frame = part.column("frame")[0].as_py()
        rows.append(size_series(host, frame, times, cols))
    return pa.Table.from_pylist([dict(zip(SIZING_COLUMNS, r)) for r in rows], schema=sizing_schema())


def _item_name(path: str) -> str:
    return "part-" + hashlib.sha256(path.encode()).hexdigest()[:16]


# ----------------------------------------------------------------------------- DuckDB engine

def ingest_duckdb(folder: Path, out: Path) -> dict[str, int]:
    """Read every work item in this process; write OUT/series/... and OUT/findings.parquet."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .series import write_days

    nmon, collections = work_items(folder)
    series_dir = Path(out) / "series"
    if series_dir.exists():
        shutil.rmtree(series_dir)
    files = rows = 0
    for path in nmon:
        got = read_recording(path)
        if got is None:
            continue
        frame, host, cols = got
        written = write_days(series_dir, frame, host, cols, _item_name(path), partition="month")
        rows += sum(w[2] for w in written)
    for folder in folders_to_compact(series_dir):
        compact(folder)
    files = sum(1 for _ in series_dir.rglob("*.parquet")) if series_dir.exists() else 0
    if files:
        usage_duckdb(out)
    else:
        (Path(out) / "usage_monthly.parquet").unlink(missing_ok=True)  # none left from an earlier run
    found = [dict(zip(FINDING_COLUMNS, r)) for c in collections for r in collection_findings(c)]
    pq.write_table(pa.Table.from_pylist(found, schema=finding_schema()), Path(out) / "findings.parquet")
    return {"recordings": len(nmon), "collections": len(collections), "series_files": files, "rows": rows,
            "findings": len(found)}


def folders_to_compact(series_dir: Path) -> list[str]:
    """The host-month folders holding more than one Parquet file."""
    counts: dict[Path, int] = {}
    for p in Path(series_dir).rglob("*.parquet"):
        counts[p.parent] = counts.get(p.parent, 0) + 1
    return sorted(str(d) for d, n in counts.items() if n > 1)


def compact(folder: str) -> str:
    """Rewrite the Parquet files of one host-month folder as one file, rows in time order.

    The new file is written under a hidden name and renamed before the old ones are removed (with
    Spark's ``.crc`` side files), so a reader sees the rows once or, for a moment, twice, never lost.
    """
    import os

    import pyarrow as pa
    import pyarrow.parquet as pq

    from .series import arrow_schema

    parts = sorted(Path(folder).glob("*.parquet"))
    table = pa.concat_tables(pq.read_table(p, schema=arrow_schema()) for p in parts)
    table = table.sort_by([("time", "ascending")])
    name = "part-" + hashlib.sha256("\n".join(p.name for p in parts).encode()).hexdigest()[:16] + ".parquet"
    tmp = Path(folder) / f".{name}.tmp"
    pq.write_table(table, tmp)
    os.replace(tmp, Path(folder) / name)
    for p in parts:
        if p.name != name:
            p.unlink()
            (p.parent / f".{p.name}.crc").unlink(missing_ok=True)
    return str(Path(folder) / name)


def usage_duckdb(out: Path) -> Any:
    """OUT/usage_monthly.parquet: the usage summary of every host-month (usage.py), with DuckDB."""
    import duckdb
    import pyarrow.parquet as pq

    from .usage import SUMMARY_SQL, arrow_schema

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    try:
        table = _arrow_table(con.sql(SUMMARY_SQL.format(src=_series_src(out)))).cast(arrow_schema())
    finally:
        con.close()
    pq.write_table(table, Path(out) / "usage_monthly.parquet")
    return table


def host_month_items(series_dir: Path) -> list[tuple[str, str, list[str]]]:
    """(host, month, folders): the folders of each host-month (one, unless the host changed frame)."""
    items: dict[tuple[str, str], list[str]] = {}
    for folder in sorted(Path(series_dir).glob("frame=*/host=*/month=*")):
        host, month = folder.parent.name[len("host="):], folder.name[len("month="):]
        items.setdefault((host, month), []).append(str(folder))
    return [(h, m, f) for (h, m), f in sorted(items.items())]


def summarise_item(item: tuple[str, str, list[str]], metrics: tuple[str, ...] | None = None) -> list[tuple]:
    """usage.py summary rows of one host-month of the layout, read whole (a Spark task's work).

    ``metrics``: the series to read (default usage.INPUTS); the others come out as None.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .usage import INPUTS, summarise_arrays

    host, _, folders = item
    wanted = ["time", *(metrics or INPUTS)]
    tables, names, ends = [], [], []
    for folder in folders:
        for path in sorted(Path(folder).glob("*.parquet")):
            tables.append(pq.read_table(path, columns=wanted))
            names.append(Path(folder).parent.parent.name[len("frame="):])
            ends.append((ends[-1] if ends else 0) + tables[-1].num_rows)
    if not tables:
        return []
    table = pa.concat_tables(tables)
    times = table.column("time").to_numpy().astype("datetime64[us]")
    cols = {m: table.column(m).to_numpy(zero_copy_only=False).astype(float, copy=False) for m in wanted[1:]}
    return summarise_arrays(host, lambda i: names[int(np.searchsorted(ends, i, side="right"))], times, cols)


def series_glob(out: Path) -> str:
    return str(Path(out) / "series" / "**" / "*.parquet").replace("'", "''")


def _series_src(out: Path) -> str:
    """The layout as a relation: frame, host (from the folder names), time and the metrics."""
    return (f"(SELECT frame, host, time, {', '.join(METRICS)} FROM read_parquet('{series_glob(out)}', "
            "hive_partitioning = true, hive_types_autocast = false))")


def _arrow_table(result: Any) -> Any:
    """A DuckDB relation as an Arrow table (to_arrow_table in recent DuckDB, fetch_arrow_table before)."""
    fetch = getattr(result, "to_arrow_table", None) or result.fetch_arrow_table
    return fetch()


def size_duckdb(out: Path) -> Any:
    """Sizing per host from OUT/series with DuckDB; writes OUT/sizing.parquet and returns the table."""
    import duckdb
    import pyarrow.parquet as pq

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")  # no progress bar on the user's terminal or in piped output
    try:
        hosts = [r[0] for r in con.execute(
            f"SELECT DISTINCT host FROM read_parquet('{series_glob(out)}', hive_partitioning = true) ORDER BY 1").fetchall()]
        import pyarrow as pa

        parts = []
        for host in hosts:
            quoted = host.replace("'", "''")
            t = con.sql(f"""SELECT time, {', '.join(METRICS)}, frame, host FROM
                            read_parquet('{series_glob(out)}', hive_partitioning = true, hive_types_autocast = false)
                            WHERE host = '{quoted}' ORDER BY time""")
            parts.append(size_arrow(_arrow_table(t)))
        table = pa.concat_tables(parts) if parts else sizing_schema().empty_table()
    finally:
        con.close()
    pq.write_table(table, Path(out) / "sizing.parquet")
    return table


MONTHLY_P95 = """SELECT host, strftime(time, '%Y-%m') AS month, count(*) AS samples,
                        quantile_cont(physc, 0.95) AS p95
                 FROM {src} WHERE physc IS NOT NULL AND NOT isnan(physc) GROUP BY ALL ORDER BY host, month"""


def monthly_p95_duckdb(out: Path) -> list[tuple]:
    """"P95 physc per partition per month" over the Parquet layout, with DuckDB."""
    import duckdb

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")  # no progress bar on the user's terminal or in piped output
    try:
        return con.execute(MONTHLY_P95.format(src=_series_src(out))).fetchall()
    finally:
        con.close()
