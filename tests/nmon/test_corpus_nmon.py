"""Every nmon file of ../shared/corpus reads without an exception; prints snapshots and warnings per file."""

from __future__ import annotations

from pathlib import Path

import pytest

from lparscope.nmon import read_nmon

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
FILES = sorted((CORPUS / "nmon").glob("*")) if (CORPUS / "nmon").is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason="../shared/corpus not present")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_reads(path: Path) -> None:
    rec = read_nmon(path)
    rows = sum(len(t) for t in rec.tables.values())
    print(f"\n{path.name}: {rec.snapshots} snapshots, {len(rec.tables)} tables, {rows} rows, "
          f"{len(rec.warnings)} warnings")
    for line, msg in rec.warnings:
        print(f"    line {line}: {msg}")
    assert rec.bytes_read == path.stat().st_size
    if path.suffix == ".nmon":
        assert rec.snapshots > 0 and rec.tables
        assert "CPU_ALL" in rec.tables and len(rec.tables["CPU_ALL"]) > 0
        for t in rec.tables.values():
            assert t.values.shape == (len(t.snapshots), len(t.columns))
