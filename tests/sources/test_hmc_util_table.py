"""lslparutil events read column-wise: the same events, typed the same way, as reading line by line."""

from datetime import datetime

import numpy as np

from lparscope.sources import _hmc_csv as hc
from lparscope.sources import _hmc_util_listing as ul
from lparscope.sources import _hmc_util_table as ut
from lparscope.sources import hmc_util as u

HEAD = "hscroot@hmc1:~> lslparutil -r lpar -m f1\n"
ROW = ("time=03/14/2024 10:{m:02d}:00,event_type=sample,resource_type=lpar,time_cycles={t},lpar_name={n},lpar_id={i},"
       "curr_proc_units=0.5,capped_cycles={c},uncapped_cycles={uc}")


def _rows(n: int = 6) -> list[str]:
    return [ROW.format(m=5 * k, t=1000 * k, n=name, i=i, c=100 * k + i, uc=7 * k)
            for k in range(n) for name, i in (("aix1", 3), ("vios1", 1))]


def _line_by_line(lines: list[str], system: str | None = "f1") -> list[u.UtilSample]:
    """The same lines read by the attribute reader, one record at a time."""
    rows = [(n + 1, hc.parse_attrs(ln), None) for n, ln in enumerate(lines) if ln.strip()]
    return ut.table(rows, "lpar", system).samples()


def test_plain_listing_is_read_column_wise_with_the_same_samples():
    lines = _rows()
    table = ul.read_plain(lines, 0, len(lines), "lpar", "f1")
    assert table is not None and len(table) == 12
    assert isinstance(table.columns["capped_cycles"], np.ndarray)
    assert isinstance(table.columns["lpar_name"], ut.Coded) and table.columns["lpar_name"].codes.dtype.itemsize == 1
    assert table.samples() == _line_by_line(lines)
    s = table.sample(3)
    assert (s.time, s.lpar_name, s.lpar_id, s.line, s.num("capped_cycles")) == (
        datetime(2024, 3, 14, 10, 5), "vios1", 1, 4, 101.0)


def test_mixed_events_keep_their_order_and_attributes():
    lines = _rows(2)
    lines.insert(2, "time=03/14/2024 10:07:00,event_type=state_change,resource_type=lpar,lpar_name=aix1,lpar_id=3,"
                    "state=Running")
    lines.insert(1, "")
    table = ul.read_plain(lines, 0, len(lines), "lpar", "f1")
    assert table is not None
    got = table.samples()
    assert got == _line_by_line(lines)
    assert [s.event_type for s in got] == ["sample", "sample", "state_change", "sample", "sample"]
    assert got[2].attrs["state"] == "Running" and "capped_cycles" not in got[2].attrs
    assert table.num("capped_cycles", 2) is None and table.line_of(2, "capped_cycles") is None


def test_values_that_are_not_plain_numbers_stay_as_the_reader_types_them():
    lines = [ROW.format(m=0, t=10, n="a", i=1, c="12%", uc=""), ROW.format(m=5, t=20, n="a", i=1, c="3,5", uc=4)]
    table = ul.read_plain(lines, 0, 2, "lpar", None)
    assert table is None  # "3,5" is not a plain line (an unquoted comma): read line by line
    lines[1] = ROW.format(m=5, t=20, n="a", i=1, c="99999999999999999999999", uc=4)
    table = ul.read_plain(lines, 0, 2, "lpar", None)
    assert table is not None
    assert table.columns["capped_cycles"] == [12.0, "99999999999999999999999"]  # "%" dropped; out of range: text
    assert table.columns["uncapped_cycles"] == ["", 4.0]
    assert table.samples() == _line_by_line(lines, None)


def test_a_quoted_or_spaced_line_sends_the_output_to_the_line_reader():
    lines = _rows(2)
    for bad in ('time=03/14/2024 10:00:00,"lpar_name=a,b",lpar_id=2', "time=1, lpar_name=a", "HSCL1234 no such system"):
        changed = lines[:1] + [bad] + lines[1:]
        assert ul.read_plain(changed, 0, len(changed), "lpar", "f1") is None
    text = HEAD + "\n".join(lines[:1] + ["HSCL1234 no such system"] + lines[1:]) + "\n"
    r = u.parse(text)
    assert [type(x).__name__ for x in r.records] == ["HmcMessage", "UtilTable"]
    assert [s.line for s in u.samples_of(r.records[1:])] == [2, 4, 5, 6]


def test_frame_use_from_two_files_in_time_order():
    """The use series of a partition sampled in two files of one frame: rows merged by time."""
    from lparscope.model.build import apply
    from lparscope.model.estate import Estate
    from lparscope.model.frame_build import build_frames

    rows = _rows(6)
    estate = Estate()
    host = estate.host("hmc1")
    for path, part in (("a.txt", rows[6:]), ("b.txt", rows[:6])):  # the later samples read first
        apply(host, "lslparutil", u.parse(HEAD + "\n".join(part) + "\n"), path, 0)
    frames = build_frames(estate)
    use = frames["f1"].partitions["aix1"].use
    assert [x.time.minute for x in use] == [5, 10, 15, 20, 25]
    assert [x.physc for x in use] == [0.107] * 5  # (100 + 7) cycles per 1000
    assert [(e.path, e.line) for e in (x.evidence for x in use)][:3] == [("b.txt", 4), ("b.txt", 6), ("a.txt", 2)]


def test_frame_use_from_one_listing_cites_each_sample_line():
    """The usual case (one file, a row per line) takes the short way: same samples, same evidence."""
    from lparscope.model.build import apply
    from lparscope.model.estate import Estate
    from lparscope.model.frame_build import build_frames

    estate = Estate()
    apply(estate.host("hmc1"), "lslparutil", u.parse(HEAD + "\n".join(_rows(6)) + "\n"), "c.txt", 10)
    use = build_frames(estate)["f1"].partitions["aix1"].use
    assert [x.physc for x in use] == [0.107] * 5
    assert [(e.path, e.line, e.excerpt) for e in (x.evidence for x in use)] == [
        ("c.txt", 10 + line, "capped_cycles") for line in (4, 6, 8, 10, 12)]


def test_plain_numbers_is_the_plain_number_pattern():
    """plain_numbers takes a column exactly when _PLAIN_NUMBERS matches it, with float()'s values."""
    import random

    rng = random.Random(5)
    alphabet = "0123456789" * 3 + ".-+e _\u0661"
    cases = [["1", "2.5", "-3", "+4.25"], ["5."], [".5"], ["-.5"], ["1.2.3"], ["5-"], [""], ["-"], ["1e5"],
             ["1_0"], ["\u0661"], ["00.10", "7"], ["1", "x"]]
    cases += [[("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6)))) for _ in range(rng.randint(1, 3))]
              for _ in range(20000)]
    for col in cases:
        want = ut._PLAIN_NUMBERS.fullmatch("\n".join(col)) is not None
        got = ut.plain_numbers(col)
        assert (got is not None) == want, col
        if want:
            assert got.tolist() == [float(v) for v in col]
