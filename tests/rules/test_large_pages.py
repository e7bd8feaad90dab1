"""MEM-LARGE-PAGES-UNUSED: a 16 MB page pool with nothing in use (rules-catalogue MEM-11)."""

from __future__ import annotations

from pathlib import Path

from lparscope.pipeline import analyze

FIX = Path(__file__).parent.parent / "fixtures" / "svmon-G"


def _findings(tmp_path: Path, fixture: str, extra: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    d = tmp_path / "db01"
    d.mkdir()
    (d / "svmon_G.txt").write_text((FIX / fixture).read_text())
    for name, text in (extra or {}).items():
        (d / name).write_text(text)
    a = analyze([str(tmp_path)], workers=1)
    assert not a.internal
    return [f for f in a.findings if f.rule.id == "MEM-LARGE-PAGES-UNUSED"]


def test_an_unused_pool_is_reported_with_its_size_and_exact_commands(tmp_path: Path) -> None:
    (f,) = _findings(tmp_path, "aix72_svmon_G_large_pages_unused.txt")
    assert f.message == "db01: 2,560 MB of 16 MB large pages reserved, none in use (svmon -G L row)."
    assert [(Path(e.path).name, e.line) for e in f.evidence] == [("svmon_G.txt", 13)]
    assert "vmo -r -o lgpg_regions=0" in f.fix.root and not any("lgpg_size" in c for c in f.fix.root)
    assert f.rollback.root[0] == "vmo -r -o lgpg_regions=160"  # the same one change as the plan's
    (c,) = f.changes
    assert (c.attribute, c.current, c.target) == ("lgpg_regions", "160", "0") and f.disruption == ["reboot"]


def test_the_current_regions_come_from_vmo_when_it_was_collected(tmp_path: Path) -> None:
    vmo = "# vmo -a\n           lgpg_regions = 160\n              lgpg_size = 16777216\n"
    (f,) = _findings(tmp_path, "aix72_svmon_G_large_pages_unused.txt", {"vmo_a.txt": vmo})
    assert sorted(Path(e.path).name for e in f.evidence) == ["svmon_G.txt", "vmo_a.txt"]


def test_a_pool_in_use_or_an_output_of_unknown_unit_gives_nothing(tmp_path: Path) -> None:
    for name in ("aix73_svmon_G_unit_MB_in_use.txt", "aix61_svmon_G_header_cut.txt"):
        run = tmp_path / name.split("_")[0]
        run.mkdir()
        assert _findings(run, name) == [], name
