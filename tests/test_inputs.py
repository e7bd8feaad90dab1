import io
import os
from pathlib import Path
import tarfile
import zipfile

from lparscope.inputs import Limits, collect

LSATTR = b"# lsattr -El hdisk0\nqueue_depth  3  Queue DEPTH  True\n"


def _tar(path, members, mode="w:gz"):
    with tarfile.open(path, mode) as tf:
        for name, data, kind in members:
            info = tarfile.TarInfo(name)
            if kind == "sym":
                info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
            elif kind == "lnk":
                info.type, info.linkname = tarfile.LNKTYPE, "../../etc/shadow"
            else:
                info.size = len(data)
            tf.addfile(info, io.BytesIO(data) if kind == "file" else None)


def test_folder_files_and_host_folder(tmp_path):
    (tmp_path / "aix1").mkdir()
    (tmp_path / "aix1" / "disk.txt").write_bytes(LSATTR)
    (tmp_path / "aix1" / "core").write_bytes(b"\x00\x01binary")
    got = collect([str(tmp_path)])
    assert [f.folder for f in got.files] == ["aix1"]
    assert any("binary" in p.message for p in got.problems)


def test_tar_bundle_read_in_place_refuses_traversal_and_links(tmp_path):
    bundle = tmp_path / "snap.data"  # the name says nothing: content decides
    _tar(bundle, [("vios1/lsattr.txt", LSATTR, "file"), ("../evil.txt", LSATTR, "file"),
                  ("/abs.txt", LSATTR, "file"), ("vios1/link", b"", "sym"), ("vios1/hard", b"", "lnk")])
    before = sorted(p.name for p in tmp_path.iterdir())
    got = collect([str(bundle)])
    assert [f.display.split("!")[1] for f in got.files] == ["vios1/lsattr.txt", "abs.txt"]  # '/' taken off
    assert got.files[0].folder == "vios1"
    msgs = " ".join(p.message for p in got.problems)
    assert "leaves the bundle" in msgs and "link" in msgs
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing extracted


def test_zip_bomb_ratio_and_size_limits(tmp_path):
    bundle = tmp_path / "b.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("aix2/zeros.txt", b"0" * 5_000_000)
        zf.writestr("aix2/ok.txt", LSATTR)
        zf.writestr("../up.txt", LSATTR)
    got = collect([str(bundle)])
    assert [f.display.split("!")[1] for f in got.files] == ["aix2/ok.txt"]
    assert any("ratio" in p.message for p in got.problems)
    small = collect([str(bundle)], Limits(max_file_bytes=10, max_ratio=10**9))
    assert not small.files and any("larger than" in p.message for p in small.problems)


def test_missing_path_and_damaged_bundle(tmp_path):
    bad = tmp_path / "x.tgz"
    bad.write_bytes(b"\x1f\x8b\x08\x00garbage")
    got = collect([str(tmp_path / "nope"), str(bad)])
    assert {p.message.split(":")[0] for p in got.problems} >= {"no such file or folder", "damaged file"}


def test_gzip_single_file_nmon_and_workbook_routing(tmp_path):
    import gzip as gz

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "lsattr.txt.gz").write_bytes(gz.compress(LSATTR))
    (tmp_path / "a" / "rec.nmon").write_bytes(b"AAA,progname,topas_nmon\nAAA,host,aix1\n")
    (tmp_path / "a" / "rec2.nmon.gz").write_bytes(gz.compress(b"AAA,progname,topas_nmon\n"))
    got = collect([str(tmp_path)])
    by_name = {Path(f.display).name: f for f in got.files}
    assert by_name["lsattr.txt.gz"].text.startswith("# lsattr -El hdisk0")
    assert isinstance(by_name["rec.nmon"].nmon, Path) and isinstance(by_name["rec2.nmon.gz"].nmon, Path)


def _walk_order(root: Path) -> list[tuple[str, str]]:
    """(display, folder) of each file as os.walk lists a folder (the order iter_inputs promises),
    links to files after the others (each file is read once, under its own name first)."""
    out, links = [], []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(f for f in filenames if not f.startswith(".")):
            p = Path(dirpath) / name
            (links if p.is_symlink() else out).append((str(p), p.parent.name if dirpath != str(root) else root.resolve().name))
    return out + links


def test_folders_are_listed_in_walk_order_with_links_and_hidden_names(tmp_path, monkeypatch):
    top = tmp_path / "estate"
    for d in ("b", "a/z", "a/y", ".hidden", "c"):
        (top / d).mkdir(parents=True)
    for f in ("b/2.txt", "b/1.txt", "a/z/x.txt", "a/y/B.txt", "a/y/a.txt", "a/top.txt", ".hidden/h.txt", ".dot.txt",
              "c/.h.txt", "root.txt"):
        (top / f).write_bytes(LSATTR)
    (top / "link_in.txt").symlink_to(top / "b" / "1.txt")
    (top / "link_dir").symlink_to(top / "a")  # a link to a folder is not walked into
    (tmp_path / "outside.txt").write_bytes(LSATTR)
    (top / "link_out.txt").symlink_to(tmp_path / "outside.txt")
    from lparscope.inputs import iter_inputs

    for given in (str(top), str(top) + "/", "estate", "./estate/../estate"):
        monkeypatch.chdir(tmp_path)
        want = [(d, f) for d, f in _walk_order(Path(given)) if "link_in" not in d]  # b/1.txt, read already
        repeated: list[str] = []
        got = [(i.display, getattr(i, "folder", "")) for i in iter_inputs([given], repeated=repeated)]
        assert [(Path(r).name, Path(first).name) for r, first in repeated] == [("link_in.txt", "1.txt")]
        assert [d for d, _ in got] == [d for d, _ in want]
        assert [f for (d, f) in got if "link_out" not in d] == [f for (d, f) in want if "link_out" not in d]
        assert [i.message for i in iter_inputs([given]) if not hasattr(i, "folder")] == [
            "link pointing outside the folder; not followed"]
    monkeypatch.chdir(top)
    assert [i.display for i in iter_inputs(["."])] == [d for d, _ in _walk_order(Path(".")) if "link_in" not in d]
