from types import SimpleNamespace as NS

from lparscope.model.estate import Estate, Setting, Sourced
from lparscope.rules.vios import backing as vios_backing
from lparscope.rules.vios import level as vios_level
from lparscope.rules.vios import processor as vios_processor
from lparscope.rules.vios import redundancy as vios_redundancy
from lparscope.sources.lspv import PhysicalVolume

from .conftest import device, ev, host, run_rule

LOC = "U9009.42A.784C1D0-V{}-C{}"


def vscsi(vhost, cid, vtd="vtscsi0", disk="hdisk4", lpar=1):
    return NS(vhost=vhost, physloc=LOC.format(lpar, 100 + cid), client_id=cid, vtd=vtd, backing_device=disk if vtd else None,
              _evidence=ev(4, "lsmap.txt"))


def npiv(vfchost, cid, port="fcs0", lpar=2, name=None):
    return NS(vfchost=vfchost, physloc=LOC.format(lpar, 200 + cid), client_id=cid, fc_name=port, client_name=name,
              _evidence=ev(6, "npiv.txt"))


def estate(*hosts):
    e = Estate()
    for h in hosts:
        e.hosts[h.name] = h
    return e


def test_single_server_vscsi_warning_and_npiv_info_without_partner_data():
    v1, v2 = host("vios1", "vios"), host("vios2", "vios")
    v1.vscsi_mappings += [vscsi("vhost0", 3), vscsi("vhost1", 4, vtd=None)]
    v2.vscsi_mappings += [vscsi("vhost0", 3, vtd=None, lpar=2)]
    v2.npiv_mappings += [npiv("vfchost0", 3, name="aix1")]
    out = {(f.host, f.subject): f for f in run_rule(vios_redundancy.single_server, estate(v1, v2))}
    f = out[("vios1", "vSCSI clients 3")]
    assert f.level == "warning" and "only VIOS serving vSCSI" in f.message
    assert any(c.startswith("mkvdev -vdev <hdisk> -vadapter") for c in f.fix.padmin)
    assert f.fix.hmc[0].startswith("chhwres -r virtualio --rsubtype scsi -m <managed-system> -o a")
    g = out[("vios2", "NPIV clients 3")]
    assert g.level == "info" and "3 (aix1)" in g.message and "lsmap -npiv" in g.message
    assert len(out) == 2


def test_single_server_quiet_when_both_vios_serve():
    v1, v2 = host("vios1", "vios"), host("vios2", "vios")
    v1.vscsi_mappings.append(vscsi("vhost0", 3))
    v2.vscsi_mappings.append(vscsi("vhost0", 3, lpar=2))
    v1.npiv_mappings.append(npiv("vfchost0", 3, lpar=1))
    v2.npiv_mappings.append(npiv("vfchost0", 3))
    assert run_rule(vios_redundancy.single_server, estate(v1, v2)) == []
    # same client id on another frame is another partition
    v3 = host("vios3", "vios")
    v3.vscsi_mappings.append(NS(vhost="vhost0", physloc="U8286.42A.0000001-V1-C5", client_id=3, vtd="vt", _evidence=ev()))
    (f,) = run_rule(vios_redundancy.single_server, estate(v1, v2, v3))
    assert f.host == "vios3"
    # ... and the lsmap outputs of vios1 and vios2 say nothing of vios3's frame: its partner may not be collected
    assert f.level == "info" and "output of its frame is in the data" in f.message


def test_single_server_leaves_install_media_out():
    v1, v2 = host("vios1", "vios"), host("vios2", "vios")
    v1.vscsi_mappings += [vscsi("vhost0", 3), vscsi("vhost2", 5, vtd="vtopt0", disk="/var/vio/VMLibrary/aix73_base.iso"),
                          vscsi("vhost3", 6, vtd="media1", disk="cd0")]
    v2.vscsi_mappings += [vscsi("vhost0", 3, lpar=2)]
    assert run_rule(vios_redundancy.single_server, estate(v1, v2)) == []


def test_ioslevel_summary_and_pair_mismatch():
    v1, v2 = host("vios1", "vios"), host("vios2", "vios")
    v1.levels["ioslevel"] = Setting("3.1.4.10", ev(2, "a"))
    v2.levels["ioslevel"] = Setting("3.1.3.21", ev(2, "b"))
    (i,) = run_rule(vios_level.ioslevel, v1)
    assert i.level == "info" and "3.1.4.10" in i.message and "updateios -commit" in i.fix.padmin
    v1.vscsi_mappings.append(vscsi("vhost0", 5))
    v2.npiv_mappings.append(npiv("vfchost0", 5))
    (f,) = run_rule(vios_redundancy.pair_ioslevel, estate(v1, v2))
    assert f.host == "vios2" and f.values == {"current": "3.1.3.21 / 3.1.4.10", "suggested": "3.1.4.10 on both"}
    assert "common client IDs: 5" in f.message
    v2.levels["ioslevel"] = Setting("3.1.4.10", ev())
    assert run_rule(vios_redundancy.pair_ioslevel, estate(v1, v2)) == []
    v2.levels["ioslevel"] = Setting("3.1.3.21", ev())
    v2.npiv_mappings[0].client_id = 9  # no common client: not a pair
    assert run_rule(vios_redundancy.pair_ioslevel, estate(v1, v2)) == []


def test_ioslevel_notes_apar_range():
    v = host("vios1", "vios")
    v.levels["ioslevel"] = Setting("2.2.5.10", ev())
    (f,) = run_rule(vios_level.ioslevel, v)
    assert "IV94438" in f.message
    assert run_rule(vios_level.ioslevel, host("aix1")) == []


def test_dedicated_vios():
    v = host("vios1", "vios", type="Dedicated-SMT-4", mode="Capped", online_vps=2)
    (f,) = run_rule(vios_processor.vios_dedicated, v)
    assert f.level == "warning" and "proc_mode=shared" in f.fix.hmc[1] and "desired_procs=3" in f.fix.hmc[1]
    assert f.fix.hmc[0].startswith("lssyscfg -r prof") and "# note the current values" in f.fix.hmc[0]
    assert "proc_mode=ded" in f.rollback.hmc[0] and "sharing_mode=share_idle_procs," in f.rollback.hmc[0]
    d = host("vios1", "vios", type="Dedicated-SMT-4", mode="Donating", online_vps=2)
    (g,) = run_rule(vios_processor.vios_dedicated, d)
    # a donating VIOS is undone to a mode that donates while it runs, not to share_idle_procs (lends only when down)
    assert g.level == "info" and "sharing_mode=share_idle_procs_active," in g.rollback.hmc[0]
    assert "share_idle_procs_always" in g.rollback.hmc[1]
    assert run_rule(vios_processor.vios_dedicated, host("vios1", "vios")) == []


def _pv(h, name, vg, line):
    h.records.setdefault("lspv", []).append(Sourced(PhysicalVolume(name, "00c84c1d3e0a51b7", vg, line=line), "lspv.txt", 0))


def test_rootvg_disk_exported():
    v = host("vios1", "vios")
    v.vscsi_mappings.append(vscsi("vhost0", 3, disk="hdisk1"))
    _pv(v, "hdisk0", "rootvg", 2)
    _pv(v, "hdisk1", "rootvg", 3)
    (f,) = run_rule(vios_backing.rootvg_exported, v)
    assert f.subject == "hdisk1 (vtscsi0)" and f.fix.padmin[1] == "rmvdev -vtd vtscsi0"
    assert [str(e) for e in f.evidence] == ["lsmap.txt:4", "lspv.txt:3"]
    v.records["lspv"][1].record.vg = None
    assert run_rule(vios_backing.rootvg_exported, v) == []


def test_rootvg_logical_volume_exported():
    """A logical volume of the VIOS's rootvg (lsvg -lv rootvg) backing a client's disk is reported with
    the mapping, its row and the rootvg line; one of another group, or of an unnamed one, is not."""
    from lparscope.sources.lsvg import LogicalVolume

    v = host("vios1", "vios")
    v.vscsi_mappings.append(vscsi("vhost2", 5, vtd="vtscsi3", disk="lv_aix9boot"))
    lv = LogicalVolume("lv_aix9boot", "rootvg", "jfs", 40, 40, 1, "open/syncd", line=17, lines={"vg": 2})
    v.records.setdefault("lsvg-l", []).append(Sourced(lv, "lsvg.txt", 0))
    (f,) = run_rule(vios_backing.rootvg_exported, v)
    assert f.subject == "lv_aix9boot (vtscsi3)" and f.message.startswith("logical volume lv_aix9boot in rootvg")
    assert [str(e) for e in f.evidence] == ["lsmap.txt:4", "lsvg.txt:17", "lsvg.txt:2"]
    assert f.rollback.padmin == ["rmvdev -vtd vtscsi3", "mkvdev -vdev lv_aix9boot -vadapter vhost2 -dev vtscsi3"]
    for vg in ("clientvg", None):
        lv.vg = vg
        assert run_rule(vios_backing.rootvg_exported, v) == []


def test_backing_reserve_policy():
    v = host("vios1", "vios")
    v.vscsi_mappings.append(vscsi("vhost1", 4, vtd="vtscsi2", disk="hdisk4"))
    device(v, "hdisk4", "disk", reserve_policy="single_path")
    (f,) = run_rule(vios_backing.backing_reserve, v)
    assert f.fix.padmin[0] == "chdev -dev hdisk4 -attr reserve_policy=no_reserve -perm"
    assert f.rollback.padmin == ["chdev -dev hdisk4 -attr reserve_policy=single_path -perm"]
    assert f.values == {"current": "single_path", "suggested": "no_reserve"} and f.disruption == ["reboot"]
    v.devices["hdisk4"].attrs["reserve_policy"] = Setting("no_reserve", ev())
    assert run_rule(vios_backing.backing_reserve, v) == []


def test_single_server_fix_says_what_a_logical_volume_needs():
    v1 = host("vios1", "vios")
    v1.vscsi_mappings += [vscsi("vhost0", 3, vtd="vtscsi0", disk="hdisk4"), vscsi("vhost0", 3, vtd="vtscsi1", disk="lpar3_lv01")]
    (f,) = run_rule(vios_redundancy.single_server, estate(v1))
    text = "\n".join(f.fix.padmin)
    assert "vtscsi1 is backed by lpar3_lv01, which only vios1 can hold" in text and "mirrorvg" in text
    assert "vtscsi0 is backed" not in text  # a disk: the second VIOS maps it too
    assert "-perm and a restart" in text  # the disk in use here: no plain chdev on this VIOS


def test_single_server_fix_without_any_disk_backing_asks_no_reserve_change():
    v1 = host("vios1", "vios")
    v1.vscsi_mappings += [vscsi("vhost0", 3, vtd="vtscsi1", disk="lpar3_lv01")]
    (f,) = run_rule(vios_redundancy.single_server, estate(v1))
    text = "\n".join(f.fix.padmin)
    assert "reserve_policy" not in text and "a disk (LUN) of its own" in text  # no hdisk here to release
    assert "mkvdev -vdev <hdisk> -vadapter <vhost>" in text and "mirrorvg" in text


def test_the_same_lsmap_in_two_files_is_one_set_of_mappings(tmp_path):
    from lparscope.pipeline import analyze

    text = ("$ lsmap -all -npiv\nName          Physloc                            ClntID ClntName       ClntOS\n"
            "------------- ---------------------------------- ------ -------------- -------\n"
            "vfchost3      U9119.FHB.8297FCR-V3-C311              11 AIX1           AIX\n\n"
            "Status:LOGGED_IN\nFC name:fcs0                    FC loc code:U5802.001.0086848-P1-C2-T1\n"
            "Ports logged in:2\nFlags:a<LOGGED_IN,STRIP_MERGE>\nVFC client name:fcs1            VFC client DRC:U9119.FHB.8297FCR-V11-C311\n")
    (tmp_path / "vios1").mkdir()
    (tmp_path / "vios1" / "session.txt").write_text(text)
    (tmp_path / "vios1" / "readme_copy.txt").write_text(text)
    a = analyze([str(tmp_path)])
    assert len(a.estate.hosts["vios1"].npiv_mappings) == 1
    assert not [f for f in a.findings if f.rule.id == "STO-NPIV-PORT-SPREAD"]  # one client adapter: nothing to spread


def test_single_server_hmc_commands_carry_the_names_the_data_gives():
    from pathlib import Path

    from lparscope.pipeline import analyze
    a = analyze([str(Path(__file__).resolve().parents[2] / "examples" / "estate")])
    f = next(x for x in a.findings if x.rule.id == "VIOS-SINGLE-SERVER" and x.host == "vios1")
    assert f.fix.hmc[0].startswith("chhwres -r virtualio --rsubtype scsi -m p9frame1 -o a -p vios2 -s <slot>")
    assert "remote_lpar_name=vios2" in f.fix.hmc[1] and "<second-vios>" not in " ".join(f.fix.hmc + f.rollback.hmc)
