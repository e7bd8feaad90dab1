"""NPIV rules with the VIOS's lsnports: a port whose switch does not do NPIV, real remap targets."""

from __future__ import annotations

from pathlib import Path

from lparscope.pipeline import analyze

FIX = Path(__file__).parent.parent / "fixtures"


def _vios(tmp_path: Path, lsnports: str | None):  # type: ignore[no-untyped-def]
    d = tmp_path / "vios9"
    d.mkdir()
    (d / "lsmap_npiv.txt").write_text((FIX / "lsnports" / "vios31_lsmap_npiv.txt").read_text())
    (d / "ioslevel.txt").write_text("$ ioslevel\n3.1.4.10\n")
    if lsnports is not None:
        (d / "lsnports.txt").write_text(lsnports)
    a = analyze([str(tmp_path)], workers=1)
    assert not a.internal
    return {f.rule.id: f for f in a.findings if f.host == "vios9"}


def test_clients_on_a_port_without_npiv_fabric_are_moved_to_a_real_port(tmp_path: Path) -> None:
    found = _vios(tmp_path, (FIX / "lsnports" / "vios31_lsnports.txt").read_text())
    f = found["STO-NPIV-PORT-NO-FABRIC"]
    assert f.level == "critical"
    assert f.message == ("fcs1 on vios9 (U78D2.001.WZS0ABC-P1-C6-T2) reports fabric=0, and 2 NPIV client adapters "
                         "are mapped to it: vfchost1, vfchost2.")
    assert [(Path(e.path).name, e.line) for e in f.evidence][:2] == [("lsnports.txt", 4), ("lsmap_npiv.txt", 14)]
    assert f.fix.padmin[2:] == ["vfcmap -vadapter vfchost1 -fcp", "vfcmap -vadapter vfchost1 -fcp fcs2",
                                "vfcmap -vadapter vfchost2 -fcp", "vfcmap -vadapter vfchost2 -fcp fcs2"]
    assert f.rollback.padmin[1] == "vfcmap -vadapter vfchost1 -fcp fcs1"
    spread = found.get("STO-NPIV-PORT-SPREAD")  # fcs1 is not counted: clients are never moved onto it
    assert spread is None or "fcs1" not in " ".join(spread.fix.padmin)


def test_when_no_port_can_take_them_the_switch_is_the_fix(tmp_path: Path) -> None:
    only = "$ lsnports\nname physloc fabric tports aports swwpns awwpns\nfcs0 U78D2.001.WZS0ABC-P1-C6-T1 1 64 0 2048 0\n" \
           "fcs1 U78D2.001.WZS0ABC-P1-C6-T2 0 64 64 2048 2048\n"
    f = _vios(tmp_path, only)["STO-NPIV-PORT-NO-FABRIC"]
    assert "enable NPIV on the switch port cabled to U78D2.001.WZS0ABC-P1-C6-T2" in f.fix.padmin[1]
    assert not any("vfcmap" in c for c in f.fix.padmin)


def test_without_lsnports_nothing_is_said_of_fabric(tmp_path: Path) -> None:
    assert "STO-NPIV-PORT-NO-FABRIC" not in _vios(tmp_path, None)


def test_the_ports_own_limit_and_a_real_target_for_the_extra_clients(tmp_path: Path) -> None:
    small = ("$ lsnports\nname physloc fabric tports aports swwpns awwpns\n"
             "fcs0 U78D2.001.WZS0ABC-P1-C6-T1 1 64 63 2048 2046\nfcs1 U78D2.001.WZS0ABC-P1-C6-T2 1 1 0 2048 2044\n"
             "fcs2 U78D2.001.WZS0ABC-P1-C7-T1 1 64 64 2048 2048\n")
    f = _vios(tmp_path, small)["STO-NPIV-PORT-CLIENTS"]
    assert f.message == "fcs1 on vios9 carries 2 NPIV client adapters (limit 1, lsnports tports)."
    assert f.fix.padmin[-2:] == ["vfcmap -vadapter vfchost2 -fcp", "vfcmap -vadapter vfchost2 -fcp fcs2"]
