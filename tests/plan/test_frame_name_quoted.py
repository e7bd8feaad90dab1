"""A managed system whose HMC name holds a space: every HMC command of every finding quotes it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from lparscope.pipeline import analyze

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "estate"


def test_a_frame_name_with_a_space_is_quoted_in_every_hmc_command(tmp_path: Path) -> None:
    estate = tmp_path / "estate"
    shutil.copytree(EXAMPLE, estate)
    for f in (estate / "hmc1").iterdir():  # the HMC calls the frame "P9 Lab" (a legal managed-system name)
        f.write_text(f.read_text().replace("-m p9frame1", '-m "P9 Lab"').replace("p9frame1", "P9 Lab"))
    result = analyze([str(estate)])
    assert "P9 Lab" in result.estate.frames
    lines = [ln for f in result.findings for block in (f.fix, f.rollback) for ln in block.hmc]
    rules = {f.rule.id for f in result.findings if any("-m " in ln for ln in f.fix.hmc)}
    assert {"CPU-EC-BELOW-VP", "VIOS-SINGLE-SERVER", "FRAME-DEDICATED-NOT-DONATING"} <= rules
    assert not [ln for ln in lines if re.search(r"-m P9 Lab\b", ln)]
    assert sum('-m "P9 Lab"' in ln for ln in lines) > 20
