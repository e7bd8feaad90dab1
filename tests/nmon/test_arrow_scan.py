"""arrow_scan: scan_arrow gives what fast.scan (the numpy scan) gives, line for line; usual_zzzz
reads the ZZZZ lines the native core reads itself, and only those."""

from __future__ import annotations

import numpy as np
import pytest

from pathlib import Path

from lparscope.nmon import fast, read_nmon
from lparscope.nmon.arrow_scan import scan_arrow, usual_zzzz
from lparscope.nmon.snapshots import Snapshots


def _per_line(sc: fast.Scan) -> list[tuple[str | None, int, int]]:
    """(tag or None, snapshot, field of the snapshot) of each line: the tag lists' order may differ."""
    return [(sc.tags[t] if t >= 0 else None, int(s), int(f))
            for t, s, f in zip(sc.tag_ids.tolist(), sc.tnum.tolist(), sc.tfield.tolist())]


def _both(chunk: bytes) -> tuple[list, list]:
    a = np.frombuffer(chunk, np.uint8)
    starts, ends = fast.line_bounds(a)
    return _per_line(fast.scan(a, starts, ends)), _per_line(scan_arrow(chunk, starts))


EDGES = [
    b"CPU01,T0001,25.7,25.3",  # a data row
    b"CPU01,T0001",  # its snapshot is the last field
    b"TOP,2555992,T0002,9.64,9.64,0.00,51,5248",  # a TOP row: PID, then the snapshot
    b"TOP,12,T5",  # ... with nothing after the snapshot
    b"TOP,12",  # a PID and no snapshot
    b"TOP,12,",  # empty third field
    b"TOP,1234567890123,T1,x",  # a PID of 13 digits is not one
    b"TOP,\xff12,T1",  # not digits
    b"TOP,12,T1\xff,",  # the snapshot field has a byte more
    b"AB,T12345678,1",  # 8 digits: too many for a snapshot
    b"AB,T1234567,1",  # 7: the most
    b"AB,T,1",  # T alone
    b"AB,t0001,1",  # lower case
    b",T0001,1",  # no tag
    b"ABCDEFGHIJKLMNO,T0001,1",  # a 15-byte tag: the longest
    b"ABCDEFGHIJKLMNOP,T0001,1",  # 16 bytes: not a tag
    b"\xff\xfeTAG,T0001,1",  # bytes that are not UTF-8
    b"CPU\x00,T12,3",  # a NUL byte in the tag
    b"B,\xe9T1,2",
    b"ZZZZ,T0001,00:00:05,01-JAN-2026",
    b"AAA,host,aixprod01",
    b"no comma at all",
    b"",  # an empty line
    b"A,,",
    b"A,T01",  # leading zero
    b"A,T1 ,2",  # a space after the digits
    b"DISK,T0001," + b"1.0," * 40,  # longer than the numpy scan's 32-byte window
    b"X" * 40 + b",T0001",  # a tag far past the window
]


def test_edge_lines() -> None:
    chunk = b"\n".join(EDGES) + b"\n"
    numpy_scan, arrow_scan = _both(chunk)
    for line, want, got in zip(EDGES, numpy_scan, arrow_scan):
        assert got == want, line
    assert ("TOP", 2, 2) in arrow_scan and ("CPU01", 1, 1) in arrow_scan


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_lines(seed: int) -> None:
    """Lines made from nmon-like pieces and noise: every line classified alike."""
    rng = np.random.default_rng(seed)
    pieces = [b"CPU01", b"TOP", b"DISKBUSY", b"ZZZZ", b"T0001", b"T12", b"T1234567", b"T12345678", b"123",
              b"1234567890123", b"", b"x", b"\xff", b"T", b"0.5", b" ", b"LONGTAGNAME12345", b"\x00"]
    lines = []
    for _ in range(3000):
        k = int(rng.integers(0, 6))
        lines.append(b",".join(pieces[int(i)] for i in rng.integers(0, len(pieces), k)))
    chunk = b"\n".join(lines) + b"\n"
    numpy_scan, arrow_scan = _both(chunk)
    assert arrow_scan == numpy_scan
    assert any(f == 2 for _, _, f in arrow_scan) and any(f == 1 for _, _, f in arrow_scan)


def test_no_lines() -> None:
    sc = scan_arrow(b"", np.zeros(0, np.int64))
    assert sc.tags == [] and len(sc.tag_ids) == len(sc.tnum) == len(sc.tfield) == 0


def test_usual_zzzz_takes_what_the_native_core_takes() -> None:
    lines = [
        b"ZZZZ,T0001,00:00:05,01-JAN-2026",  # usual
        b"ZZZZ,T0002,24:00:05,01-JAN-2026",  # no 24th hour
        b"ZZZZ,T3,23:59:59,2026/01/01",  # usual: one digit, another date form
        b"ZZZZ,T0004,00:00:05,01-JAN-2026,x",  # a fifth field
        b"ZZZZ,T0005,00:00:05, 01-JAN",  # a space before the date
        b"ZZZZ,T0006,00:00:05,",  # no date
        b"ZZZZ,T0007,00:00:05,A B",  # usual: a space inside the date
        b"ZZZZ,T1234567890,00:00:05,A",  # ten digits
        b"ZZZZ,T0008,0:00:05,A",  # one-digit hour
        b"ZZZZ,T0009,00:00:05,\xe9t\xe9",  # not ASCII
    ]
    chunk = b"\n".join(lines) + b"\n"
    starts, _ = fast.line_bounds(np.frombuffer(chunk, np.uint8))
    ok, snaps, digits, sods, codes, names = usual_zzzz(chunk, starts, np.arange(len(lines)))
    assert ok.tolist() == [True, False, True, False, False, False, True, False, False, False]
    assert snaps.tolist() == [1, 3, 7] and digits.tolist() == [4, 1, 4]
    assert sods.tolist() == [5, 86399, 5]
    assert [names[c] for c in codes] == ["01-JAN-2026", "2026/01/01", "A B"]


def test_pure_path_reads_usual_zzzz_lines_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the ZZZZ line of another form goes one by one to Snapshots.add; the times are all there."""
    monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", "0")
    data = (Path(__file__).resolve().parents[1] / "fixtures" / "nmon" / "aix_small.nmon").read_bytes()
    data = data.replace(b"ZZZZ,T0002,", b"ZZZZ, T0002 ,", 1)
    added: list[int] = []
    original = Snapshots.add
    monkeypatch.setattr(Snapshots, "add", lambda self, line, parts: (added.append(line), original(self, line, parts)))
    rec = read_nmon(data)
    assert len(added) == 1
    assert sorted(rec.times) == ["T0001", "T0002", "T0003"]
