"""Reading the store: collections in order, the series as one DuckDB relation."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

from .db import series_root


# Which names (hosts, frames, HMC partitions without collected outputs) each collection covers:
# findings are owned by these names, and a finding is current when its owner's newest collection has it.
PRESENCE = """SELECT collection_id, host AS name FROM hosts
              UNION SELECT collection_id, name FROM config WHERE scope = 'frame'
              UNION SELECT collection_id, split_part(attribute, '.', 2) FROM config
                    WHERE scope = 'frame' AND attribute LIKE 'partition.%'"""


def collections(con: Any) -> list[tuple[str, datetime]]:
    """(collection_id, collected_at), oldest first."""
    return con.execute("SELECT collection_id, collected_at FROM collections "
                       "ORDER BY collected_at, ingested_at").fetchall()


def hosts_matching(con: Any, target: str | None) -> set[str] | None:
    """Hosts named ``target`` or on the frame named ``target``; None = every host."""
    if not target:
        return None
    rows = con.execute("SELECT DISTINCT host FROM hosts WHERE host = ? OR frame = ?", [target, target]).fetchall()
    return {r[0] for r in rows}


def series_relation(con: Any, store: Path, hosts: set[str] | None = None, since: date | None = None) -> str | None:
    """SQL text of a relation over the catalogued series files (None when there are none).

    Columns: frame, host, date, time and the metrics of series.METRICS. Only files the
    catalogue lists are read, so files left by a killed ingest are never counted.
    """
    sql = "SELECT path, host FROM series_files"
    args: list[Any] = []
    if since is not None:
        sql += " WHERE day >= ?"
        args.append(since)
    rows = con.execute(sql, args).fetchall()
    root = series_root(Path(store))
    paths = sorted({str(root / p) for p, h in rows if hosts is None or h in hosts})
    if not paths:
        return None
    quoted = ", ".join("'" + p.replace("'", "''") + "'" for p in paths)
    return f"read_parquet([{quoted}], hive_partitioning = true, hive_types = {{'date': DATE}})"
