"""Open a store: the DuckDB catalogue file and the Parquet series folder beside it."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .schema import LATEST, MIGRATIONS


class StoreError(Exception):
    """A store that cannot be opened or used (message meant for the user)."""


def default_store() -> Path:
    """$XDG_DATA_HOME/lparscope/store.duckdb, else ~/.local/share/lparscope/store.duckdb."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "lparscope" / "store.duckdb"


def series_root(store: Path) -> Path:
    """Folder of the store's Parquet series: ``store.duckdb`` -> ``store.series/``."""
    return store.with_name(store.stem + ".series")


def _duckdb():  # type: ignore[no-untyped-def]
    try:
        import duckdb
    except ImportError as exc:  # pragma: no cover - duckdb is a dependency
        raise StoreError("the store needs duckdb: pip install 'duckdb>=1.1'") from exc
    return duckdb


def schema_version(con: Any) -> int:
    has = con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_version'").fetchone()
    if not has or not has[0]:
        return 0
    row = con.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def migrate(con: Any, root: Path, upto: int = LATEST) -> int:
    """Apply every migration newer than the store's version (each in its own transaction).

    ``root``: the store's series folder, for the steps that read the Parquet series.
    """
    current = schema_version(con)
    if current > LATEST:
        raise StoreError(f"store schema version {current} is newer than this lparscope knows ({LATEST}): upgrade lparscope")
    for version, statements in MIGRATIONS:
        if version <= current or version > upto:
            continue
        con.execute("BEGIN TRANSACTION")
        try:
            for step in statements:
                if callable(step):
                    step(con, root)
                else:
                    con.execute(step)
            con.execute("INSERT INTO schema_version VALUES (?, ?)",
                        [version, datetime.now(timezone.utc).replace(tzinfo=None)])
            con.execute("COMMIT")
        except Exception:
            con.execute("ROLLBACK")
            raise
        current = version
    return current


def connect(store: Path, read_only: bool = False, upto: int = LATEST) -> Any:
    """A connection to the store, created and migrated when needed (read-only: must exist)."""
    duckdb = _duckdb()
    store = Path(store)
    if read_only and not store.exists():
        raise StoreError(f"{store}: no store here yet (lparscope store ingest PATH --store {store})")
    try:
        if not read_only:
            store.parent.mkdir(parents=True, exist_ok=True)
        con = duckdb.connect(str(store), read_only=read_only)
        con.execute("SET enable_progress_bar = false")  # no progress bar on the user's terminal or in piped output
    except (OSError, duckdb.Error) as exc:
        raise StoreError(f"{store}: cannot open the store: {exc}") from exc
    if read_only:
        if schema_version(con) != LATEST:
            con.close()
            raise StoreError(f"{store}: store schema is not at version {LATEST}: run any `lparscope store` "
                             "command that writes (ingest) to migrate it")
        return con
    try:
        migrate(con, series_root(store), upto)  # steps read only catalogued series files
    except StoreError:
        con.close()
        raise
    if upto == LATEST:
        remove_orphans(con, series_root(store))
    return con


def remove_orphans(con: Any, root: Path) -> int:
    """Delete series files no catalogue row lists (left by an ingest that was killed)."""
    if not root.exists():
        return 0
    known = {(root / p).resolve() for (p,) in con.execute("SELECT path FROM series_files").fetchall()}
    removed = 0
    for path in root.rglob("*"):
        if path.is_file() and path.resolve() not in known:
            path.unlink()
            removed += 1
    return removed
