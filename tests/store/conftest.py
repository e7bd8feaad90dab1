"""Stores built from the example estate: the original collection and a copy with one planted change."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ESTATE = ROOT / "examples" / "estate"
FIRST = datetime(2026, 11, 2, 23, 55, 1)
SECOND = datetime(2026, 12, 1, 10, 0)


def planted_copy(target: Path) -> Path:
    """examples/estate copied, with aix1's online virtual processors changed from 12 to 4."""
    shutil.copytree(ESTATE, target)
    f = target / "aix1" / "lparstat_i.txt"
    text = f.read_text(encoding="utf-8")
    assert "Online Virtual CPUs                        : 12" in text
    f.write_text(text.replace("Online Virtual CPUs                        : 12",
                              "Online Virtual CPUs                        : 4"), encoding="utf-8")
    return target


def next_day_nmon(target: Path) -> Path:
    """examples/estate copied, with aix5's nmon recording moved to the next day (new series rows)."""
    shutil.copytree(ESTATE, target)
    f = target / "aix5" / "aix5_day.nmon"
    f.write_text(f.read_text(encoding="utf-8").replace("02-NOV-2026", "03-NOV-2026"), encoding="utf-8")
    return target


@pytest.fixture(scope="session")
def two_collections(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding the example estate and, a month later, the planted copy (do not modify)."""
    from lparscope.store.ingest import ingest

    base = tmp_path_factory.mktemp("store2")
    store = base / "s.duckdb"
    assert ingest([str(ESTATE)], store).added
    assert ingest([str(planted_copy(base / "estate-dec"))], store, collected_at=SECOND).added
    return store
