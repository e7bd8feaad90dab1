from pathlib import Path

from lparscope.sources import mount
from lparscope.sources.detect import split_and_classify
from lparscope.sources.mount import Mount, NfsMountInfo

FIX = Path(__file__).parent.parent / "fixtures" / "mount"


def test_mount_table_aix72_with_wrapped_nfs_options():
    text = (FIX / "mount_aix72.txt").read_text()
    assert mount.detect(text) >= 90
    r = mount.parse(text)
    assert r.warnings == [] and r.hostname == "aixnfs1"
    rows = {m.mounted_over: m for m in r.records if isinstance(m, Mount)}
    assert (rows["/"].node, rows["/"].device, rows["/"].vfs, rows["/"].line) == (None, "/dev/hd4", "jfs2", 4)
    assert rows["/wpars/web01/data"].vfs == "namefs" and "cio" in rows["/wpars/web01/data"].options
    ora = rows["/oradump"]
    assert (ora.node, ora.device, ora.vfs, ora.nfs, ora.date) == ("filer02", "/vol/vol7/oradump", "nfs3", True, "Nov 04 21:15")
    assert ora.options["biods"] == "16" and ora.options["dio"] == "" and ora.options["sec"] == "sys"
    assert ora.line == 8 and ora.lines["options"] == 9  # the wrapped "sec=sys" line
    assert rows["/share"].vfs == "nfs4" and not rows["/proc"].nfs


def test_collapsed_aix53_without_prompt():
    text = (FIX / "mount_collapsed_aix53.txt").read_text()
    assert mount.detect(text) >= 90
    r = mount.parse(text)
    assert r.warnings == [] and r.hostname is None
    nim = r.records[-1]
    assert (nim.node, nim.device, nim.mounted_over, nim.vfs, nim.options_raw) == (
        "nimsrv", "/export/lpp_source", "/mnt", "nfs3", "ro,bg,soft,intr")


def test_nfsstat_m():
    text = (FIX / "nfsstat_m_aix71.txt").read_text()
    assert mount.detect(text) >= 85
    r = mount.parse(text)
    assert r.warnings == []
    a, b = [x for x in r.records if isinstance(x, NfsMountInfo)]
    assert (a.mounted_over, a.server, a.remote, a.line, a.lines["flags"]) == ("/oradump", "filer02", "/vol/vol7/oradump", 2, 3)
    assert a.flags["biods"] == "16" and "dio" in a.flags and a.flags["vers"] == "3"
    assert b.flags["vers"] == "4" and "dio" not in b.flags


def test_nfsstat_m_classified_in_a_paste():
    (seg,) = split_and_classify((FIX / "nfsstat_m_aix71.txt").read_text())
    assert seg.kind == "mount"


def test_bad_input_warns_with_line_numbers():
    r = mount.parse((FIX / "bad.txt").read_text())
    assert len([m for m in r.records if isinstance(m, Mount)]) == 1
    assert [w.line for w in r.warnings] == [5, 6]
    assert mount.parse("") .records == [] and mount.detect("") == 0
    assert mount.detect("hello\nworld") == 0
