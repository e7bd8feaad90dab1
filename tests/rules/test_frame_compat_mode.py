"""Processor compatibility mode (rules/frame/compat_mode.py, rules-catalogue CPU-07, LPM-07): a partition
set to an older processor's mode than its frame's gets the profile change to default; one that runs in an
older mode while set to default is told that an activation gives it the newest. Fixture written here:
tests/fixtures/lssyscfg/hmc12_compat_modes.txt (a POWER10 frame, 9105-42A)."""

from __future__ import annotations

import shutil
from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.rules.host_facts import generation_from_text

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "lssyscfg" / "hmc12_compat_modes.txt"


def test_mode_generations() -> None:
    assert [generation_from_text(m) for m in ("POWER8", "POWER9_Base", "POWER6_Plus", "POWER7+", "default", None)] == [
        8, 9, 6.5, 7.5, None, None]


def test_older_modes_on_a_power10_frame(tmp_path: Path) -> None:
    (tmp_path / "hmc12").mkdir()
    shutil.copy(FIXTURE, tmp_path / "hmc12")
    a = analyze([str(tmp_path)])
    found = {f.host: f for f in a.findings if f.rule.id == "FRAME-PROC-COMPAT-MODE"}
    assert set(found) == {"erp01", "web02", "db07"}  # vios1 (POWER10), test03 (not running), ibmi1 (IBM i): quiet
    erp = found["erp01"]
    assert erp.fix.hmc[0] == 'chsyscfg -r prof -m p10west -i "name=erp_prof,lpar_name=erp01,lpar_proc_compat_mode=default"'
    assert erp.rollback.hmc == ['chsyscfg -r prof -m p10west -i "name=erp_prof,lpar_name=erp01,lpar_proc_compat_mode=POWER8"']
    [change] = erp.fix.changes
    assert (change.attribute, change.current, change.target, change.method) == ("lpar_proc_compat_mode", "POWER8", "default", "profile")
    lines = FIXTURE.read_text().splitlines()
    assert all("erp01" in lines[e.line - 1] for e in erp.evidence)
    web = found["web02"]
    assert "runs in POWER9_Base mode while its preferred mode is default" in web.message and not web.fix.changes
    assert web.fix.hmc[0].startswith("# the mode is set at activation")
    assert "its profile asks for POWER9_Base mode" in found["db07"].message  # from the profile alone
    planned = [c for c in a.plan.planned() if c.change.attribute == "lpar_proc_compat_mode"]
    assert sorted(c.change.object for c in planned) == ["db07", "erp01"]
    steps = [st for st in a.plan.steps if {c.id for c in planned} & set(st.ids)]
    assert steps and all(st.window and "activate it from the profile" in st.title for st in steps)
