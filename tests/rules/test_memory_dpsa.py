"""MEM-DPSA-OFF (rules/memory/paging.py, rules-catalogue MEM-10): vmo defps=0 is reported with the
vmo change that turns Deferred Page Space Allocation back on; defps=1 (the default) is not."""

from __future__ import annotations

from pathlib import Path

from lparscope.pipeline import analyze


def _vmo(tmp_path: Path, defps: int) -> Path:
    host = tmp_path / "aix7"
    host.mkdir()
    (host / "vmo_a.txt").write_text(
        "root@aix7:/ # vmo -a\n"
        "          ame_cpus_per_pool = n/a\n"
        "                      defps = %d\n"
        "                    maxfree = 1088\n"
        "                    minfree = 960\n" % defps)
    (host / "oslevel_s.txt").write_text("root@aix7:/ # oslevel -s\n7300-02-01-2346\n")  # an AIX host
    return host


def test_defps_off_is_a_warning_with_its_vmo_change(tmp_path):
    a = analyze([str(_vmo(tmp_path, 0))])
    [f] = [f for f in a.findings if f.rule.id == "MEM-DPSA-OFF"]
    assert (f.host, f.evidence[0].line) == ("aix7", 3)
    assert f.fix.root == ["vmo -p -o defps=1"] and f.rollback.root == ["vmo -p -o defps=0"]
    [c] = f.changes
    assert (c.object, c.attribute, c.current, c.target) == ("vmo", "defps", 0, 1)


def test_defps_on_is_quiet(tmp_path):
    a = analyze([str(_vmo(tmp_path, 1))])
    assert not [f for f in a.findings if f.rule.id == "MEM-DPSA-OFF"]
