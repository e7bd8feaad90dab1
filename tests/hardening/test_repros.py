"""The hostile and damaged inputs of ../shared/hardening (skipped when that folder is absent).

Each one, given together with a good input, must end with a clean per-file status (no
traceback, no internal error), a complete run (the good input read) and every report
written, well within a 20 s guard (real figures: the note of issue 11).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .guard import timed
from .test_isolation import REPORTS, good, run_cli, status_of

HARDENING = Path(__file__).resolve().parents[2].parent / "shared" / "hardening"
REPROS = sorted(p.name for p in HARDENING.iterdir() if p.name != "README.md") if HARDENING.is_dir() else []
pytestmark = pytest.mark.skipif(not REPROS, reason="../shared/hardening not present")


@pytest.mark.parametrize("name", REPROS)
def test_repro_gives_a_clean_status_and_a_complete_run(tmp_path: Path, name: str) -> None:
    (code, out, report), _ = timed(lambda: run_cli(tmp_path, HARDENING / name, good(tmp_path)))
    assert code == 0, out
    statuses = status_of(report, name)
    assert statuses, f"{name} has no status"
    for st in statuses:
        assert "internal error" not in st["reason"], st
        assert st["status"] in ("parsed", "partly") or st["reason"], st
    assert status_of(report, "lsattr.txt")[0]["status"] == "parsed"
    assert all((tmp_path / "out" / r).exists() for r in REPORTS)
