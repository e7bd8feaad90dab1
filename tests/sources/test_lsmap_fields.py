"""NPIV -fmt rows with a -field list of their own: fields told from their values (sources/_lsmap_fields.py)."""

from __future__ import annotations

from pathlib import Path

from lparscope.sources import lsmap
from lparscope.sources._lsmap_fields import layout

FIX = Path(__file__).parent.parent / "fixtures" / "lsmap"


def _rows(text: str) -> list[list[str | None]]:
    return [[v if v.strip() else None for v in ln.split(":")] for ln in text.strip().splitlines()]


def test_nine_fields_with_client_slots_and_names() -> None:
    r = lsmap.parse((FIX / "vios_npiv_fmt_custom_fields.txt").read_text())
    assert [(m.vfchost, m.client_id, m.client_name, m.fc_name, m.fc_loc, m.vfc_client_name, m.vfc_client_drc,
             m.status, m.line) for m in r.records] == [
        ("vfchost0", 10, "db01", "fcs1", "U5B61.001.WZS02T0-P0-C0-T1", "fcs0", "U9080.HEX.78C01A8-V10-C401", "LOGGED_IN", 2),
        ("vfchost1", 11, None, "fcs2", "U5B61.001.WZS02T0-P0-C0-T2", None, None, "NOT_LOGGED_IN", 3),
        ("vfchost2", 12, "app02", "fcs1", "U5B61.001.WZS02T0-P0-C0-T1", "fcs1", "U9080.HEX.78C01A8-V12-C403", "LOGGED_IN", 4)]
    assert r.records[0].physloc == "U9080.HEX.78C01A8-V1-C401"
    (w,) = r.warnings  # said once, with what was told
    assert w.line == 2 and "1=name, 2=physloc, 3=clntid, 4=clntname, 5=fc, 6=fcphysloc, 7=vfcclient, " \
                           "8=vfcclientdrc, 9=status" in w.message


def test_a_place_blank_in_every_row_is_left_unnamed() -> None:
    rows = _rows("vfchost0:U1-V1-C401:10: :fcs1:U5-P0-C0-T1: : :NOT_LOGGED_IN\n"
                 "vfchost1:U1-V1-C402:11: :fcs2:U5-P0-C0-T2: : :NOT_LOGGED_IN")
    assert layout(rows) == ["name", "physloc", "clntid", None, "fc", "fcphysloc", None, None, "status"]


def test_another_order_with_the_os_and_the_ports_logged_in() -> None:
    rows = _rows("LOGGED_IN:fcs3:U5-P0-C1-T1:3:AIX:db01:vfchost4:U1-V2-C30:U1-V9-C30:9:fcs0\n"
                 "LOGGED_IN:fcs3:U5-P0-C1-T1:1:Linux:web1:vfchost5:U1-V2-C31:U1-V7-C31:7:fcs0")
    assert layout(rows) == ["status", "fc", "fcphysloc", "ports", "clntos", "clntname", "name", "physloc",
                            "vfcclientdrc", "clntid", "vfcclient"]


def test_nothing_is_guessed_when_the_values_do_not_tell() -> None:
    assert layout(_rows("vfchost0:fcs1:LOGGED_IN\nvfchost1:fcs2:LOGGED_IN")) is None  # fc or the client's? no location
    assert layout(_rows("vfchost0:10:U1-V1-C4\nvfchost1:db01:U1-V1-C5")) is None  # one place, two shapes
    assert layout(_rows("vfchost0:U1-V1-C4:U1-V1-C5\nvfchost1:U1-V1-C6:U1-V1-C7")) is None  # which slot is the VIOS's?
    r = lsmap.parse("$ lsmap -all -npiv -fmt :\nvfchost0:fcs1:LOGGED_IN\nvfchost1:fcs2:LOGGED_IN\n")
    assert r.records == [] and [w.line for w in r.warnings] == [2, 3]
    assert "could not be told from the values" in r.warnings[0].message
