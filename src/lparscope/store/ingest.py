"""``lparscope store ingest``: analyse inputs and keep everything in the store, once, atomically.

Idempotent: a collection is identified by the content hashes of its files (names and folders do
not matter), and a collection already in the store adds nothing. Atomic: the series Parquet
files are written first under names no catalogue row lists yet, then every catalogue row goes in
one DuckDB transaction, with the usage summary of every host-month the collection adds
snapshots to (usage.py: recomputed from all of that host-month's snapshots); a run killed before its COMMIT leaves the catalogue as it was, and the
unlisted files are removed the next time the store is opened for writing (db.remove_orphans).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..input_items import text_name
from .db import connect, series_root
from .flatten import config_rows, finding_rows, host_frames, sizing_rows
from .series import UNKNOWN_FRAME, recording_columns, recording_frame, write_days
from .usage import recompute, replace_rows


@dataclass
class IngestResult:
    collection_id: str
    added: bool
    hosts: int = 0
    findings: int = 0
    series_files: int = 0
    problems: list[str] = field(default_factory=list)


def _files(paths: list[str]) -> list[Path]:
    """The regular files given or under a folder given, each once (overlapping paths given)."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out += sorted(f for f in path.rglob("*") if f.is_file() and not f.is_symlink())
        elif path.is_file():
            out.append(path)
    once: dict[Path, Path] = {}
    for f in out:
        once.setdefault(f.resolve(), f)
    return list(once.values())


def content_hashes(paths: list[str]) -> list[tuple[str, str, int]]:
    """(path, sha256, bytes) of every regular file given or under a folder given."""
    out = []
    for f in _files(paths):
        h = hashlib.sha256()
        try:
            with open(f, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
            out.append((text_name(str(f)), h.hexdigest(), f.stat().st_size))  # a name that is not UTF-8: as Latin-1
        except OSError:
            continue  # unreadable: the analysis reports it
    return out


def collection_id(hashes: list[tuple[str, str, int]]) -> str:
    return hashlib.sha256("\n".join(sorted(h for _, h, _ in hashes)).encode()).hexdigest()


def _collected_at(analysis: Any, hashes: list[tuple[str, str, int]]) -> datetime:
    """When the data was collected: the newest nmon snapshot, else the newest file's mtime (UTC)."""
    import numpy as np

    newest = None
    for host in analysis.estate.hosts.values():
        rec = host.nmon
        for table in (rec.tables.values() if rec is not None else []):
            t = np.asarray(table.times).astype("datetime64[s]")
            t = t[~np.isnat(t)]
            if t.size:
                last = t.max().item()
                newest = last if newest is None or last > newest else newest
            break
    if newest is not None:
        return newest
    mtimes = [os.stat(p).st_mtime for p, _, _ in hashes if os.path.exists(p)]
    stamp = max(mtimes) if mtimes else datetime.now(timezone.utc).timestamp()
    return datetime.fromtimestamp(stamp, timezone.utc).replace(tzinfo=None)


def _serial(rec: Any) -> str:
    return (rec.header.get("SerialNumber") or "").strip()


def _not_stored(con: Any, host: str, cols: dict[str, Any]) -> dict[str, Any]:
    """Drop snapshots the store already holds for this host (a recording ingested again with other files)."""
    import numpy as np

    ranges = con.execute("SELECT first_time, last_time FROM series_files WHERE host = ?", [host]).fetchall()
    if not ranges:
        return cols
    t = cols["time"]
    keep = np.ones(len(t), bool)
    for first, last in ranges:
        keep &= ~((t >= np.datetime64(first, "us")) & (t <= np.datetime64(last, "us")))
    return {k: v[keep] for k, v in cols.items()}


def _insert(con: Any, table: str, rows: list[tuple]) -> None:
    if rows:
        marks = ", ".join("?" * len(rows[0]))
        con.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)


def _insert_rows(con: Any, tables: dict[str, list[tuple]]) -> None:
    """Every catalogue row of one collection (called inside the ingest transaction)."""
    for table, rows in tables.items():
        _insert(con, table, rows)


def ingest(paths: list[str], store: Path, collected_at: datetime | None = None,
           cfg: Any = None, tz: str | None = None) -> IngestResult:
    """Analyse ``paths`` and add the collection to ``store`` (nothing when it is already there)."""
    from .. import __version__
    from ..pipeline import analyze
    from ..dict_views import plain
    from ..report.json_report import SCHEMA, build_report

    hashes = content_hashes(paths)
    cid = collection_id(hashes)
    con = connect(store)
    try:
        if con.execute("SELECT 1 FROM collections WHERE collection_id = ?", [cid]).fetchone():
            return IngestResult(cid, added=False)
        analysis = analyze(paths, cfg, tz=tz)
        report = build_report(analysis)
        when = collected_at or _collected_at(analysis, hashes)
        frames = host_frames(report)
        serials = {str(f.get("serial")): f.get("name") for f in report.get("frames") or [] if f.get("serial")}
        root = series_root(Path(store))
        series: list[tuple] = []
        name = f"c{cid[:16]}"
        written: list[Path] = []
        try:
            for host in sorted(analysis.estate.hosts.values(), key=lambda h: h.name):
                if host.nmon is None:
                    continue
                cols = recording_columns(host.nmon)
                if cols is None or not len(cols["time"]):
                    continue
                frame = (frames.get(host.name, (None, None))[0] or serials.get(_serial(host.nmon))
                         or recording_frame(host.nmon))
                frames.setdefault(host.name, (frame, None))
                cols = _not_stored(con, host.name, cols)
                if not len(cols["time"]):
                    continue  # every snapshot is already in the store (the same recording, again)
                for day, path, rows, first, last in write_days(root, frame, host.name, cols, name):
                    written.append(path)
                    series.append((cid, frame, host.name, day, str(path.relative_to(root)), rows, first, last))
            now = datetime.now(timezone.utc).replace(tzinfo=None)
            tables = {
                "collections": [(cid, now, when, json.dumps([text_name(p) for p in paths]), __version__,
                                 report.get("schema", SCHEMA))],
                "inputs": [(cid, p, h, n) for p, h, n in hashes],
                "report_sections": [(cid, k, json.dumps(v, ensure_ascii=False, default=plain))
                                    for k, v in report.items()],
                "hosts": [(cid, h["name"], h["role"], *frames.get(h["name"], (None, None)))
                          for h in report["hosts"]],
                "config": [(cid, *row) for row in config_rows(report)],
                "findings": [(cid, *row) for row in finding_rows(report)],
                "series_files": series,
                "sizing": [(cid, *row) for row in sizing_rows(report)],
            }
            # Every host-month this collection adds snapshots to, summarised again from all its snapshots.
            touched = {(s[2], str(s[3])[:7]) for s in series}
            usage = recompute(con, root, touched, [(str(root / s[4]), s[1], s[2]) for s in series])
            con.execute("BEGIN TRANSACTION")
            try:
                replace_rows(con, usage)
                _insert_rows(con, tables)
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        except BaseException:
            for path in written:
                path.unlink(missing_ok=True)
            raise
        return IngestResult(cid, True, hosts=len(report["hosts"]), findings=len(report["findings"]),
                            series_files=len(series), problems=list(analysis.problems))
    finally:
        con.close()


__all__ = ["IngestResult", "ingest", "content_hashes", "collection_id", "UNKNOWN_FRAME"]
