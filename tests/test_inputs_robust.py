"""Inputs as administrators make them: AIX tar's absolute member names."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

from lparscope.inputs import collect

LSATTR = b"# lsattr -El hdisk0\nqueue_depth  3  Queue DEPTH  True\nreserve_policy  single_path  Reserve Policy  True\n"


def _tar(path: Path, members: list[tuple[str, bytes]], **kw) -> None:  # type: ignore[no-untyped-def]
    with tarfile.open(path, "w", **kw) as tf:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))


def _members(got) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.display.split("!", 1)[1] for f in got.files]


# 1. absolute member names

def test_absolute_tar_member_names_are_read_as_relative(tmp_path: Path) -> None:
    bundle = tmp_path / "perf.tar"  # AIX: tar cvf perf.tar /tmp/perf
    _tar(bundle, [("/tmp/perf/aix1/lsattr_hdisk0.txt", LSATTR), ("//tmp/perf/aix2/./lsattr.txt", LSATTR),
                  ("/tmp/perf/../perf/aix3/lsattr.txt", LSATTR), ("/../etc/x.txt", LSATTR),
                  ("/tmp/../../y.txt", LSATTR), ("aix4/../../z.txt", LSATTR)], format=tarfile.USTAR_FORMAT)
    before = sorted(p.name for p in tmp_path.iterdir())
    got = collect([str(bundle)])
    assert _members(got) == ["tmp/perf/aix1/lsattr_hdisk0.txt", "tmp/perf/aix2/lsattr.txt", "tmp/perf/aix3/lsattr.txt"]
    assert [f.folder for f in got.files] == ["aix1", "aix2", "aix3"]
    assert len(got.problems) == 3 and all("leaves the bundle" in p.message for p in got.problems)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing extracted, wherever the names point


def test_absolute_zip_member_name_is_read_and_a_drive_is_refused(tmp_path: Path) -> None:
    bundle = tmp_path / "perf.zip"
    with zipfile.ZipFile(bundle, "w") as zf:
        zf.writestr("/tmp/perf/aix1/lsattr.txt", LSATTR)
        zf.writestr("C:/perf/aix2/lsattr.txt", LSATTR)
    got = collect([str(bundle)])
    assert _members(got) == ["tmp/perf/aix1/lsattr.txt"]
    assert [p.message for p in got.problems] == ["member path leaves the bundle (../) or names a drive; refused"]
