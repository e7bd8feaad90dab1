from lparscope.model.build import apply
from lparscope.model.estate import Estate
from lparscope.rules.wpar import devices as wpar_devices
from lparscope.rules.wpar import namefs as wpar_namefs
from lparscope.sources import lslpp, lswpar, mount

from .conftest import device, host, run_rule

L_VERSIONED = """root@glb1:/ # lswpar -L vw52
=================================================================
vw52 - Active
=================================================================
GENERAL
Type:                    S
RootVG WPAR:             no
Hostname:                vw52
Directory:               /wpars/vw52
OStype:                  {ostype}

FILE SYSTEMS
MountPoint               Device           Vfs     Nodename   Options
-----------------------------------------------------------------
/wpars/vw52              /dev/fslv04      jfs2               log=INLINE
/wpars/vw52/data         /data1           nfs3    glb1       rw,bg,hard
/wpars/vw52/opt          /opt             namefs             ro
"""

D_ADAPTER = """root@glb1:/ # lswpar -D vw52
Name  Device Name  Type     Virtual Device  RootVG  Status
------------------------------------------------------------------
vw52  fcs2         adapter                          EXPORTED
vw52  hdisk4       disk     hdisk0          no      EXPORTED
"""

SDDPCM = """root@glb1:/ # lslpp -l devices.sddpcm.71.rte
  Fileset                      Level  State      Description
  ----------------------------------------------------------------------------
Path: /usr/lib/objrepos
  devices.sddpcm.71.rte      2.6.6.0  COMMITTED  IBM SDD PCM for AIX V71
"""


def _feed(h, module, text, path="t.txt"):
    apply(h, module.KIND, module.parse(text), path, 0)
    return h


def _global(ostype="5.2", with_adapter=True, sdd=True):
    h = host("glb1")
    _feed(h, lswpar, L_VERSIONED.format(ostype=ostype), "lswpar_L.txt")
    if with_adapter:
        _feed(h, lswpar, D_ADAPTER, "lswpar_D.txt")
    if sdd:
        _feed(h, lslpp, SDDPCM, "lslpp.txt")
    return h


def test_adapter_exported_to_versioned_wpar():
    h = _global("1")
    (f,) = run_rule(wpar_devices.adapter_in_unsupported_wpar, h)
    assert f.subject == "vw52:fcs2" and "Versioned (OStype 1)" in f.message
    assert f.fix.root[0] == "chwpar -K -D devname=fcs2 vw52"
    assert f.rollback.root == ["chwpar -D devname=fcs2 vw52"]
    assert {str(e) for e in f.evidence} == {"lswpar_D.txt:4", "lswpar_L.txt:10"}


def test_adapter_in_plain_system_wpar_is_fine_and_disks_never_count():
    h = _global("0")  # OStype 0: native system WPAR, adapters are allowed
    assert run_rule(wpar_devices.adapter_in_unsupported_wpar, h) == []
    h = _global("1", with_adapter=False)
    _feed(h, lswpar, D_ADAPTER.replace("vw52  fcs2         adapter                          EXPORTED\n", ""))
    assert run_rule(wpar_devices.adapter_in_unsupported_wpar, h) == []


def test_adapter_in_rootvg_wpar():
    h = host("glb2")
    _feed(h, lswpar, "root@glb2:/ # lswpar\nName  State  Type  Hostname  Directory     RootVG WPAR\n"
                     "------------------------------------------------------\nrw1   A      S     rw1       /wpars/rw1    yes\n")
    _feed(h, lswpar, "root@glb2:/ # lswpar -D rw1\nName  Device Name  Type     Virtual Device  RootVG  Status\n"
                     "------------------------------------------------------------\nrw1   fcs0         adapter                          EXPORTED\n")
    (f,) = run_rule(wpar_devices.adapter_in_unsupported_wpar, h)
    assert "rootvg WPAR" in f.message


def test_sddpcm_with_52_versioned_wpar():
    (f,) = run_rule(wpar_devices.sddpcm_with_versioned52, _global("5.2"))
    assert f.level == "warning" and "devices.sddpcm.71.rte (2.6.6.0)" in f.message
    assert "installp -u devices.sddpcm.71.rte" in f.fix.root and f.disruption == ["reboot"]
    # the level is only a code: advisory, asks to confirm
    (g,) = run_rule(wpar_devices.sddpcm_with_versioned52, _global("1"))
    assert g.level == "info" and "clogin vw52 oslevel" in g.message


def test_sddpcm_quiet_for_53_native_or_absent():
    assert run_rule(wpar_devices.sddpcm_with_versioned52, _global("5.3")) == []
    assert run_rule(wpar_devices.sddpcm_with_versioned52, _global("0")) == []
    h = _global("5.2", sdd=False)
    _feed(h, lslpp, "root@glb1:/ # lslpp -l *sddpcm*\nlslpp: 0504-132  Fileset *sddpcm* not installed.\n")
    assert run_rule(wpar_devices.sddpcm_with_versioned52, h) == []


def test_nfs_to_own_global_from_lswpar_table_and_mount_table():
    e = Estate()
    h = e.host("glb1")
    _feed(h, lswpar, L_VERSIONED.format(ostype="0"), "lswpar_L.txt")
    (f,) = run_rule(wpar_namefs.nfs_instead_of_namefs, e)
    assert f.host == "glb1" and f.subject == "vw52:/data"
    assert f.fix.root[:2] == ["clogin vw52 umount /data", "mount -v namefs /data1 /wpars/vw52/data"]
    assert f.values["current"] == "nfs glb1:/data1"
    # the same mount in the global's mount table is not reported twice; a second one is found there
    device(h, "en0", "interface", netaddr="10.1.1.5")
    _feed(h, mount, "root@glb1:/ # mount\n  node       mounted        mounted over    vfs       date        options\n"
                    "-------- ---------------  ---------------  ------ ------------ ---------------\n"
                    "glb1     /data1           /wpars/vw52/data nfs3   Jan 10 10:00 rw,bg,hard\n"
                    "10.1.1.5 /data3           /wpars/vw52/data3 nfs3   Jan 10 10:00 rw\n", "mount.txt")
    subjects = sorted(x.subject for x in run_rule(wpar_namefs.nfs_instead_of_namefs, e))
    assert subjects == ["vw52:/data", "vw52:/data3"]


def test_nfs_from_another_server_is_not_namefs_material():
    e = Estate()
    h = e.host("glb1")
    _feed(h, lswpar, L_VERSIONED.format(ostype="0").replace("nfs3    glb1", "nfs3    nas01"))
    _feed(h, mount, "root@glb1:/ # mount\n  node       mounted        mounted over    vfs       date        options\n"
                    "-------- ---------------  ---------------  ------ ------------ ---------------\n"
                    "nas01    /vol/x           /wpars/vw52/x    nfs3   Jan 10 10:00 rw\n"
                    "glb1     /data1           /mnt             nfs3   Jan 10 10:00 rw\n")
    assert run_rule(wpar_namefs.nfs_instead_of_namefs, e) == []


def test_nfs_mount_seen_inside_the_wpar_host():
    e = Estate()
    _feed(e.host("glb1"), lswpar, L_VERSIONED.format(ostype="0").replace("nfs3    glb1", "nfs3    nas01"))
    _feed(e.host("vw52"), mount, "root@vw52:/ # mount\n  node       mounted        mounted over    vfs       date        options\n"
                                 "-------- ---------------  ---------------  ------ ------------ ---------------\n"
                                 "glb1     /data1           /data            nfs3   Jan 10 10:00 rw\n")
    (f,) = run_rule(wpar_namefs.nfs_instead_of_namefs, e)
    assert f.host == "glb1" and "mount -v namefs /data1 /wpars/vw52/data" in f.fix.root
