"""Archive bombs end with a "too large" status, counted at their expanded size at any depth.

Small versions of the bombs (limits lowered to match); the full-size ones are measured as whole
processes by bench/bombs.py (peak RSS in the note of issue 11).
"""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from pathlib import Path

from lparscope.inputs import Limits, collect
from lparscope.pipeline import analyze

MB = 1024 * 1024
LSATTR = b"# lsattr -El sys0\nmaxuproc 4096 Maximum number of PROCESSES allowed per user True\n"


def _problems(got) -> str:  # type: ignore[no-untyped-def]
    return " | ".join(f"{p.display}: {p.message}" for p in got.problems)


def test_gzip_members_of_a_zip_count_expanded(tmp_path: Path) -> None:
    member = gzip.compress(b"\0" * (3 * MB))  # ~3 KB compressed
    with zipfile.ZipFile(tmp_path / "b.zip", "w", zipfile.ZIP_STORED) as zf:
        for n in range(8):
            zf.writestr(f"h{n}/lsattr.txt.gz", member)
        zf.writestr("ok/lsattr.txt", LSATTR)
    got = collect([str(tmp_path / "b.zip")], Limits(max_file_bytes=1 * MB))
    assert [f.display.split("!")[-1] for f in got.files] == ["ok/lsattr.txt"]
    assert _problems(got).count("too large: expands beyond 1 MB") == 8


def test_nmon_gz_expanding_beyond_its_cap(tmp_path: Path) -> None:
    block = gzip.compress(b"CPU01,T0001,10.0,5.0,1.0,84.0\n" * 40_000)  # ~1.2 MB expanded each
    with open(tmp_path / "r.nmon.gz", "wb") as fh:
        fh.write(gzip.compress(b"AAA,progname,topas_nmon\nAAA,host,bomb\n"))
        for _ in range(5):
            fh.write(block)
    got = collect([str(tmp_path / "r.nmon.gz")], Limits(max_nmon_bytes=4 * MB))
    assert not got.files and "too large: expands beyond 4 MB" in _problems(got)
    assert collect([str(tmp_path / "r.nmon.gz")], Limits(max_nmon_bytes=8 * MB)).files  # within the cap: read


def test_bundle_with_too_many_members_is_not_read(tmp_path: Path) -> None:
    with tarfile.open(tmp_path / "many.tgz", "w:gz") as tf:
        for n in range(60):
            info = tarfile.TarInfo(f"h/lsattr_{n}.txt")
            info.size = len(LSATTR)
            tf.addfile(info, io.BytesIO(LSATTR))
    got = collect([str(tmp_path / "many.tgz")], Limits(max_members=50))
    assert not got.files and "too large: more than 50 members" in _problems(got)
    assert len(collect([str(tmp_path / "many.tgz")], Limits(max_members=60)).files) == 60


def test_nested_members_count_against_the_run_budget(tmp_path: Path) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_STORED) as zf:
        for n in range(6):
            zf.writestr(f"h{n}/lsattr.txt.gz", gzip.compress(LSATTR + b"#" * MB))
    outer = tmp_path / "outer.tgz"
    with tarfile.open(outer, "w:gz") as tf:
        info = tarfile.TarInfo("site/inner.zip")
        info.size = len(inner.getvalue())
        tf.addfile(info, io.BytesIO(inner.getvalue()))
    got = collect([str(outer)], Limits(max_expanded_bytes=int(3.5 * MB)))
    assert 1 <= len(got.files) < 6
    assert "decompressed from the inputs of this run" in _problems(got)
    got = collect([str(outer)], Limits(max_total_bytes=int(2.5 * MB)))
    assert len(got.files) == 2 and "of text" in _problems(got)


def test_a_bomb_beside_a_good_input_leaves_the_good_one_read(tmp_path: Path) -> None:
    (tmp_path / "aix1").mkdir()
    (tmp_path / "aix1" / "lsattr.txt").write_bytes(LSATTR)
    (tmp_path / "aix1" / "zeros.txt.gz").write_bytes(gzip.compress(b"\0" * (2 * MB)))
    a = analyze([str(tmp_path)], limits=Limits(max_file_bytes=1 * MB))
    by_name = {Path(i.path).name: i for i in a.estate.inputs}
    assert by_name["lsattr.txt"].status == "parsed"
    assert "too large" in by_name["zeros.txt.gz"].reason and not a.internal
