"""bench/fuzz.py's campaign bookkeeping: a killed run's checkpoints are counted, every worker's."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _fuzz():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_fuzz", ROOT / "bench" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _stats(runs: int, slow: int = 0) -> dict:
    return {"runs": runs, "crashes": 0, "slow": slow, "max_s": 0.1}


def test_killed_run_counts_every_worker(tmp_path: Path) -> None:
    (tmp_path / "campaign.json").write_text(json.dumps(
        {"runs": [{"run": 1, "inputs": 2}], "totals": {"df": _stats(1), "lsps": _stats(1)}}))
    (tmp_path / "progress-2-0.json").write_text(json.dumps({"df": _stats(5)}))
    (tmp_path / "progress-2-1.json").write_text(json.dumps({"lsps": _stats(7, slow=1)}))
    camp = _fuzz()._load_campaign(tmp_path, resume=True)
    assert camp["totals"]["df"]["runs"] == 6 and camp["totals"]["lsps"]["runs"] == 8
    assert camp["totals"]["lsps"]["slow"] == 1
    assert [r["run"] for r in camp["runs"]] == [1, 2]
    assert not list(tmp_path.glob("progress-*.json"))
    assert json.loads((tmp_path / "campaign.json").read_text()) == camp  # folded counts survive another kill


def test_without_resume_old_checkpoints_are_dropped(tmp_path: Path) -> None:
    (tmp_path / "progress-1-0.json").write_text(json.dumps({"df": _stats(5)}))
    camp = _fuzz()._load_campaign(tmp_path, resume=False)
    assert camp == {"runs": [], "totals": {}} and not list(tmp_path.glob("progress-*.json"))
