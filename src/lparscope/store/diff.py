"""``lparscope store diff``: what changed between collections, and where usage is heading.

Configuration changes compare each host (or frame) with its previous collection: an attribute
whose value differs, appears or disappears is one change (attribute, old, new, when seen = the
newer collection's time). Findings are matched by rule, host and subject: present now and not
before = opened, present before and not now = closed. Trends are daily P95 and peak of physc per
partition and per shared pool; a pool's use is the sum of its partitions' physc in 5-minute
buckets (each partition's mean over the bucket), since partitions' snapshots are not aligned.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime
from pathlib import Path
from typing import Any

from .forecast import linear_forecast
from .query import PRESENCE, collections, hosts_matching, series_relation


def _pairs(seq: list[tuple[str, datetime]], since: date | None) -> list[tuple[tuple[str, datetime], tuple[str, datetime]]]:
    """Consecutive (previous, current) collections; with ``since``, only currents seen on or after it."""
    out = []
    for prev, cur in zip(seq, seq[1:]):
        if since is None or cur[1].date() >= since:
            out.append((prev, cur))
    return out


def config_changes(con: Any, target: str | None = None, since: date | None = None) -> list[dict[str, Any]]:
    hosts = hosts_matching(con, target)
    order = collections(con)
    when = dict(order)
    rows = con.execute("SELECT collection_id, scope, name, attribute, value FROM config").fetchall()
    snap: dict[tuple[str, str], dict[str, dict[str, str | None]]] = defaultdict(dict)
    for cid, scope, name, attr, value in rows:
        if target and not (name == target or (hosts is not None and scope == "host" and name in hosts)):
            continue
        snap[(scope, name)].setdefault(cid, {})[attr] = value
    changes = []
    for (scope, name), per in snap.items():
        seq = [(cid, when[cid]) for cid, _ in order if cid in per]
        for (pcid, _), (ccid, cwhen) in _pairs(seq, since):
            old, new = per[pcid], per[ccid]
            for attr in sorted(set(old) | set(new)):
                if old.get(attr) != new.get(attr):
                    changes.append({"scope": scope, "name": name, "attribute": attr, "old": old.get(attr),
                                    "new": new.get(attr), "seen": cwhen.isoformat(sep=" "), "collection": ccid[:12]})
    return sorted(changes, key=lambda c: (c["seen"], c["scope"], c["name"], c["attribute"]))


def finding_changes(con: Any, target: str | None = None, since: date | None = None) -> list[dict[str, Any]]:
    hosts = hosts_matching(con, target)
    order = collections(con)
    when = dict(order)
    present = con.execute(PRESENCE).fetchall()
    by_host: dict[str, set[str]] = defaultdict(set)
    for cid, host in present:
        by_host[host].add(cid)
    rows = con.execute("SELECT collection_id, fingerprint, rule_id, host, subject, severity, category, title "
                       "FROM findings").fetchall()
    found: dict[str, dict[str, dict[str, tuple]]] = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        found[r[3] or ""][r[0]][r[1]] = r
    out = []
    for host, cids in by_host.items():
        if hosts is not None and host not in hosts and host != target:
            continue
        seq = [(cid, when[cid]) for cid, _ in order if cid in cids]
        for (pcid, _), (ccid, cwhen) in _pairs(seq, since):
            before, now = found[host].get(pcid, {}), found[host].get(ccid, {})
            for change, keys, src in (("opened", set(now) - set(before), now),
                                      ("closed", set(before) - set(now), before)):
                for k in sorted(keys):
                    r = src[k]
                    out.append({"change": change, "host": host, "rule_id": r[2], "subject": r[4], "severity": r[5],
                                "category": r[6], "title": r[7], "seen": cwhen.isoformat(sep=" ")})
    return sorted(out, key=lambda c: (c["seen"], c["host"], c["change"], c["rule_id"] or ""))


def partition_trends(con: Any, store: Path, target: str | None = None, since: date | None = None) -> list[dict[str, Any]]:
    """Daily P95 and peak of physc per partition."""
    rel = series_relation(con, store, hosts_matching(con, target), since)
    if rel is None:
        return []
    rows = con.execute(f"""SELECT frame, host, date, count(*) AS n, quantile_cont(physc, 0.95) AS p95,
                           max(physc) AS peak FROM {rel} WHERE physc IS NOT NULL AND NOT isnan(physc)
                           GROUP BY ALL ORDER BY frame, host, date""").fetchall()
    return [{"frame": f, "host": h, "date": d.isoformat(), "samples": n, "p95": round(p, 4), "peak": round(m, 4)}
            for f, h, d, n, p, m in rows]


def pool_trends(con: Any, store: Path, target: str | None = None, since: date | None = None) -> list[dict[str, Any]]:
    """Daily P95 and peak of a shared pool's use: the sum of its partitions' physc per 5-minute bucket."""
    rel = series_relation(con, store, hosts_matching(con, target), since)
    if rel is None:
        return []
    rows = con.execute(f"""
        WITH latest AS (SELECT host, arg_max(pool_id, c.collected_at) AS pool_id FROM hosts
                        JOIN collections c USING (collection_id) GROUP BY host),
        per_host AS (SELECT s.frame, coalesce(CAST(s.pool_id AS INTEGER), l.pool_id, 0) AS pool, s.host,
                            time_bucket(INTERVAL 5 MINUTE, s.time) AS bucket, avg(s.physc) AS physc
                     FROM {rel} s LEFT JOIN latest l ON l.host = s.host
                     WHERE s.physc IS NOT NULL AND NOT isnan(s.physc) GROUP BY ALL),
        pool AS (SELECT frame, pool, bucket, sum(physc) AS used, count(*) AS partitions FROM per_host GROUP BY ALL)
        SELECT frame, pool, CAST(bucket AS DATE) AS day, quantile_cont(used, 0.95), max(used), max(partitions)
        FROM pool GROUP BY ALL ORDER BY frame, pool, day""").fetchall()
    return [{"frame": f, "pool": p, "date": d.isoformat(), "p95": round(q, 4), "peak": round(m, 4), "partitions": n}
            for f, p, d, q, m, n in rows]


def pool_forecasts(trends: list[dict[str, Any]], horizon: int = 30) -> list[dict[str, Any]]:
    by_pool: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for t in trends:
        by_pool[(t["frame"], t["pool"])].append(t)
    out = []
    for (frame, pool), days in sorted(by_pool.items()):
        first = date.fromisoformat(days[0]["date"])
        x = [float((date.fromisoformat(d["date"]) - first).days) for d in days]
        fc = linear_forecast(x, [d["peak"] for d in days], horizon)
        out.append({"frame": frame, "pool": pool, "days": len(days),
                    "forecast": fc.to_dict() if fc else None,
                    "note": "" if fc else "fewer than 3 days of data: no forecast"})
    return out


def diff(con: Any, store: Path, target: str | None = None, since: date | None = None,
         horizon: int = 30) -> dict[str, Any]:
    """Everything ``store diff`` prints, as a JSON-ready dict."""
    pools = pool_trends(con, store, target, since)
    return {
        "target": target, "since": since.isoformat() if since else None,
        "collections": [{"collection": c[:12], "collected_at": w.isoformat(sep=" ")} for c, w in collections(con)],
        "config_changes": config_changes(con, target, since),
        "findings": finding_changes(con, target, since),
        "partition_trends": partition_trends(con, store, target, since),
        "pool_trends": pools,
        "pool_forecasts": pool_forecasts(pools, horizon),
    }
