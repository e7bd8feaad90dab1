"""System-health outputs land in the host model with their evidence."""

from pathlib import Path

from lparscope.pipeline import analyze

FIX = Path(__file__).parent.parent / "fixtures"


def test_one_host_collects_every_system_output(tmp_path):
    parts = [("prtconf", "prtconf_p9_aix72.txt"), ("errpt", "errpt_summary_aix72.txt"), ("lsps", "lsps_a_aix72.txt"),
             ("df", "df_g_aix72.txt"), ("lsfs", "lsfs_aix72.txt"), ("lsmcode", "lsmcode_c_p8.txt"),
             ("lparstat-H", "lparstat_H_aix72.txt")]
    text = "\n".join((FIX / k / n).read_text().replace("aixdb02", "aixapp3") for k, n in parts)
    (tmp_path / "aixapp3.txt").write_text(text)
    (tmp_path / "aixapp3_more.txt").write_text(
        "root@aixapp3:/ # lparstat -m 2 2\n" + (FIX / "lparstat-m" / "lparstat_m_ams_aix71.txt").read_text().split("\n", 1)[1]
        + "root@aixapp3:/ # lparstat -E 1 2\n" + (FIX / "lparstat-E" / "lparstat_E_aix72.txt").read_text().split("\n", 1)[1])
    est = analyze([str(tmp_path)]).estate
    assert list(est.hosts) == ["aixapp3"]
    h = est.hosts["aixapp3"]
    assert h.system.record.serial == "7812C4X" and h.system.ev("serial").line == 3
    assert h.firmware["system"].value == "SV860_240" and h.firmware["system_permanent"].value == "SV860_212"
    assert h.firmware["firmware_version"].value == "IBM,FW950.40 (VL950_099)"
    assert len(h.errors) == 6 and h.errors[0].record.resource == "hdisk7"
    assert h.paging_spaces["hd6"].record.size_mb == 4096
    assert h.filesystems["/var"].record.used_pct == 95.0 and h.fs_definitions["/oradata"].record.options == "rw,cio"
    assert any(c.record.name == "cede" for c in h.hcalls)
    assert h.memory_io.mean("hpi") == 6.0 and h.memory_io.config["iome"] == "512.00MB"
    assert h.spurr.samples[0]["freq_pct"] == 104.0 and h.spurr.evidence[0].path.endswith("aixapp3_more.txt")
    assert h.devices["ent0"].description.startswith("Virtual I/O Ethernet")
    assert all(i.status == "parsed" for i in est.inputs), [(i.kind, i.status, i.warnings) for i in est.inputs]


def test_errpt_summary_and_detail_of_one_entry_are_one_error(tmp_path):
    (tmp_path / "h1.txt").write_text((FIX / "errpt" / "errpt_summary_aix72.txt").read_text() + "\n"
                                     + (FIX / "errpt" / "errpt_a_aix71.txt").read_text().replace("# errpt -a", "root@aixdb02:/ # errpt -a"))
    h = analyze([str(tmp_path)]).estate.hosts["aixdb02"]
    assert len(h.errors) == 6
    assert next(e for e in h.errors if e.record.resource == "hdisk7").record.label == "SC_DISK_PCM_ERR7"


def test_lparstat_i_pool_figures_land_in_cores_with_their_lines(tmp_path):
    (tmp_path / "lpdb07.txt").write_text((FIX / "lparstat-i" / "aix72_shared_smt8_ame.txt").read_text())
    p = analyze([str(tmp_path)]).estate.hosts["lpdb07"].partition
    assert p.shared_pool_id == 2 and p.pool_capacity == 12.0 and p.pool_entitled == 9.3
    assert p.evidence["pool_capacity"].line == 24 and p.evidence["pool_entitled"].line == 25


def test_a_second_lparstat_i_of_one_host_with_other_values_is_said(tmp_path):
    text = (FIX / "lparstat-i" / "aix72_shared_smt8_ame.txt").read_text()
    (tmp_path / "jan").mkdir()
    (tmp_path / "jun").mkdir()
    (tmp_path / "jan" / "lparstat_i.txt").write_text(text)
    later = text.replace("Partition Number                           : ", "Partition Number                           : 1")
    (tmp_path / "jun" / "lparstat_i.txt").write_text(later)
    a = analyze([str(tmp_path)])
    said = [message for st in a.estate.inputs for _line, message in st.warnings]
    assert len(said) == 1 and "partition number" in said[0] and "jan/lparstat_i.txt:" in said[0]
    assert "values read last are used" in said[0]
    # the same values read twice say nothing
    (tmp_path / "jun" / "lparstat_i.txt").write_text(text)
    assert not [w for st in analyze([str(tmp_path)]).estate.inputs for w in st.warnings]


def test_an_interval_lparstat_header_gives_a_host_without_lparstat_i_its_partition_settings(tmp_path):
    (tmp_path / "pvs1").mkdir()
    (tmp_path / "pvs1" / "lparstat.txt").write_text(
        "# lparstat 2 2\n\nSystem Configuration\n"
        "type=Shared mode=Uncapped smt=8 lcpu=4 mem=3568192 kB cpus=19 ent=0.50\n\n"
        "%user  %sys %wait    %idle    physc %entc lbusy   app  vcsw phint\n"
        "----- ----- -----    -----    ----- ----- ----- ----- ----- -----\n"
        " 0.42  0.58  0.00    99.00     0.01  2.11  0.56 18.92   250     0\n"
        " 0.40  0.55  0.00    99.05     0.01  2.04  0.55 18.95   244     0\n")
    h = analyze([str(tmp_path)]).estate.hosts["pvs1"]
    p = h.partition
    assert (p.type, p.mode, p.entitled_capacity, p.online_memory_mb, p.online_vps) == (
        "Shared-SMT-8", "Uncapped", 0.5, 3484, None)
    assert p.source == "lparstat header (Linux)" and p.evidence["entitled_capacity"].line == 4
    assert h.role == "linux"


def test_a_linux_nmon_recording_makes_a_linux_host_with_its_bbbp_ifconfig_read(tmp_path):
    lines = (Path(__file__).parents[1] / "fixtures" / "nmon" / "linux_small.nmon").read_text().splitlines()
    at = next(k for k, ln in enumerate(lines) if ln.startswith("BBBP,002,")) + 1
    ifconfig = ['BBBP,003,ifconfig', 'BBBP,004,ifconfig,"eth0      Link encap:Ethernet  HWaddr 0a:1b:2c:3d:4e:5f  "',
                'BBBP,005,ifconfig,"          inet addr:10.40.1.17  Bcast:10.40.1.255  Mask:255.255.255.0"',
                'BBBP,006,ifconfig,"          UP BROADCAST RUNNING MULTICAST  MTU:9000  Metric:1"',
                'BBBP,007,ifconfig,"          RX packets:120 errors:0 dropped:0 overruns:0 frame:0"']
    (tmp_path / "lnx01_230818_1024.nmon").write_text("\n".join(lines[:at] + ifconfig + lines[at:]) + "\n")
    result = analyze([str(tmp_path)])
    h = result.estate.hosts["lnx01"]
    assert h.role == "linux" and "AAA,OS" in h.role_reasons[0]
    (eth0,) = [s.record for s in h.of_kind("netif", "Interface")]
    assert (eth0.name, eth0.mtu, eth0.inet) == ("eth0", 9000, [("10.40.1.17", "255.255.255.0")])
    (status,) = result.estate.inputs
    assert not [m for _, m in status.warnings if "ifconfig" in m]
