from lparscope.model.build import apply
from lparscope.rules.config import Config
from lparscope.rules.storage import nfs as storage_nfs
from lparscope.sources import levels, mount

from .conftest import host, run_rule

HEAD = ("root@{h}:/ # mount\n  node       mounted        mounted over    vfs       date        options\n"
        "-------- ---------------  ---------------  ------ ------------ ---------------\n")


def _host(name, oslevel, rows):
    h = host(name)
    apply(h, "oslevel", levels.parse(f"root@{name}:/ # oslevel -s\n{oslevel}\n"), "oslevel.txt", 0)
    apply(h, "mount", mount.parse(HEAD.format(h=name) + rows), "mount.txt", 0)
    return h


def test_aix53_default_four_biods():
    h = _host("old53", "5300-12-04-1119",
              "         /dev/hd4         /                jfs2   Jan 10 10:00 rw,log=/dev/hd8\n"
              "nas01    /vol/exp         /exp             nfs3   Jan 10 10:00 rw,bg,hard,intr\n")
    (f,) = run_rule(storage_nfs.nfs_biods_low, h)
    assert f.subject == "/exp" and (f.values["current"], f.values["suggested"]) == ("4", "32")
    assert "the AIX 5.3 default" in f.message
    assert f.fix.root[:2] == ["umount /exp", "mount -o rw,bg,hard,intr,biods=32 nas01:/vol/exp /exp"]
    assert f.rollback.root == ["umount /exp", "mount -o rw,bg,hard,intr nas01:/vol/exp /exp"]
    assert {str(e) for e in f.evidence} == {"mount.txt:5", "oslevel.txt:2"}


def test_explicit_low_biods_on_aix72_and_threshold_override():
    rows = "nas01    /vol/exp         /exp             nfs3   Jan 10 10:00 rw,biods=8,bg\n"
    (f,) = run_rule(storage_nfs.nfs_biods_low, _host("new72", "7200-05-06-2320", rows))
    assert f.values["current"] == "8" and "mount -o rw,bg,biods=32 nas01:/vol/exp /exp" in f.fix.root
    assert run_rule(storage_nfs.nfs_biods_low, _host("new72", "7200-05-06-2320", rows), Config(thresholds={"nfs_biods_min": 8})) == []


def test_biods_quiet_on_later_aix_defaults_and_when_level_unknown():
    rows = "nas01    /vol/exp         /exp             nfs3   Jan 10 10:00 rw,bg,hard,intr\n"
    assert run_rule(storage_nfs.nfs_biods_low, _host("new71", "7100-05-10-2220", rows)) == []
    h = host("nolevel")
    apply(h, "mount", mount.parse(HEAD.format(h="nolevel") + rows), "mount.txt", 0)
    assert run_rule(storage_nfs.nfs_biods_low, h) == []
    ok53 = _host("old53", "5300-12-04-1119", rows.replace("intr", "intr,biods=32"))
    assert run_rule(storage_nfs.nfs_biods_low, ok53) == []


def test_biods_from_nfsstat_m_only():
    h = host("old53")
    apply(h, "oslevel", levels.parse("root@old53:/ # oslevel\n5.3.0.0\n"), "oslevel.txt", 0)
    apply(h, "mount", mount.parse("root@old53:/ # nfsstat -m\n/exp from nas01:/vol/exp\n"
                                   " Flags:   vers=3,proto=tcp,hard,intr,rsize=32768,wsize=32768\n"), "nfsstat.txt", 0)
    (f,) = run_rule(storage_nfs.nfs_biods_low, h)
    assert f.values["current"] == "4" and "nfsstat.txt:3" in {str(e) for e in f.evidence}


def test_dio_mount():
    rows = "nas01    /vol/rman        /backup          nfs3   Jan 10 10:00 rw,bg,hard,dio,vers=3\n"
    (f,) = run_rule(storage_nfs.nfs_dio, _host("db1", "7200-05-06-2320", rows))
    assert f.level == "info" and f.subject == "/backup"
    assert "mount -o rw,bg,hard,vers=3 nas01:/vol/rman /backup" in f.fix.root
    assert f.rollback.root[-1] == "mount -o rw,bg,hard,dio,vers=3 nas01:/vol/rman /backup"
    no_dio = "nas01    /vol/rman        /backup          nfs3   Jan 10 10:00 rw,bg,hard,cio\n"
    assert run_rule(storage_nfs.nfs_dio, _host("db1", "7200-05-06-2320", no_dio)) == []
    local_dio = "         /dev/lv01        /u01             jfs2   Jan 10 10:00 rw,dio,log=INLINE\n"
    assert run_rule(storage_nfs.nfs_dio, _host("db1", "7200-05-06-2320", local_dio)) == []
