"""``lparscope store export``: OpenMetrics text of current findings and sizing; any table as CSV/Parquet.

"Current" is, per host, its latest collection in the store. OpenMetrics (the Prometheus text
exposition format with ``# EOF``): every metric is a gauge, label values are escaped
(backslash, double quote, newline).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from .query import PRESENCE, series_relation
from .schema import TABLES

LATEST_PER_HOST = f"""SELECT p.name AS host, p.collection_id FROM ({PRESENCE}) p JOIN collections c USING (collection_id)
                     QUALIFY row_number() OVER (PARTITION BY p.name ORDER BY c.collected_at DESC, c.ingested_at DESC) = 1"""


def _label(v: Any) -> str:
    return str("" if v is None else v).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _labels(**kv: Any) -> str:
    return "{" + ",".join(f'{k}="{_label(v)}"' for k, v in kv.items()) + "}"


def _num(v: float) -> str:
    if isinstance(v, int) and not isinstance(v, bool):
        return str(v)
    return "NaN" if v is None or (isinstance(v, float) and math.isnan(v)) else repr(float(v))


def openmetrics(con: Any) -> str:
    lines: list[str] = []

    def family(name: str, help_: str, samples: list[tuple[str, Any]]) -> None:
        lines.append(f"# TYPE {name} gauge")
        lines.append(f"# HELP {name} {help_}")
        lines.extend(f"{name}{labels} {_num(v)}" for labels, v in samples)

    counts = con.execute(f"""WITH cur AS ({LATEST_PER_HOST})
        SELECT cur.host, s.severity, count(f.rule_id) FROM cur CROSS JOIN (VALUES ('critical'), ('warning'), ('info')) s(severity)
        LEFT JOIN findings f ON f.collection_id = cur.collection_id AND f.host = cur.host AND f.severity = s.severity
        GROUP BY ALL ORDER BY 1, 2""").fetchall()
    family("lparscope_findings", "Findings per host and severity in the host's latest collection.",
           [(_labels(host=h, severity=s), n) for h, s, n in counts])
    active = con.execute(f"""WITH cur AS ({LATEST_PER_HOST})
        SELECT f.host, f.rule_id, f.subject, f.severity, f.category FROM findings f
        JOIN cur ON f.collection_id = cur.collection_id AND f.host = cur.host ORDER BY 1, 2, 3""").fetchall()
    family("lparscope_finding_active", "1 for each finding open in the host's latest collection.",
           [(_labels(host=h, rule_id=r, subject=s, severity=sev, category=c), 1) for h, r, s, sev, c in active])
    sizing = con.execute(f"""WITH cur AS ({LATEST_PER_HOST})
        SELECT s.host, s.current_ec, s.recommended_ec, s.current_vp, s.recommended_vp, s.peak_p95, s.peak_max
        FROM sizing s JOIN cur ON s.collection_id = cur.collection_id AND s.host = cur.host ORDER BY 1""").fetchall()
    for i, (name, help_) in enumerate([
            ("lparscope_sizing_current_ec_cores", "Entitled capacity configured (processing units)."),
            ("lparscope_sizing_recommended_ec_cores", "Entitled capacity recommended from measured use."),
            ("lparscope_sizing_current_vp", "Online virtual processors."),
            ("lparscope_sizing_recommended_vp", "Virtual processors recommended from measured use."),
            ("lparscope_sizing_peak_p95_cores", "P95 of physc in the peak window."),
            ("lparscope_sizing_peak_max_cores", "Highest physc in the peak window.")], start=1):
        samples = [(_labels(host=row[0]), row[i]) for row in sizing if row[i] is not None]
        family(name, help_, samples)
    stamp = con.execute("SELECT max(epoch(collected_at)) FROM collections").fetchone()[0]
    family("lparscope_store_last_collected_timestamp_seconds", "Time of the newest collection in the store.",
           [("", stamp)] if stamp is not None else [])
    lines.append("# EOF")
    return "\n".join(lines) + "\n"


def export_table(con: Any, store: Path, table: str, fmt: str, out: Path) -> int:
    """Write one store table (or ``series``: every catalogued time series row) to ``out``."""
    if fmt not in ("csv", "parquet"):
        raise ValueError(f"unknown format {fmt!r}: csv or parquet")
    if table == "series":
        rel = series_relation(con, store)
        if rel is None:
            raise ValueError("the store holds no time series yet")
        source = f"SELECT * FROM {rel} ORDER BY frame, host, time"
    elif table in TABLES:
        source = f"SELECT * FROM {table}"
    else:
        raise ValueError(f"unknown table {table!r}: one of {', '.join((*TABLES, 'series'))}")
    target = str(out).replace("'", "''")
    option = "FORMAT CSV, HEADER" if fmt == "csv" else "FORMAT PARQUET"
    con.execute(f"COPY ({source}) TO '{target}' ({option})")
    return int(con.execute(f"SELECT count(*) FROM ({source})").fetchone()[0])
