"""What the dashboard pages show, read from the store (one read-only connection per request)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from .diff import config_changes, finding_changes, partition_trends, pool_forecasts, pool_trends
from .export import LATEST_PER_HOST
from .query import series_relation

SEVERITIES = ("critical", "warning", "info")
RECENT_DAYS = 14  # detailed series shown on charts: the last two weeks of data


def current_hosts(con: Any) -> list[dict[str, Any]]:
    rows = con.execute(f"""WITH cur AS ({LATEST_PER_HOST})
        SELECT h.host, h.role, h.frame, h.pool_id, c.collected_at,
               count(f.rule_id) FILTER (WHERE f.severity = 'critical'),
               count(f.rule_id) FILTER (WHERE f.severity = 'warning'),
               count(f.rule_id) FILTER (WHERE f.severity = 'info')
        FROM cur JOIN hosts h USING (collection_id, host) JOIN collections c USING (collection_id)
        LEFT JOIN findings f ON f.collection_id = h.collection_id AND f.host = h.host
        GROUP BY ALL ORDER BY h.frame NULLS LAST, h.host""").fetchall()
    return [{"host": h, "role": r, "frame": fr, "pool": p, "collected_at": str(w)[:19],
             "critical": c, "warning": wa, "info": i} for h, r, fr, p, w, c, wa, i in rows]


def current_findings(con: Any, host: str | None = None, severity: str | None = None,
                     area: str | None = None, hosts: set[str] | None = None) -> list[dict[str, Any]]:
    sql = f"""WITH cur AS ({LATEST_PER_HOST})
        SELECT f.host, f.rule_id, f.severity, f.category, f.subject, f.title, f.message FROM findings f
        JOIN cur ON f.collection_id = cur.collection_id AND f.host = cur.host WHERE true"""
    args: list[Any] = []
    for column, value in (("f.host", host), ("f.severity", severity), ("f.category", area)):
        if value:
            sql += f" AND {column} = ?"
            args.append(value)
    rows = con.execute(sql + " ORDER BY CASE f.severity WHEN 'critical' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, "
                       "f.host, f.rule_id", args).fetchall()
    keys = ("host", "rule_id", "severity", "category", "subject", "title", "message")
    return [dict(zip(keys, r)) for r in rows if hosts is None or r[0] in hosts]


def areas(con: Any) -> list[str]:
    return [r[0] for r in con.execute("SELECT DISTINCT category FROM findings WHERE category IS NOT NULL ORDER BY 1").fetchall()]


def latest_section(con: Any, section: str, host: str | None = None) -> Any:
    """A JSON report section from the newest collection that has it (optionally: that has ``host``)."""
    sql = """SELECT s.body FROM report_sections s JOIN collections c USING (collection_id)
             WHERE s.section = ?"""
    args: list[Any] = [section]
    if host:
        sql += " AND EXISTS (SELECT 1 FROM hosts h WHERE h.collection_id = s.collection_id AND h.host = ?)"
        args.append(host)
    row = con.execute(sql + " ORDER BY c.collected_at DESC, c.ingested_at DESC LIMIT 1", args).fetchone()
    return json.loads(row[0]) if row and row[0] else None


def plan_rows(plan: Any, names: set[str]) -> list[dict[str, str]]:
    """Entries of the report's ``plan`` section that mention one of ``names`` (shown generically)."""
    items = plan if isinstance(plan, list) else next(
        (v for v in (plan or {}).values() if isinstance(v, list)), []) if isinstance(plan, dict) else []
    out = []
    for item in items:
        if not isinstance(item, dict):
            continue
        flat = {k: (v if isinstance(v, (str, int, float)) or v is None else json.dumps(v, ensure_ascii=False))
                for k, v in item.items()}
        if not names or any(str(v) in names for v in flat.values()):
            out.append({k: "" if v is None else str(v) for k, v in flat.items()})
    return out


def daily_chart(title: str, trends: list[dict[str, Any]], note: str = "") -> dict[str, Any]:
    from datetime import datetime, timezone

    xs = [datetime.fromisoformat(t["date"]).replace(tzinfo=timezone.utc).timestamp() for t in trends]
    return {"title": title, "note": note, "unit": "cores", "x": xs,
            "series": [{"label": "daily P95", "values": [t["p95"] for t in trends]},
                       {"label": "daily peak", "values": [t["peak"] for t in trends]}]}


def host_series_chart(con: Any, store: Path, host: str) -> dict[str, Any] | None:
    rel = series_relation(con, store, {host})
    if rel is None:
        return None
    last = con.execute(f"SELECT max(time) FROM {rel}").fetchone()[0]
    start = last - timedelta(days=RECENT_DAYS)
    rows = con.execute(f"SELECT epoch(time), physc, entitled FROM {rel} WHERE time > ? ORDER BY time", [start]).fetchall()
    clean = lambda v: None if v is None or v != v else round(v, 4)  # noqa: E731 - NaN -> gap
    return {"title": f"{host}: physical cores consumed", "unit": "cores",
            "note": f"nmon LPAR PhysicalCPU and entitlement, last {RECENT_DAYS} days of data",
            "x": [r[0] for r in rows],
            "series": [{"label": "physc", "values": [clean(r[1]) for r in rows]},
                       {"label": "entitled", "values": [clean(r[2]) for r in rows]}]}


def pool_series_chart(con: Any, store: Path, frame: str, hosts: set[str]) -> dict[str, Any] | None:
    rel = series_relation(con, store, hosts)
    if rel is None:
        return None
    last = con.execute(f"SELECT max(time) FROM {rel} WHERE frame = ?", [frame]).fetchone()[0]
    if last is None:
        return None
    rows = con.execute(f"""WITH b AS (SELECT coalesce(CAST(pool_id AS INTEGER), 0) AS pool, host,
                               time_bucket(INTERVAL 5 MINUTE, time) AS t, avg(physc) AS physc FROM {rel}
                               WHERE frame = ? AND time > ? AND NOT isnan(physc) GROUP BY ALL)
                           SELECT epoch(t), pool, sum(physc) FROM b GROUP BY ALL ORDER BY 1""",
                       [frame, last - timedelta(days=RECENT_DAYS)]).fetchall()
    pools = sorted({r[1] for r in rows})
    xs = sorted({r[0] for r in rows})
    at = {x: i for i, x in enumerate(xs)}
    series = []
    for p in pools:
        vals: list[float | None] = [None] * len(xs)
        for x, pool, used in rows:
            if pool == p:
                vals[at[x]] = round(used, 4)
        series.append({"label": f"pool {p}", "values": vals})
    return {"title": f"{frame}: shared pool use (sum of partitions' physc, 5-minute buckets)", "unit": "cores",
            "note": f"last {RECENT_DAYS} days of data", "x": xs, "series": series}


def frame_page(con: Any, store: Path, frame: str) -> dict[str, Any]:
    hosts = {h["host"] for h in current_hosts(con) if h["frame"] == frame}
    frames = latest_section(con, "frames") or []
    section = next((f for f in frames if f.get("name") == frame), None)
    trends = pool_trends(con, store, frame)
    charts = [c for c in [pool_series_chart(con, store, frame, hosts)] if c]
    for pool in sorted({t["pool"] for t in trends}):
        charts.append(daily_chart(f"{frame} pool {pool}: daily P95 and peak", [t for t in trends if t["pool"] == pool]))
    plan = latest_section(con, "plan")
    return {"frame": frame, "hosts": sorted(hosts), "section": section, "charts": charts,
            "forecasts": pool_forecasts(trends), "plan": plan_rows(plan, hosts | {frame}) if plan else [],
            "has_plan": plan is not None, "changes": config_changes(con, frame)}


def host_page(con: Any, store: Path, host: str, severity: str | None, area: str | None) -> dict[str, Any]:
    charts = [c for c in [host_series_chart(con, store, host)] if c]
    trends = partition_trends(con, store, host)
    if trends:
        charts.append(daily_chart(f"{host}: daily P95 and peak of physc", trends))
    sizing = con.execute(f"""WITH cur AS ({LATEST_PER_HOST}) SELECT s.* EXCLUDE (collection_id) FROM sizing s
                             JOIN cur USING (collection_id, host) WHERE s.host = ?""", [host]).fetchall()
    cols = [d[0] for d in con.description] if sizing else []
    return {"host": host, "findings": current_findings(con, host, severity, area), "charts": charts,
            "changes": config_changes(con, host), "finding_changes": finding_changes(con, host),
            "sizing": dict(zip(cols, sizing[0])) if sizing else None,
            "info": next((h for h in current_hosts(con) if h["host"] == host), None)}

