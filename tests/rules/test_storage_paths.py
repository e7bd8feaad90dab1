from lparscope.model.estate import Estate, Setting, Sourced
from lparscope.rules.storage import io_buffers as storage_io_buffers
from lparscope.rules.storage import lun_iops as storage_lun_iops
from lparscope.rules.storage import mpio as storage_mpio
from lparscope.rules.storage import ssp as storage_ssp
from lparscope.sources.iostat_disk import DiskIoSample
from lparscope.sources.lspath import DiskPath
from lparscope.sources.lspv import PhysicalVolume

from .conftest import device, ev, host, run_rule


def _paths(h, disk, *parents):
    h.records.setdefault("lspath", []).extend(
        Sourced(DiskPath(disk, "Enabled", p, line=i), "lspath.txt", 0) for i, p in enumerate(parents, 1))


def test_hcheck_off_on_fc_disk_and_vscsi_needs_two_paths():
    h = host("vios1", "vios")
    device(h, "hdisk4", "disk", PCM="PCM/friend/fcpother", hcheck_interval=0, hcheck_mode="nonactive")
    (f,) = run_rule(storage_mpio.hcheck_off, h)
    assert f.fix.padmin == ["chdev -dev hdisk4 -attr hcheck_interval=60 hcheck_mode=nonactive -perm"]
    assert f.rollback.root == ["chdev -l hdisk4 -a hcheck_interval=0 -a hcheck_mode=nonactive -P"]
    c = host()
    device(c, "hdisk0", "disk", PCM="PCM/friend/vscsi", hcheck_interval=0)
    assert run_rule(storage_mpio.hcheck_off, c) == []  # one vSCSI path: nothing to recover
    _paths(c, "hdisk0", "vscsi0", "vscsi1")
    (g,) = run_rule(storage_mpio.hcheck_off, c)
    assert "2 path parents" in g.message
    ok = host()
    device(ok, "hdisk1", "disk", PCM="PCM/friend/fcpother", hcheck_interval=60)
    assert run_rule(storage_mpio.hcheck_off, ok) == []


def test_timeout_policy_retry_and_disable_path():
    h = host()
    device(h, "hdisk4", "disk", PCM="PCM/friend/fcpother", timeout_policy="retry_path")
    device(h, "hdisk5", "disk", PCM="PCM/friend/fcpother", timeout_policy="fail_path")
    device(h, "hdisk6", "disk", PCM="PCM/friend/fcpother", timeout_policy="disable_path")
    device(h, "hdisk7", "disk", PCM="PCM/friend/vscsi", timeout_policy="retry_path")  # vSCSI client: left alone
    _paths(h, "hdisk4", "fscsi0", "fscsi1")
    h.records["lspath"][1].record.status = "Failed"
    f, g = run_rule(storage_mpio.timeout_policy, h)
    assert (f.subject, g.subject) == ("hdisk4", "hdisk6")
    assert f.message == ("hdisk4 on aix1 has timeout_policy=retry_path: a path that times out stays in use. "
                         "lspath shows 1 of its 2 paths Failed.")
    assert f.fix.root[0] == "chdev -l hdisk4 -a timeout_policy=fail_path -P"
    assert f.rollback.root == ["chdev -l hdisk4 -a timeout_policy=retry_path -P"]
    assert "chpath -l hdisk6 -p <parent> -s enable" in g.message
    [change] = g.fix.changes
    assert (change.attribute, change.current, change.target, change.method) == (
        "timeout_policy", "disable_path", "fail_path", "chdev-reboot")


def test_algorithm_reserve_conflict():
    h = host()
    device(h, "hdisk2", "disk", algorithm="round_robin", reserve_policy="single_path")
    device(h, "hdisk3", "disk", algorithm="fail_over", reserve_policy="single_path")
    device(h, "hdisk5", "disk", algorithm="shortest_queue", reserve_policy="no_reserve")
    (f,) = run_rule(storage_mpio.algorithm_reserve, h)
    assert f.subject == "hdisk2" and f.fix.root == ["chdev -l hdisk2 -a reserve_policy=no_reserve -a algorithm=round_robin -P"]


def test_fail_over_with_several_paths():
    h = host()
    device(h, "hdisk2", "disk", PCM="PCM/friend/fcpother", algorithm="fail_over", reserve_policy="single_path")
    _paths(h, "hdisk2", "fscsi0", "fscsi1")
    (f,) = run_rule(storage_mpio.fail_over_multipath, h)
    assert f.level == "info" and "algorithm=shortest_queue" in f.fix.root[0]
    c = host()
    device(c, "hdisk0", "disk", PCM="PCM/friend/vscsi", algorithm="fail_over")
    _paths(c, "hdisk0", "vscsi0", "vscsi1")
    assert run_rule(storage_mpio.fail_over_multipath, c) == []


def test_vscsi_client_recovery():
    h = host()
    device(h, "vscsi0", "vscsi", vscsi_err_recov="delayed_fail", vscsi_path_to=0)
    device(h, "vscsi1", "vscsi", vscsi_err_recov="fast_fail", vscsi_path_to=30)
    _paths(h, "hdisk0", "vscsi0", "vscsi1")
    (f,) = run_rule(storage_mpio.vscsi_client_recovery, h)
    assert f.fix.root[0] == "chdev -l vscsi0 -a vscsi_err_recov=fast_fail -a vscsi_path_to=30 -P"
    assert f.values == {"current": "delayed_fail / 0", "suggested": "fast_fail / 30"}
    single = host()
    device(single, "vscsi0", "vscsi", vscsi_err_recov="delayed_fail", vscsi_path_to=0)
    assert run_rule(storage_mpio.vscsi_client_recovery, single) == []


def _pv(h, name, vg, free=False):
    h.records.setdefault("lspv", []).append(Sourced(PhysicalVolume(name, None, vg, free=free, line=len(h.records.get("lspv", [])) + 1), "lspv.txt", 0))


def test_ssp_disk_attributes_differ():
    e = Estate()
    for name, qd in (("vios1", ("32", "32")), ("vios2", ("32", "8"))):
        v = host(name, "vios")
        _pv(v, "hdisk1", "caavg_private")
        v.records["lspv"][0].record.pvid = "00f6aaaa00000001"
        _pv(v, "hdisk2", None)
        _pv(v, "hdisk3", None)
        _pv(v, "hdisk9", None)
        _pv(v, "hdisk9", None, free=True)  # lspv -free: not a pool disk
        device(v, "hdisk2", "disk", queue_depth=qd[0], max_transfer="0x80000")
        device(v, "hdisk3", "disk", queue_depth=qd[1], max_transfer="0x80000")
        device(v, "hdisk9", "disk", queue_depth=1)
        e.hosts[name] = v
    assert storage_ssp.ssp_disks(e.hosts["vios1"]) == ("00f6aaaa00000001", ["hdisk2", "hdisk3"])
    (f,) = run_rule(storage_ssp.ssp_attrs, e)
    assert f.host == "vios2" and f.subject == "queue_depth: hdisk3"
    assert f.fix.padmin[1] == "chdev -dev hdisk3 -attr queue_depth=32 -perm" and f.values["suggested"] == "32"
    e.hosts["vios2"].devices["hdisk3"].attrs["queue_depth"] = Setting("32", ev())
    assert run_rule(storage_ssp.ssp_attrs, e) == []


def _io(h, disk, interval, tps, rps, ravg, wps, wavg):
    r = DiskIoSample(disk, interval, line=10 * interval + 2, tps=tps, rps=rps, read_avgserv=ravg, wps=wps, write_avgserv=wavg)
    h.records.setdefault("iostat-D", []).append(Sourced(r, "iostat.txt", 0))


def test_iops_ceiling():
    h = host()
    device(h, "hdisk0", "disk", queue_depth=3)
    _io(h, "hdisk0", 0, 5000.0, 3000.0, 1.0, 2000.0, 1.0)  # since boot: skipped
    _io(h, "hdisk0", 1, 280.0, 200.0, 10.0, 80.0, 10.0)  # ceiling 3 / 10 ms = 300: 93%
    (f,) = run_rule(storage_lun_iops.iops_ceiling, h)
    assert "280 tps against a ceiling of 300" in f.message and f.fix.root[0] == "chdev -l hdisk0 -a queue_depth=6 -P"
    assert "in force" not in f.message
    # a rate above the ceiling cannot pass a queue of that depth: the reading is said to be doubtful
    _io(h, "hdisk0", 2, 580.0, 400.0, 10.0, 180.0, 10.0)
    (f,) = run_rule(storage_lun_iops.iops_ceiling, h)
    assert "= 193%: more than queue_depth 3 lets through" in f.message and "check it before changing it" in f.message
    h.devices["hdisk0"].attrs["queue_depth"] = Setting("32", ev())
    assert run_rule(storage_lun_iops.iops_ceiling, h) == []


def _snap(h, **counters):
    h.vmstat_snapshots.append({k: Setting(v, ev(len(h.vmstat_snapshots) + 1, "vmstat.txt")) for k, v in counters.items()})


def test_pbuf_rate_from_two_snapshots():
    h = host()
    _snap(h, pending_disk_ios_blocked_with_no_pbuf=1417)
    _snap(h, pending_disk_ios_blocked_with_no_pbuf=1817)
    (f,) = run_rule(storage_io_buffers.pbuf_blocked, h)
    assert f.level == "warning" and "rose by 400" in f.message and "pv_pbuf_count=1024" in f.fix.root[1]
    flat = host()
    _snap(flat, pending_disk_ios_blocked_with_no_pbuf=1417)
    _snap(flat, pending_disk_ios_blocked_with_no_pbuf=1417)
    assert run_rule(storage_io_buffers.pbuf_blocked, flat) == []


def test_fsbuf_and_psbuf_single_snapshot_info_and_vios_form():
    h = host("vios1", "vios")
    h.tunables["j2_dynamicBufferPreallocation"] = Setting("16", ev(9, "ioo.txt"))
    _snap(h, external_pager_filesystem_ios_blocked_with_no_fsbuf=385190, paging_space_ios_blocked_with_no_psbuf=0)
    (f,) = run_rule(storage_io_buffers.fsbuf_blocked, h)
    # one snapshot: a count since boot, maybe old: measure again before changing anything (no plan change)
    assert f.level == "info" and f.fix.root[0].startswith("vmstat -v | grep fsbuf") and not f.changes
    assert f.fix.root[1] == "# if it rises: ioo -p -o j2_dynamicBufferPreallocation=32"
    assert f.fix.padmin[0] == "oem_setup_env" and f.values["suggested"].startswith("a second vmstat -v")
    _snap(h, external_pager_filesystem_ios_blocked_with_no_fsbuf=385990, paging_space_ios_blocked_with_no_psbuf=0)
    (f,) = run_rule(storage_io_buffers.fsbuf_blocked, h)  # rose between two snapshots: the change
    assert f.fix.root[0] == "ioo -p -o j2_dynamicBufferPreallocation=32"
    assert f.rollback.root == ["ioo -p -o j2_dynamicBufferPreallocation=16"] and len(f.changes) == 1
    assert run_rule(storage_io_buffers.psbuf_blocked, h) == []


def test_hcheck_off_leaves_single_path_disks_and_matches_the_plan():
    h = host()
    device(h, "hdisk0", "disk", PCM="PCM/friend/scsiscsd", hcheck_interval=0)  # internal SAS disk
    device(h, "hdisk1", "disk", PCM="PCM/friend/fcpother", hcheck_interval=0)
    _paths(h, "hdisk1", "fscsi0")  # one path in lspath
    device(h, "hdisk2", "disk", PCM="PCM/friend/fcpother", hcheck_interval=0)
    _paths(h, "hdisk2", "fscsi0", "fscsi1")
    (f,) = run_rule(storage_mpio.hcheck_off, h)
    assert f.subject == "hdisk2"
    # the command the fix gives first is the one the plan schedules (at the next boot: -P)
    assert f.fix.root[0] == "chdev -l hdisk2 -a hcheck_interval=60 -a hcheck_mode=nonactive -P"
    assert {c.method for c in f.changes} == {"chdev-reboot"} and f.disruption == ["reboot"]


def test_numfsbufs_is_not_proposed_where_no_jfs_is_mounted():
    from lparscope.model.estate import Sourced
    from lparscope.sources.mount import Mount

    h = host()
    _snap(h, filesystem_ios_blocked_with_no_fsbuf=2228)
    h.records["mount"] = [Sourced(Mount(None, "/dev/hd4", "/", "jfs2", None, line=3), "mount.txt", 0),
                          Sourced(Mount(None, "/proc", "/proc", "procfs", None, line=4), "mount.txt", 0)]
    assert run_rule(storage_io_buffers.fsbuf_blocked, h) == []  # numfsbufs serves JFS only
    h.records["mount"].append(Sourced(Mount(None, "/dev/lv01", "/old", "jfs", None, line=5), "mount.txt", 0))
    (f,) = run_rule(storage_io_buffers.fsbuf_blocked, h)
    assert "numfsbufs" in " ".join(f.fix.root)
