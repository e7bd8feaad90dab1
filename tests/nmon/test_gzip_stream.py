"""A compressed nmon recording is expanded to a temporary file piece by piece, never whole in memory."""

from __future__ import annotations

import gzip
import io
import os
import tracemalloc
import zlib
from pathlib import Path

from lparscope.nmon.source import PIECE, Source, expand_to_temp


def _recording(lines: int) -> bytes:
    head = b"AAA,progname,topas_nmon\nAAA,date,22-NOV-2026\nAAA,interval,60\nAAA,snapshots,%d\n" % lines
    body = b"".join(b"ZZZZ,T%04d,10:%02d:00,22-NOV-2026\nLPAR,T%04d,1.5,2,4\n" % (i, i % 60, i) for i in range(1, lines + 1))
    return head + b"LPAR,Logical Partition aix1,PhysicalCPU,virtualCPUs,logicalCPUs\n" + body


def test_expansion_memory_stays_near_one_piece() -> None:
    raw = b"x" * (64 << 20)  # 64 MB of one byte compresses to ~64 KB
    gz = gzip.compress(raw)
    warn: list = []
    tracemalloc.start()
    path = expand_to_temp(io.BytesIO(gz), warn)
    _now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    try:
        assert path.stat().st_size == len(raw) and not warn
        assert peak < 4 * PIECE, peak  # a few pieces, not the 64 MB the stream expands to
    finally:
        os.unlink(path)


def test_members_damage_and_truncation(tmp_path: Path) -> None:
    a, b = _recording(5), b"LPAR,T0006,1.0,2,4\n"
    warn: list = []
    path = expand_to_temp(io.BytesIO(gzip.compress(a) + gzip.compress(b)), warn)
    assert path.read_bytes() == a + b and not warn
    os.unlink(path)
    gz = gzip.compress(a)
    warn = []
    path = expand_to_temp(io.BytesIO(gz[: len(gz) // 2]), warn)
    assert a.startswith(path.read_bytes()) and "truncated" in warn[0][1]
    os.unlink(path)
    broken = gz[:12] + bytes(40) + gz[52:]
    warn = []
    path = expand_to_temp(io.BytesIO(broken), warn)
    assert warn and ("damaged" in warn[0][1] or "truncated" in warn[0][1])
    os.unlink(path)


def test_the_temporary_file_goes_with_the_source(tmp_path: Path) -> None:
    f = tmp_path / "aix1.nmon.gz"
    f.write_bytes(gzip.compress(_recording(3)))
    src = Source(f, [])
    temp = src.path
    assert temp is not None and temp != f and temp.exists()
    assert b"".join(bytes(c) for c, _last, _cr in src.chunks()) == _recording(3)
    del src
    assert not temp.exists()
    assert f.read_bytes()[:2] == b"\x1f\x8b"  # the input is untouched

