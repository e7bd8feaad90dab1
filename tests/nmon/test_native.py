"""The native nmon core (lparscope-nmon-native, optional) gives exactly the pure path's recording.

Every fixture, every tolerance case of test_reader and every corpus nmon file is read twice,
with LPARSCOPE_NMON_NATIVE=0 (numpy + Arrow) and with the native core, also with tiny chunks /
blocks so that both cut the input in many places. Skipped when the native package is absent.
"""

from __future__ import annotations

import gzip
import math
import re
from pathlib import Path

import numpy as np
import pytest

from lparscope.nmon import NmonRecording, read_nmon
from lparscope.nmon import native, purepath, source

pytestmark = pytest.mark.skipif(not native.available(), reason="the native nmon core was not built (no cargo at install)")

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "nmon"
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "nmon"
CORPUS_FILES = sorted(CORPUS.glob("*")) if CORPUS.is_dir() else []


def assert_same(a: NmonRecording, b: NmonRecording) -> None:
    assert (a.host, a.header, a.tz, a.bytes_read, a.lines) == (b.host, b.header, b.tz, b.bytes_read, b.lines)
    assert a.times == b.times
    assert a.config == b.config
    assert a.bbbp_outputs == b.bbbp_outputs
    assert a.warnings == b.warnings
    assert list(a.tables) == list(b.tables)
    for name, t in a.tables.items():
        u = b.tables[name]
        assert (t.name, t.title, t.columns, t.first_line) == (u.name, u.title, u.columns, u.first_line), name
        assert t.values.dtype == u.values.dtype == np.float64, name
        assert t.values.shape == u.values.shape, name
        np.testing.assert_array_equal(t.values, u.values, err_msg=name)
        assert t.snapshots.tolist() == u.snapshots.tolist(), name
        assert t.lines.tolist() == u.lines.tolist(), name
        assert t.times.dtype == u.times.dtype and t.times.view(np.int64).tolist() == u.times.view(np.int64).tolist()
        assert {k: list(v) for k, v in t.text.items()} == {k: list(v) for k, v in u.text.items()}, name


def both(source, monkeypatch: pytest.MonkeyPatch, **kw) -> tuple[NmonRecording, NmonRecording]:
    monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", "0")
    pure = read_nmon(source, **kw)
    monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", "1")
    fast = read_nmon(source, **kw)
    assert_same(pure, fast)
    return pure, fast


@pytest.fixture(params=["default", "tiny"])
def cuts(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Default chunks/blocks, or tiny ones (many chunk and block edges on small files, and the pure
    path's thread pool, which it uses only on big recordings)."""
    if request.param == "tiny":
        monkeypatch.setattr(purepath, "SMALL", 0)
        monkeypatch.setattr(source, "CHUNK", 700)
        monkeypatch.setattr(native, "BLOCK", 333)
    return request.param


def aix() -> bytes:
    return (FIX / "aix_small.nmon").read_bytes()


@pytest.mark.parametrize("path", sorted(FIX.glob("*.nmon")), ids=lambda p: p.name)
def test_fixtures(path: Path, cuts: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    both(path, monkeypatch)
    both(path.read_bytes(), monkeypatch)
    both(path, monkeypatch, tz="Europe/Paris")
    gz = tmp_path / (path.name + ".gz")
    gz.write_bytes(gzip.compress(path.read_bytes()))
    both(gz, monkeypatch)


def _variants() -> dict[str, bytes]:
    d = aix()
    lines = d.split(b"\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith(b"ZZZZ,T0002"))
    mid = next(i for i, ln in enumerate(lines) if ln.startswith(b"ZZZZ,T0003"))
    cut = d.rstrip(b"\n")
    bad = b"".join(b"ZZZZ,T%04d,01:00:00,04-MAR-2024\nDISKBUSY,T%04d,x,y\n" % (i, i) for i in range(10, 400))
    return {
        "truncated": cut[: cut.rfind(b",")] + b",1.0",
        "truncated_mid_number": cut[:-3],
        "no_final_newline": cut,
        "crlf": d.replace(b"\n", b"\r\n"),
        "lone_cr": d.replace(b"\n", b"\r", 5),
        "crlf_truncated": cut.replace(b"\n", b"\r\n") + b"\r",
        "duplicate": d + b"ZZZZ,T0003,00:15:01,04-MAR-2024\nLPAR,T0003,9.999" + b",0" * 20 + b"\n",
        "out_of_order": b"\n".join(lines[:start] + lines[mid:-1] + lines[start:mid] + [b""]),
        "new_device": d + (b"DISKBUSY,Disk %Busy aixtest1,hdisk0,hdisk1,hdisk2\n"
                           b"ZZZZ,T0004,00:20:01,04-MAR-2024\nDISKBUSY,T0004,1.0,2.0,3.0\nDISKREAD,T0004,1.0,2.0\n"),
        "reordered": d + (b"DISKBUSY,Disk %Busy aixtest1,hdisk1,hdisk0\n"
                          b"ZZZZ,T0004,00:20:01,04-MAR-2024\nDISKBUSY,T0004,7.0,3.0\n"),
        "error_line": d + b"ERROR,T0003,Failed to open /dev/mem\n",
        "corrupt": d.replace(b"DISKREAD,T0002,20.1,301.0", b"DISKREAD,T0002,20.1,3#1.0"),
        "many_corrupt": d + bad,
        "garbage": b"ZZZZ,T0009,23:02:43,14-OCT-2014\nCPU01,T0009,58.9,27.9,6.6,6.6\n....\nKXFER,T0009,1.5,2\n",
        "more_values": d.replace(b"DISKBUSY,T0001,0.0,12.5", b"DISKBUSY,T0001,0.0,12.5,99.0"),
        "fewer_values": d.replace(b"DISKBUSY,T0002,0.4,15.1", b"DISKBUSY,T0002,0.4"),
        "top_ragged": d.replace(b",Unclassified\n", b",Unclassified,extra,7\n", 1),
        "top_short": d.replace(b",Unclassified\n", b"\n", 1),
        "odd_numbers": d.replace(b"DISKBUSY,T0003,1.1,9.9", b"DISKBUSY,T0003, 1.5e2 ,+.5")
                        .replace(b"DISKREAD,T0003,25.0,199.7", b"DISKREAD,T0003,INF,nan(1)")
                        .replace(b"DISKBUSY,T0001,0.0,12.5", b"DISKBUSY,T0001,  ,1e")
                        .replace(b"DISKREAD,T0001,17.5,275.3", b"DISKREAD,T0001,12345678901234567890.5,1e400"),
        "bom": b"\xef\xbb\xbf" + d,
        "no_header": b"\n".join(ln for ln in lines if not ln.startswith(b"AAA")),
        "rows_before_header": b"CPU01,T0001,1,2,3,4\n" + d,
        "long_tag": d + b"VERYLONGSECTIONNAME,T0003,1,2\nVERYLONGSECTIONNAME,hdr\n",
        "long_snapshot": d + b"CPU01,T12345678,1,2,3,4\nCPU01,T1234567,1,2,3,4\n",
        "top_wrong_form": d + b"TOP,T0003,1,2\nCPU01,123,T0003,1\n",
        "blank_lines": d.replace(b"\nZZZZ", b"\n\n  \nZZZZ"),
        "utf8": d + "UARG,T0003,1,1,cmd,1,usér,grp,/bin/é x,y\n".encode(),
        "empty_fields": d + b"ZZZZ,T0004,00:20:01,04-MAR-2024\nCPU01,T0004\nCPU02,T0004,\nMEM,T0004,,,,\n",
        "time_only": re.sub(rb"(?m)^(ZZZZ,T\d+,[\d:]+),.*$", rb"\1", d) + b"ZZZZ,T0004,00:00:05\n",
        # ZZZZ lines the native core splits itself (the usual form) mixed with others it leaves as text
        "zzzz_mixed": d.replace(b"ZZZZ,T0002,", b"ZZZZ, T0002 ,", 1).replace(b"ZZZZ,T0003,00:15:01", b"ZZZZ,T0003,25:15:01", 1),
        "zzzz_bad_date": d.replace(b"04-MAR-2024", b"31-FOO-2024"),
        "zzzz_iso_and_extra_field": d.replace(b",04-MAR-2024\n", b",2024-03-04\n").replace(b"ZZZZ,T0001,", b"ZZZZ,T01,", 1)
                                    + b"ZZZZ,T0004,00:20:01,2024-03-04,x\nZZZZ,T0005,1:20:01,2024-03-04\n",
        "time_only_no_date": re.sub(rb"(?m)^(ZZZZ,T\d+,[\d:]+),.*$", rb"\1", d).replace(b"AAA,date,", b"AAA,day,"),
        # lines of more fields than a section may have (state.MAX_FIELDS): rows not read, a header cut
        "row_over_field_cap": d.replace(b"DISKBUSY,T0002,0.4,15.1", b"DISKBUSY,T0002,0.4,15.1" + b",1" * 10_000)
                              + b"TOP,1,T0003" + b",x" * 10_000 + b"\n" + b"NEWSEC,T0003" + b"," * 20_000 + b"\n",
        "header_over_field_cap": d + b"CPU01,CPU 1 again" + b",col" * 12_000 + b"\n",
        "last_row_over_field_cap": d + b"CPU01,T0003" + b",1" * 12_000,
    }


@pytest.mark.parametrize("name", list(_variants()))
def test_tolerance_cases(name: str, cuts: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    data = _variants()[name]
    both(data, monkeypatch)
    p = tmp_path / "v.nmon"
    p.write_bytes(data)
    both(p, monkeypatch)


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_corpus(path: Path, cuts: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if cuts == "tiny" and path.stat().st_size > 600_000:
        monkeypatch.setattr(source, "CHUNK", 70_000)
        monkeypatch.setattr(native, "BLOCK", 33_333)
    both(path, monkeypatch)


def test_numbers_follow_arrow() -> None:
    """A field is a number for the native core exactly when Arrow's CSV conversion reads it."""
    pa = pytest.importorskip("pyarrow")
    pcsv = pytest.importorskip("pyarrow.csv")
    toks = ["1", "+1", "-1", " 1", "1 ", "\t1", "1.", ".5", ".", "1e5", "1E5", "1e+5", "1e", "e5", "inf", "-inf",
            "+inf", "Inf", "INF", "infinity", "Infinity", "nan", "NaN", "-nan", "NAN", "nan(1)", "nan(", "0x10",
            "1_0", "--1", "+-1", "1.5.2", "\x0b1", "0001", "1e400", "-0", "5e-400", "  ", "0.1", "123456789012345.6",
            "1234567890123456789", "9007199254740993", "3.14159265358979323846", "-.5e-3", "1.e5", "12a"]
    data = "".join(f"a,{t}\n" for t in toks).encode()
    for t in toks:
        got = native.core.parse_number(t.encode())
        try:
            tb = pcsv.read_csv(pa.BufferReader(f"a,{t}\n".encode()),
                               read_options=pcsv.ReadOptions(column_names=["a", "b"]),
                               parse_options=pcsv.ParseOptions(quote_char=False),
                               convert_options=pcsv.ConvertOptions(column_types={"b": pa.float64()}, null_values=[""]))
            want = tb.column("b")[0].as_py()
        except pa.ArrowInvalid:
            want = None
        if want is None or got is None:
            assert got is None and want is None, (t, got, want)
        elif math.isnan(want):
            assert math.isnan(got), t
        else:
            assert got == want and math.copysign(1, got) == math.copysign(1, want), (t, got, want)
    assert data


def test_env_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", "0")
    assert not native.enabled()
    monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", "1")
    assert native.enabled()


def test_a_file_changed_between_the_passes_is_an_os_error(tmp_path: Path) -> None:
    # Pass 2 reads the blocks again; a file rewritten shorter since pass 1 is said to have changed
    # (an OSError, which the pipeline reports as an unreadable recording), never read out of bounds.
    from lparscope.native_core import core

    path = tmp_path / "a.nmon"
    path.write_bytes(aix())
    scan = core.Scanner(str(path), True)
    layouts = [(list(range(2, s["most_nf"])), []) for s in scan.sections]
    path.write_bytes(aix()[: len(aix()) // 3])
    with pytest.raises(OSError, match="changed while it was read|failed to fill whole buffer"):
        scan.values(layouts)


def test_values_is_called_once(tmp_path: Path) -> None:
    from lparscope.native_core import core

    scan = core.Scanner(aix(), True)
    layouts = [(list(range(2, s["most_nf"])), []) for s in scan.sections]
    assert len(scan.values(layouts)) == len(scan.sections)
    with pytest.raises(RuntimeError, match="already"):
        scan.values(layouts)
