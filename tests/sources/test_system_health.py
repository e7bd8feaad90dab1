"""errpt, lsps, df, lsfs, lsmcode, prtconf: fixtures in the real formats, one case per variant."""

from pathlib import Path

from lparscope.sources import df, errpt, lsfs, lsmcode, lsps, prtconf
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures"


def _read(kind: str, name: str) -> str:
    return (FIX / kind / name).read_text()


def test_errpt_summary():
    text = _read("errpt", "errpt_summary_aix72.txt")
    r = errpt.parse(text)
    assert r.warnings == [] and r.hostname == "aixdb02" and len(r.records) == 6
    first = r.records[0]
    assert (first.identifier, first.type, first.err_class, first.resource, first.description, first.timestamp, first.line) == (
        "DE3B8540", "PERM", "H", "hdisk7", "PATH HAS FAILED", "2025-11-02T14:15", 3)
    assert r.records[4].type == "INFO" and r.records[4].description == "The daemon is started."
    assert errpt.iso_timestamp("1399999999") is None


def test_errpt_detailed_stanzas():
    r = errpt.parse(_read("errpt", "errpt_a_aix71.txt"))
    assert r.warnings == [] and r.hostname == "aixdb02"
    disk, opmsg = r.records
    assert (disk.label, disk.identifier, disk.sequence, disk.type, disk.err_class, disk.resource) == (
        "SC_DISK_PCM_ERR7", "DE3B8540", 10442, "PERM", "H", "hdisk7")
    assert disk.resource_type == "mpioosdisk" and disk.location.startswith("U8286.42A")
    assert disk.description == "PATH HAS FAILED" and disk.lines["description"] == 24
    assert disk.sections["Probable Causes"] == ["ADAPTER HARDWARE OR CABLE", "DASD DEVICE"]
    assert "CHECK PATH" in disk.sections["Recommended Actions"]
    assert opmsg.sections["Detail Data"][-1] == "nightly backup finished with rc=4" and opmsg.line == 43


def test_errpt_bad_input():
    r = errpt.parse(_read("errpt", "bad.txt"))
    assert len(r.records) == 1 and [w.line for w in r.warnings] == [4, 6]
    assert errpt.detect("hello") == 0 and errpt.parse("").records == []


def test_lsps_a_and_s():
    r = lsps.parse(_read("lsps", "lsps_a_aix72.txt"))
    assert r.warnings == [] and r.hostname == "aixapp3"
    names = {p.name: p for p in r.records}
    assert (names["hd6"].size_mb, names["hd6"].used_pct, names["hd6"].active, names["hd6"].volume_group) == (4096, 12.0, True, "rootvg")
    assert names["nfsps01"].type == "nfs" and not names["nfsps01"].active
    old = lsps.parse(_read("lsps", "lsps_a_aix53_nochksum.txt")).records[0]
    assert (old.size_mb, old.used_pct, old.chksum) == (2048, 41.0, None)
    (total,) = lsps.parse(_read("lsps", "lsps_s_aix61.txt")).records
    assert (total.total_mb, total.used_pct, total.line) == (13312, 5.0, 3)
    bad = lsps.parse(_read("lsps", "bad.txt"))
    assert [w.line for w in bad.warnings] == [3] and [p.name for p in bad.records] == ["hd7"]


def test_df_units_are_converted_to_mb():
    g = {f.mounted_on: f for f in df.parse(_read("df", "df_g_aix72.txt")).records}
    assert (g["/var"].size_mb, g["/var"].used_pct, g["/var"].inodes_used_pct, g["/var"].unit) == (2048.0, 95.0, 27.0, "GB")
    assert g["/proc"].size_mb is None and g["/arch"].filesystem == "nas01:/vol/arch"
    k = df.parse(_read("df", "df_k_aix61_wrapped.txt"))
    assert k.warnings == [] and k.records[1].filesystem == "/dev/fslv_very_long_name_for_exports"
    assert (k.records[1].size_mb, k.records[1].mounted_on, k.records[1].line) == (10240.0, "/export/home/application", 5)
    assert df.parse(_read("df", "df_m_aix71.txt")).records[0].free_mb == 401.25
    assert df.parse(_read("df", "df_512_aix53.txt")).records[0].size_mb == 128.0
    pk = df.parse(_read("df", "df_Pk_aix72.txt")).records
    assert (pk[1].size_mb, pk[1].free_mb, pk[1].used_pct, pk[1].inodes_used) == (4096.0, 204.8, 95.0, None)
    bad = df.parse(_read("df", "bad.txt"))
    assert bad.records == [] and [w.line for w in bad.warnings] == [2, 4, 5]


def test_lsfs_forms():
    r = lsfs.parse(_read("lsfs", "lsfs_aix72.txt"))
    assert r.warnings == [] and len(r.records) == 6
    by = {f.mount_point: f for f in r.records}
    assert (by["/"].size_mb, by["/"].options, by["/"].auto_mount) == (2048.0, "", True)
    assert by["/arch"].nodename == "nas01" and by["/arch"].size_mb is None
    (q,) = lsfs.parse(_read("lsfs", "lsfs_q_aix71.txt")).records
    assert q.details["inline log"] == "yes" and q.details["block size"] == "4096" and q.lines["details"] == 4
    c = lsfs.parse(_read("lsfs", "lsfs_c_aix61.txt"))
    assert c.warnings == [] and [(f.mount_point, f.name, f.size_mb) for f in c.records] == [("/", "/dev/hd4", 512.0), ("/home", "/dev/hd1", 128.0)]
    bad = lsfs.parse(_read("lsfs", "bad.txt"))
    assert [w.line for w in bad.warnings] == [3, 4]


def test_lsmcode_c_and_A():
    (sysfw,) = lsmcode.parse(_read("lsmcode", "lsmcode_c_p8.txt")).records
    assert (sysfw.level, sysfw.permanent, sysfw.temporary, sysfw.booted_from) == ("SV860_240", "SV860_212", "SV860_240", "temporary")
    recs = {r.device + ":" + r.kind: r for r in lsmcode.parse(_read("lsmcode", "lsmcode_A_p9.txt")).records}
    assert (recs["sys0:system"].permanent, recs["sys0:system"].temporary, recs["sys0:system"].level) == ("VL950_092", "VL950_099", "VL950_099")
    assert recs["sys0:service"].level == "FW950.40" and recs["ent0:device"].level == "14108902.0603"
    bad = lsmcode.parse(_read("lsmcode", "bad.txt"))
    assert bad.records[0].permanent == "AL770_076" and [w.line for w in bad.warnings] == [3]


def test_prtconf_summary_and_resources():
    r = prtconf.parse(_read("prtconf", "prtconf_p9_aix72.txt"))
    assert r.warnings == [] and r.hostname == "aixapp3"
    cfg = r.records[0]
    assert (cfg.model, cfg.serial, cfg.processors, cfg.clock_mhz, cfg.lpar_number, cfg.lpar_name, cfg.memory_mb) == (
        "IBM,9009-42A", "7812C4X", 4, 3450, 5, "aixapp3", 32768)
    assert (cfg.platform_firmware, cfg.firmware_version, cfg.lines["platform_firmware"]) == ("VL950_099", "IBM,FW950.40 (VL950_099)", 14)
    assert (cfg.paging_mb, cfg.paging_used_pct) == (8192, 2.0)
    res = {x.name: x for x in r.records if type(x).__name__ == "InstalledResource"}
    assert res["ent0"].location == "U9009.42A.7812C4X-V5-C2-T1" and res["ent0"].description.startswith("Virtual I/O Ethernet")
    assert res["sys0"].location == "" and res["hdisk0"].description == "Virtual SCSI Disk Drive"
    (vgd,) = [x for x in r.records if type(x).__name__ == "VolumeGroupDisk"]
    assert (vgd.volume_group, vgd.physical_volume, vgd.free_pps) == ("rootvg", "hdisk0", 412)
    bad = prtconf.parse(_read("prtconf", "bad.txt"))
    assert [w.line for w in bad.warnings] == [5, 6]


def test_kinds_are_classified_without_prompts():
    for kind, name in [("errpt", "errpt_a_aix71.txt"), ("lsps", "lsps_a_aix53_nochksum.txt"), ("df", "df_m_aix71.txt"),
                       ("lsmcode", "lsmcode_A_p9.txt"), ("prtconf", "prtconf_p9_aix72.txt"), ("lsfs", "lsfs_c_aix61.txt")]:
        text = _read(kind, name)
        lines = text.splitlines()
        if lines[0].startswith(("#", "root@")):
            text = "\n".join(lines[1:])
        kinds = {s.kind for s in split_and_classify(text)}
        assert kinds == {kind}, (name, kinds)


def test_pasted_together_with_prompts():
    text = "\n".join(_read(k, n) for k, n in [("lsps", "lsps_s_aix61.txt"), ("df", "df_g_aix72.txt"),
                                                  ("errpt", "errpt_summary_aix72.txt"), ("lsmcode", "lsmcode_c_p8.txt")])
    assert [s.kind for s in split_and_classify(text)] == ["lsps", "df", "errpt", "lsmcode"]


def test_lsfs_colon_form_details():
    text = ("# lsfs -c -q /data01\n#MountPoint:Device:Vfs:Nodename:Type:Size:Options:AutoMount:Acct\n"
            "/data01:/dev/datalv01:jfs2::data:20971520:rw:yes:no\n"
            "(lv size 20971520:fs size 20971520:block size 4096:sparse files yes:inline log no:EAformat v2:MountGuard no)\n")
    (fs,) = lsfs.parse(text).records
    assert fs.details == {"lv size": "20971520", "fs size": "20971520", "block size": "4096", "sparse files": "yes",
                          "inline log": "no", "EAformat": "v2", "MountGuard": "no"}
