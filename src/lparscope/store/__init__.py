"""The store: every analysis kept in an embedded DuckDB catalogue plus Parquet time series.

Layering: store/ sits above report/ (it may import pipeline, report and model); only cli.py
imports it. ``store.db`` opens and migrates the catalogue, ``store.ingest`` adds a collection,
``store.usage`` keeps the exact per-host, per-month usage summary,
``store.diff`` compares collections, ``store.export`` writes OpenMetrics / CSV / Parquet,
``store.serve`` is the local dashboard and ``store.fleet`` the DuckDB / Spark fleet engines.
"""
