"""svmon -G (sources/svmon.py): page units, -O unit=MB, a header cut off."""

from __future__ import annotations

from pathlib import Path

from lparscope.sources import parsers, svmon
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "svmon-G"


def _one(name: str):  # type: ignore[no-untyped-def]
    r = svmon.parse((FIX / name).read_text())
    (g,) = r.records
    return r, g


def test_page_units_and_the_page_size_table() -> None:
    r, g = _one("aix72_svmon_G_large_pages_unused.txt")
    assert r.warnings == [] and r.hostname == "db01" and g.unit == "page" and g.mmode == "Ded"
    assert g.memory == {"size": 8388608, "inuse": 5120402, "free": 3268206, "pin": 1402211, "virtual": 3801220}
    assert g.paging_space == {"size": 1048576, "inuse": 10240} and g.pinned["other"] == 700094
    assert g.in_use == {"work": 3801220, "pers": 0, "clnt": 1319182}
    s, m, large = g.page_size("s"), g.page_size("m"), g.page_size("L")
    assert s.pool_size is None and s.inuse + m.inuse * 16 == g.memory["inuse"]  # each row in its own pages
    assert (large.page_kb, large.pool_size, large.inuse, large.pin, large.line) == (16384, 160, 0, 160, 13)
    assert g.mb(large.pool_size, large.page_kb) == 2560 and g.mb(g.memory["size"]) == 32768
    assert g.lines == {"memory": 3, "pg_space": 4, "pin": 7, "in_use": 8, "s": 11, "m": 12, "L": 13, "S": 14}


def test_unit_mb_from_the_unit_line() -> None:
    r, g = _one("aix73_svmon_G_unit_MB_in_use.txt")
    assert r.warnings == [] and g.unit == "MB" and g.memory["available"] == 7650.12
    large = g.page_size("L")
    assert large.pool_size == 4096 and large.inuse == 4000 and g.mb(large.pool_size, large.page_kb) == 4096


def test_a_cut_header_is_read_in_the_default_order_and_an_unknown_unit_is_said() -> None:
    text = (FIX / "aix61_svmon_G_header_cut.txt").read_text()
    assert svmon.detect(text) >= 70
    r, g = _one("aix61_svmon_G_header_cut.txt")
    assert g.memory["virtual"] == 18510.35 and g.memory["available"] == 2027.39 and g.mmode == "Ded-E"
    assert g.unit == "unknown" and g.mb(g.memory["size"]) is None
    assert [w.line for w in r.warnings] == [1] and "unit" in r.warnings[0].message


def test_kind_and_what_is_not_svmon_G() -> None:
    reg = parsers()
    for name in ("aix72_svmon_G_large_pages_unused.txt", "aix73_svmon_G_unit_MB_in_use.txt"):
        assert [s.kind for s in split_and_classify((FIX / name).read_text(), reg) if s.kind] == ["svmon-G"]
    assert svmon.detect("# svmon -P 221326\nPid Command Inuse Pin Pgsp Virtual\n") <= 5
    r = svmon.parse("# svmon -G\nmemory 100 50 50 10 40 Ded\npg space 10 1\nucomprsd 12 3\n")
    assert [(w.line, w.message) for w in r.warnings] == [(4, "not read: 'ucomprsd 12 3'")]
