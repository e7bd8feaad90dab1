"""AIX snap collections: section headers, the snap tree's host, snap.pax.Z.

The files here are written for these tests in the layout ``snap`` uses (``.....    <command>``
headers between rules of dots; general/, kernel/, svCollect/ folders), with made-up values.
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from lparscope.input_items import snap_root
from lparscope.pipeline import analyze
from lparscope.sources import levels, lsattr
from lparscope.sources.detect import split_and_classify

from .test_compress_z import encode

GENERAL = """.....
.....    bootinfo -r
.....

16777216

.....
.....    lsattr -El sys0
.....

autorestart     true               Automatically REBOOT OS after a crash              True
maxuproc        2048               Maximum number of PROCESSES allowed per user       True

.....
.....    lsattr -El inet0
.....

authm         65536            Authentication Methods                      True
hostname      aix9.example.com Host Name                                   True

.....
.....    lsattr -El hdisk0
.....

algorithm       fail_over               Algorithm                        True
queue_depth     3                       Queue DEPTH                      True
reserve_policy  single_path             Reserve Policy                   True
"""

KERNEL = """.....
.....    vmo -L
.....

NAME                      CUR    DEF    BOOT   MIN    MAX    UNIT           TYPE
     DEPENDENCIES
--------------------------------------------------------------------------------
minfree                   960    960    960    8      25548K 4KB pages          D
     maxfree
     memory_frames
--------------------------------------------------------------------------------
"""

DF = """.....
.....    df -k
.....

Filesystem    1024-blocks      Free %Used    Iused %Iused Mounted on
/dev/hd4          2097152   1048576   50%    12000     5% /
"""


def test_sections_are_cut_at_their_headers_and_the_rules_of_dots_are_no_output() -> None:
    segs = split_and_classify(GENERAL)
    assert [s.prompt.command for s in segs] == ["bootinfo -r", "lsattr -El sys0", "lsattr -El inet0", "lsattr -El hdisk0"]
    assert [s.start for s in segs] == [2, 8, 15, 22]
    assert segs[0].kind is None and "bootinfo" in segs[0].reason  # unsupported, said so, and cut
    assert [s.kind for s in segs[1:]] == ["lsattr"] * 3
    for seg in segs[1:]:
        parsed = lsattr.parse(seg.text)
        assert not parsed.warnings, parsed.warnings
    assert ".....\n" not in "".join(s.text for s in segs)


def test_a_rule_of_dots_elsewhere_is_left_alone() -> None:
    text = "# lsattr -El sys0\nmaxuproc 2048 Maximum number of PROCESSES allowed per user True\n....... \n"
    seg, = split_and_classify(text)
    assert seg.kind == "lsattr"
    assert lsattr.parse(seg.text).warnings  # a stray line is still reported where no snap header is


def test_inet0_names_the_host() -> None:
    parsed = lsattr.parse("# lsattr -El inet0\nhostname      aix9.example.com Host Name True\n")
    assert parsed.hostname == "aix9.example.com"
    assert lsattr.parse("# lsattr -El en0\nhostname aix9 x True\n").hostname is None
    assert lsattr.parse("root@lpar3:/ # lsattr -El inet0\nhostname aix9 Host Name True\n").hostname == "lpar3"


def test_vios_level_file_is_the_ioslevel() -> None:
    text = "VIOS Level is 3.1.4.21\n"
    assert levels.detect(text) >= 60
    rec, = levels.parse(text).records
    assert (rec.command, rec.value, rec.parts) == ("ioslevel", "3.1.4.21", (3, 1, 4, 21))


def test_snap_root() -> None:
    assert snap_root("/data/aix9/general/general.snap") == ("/data/aix9", "aix9")
    assert snap_root("/data/aix9/general/diagnostics/x.snap") == ("/data/aix9", "aix9")
    assert snap_root("/data/snaps/aix9.snap.pax.Z!./kernel/kernel.snap") == ("/data/snaps/aix9.snap.pax.Z!.", "aix9.snap")
    assert snap_root("/data/aix9/lsattr_El_sys0.txt") is None
    assert snap_root("/data/general/estate/aix1/vmstat_v.txt") is None  # only the file's folder or its parent


def _tree(root: Path) -> None:
    (root / "filesys").mkdir(parents=True)
    (root / "general").mkdir()
    (root / "kernel").mkdir()
    (root / "filesys" / "filesys.snap").write_text(DF)  # read before general/: names no host
    (root / "general" / "general.snap").write_text(GENERAL)
    (root / "kernel" / "kernel.snap").write_text(KERNEL)


def test_every_file_of_a_snap_tree_is_its_host(tmp_path: Path) -> None:
    _tree(tmp_path / "ibmsupt")
    a = analyze([str(tmp_path)])
    assert set(a.estate.hosts) == {"aix9"}
    by_kind = {i.kind: i for i in a.estate.inputs if i.kind}
    assert {"lsattr", "tunables", "df"} <= set(by_kind)
    assert all(i.host == "aix9" for i in a.estate.inputs if i.kind)
    host = a.estate.hosts["aix9"]
    assert {"sys0", "inet0", "hdisk0"} <= set(host.devices) and "minfree" in host.tunables and "/" in host.filesystems


def test_a_tree_that_names_no_host_is_its_folder(tmp_path: Path) -> None:
    root = tmp_path / "lpar12"
    (root / "kernel").mkdir(parents=True)
    (root / "kernel" / "kernel.snap").write_text(KERNEL)
    (root / "filesys").mkdir()
    (root / "filesys" / "filesys.snap").write_text(DF)
    a = analyze([str(tmp_path)])
    assert set(a.estate.hosts) == {"lpar12"}


def test_snap_pax_z_is_read(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        for name, text in (("./general/general.snap", GENERAL), ("./kernel/kernel.snap", KERNEL),
                           ("./svCollect/VIOS.level", "VIOS Level is 3.1.4.21\n")):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    (tmp_path / "snap.pax.Z").write_bytes(encode(buf.getvalue()))
    a = analyze([str(tmp_path / "snap.pax.Z")])
    assert set(a.estate.hosts) == {"aix9"}
    assert a.estate.hosts["aix9"].role == "vios"
    assert not [i for i in a.estate.inputs if i.internal]
    read = {i.kind for i in a.estate.inputs if i.status == "parsed"}
    assert {"lsattr", "tunables", "oslevel"} <= read


def test_damaged_z_is_a_clear_problem(tmp_path: Path) -> None:
    (tmp_path / "snap.pax.Z").write_bytes(b"\x1f\x9d\x90" + b"\xff" * 64)
    a = analyze([str(tmp_path)])
    inp, = a.estate.inputs
    assert inp.status == "unrecognised" and "damaged" in inp.reason and not inp.internal


def test_z_bomb_is_refused_by_its_expanded_size(tmp_path: Path) -> None:
    from lparscope.inputs import Limits, collect

    (tmp_path / "big.Z").write_bytes(encode(b"0" * 200_000))  # 200 KB from about 1 KB
    got = collect([str(tmp_path)], Limits(max_file_bytes=10_000))
    assert not got.files
    problem, = got.problems
    assert "too large: expands beyond" in problem.message
    fine = collect([str(tmp_path)])
    assert fine.files and fine.files[0].text == "0" * 200_000


def test_folders_named_like_snap_ones_are_no_snap_without_a_snap_file(tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "aix3_lsattr_El_sys0.txt").write_text("maxuproc 2048 Maximum number of PROCESSES allowed per user True\n")
    (other / "mount.txt").write_text("  node       mounted        mounted over    vfs       date        options\n"
                                     "-------- ---------------  ---------------  ------ ------------ ---------------\n"
                                     "         /dev/hd4         /                jfs2   Nov 02 10:37 rw,log=/dev/hd8\n")
    general = tmp_path / "general"
    general.mkdir()
    (general / "a.txt").write_text("root@lpar5:/ # lsattr -El sys0\nmaxuproc 2048 Maximum number of PROCESSES allowed per user True\n")
    (general / "b.txt").write_text("# lsattr -El sys0\nmaxuproc 2048 Maximum number of PROCESSES allowed per user True\n")
    a = analyze([str(tmp_path)])
    hosts = {i.path.rsplit("/", 1)[-1]: i.host for i in a.estate.inputs}
    # "other" is a generic folder name (no host): the file is its own host
    assert hosts == {"aix3_lsattr_El_sys0.txt": "aix3", "mount.txt": "mount", "a.txt": "lpar5", "b.txt": "general"}
