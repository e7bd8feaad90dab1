"""The catalogue's tables and the ordered migrations that build them.

A store records its version in ``schema_version`` (one row per migration applied). Opening a
store applies, in order and inside one transaction each, every migration newer than the
version found; a store newer than this code is refused rather than guessed at.
"""

from __future__ import annotations

from . import usage

V1 = [
    """CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP NOT NULL)""",
    # One ingest of one or more inputs. collection_id = sha256 of the sorted content hashes.
    """CREATE TABLE collections (
        collection_id VARCHAR PRIMARY KEY, ingested_at TIMESTAMP NOT NULL, collected_at TIMESTAMP NOT NULL,
        paths VARCHAR NOT NULL, lparscope_version VARCHAR, report_schema VARCHAR)""",
    """CREATE TABLE inputs (
        collection_id VARCHAR NOT NULL, path VARCHAR NOT NULL, content_hash VARCHAR NOT NULL, bytes BIGINT)""",
    # Every top-level section of the JSON report, kept whole: sections added later (the plan) come along.
    """CREATE TABLE report_sections (collection_id VARCHAR NOT NULL, section VARCHAR NOT NULL, body JSON,
        PRIMARY KEY (collection_id, section))""",
    """CREATE TABLE hosts (collection_id VARCHAR NOT NULL, host VARCHAR NOT NULL, role VARCHAR,
        frame VARCHAR, pool_id INTEGER, PRIMARY KEY (collection_id, host))""",
    # Configuration snapshot, flattened: scope 'host' (name = host) or 'frame' (name = frame).
    """CREATE TABLE config (collection_id VARCHAR NOT NULL, scope VARCHAR NOT NULL, name VARCHAR NOT NULL,
        attribute VARCHAR NOT NULL, value VARCHAR)""",
    """CREATE TABLE findings (collection_id VARCHAR NOT NULL, fingerprint VARCHAR NOT NULL, rule_id VARCHAR,
        host VARCHAR, subject VARCHAR, severity VARCHAR, category VARCHAR, title VARCHAR, message VARCHAR)""",
    # Parquet files of nmon series; only files listed here are part of the store.
    """CREATE TABLE series_files (collection_id VARCHAR NOT NULL, frame VARCHAR, host VARCHAR, day DATE,
        path VARCHAR NOT NULL, rows BIGINT, first_time TIMESTAMP, last_time TIMESTAMP)""",
]

V2 = [
    # Measured sizing per host and collection, flattened from the report's hosts[].sizing.
    """CREATE TABLE sizing (collection_id VARCHAR NOT NULL, host VARCHAR NOT NULL, n_samples BIGINT,
        peak_mean DOUBLE, peak_p95 DOUBLE, peak_max DOUBLE, current_ec DOUBLE, recommended_ec DOUBLE,
        current_vp INTEGER, recommended_vp INTEGER, pool_cores DOUBLE, PRIMARY KEY (collection_id, host))""",
    """CREATE INDEX findings_by_collection ON findings (collection_id)""",
    """CREATE INDEX config_by_collection ON config (collection_id)""",
]

V3 = [
    # Exact per-host, per-month usage summary (usage.py), kept at ingest; built here for older stores.
    usage.CREATE,
    usage.backfill,
]

# (version, steps): append only; never edit a migration that has shipped. A step is SQL text or a
# function (connection, series root) for work SQL alone cannot do (reading the Parquet series).
MIGRATIONS: list[tuple[int, list]] = [(1, V1), (2, V2), (3, V3)]
LATEST = MIGRATIONS[-1][0]

# Tables a user may export (store export --table).
TABLES = ("collections", "inputs", "report_sections", "hosts", "config", "findings", "series_files", "sizing",
          "usage_monthly")
