from datetime import datetime
from pathlib import Path

from lparscope.sources import hmc_lshmc, hmc_util as u
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures"


def test_lpar_samples_typed():
    text = (FIX / "lslparutil" / "hmc10_lpar_samples.txt").read_text()
    assert u.detect(text) >= 95
    r = u.parse(text)
    assert r.warnings == []
    (table,) = r.records
    assert isinstance(table, u.UtilTable) and len(table) == 4
    samples = u.samples_of(r.records)
    a = samples[0]
    assert isinstance(a, u.UtilSample)
    assert (a.time, a.resource, a.lpar_name, a.lpar_id, a.system, a.event_type) == (
        datetime(2024, 3, 14, 10, 15), "lpar", "aix1", 3, "p10frame1", "sample")
    assert a.num("entitled_cycles") == 81266125486213.0 and a.attrs["curr_proc_units"] == 2.0
    assert a.attrs["curr_sharing_mode"] == "uncap" and a.attrs["curr_shared_proc_pool_name"] == "SQLPool"
    assert samples[3].event_type == "state_change" and samples[3].attrs["state"] == "Running"
    body = text.split("\n", 1)[1]
    assert [seg.kind for seg in split_and_classify(body)] == ["lslparutil"]


def test_sys_pool_procpool_samples():
    r = u.parse((FIX / "lslparutil" / "hmc10_pool_sys.txt").read_text())
    sys_, pool, procpool = u.samples_of(r.records)
    assert sys_.resource == "sys" and sys_.num("proc_cycles_per_second") == 512000000.0
    assert pool.resource == "pool" and pool.num("total_pool_cycles") == 60570259865965680.0
    assert procpool.attrs["shared_proc_pool_name"] == "SQLPool" and procpool.num("max_pool_proc_units") == 4.0


def test_F_form_and_config():
    r = u.parse((FIX / "lslparutil" / "hmc9_lpar_F.txt").read_text())
    first = u.samples_of(r.records)[0]
    assert (first.time, first.lpar_name, first.resource, first.num("capped_cycles")) == (
        datetime(2024, 3, 14, 10, 15), "aix7", "lpar", 9653539819933.0)
    (cfg,) = u.parse((FIX / "lslparutil" / "hmc9_config.txt").read_text()).records
    assert cfg.resource == "util-config" and cfg.int("sample_rate") == 300


def test_lshmc_version_and_network():
    text = (FIX / "lshmc" / "hmc10_lshmc_V.txt").read_text()
    assert hmc_lshmc.detect(text) >= 95
    r = hmc_lshmc.parse(text)
    (v,) = r.records
    assert r.kind == "lshmc" and r.hostname == "hmc1"
    assert (v.what, v.attrs["version"], v.attrs["release"], v.attrs["service_pack"], v.base_version) == (
        "version", "10", "3", "1060", "V10R3")
    assert v.attrs["build_level"] == "2406041953" and "MF71350" in v.attrs["fixes"] and v.lines["base_version"] == 7
    text = (FIX / "lshmc" / "hmc9_lshmc_n.txt").read_text()
    assert [seg.kind for seg in split_and_classify(text)] == ["lshmc"]
    r = hmc_lshmc.parse(text)
    assert r.hostname == "hmc2" and r.records[0].what == "network" and r.records[0].attrs["ipaddr"] == "10.1.2.5,192.168.128.1"


def test_bad_input_never_raises():
    for junk in ["", "time=,event_type=sample", '"version= Version: 9', "x" * 50, "time=99/99/9999 99:99:99,resource_type=lpar"]:
        u.parse(junk)
        hmc_lshmc.parse(junk)
    r = u.parse("time=99/99/9999 99:99:99,resource_type=lpar,event_type=sample")
    assert u.samples_of(r.records)[0].time == "99/99/9999 99:99:99"


def test_lshmc_v_reads_every_vpd_keyword():
    text = (FIX / "lshmc" / "hmc10_lshmc_v.txt").read_text()
    assert hmc_lshmc.detect(text) >= 95
    r = hmc_lshmc.parse(text)
    assert r.warnings == []
    (v,) = r.records
    assert v.what == "vpd"
    a = v.attrs
    assert (a["type_model"], a["machine_serial"], a["manufacturer"], a["firmware_release"]) == (
        "7063-CR2", "21DB4E0", "IBM", "V10R3.1061.0")
    assert (a["description"], a["platform_firmware_description"]) == ("Hardware Management Console", "Platform Firmware")
    assert (a["vpd_version"], a["size"], a["os"], a["network_address"]) == (
        "20.0", "33457389568", "Embedded Operating Systems", "10.20.1.7")
    assert a["vpd_date"].startswith("Tue Nov 18")
    assert (v.lines["type_model"], v.lines["firmware_release"], v.lines["vpd_version"]) == (7, 16, 3)


def test_lshmc_v_unquoted_without_command():
    text = (FIX / "lshmc" / "hmc9_lshmc_v_unquoted.txt").read_text()
    assert [seg.kind for seg in split_and_classify(text)] == ["lshmc"]
    r = hmc_lshmc.parse(text)
    assert r.warnings == []
    (v,) = r.records
    assert (v.attrs["type_model"], v.attrs["machine_serial"], v.attrs["firmware_release"]) == (
        "7042-CR9", "10B7F2A", "V9R2.952.0")
    assert v.lines["machine_serial"] == 7


def test_lslparutil_F_without_a_partition_column_takes_the_filters_one_partition():
    text = ("hscroot@hmc2:~> lslparutil -m p8frame -r lpar -h 1 --filter lpar_names=db07 "
            "-F time,entitled_cycles,capped_cycles,uncapped_cycles\n"
            "11/03/2025 10:05:00,254318675159123,19653539819933,22886488291342\n"
            "11/03/2025 10:00:00,254287609733067,19652124977276,22885119717818\n")
    r = u.parse(text)
    (t,) = [x for x in r.records if type(x).__name__ == "UtilTable"]
    assert list(t.columns["lpar_name"]) == ["db07", "db07"] and r.warnings == []
    # a filter of two partitions cannot tell: the rows are said, not read as no partition's
    two = u.parse(text.replace("lpar_names=db07", '"lpar_names=db07,db08"'))
    assert not [x for x in two.records if type(x).__name__ == "UtilTable"]
    assert any("rows naming no partition" in w.message for w in two.warnings)


def test_an_hmc_message_instead_of_data_is_said_and_no_results_is_an_answer(tmp_path):
    from lparscope.pipeline import analyze

    (tmp_path / "hmc7").mkdir()
    (tmp_path / "hmc7" / "a.txt").write_text(
        "hscroot@hmc7:~> lssyscfg -r lpar -m p10a --filter lpar_names=ghost -F name\n"
        "HSCL8012 The partition named ghost was not found.  Please check your entry and retry the command.\n")
    (tmp_path / "hmc7" / "b.txt").write_text(
        "hscroot@hmc7:~> lshwres -r virtualio --rsubtype fc --level lpar -m p10a\nNo results were found.\n")
    st = {s.path.rsplit("/", 1)[-1]: s for s in analyze([str(tmp_path)]).estate.inputs}
    assert st["a.txt"].status == "partly" and "HSCL8012" in st["a.txt"].warnings[0][1] and st["a.txt"].warnings[0][0] == 2
    assert st["b.txt"].status == "parsed" and "nothing to list" in st["b.txt"].reason and not st["b.txt"].warnings
