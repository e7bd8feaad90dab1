"""lslparutil listings read by the native core give the very table the Python reader gives.

The core reads the usual listing (ASCII, no quotes) and refuses the rest, which Python reads;
a refusal is never a different result. Compared on the fixtures and on generated listings with
the cases that decide a column's type (plain numbers, numbers out of range, long values, blanks,
empty values) and the shapes the core must refuse.
"""

import random
from pathlib import Path

import numpy as np
import pytest

from lparscope import native_core
from lparscope.sources import _hmc_util_listing as ul
from lparscope.sources import _hmc_util_table as ut
from lparscope.sources.base import split_lines

pytestmark = pytest.mark.skipif(not native_core.enabled(), reason="native core not built")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lslparutil"


def _column_key(col: object) -> tuple:
    if isinstance(col, np.ndarray):
        return ("array", str(col.dtype), col.tobytes())  # bit for bit: -0.0 is not 0.0
    if isinstance(col, ut.Coded):
        return ("coded", str(col.codes.dtype), col.codes.tobytes(), repr(col.values))
    return ("list", repr(col))


def _table_key(t: ut.UtilTable) -> tuple:
    return (str(t.line.dtype), t.line.tobytes(), [(k, _column_key(c)) for k, c in t.columns.items()],
            _column_key(t.time), _column_key(t.resource), _column_key(t.lpar_id), t.system, t.field_lines)


def _both(lines: list[str], start: int = 0, end: int | None = None) -> tuple[object, object]:
    """(native table or None, Python table or None) of lines[start:end]."""
    end = len(lines) if end is None else end
    return ul._read_native(lines, start, end, "lpar", "f1"), ul._read_plain(lines, start, end, "lpar", "f1")


def _assert_same(lines: list[str], start: int = 0) -> bool:
    native, python = _both(lines, start)
    if native is not None:
        assert python is not None, lines
        assert _table_key(native) == _table_key(python), lines
    return native is not None


def test_fixture_listings_are_read_natively_and_alike():
    read = 0
    for path in sorted(FIXTURES.glob("*.txt")):
        lines = split_lines(path.read_text())
        read += _assert_same(lines, 1)  # after the prompt line
    assert read >= 3  # the listings of events and of settings are native reads, not refusals


ROW = ("time=03/14/2024 10:{m:02d}:00,event_type=sample,resource_type=lpar,lpar_name={n},lpar_id={i},"
       "curr_proc_units={u},capped_cycles={c},state={s}")


def test_the_usual_listing_is_read_natively_with_lines_codes_and_floats():
    lines = ["", *(ROW.format(m=k, n=f"lp{k % 3}", i=k % 3 + 1, u="0.5", c=100 * k, s="Running") for k in range(40)), "  "]
    native, python = _both(lines, 0)
    assert native is not None and _table_key(native) == _table_key(python)
    assert native.line.tolist() == list(range(2, 42))
    assert isinstance(native.columns["capped_cycles"], np.ndarray)
    assert native.columns["lpar_name"].values == ["lp0", "lp1", "lp2"]
    assert native.lpar_id.values == [1, 2, 3]


@pytest.mark.parametrize("line", [
    'time=1,lpar_name="a b"',             # a quote: Python's line reader takes it
    "time=1,lpar_name= a",                # a blank before a value
    "time=1,lpar_name=a\t",               # ... or after it
    "time=1,time=2",                      # a repeated name
    "time=1,lpar name=a",                 # an invalid name
    "time=1,lpar_name",                   # a field without "="
    "time=1,lpar_name=a,",                # a trailing comma
    "time=1,lpar_name=\u00e9t\u00e9",     # not ASCII
    "time=1,lpar_name=a\x0b",             # a control byte
])
def test_what_the_core_refuses_python_reads_as_before(line):
    lines = [ROW.format(m=1, n="a", i=1, u="0.5", c=1, s="Running"), line]
    assert ul._read_native(lines, 0, 2, "lpar", "f1") is None
    assert _both([line], 0)[0] is None


def test_lines_with_other_names_are_rows_with_the_names_they_give():
    lines = [ROW.format(m=1, n="a", i=1, u="0.5", c=1, s="x"),
             "time=03/14/2024 10:07:00,event_type=state_change,lpar_id=1,state=Running,prev_state=Starting",
             ROW.format(m=2, n="a", i=1, u="0.5", c=2, s="x")]
    native, python = _both(lines)
    assert native is not None and _table_key(native) == _table_key(python)
    assert list(native.columns)[-1] == "prev_state" and native.columns["prev_state"] == [None, "Starting", None]
    assert native.columns["capped_cycles"] == [1.0, None, 2.0] and native.lpar_id.values == [1]


_VALUES = ["0", "-0", "+7", "12", "0.5", "-1.25", "1.", ".5", "1e5", "nan", "inf", "", "x", "12%", "1.2.3", "--1",
           "9" * 48, "9" * 49, "1" + "0" * 25, "-" + "1" * 30 + ".5", "a b", "a=b", "DefaultPool", "/", "0x10", "007"]


def test_generated_listings_give_the_same_table():
    rnd = random.Random(20261126)
    native_reads = 0
    for case in range(1500):
        names = rnd.sample(["time", "lpar_id", "lpar_name", "curr_proc_units", "capped_cycles", "state", "x.y",
                            "_a", "resource_type", "event_type"], rnd.randint(1, 6))
        rows = []
        for r in range(rnd.randint(1, 12)):
            if rnd.random() < 0.08:
                rows.append(rnd.choice(["", " ", "\t"]))
                continue
            shape = names if rnd.random() < 0.8 else rnd.sample(names, rnd.randint(1, len(names)))
            rows.append(",".join(f"{n}={rnd.choice(_VALUES[:8] if case % 3 else _VALUES)}" for n in shape))
        if case % 7 == 0 and rows:  # one damaged line now and then
            k = rnd.randrange(len(rows))
            rows[k] = rows[k].replace("=", rnd.choice([" = ", "==", "=\"", "= "]), 1)
        native_reads += _assert_same(rows)
    assert native_reads > 500
