"""vioslpm0 concurrency_lvl (rules/vios/lpm.py, rules-catalogue LPM-05): off its default 4 on a VIOS of
3.1.2 or later (the HMC sizes each migration) -> warning with the chdev in both forms; quiet at the
default and below 3.1.2. The outputs are written here in the VIOS's lsdev -attr form."""

from __future__ import annotations

from pathlib import Path

from lparscope.pipeline import analyze

ATTRS = """padmin@{host}:/home/padmin$ ioslevel
{level}
padmin@{host}:/home/padmin$ lsdev -dev vioslpm0 -attr
attribute       value description                                         user_settable

cfg_msp_lpm_ops 8     Number of concurrent migrations allowed             True
concurrency_lvl {lvl}     Concurrency level                                   True
max_lpm_vasi    1     Maximum number of VASI adapters used for LPM        True
"""


def _findings(tmp_path: Path, host: str, level: str, lvl: str) -> list:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / f"{host}.txt").write_text(ATTRS.format(host=host, level=level, lvl=lvl))
    return [f for f in analyze([str(tmp_path)]).findings if f.rule.id == "VIOS-LPM-CONCURRENCY"]


def test_a_changed_level_is_reported_with_both_command_forms(tmp_path: Path) -> None:
    [f] = _findings(tmp_path, "vios7", "3.1.4.21", "2")
    assert f.host == "vios7" and f.subject == "vioslpm0" and "concurrency_lvl=2" in f.message
    assert f.fix.padmin == ["chdev -dev vioslpm0 -attr concurrency_lvl=4"]
    assert f.fix.root == ["chdev -l vioslpm0 -a concurrency_lvl=4"]
    assert f.rollback.padmin == ["chdev -dev vioslpm0 -attr concurrency_lvl=2"]
    [change] = f.fix.changes
    assert (change.object, change.attribute, change.current, change.target) == ("vioslpm0", "concurrency_lvl", "2", "4")
    assert sorted(e.line for e in f.evidence) == [2, 7]


def test_default_and_older_levels_are_quiet(tmp_path: Path) -> None:
    assert not _findings(tmp_path / "a", "vios7", "3.1.4.21", "4")
    assert not _findings(tmp_path / "b", "vios8", "3.1.1.25", "2")  # before 3.1.2 the VIOS value is the one used
