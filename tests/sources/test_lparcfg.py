"""Linux on Power /proc/ppc64/lparcfg: the partition as lparstat -i gives it, the frame serial and id."""

from __future__ import annotations

import shutil
from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.sources import lparcfg
from lparscope.sources.detect import split_and_classify
from lparscope.sources.filenames import NameHint, name_hint

FIX = Path(__file__).parent.parent / "fixtures"


def _records(parsed):
    return {type(r).__name__: r for r in parsed.records}


def test_shared_uncapped_partition_in_hundredths_of_a_processor():
    text = (FIX / "lparcfg" / "rhel9_shared_uncapped.txt").read_text()
    assert lparcfg.detect(text) >= 90
    r = lparcfg.parse(text)
    assert r.warnings == [] and r.hostname == "lnxapp04"
    rec = _records(r)
    raw, info, system = rec["Lparcfg"], rec["LparInfo"], rec["SystemConfig"]
    assert raw.version == "1.9" and raw.values["DisWheRotPer"] == "5120000" and raw.lines["purr"] == 46
    assert (info.partition_number, info.partition_name) == (12, "LNXAPP04_PRD")
    assert info.type == "Shared" and info.shared is True and info.mode == "Uncapped" and info.capped is False
    # partition_entitled_capacity=75, DesEntCap=75, MinEntCap=10, partition_max_entitled_capacity=400
    assert (info.entitled_capacity, info.desired_capacity, info.minimum_capacity, info.maximum_capacity) == (0.75, 0.75, 0.1, 4.0)
    assert (info.online_virtual_cpus, info.maximum_virtual_cpus, info.minimum_virtual_cpus) == (6, 8, 1)
    assert info.variable_capacity_weight == 64 and info.shared_pool_id == 1
    assert info.active_cpus_in_pool == 12 and info.active_physical_cpus_in_system == 40  # pool_capacity=1200
    assert info.maximum_capacity_of_pool == 1200 and info.entitled_capacity_of_pool == 960  # hundredths, as lparstat -i
    assert (info.minimum_memory_mb, info.desired_memory_mb, info.maximum_memory_mb) == (4096, 32768, 65536)  # MaxMem bytes
    assert info.memory_mode == "Dedicated" and info.memory_pool_id is None and info.ame_enabled is False
    assert info.lines["entitled_capacity"] == 21 and info.lines["type"] == 51 and info.lines["mode"] == 30
    assert (system.serial, system.model, system.lpar_number, system.lpar_name) == ("IBM,0213A5F2K", "IBM,9105-42A", 12, "LNXAPP04_PRD")
    assert system.lines == {"serial": 3, "model": 4, "lpar_number": 5, "lpar_name": 6}


def test_dedicated_donating_partition_of_an_older_kernel_without_a_name_or_prompt():
    text = (FIX / "lparcfg" / "sles12_dedicated_donating.txt").read_text()
    assert lparcfg.detect(text) >= 90 and [s.kind for s in split_and_classify(text)] == ["lparcfg"]
    r = lparcfg.parse(text)
    assert r.warnings == [] and r.hostname is None
    info = _records(r)["LparInfo"]
    assert info.type == "Dedicated" and info.mode == "Donating" and info.entitled_capacity == 2.0
    assert info.partition_name is None and info.shared_pool_id is None and info.active_cpus_in_pool is None
    assert _records(r)["SystemConfig"].lpar_name is None


def test_pairs_without_the_version_line_are_still_lparcfg():
    text = "\n".join((FIX / "lparcfg" / "rhel9_shared_uncapped.txt").read_text().splitlines()[2:])
    assert lparcfg.detect(text) == 85
    assert _records(lparcfg.parse(text))["LparInfo"].entitled_capacity == 0.75


def test_damaged_lines_are_warned_with_their_line_and_the_rest_is_read():
    r = lparcfg.parse((FIX / "lparcfg" / "damaged.txt").read_text())
    assert sorted((w.line, w.message.split(":")[0]) for w in r.warnings) == [
        (4, "partition_id"), (8, "not a 'key=value' line"), (11, "repeated key 'shared_processor_mode'"),
        (12, "partition_potential_processors")]
    info = _records(r)["LparInfo"]
    assert info.partition_number is None and info.maximum_virtual_cpus is None and info.entitled_capacity == 0.75
    assert "lpar_number" not in _records(r)["SystemConfig"].lines
    for text in ("", "lparcfg 1.9\n", "\x00\x01 = = =\n" * 3, "lparcfg 1.9\nshared_processor_mode=7\n"):
        lparcfg.parse(text)  # never raises


def test_file_name_gives_the_host_and_the_command():
    assert name_hint("lnxdb02_lparcfg.txt") == NameHint("cat /proc/ppc64/lparcfg", "lnxdb02")
    assert name_hint("003.lparcfg") == NameHint("cat /proc/ppc64/lparcfg", None)


def test_a_linux_partition_joins_its_frame_by_serial_and_id_and_gets_the_cpu_rules(tmp_path):
    shutil.copy(FIX / "lparcfg" / "rhel9_shared_uncapped.txt", tmp_path / "lparcfg.txt")
    shutil.copy(FIX / "lparcfg" / "sles12_dedicated_donating.txt", tmp_path / "lnxdb02_lparcfg.txt")
    (tmp_path / "hmc5.txt").write_text(
        "hscroot@hmc5:~> lssyscfg -r sys -m p10lnx\n"
        "name=p10lnx,type_model=9105-42A,serial_num=13A5F2K,state=Operating,max_lpars=240\n"
        "hscroot@hmc5:~> lssyscfg -r lpar -m p10lnx -F name,lpar_id,lpar_env,state\n"
        "lnx-app04-prod,12,aixlinux,Running\nvios1,1,vioserver,Running\n")
    a = analyze([str(tmp_path)])
    assert {(i.path.rsplit("/", 1)[-1], i.kind, i.host, i.status) for i in a.estate.inputs if i.kind == "lparcfg"} == {
        ("lparcfg.txt", "lparcfg", "lnxapp04", "parsed"), ("lnxdb02_lparcfg.txt", "lparcfg", "lnxdb02", "parsed")}
    app, db = a.estate.hosts["lnxapp04"], a.estate.hosts["lnxdb02"]
    assert app.role == "linux" and db.role == "linux"
    p = app.partition
    assert (p.name, p.number, p.entitled_capacity, p.online_vps, p.weight, p.pool_cores, p.source) == (
        "LNXAPP04_PRD", 12, 0.75, 6, 64, 12, "lparcfg (Linux)")
    assert p.evidence["entitled_capacity"].line == 21 and p.evidence["entitled_capacity"].path.endswith("lparcfg.txt")
    join = next(j for j in a.estate.joins if j.host == "lnxapp04")
    assert (join.status, join.frame, join.partition, join.basis) == ("joined", "p10lnx", "lnx-app04-prod",
                                                                     "frame serial and partition id")
    ec_vp = [f for f in a.findings if f.rule.id == "CPU-EC-BELOW-VP" and f.host == "lnxapp04"]
    assert ec_vp and "EC 0.75" in ec_vp[0].message
    assert db.partition.dedicated and db.partition.mode == "Donating"


def test_lparstat_i_read_first_keeps_its_values_and_lparcfg_fills_the_rest(tmp_path):
    (tmp_path / "lnx9.txt").write_text(
        "[root@lnx9 ~]# lparstat -i\nNode Name                                    : lnx9\n"
        "Partition Name                               : LNX9\nPartition Number                             : 12\n"
        "Type                                         : Shared\nMode                                         : Uncapped\n"
        "Entitled Capacity                            : 0.80\n"
        + (FIX / "lparcfg" / "rhel9_shared_uncapped.txt").read_text().replace("lnxapp04", "lnx9"))
    p = analyze([str(tmp_path)]).estate.hosts["lnx9"].partition
    assert p.source == "lparstat -i" and p.entitled_capacity == 0.8 and p.name == "LNX9"
    assert p.online_vps == 6 and p.evidence["online_vps"].line == 7 + 49


def test_a_copy_in_a_proc_folder_does_not_name_a_host_ppc64(tmp_path):
    folder = tmp_path / "lnx7" / "proc" / "ppc64"
    folder.mkdir(parents=True)
    shutil.copy(FIX / "lparcfg" / "sles12_dedicated_donating.txt", folder / "lparcfg")
    a = analyze([str(tmp_path)])
    assert [i.kind for i in a.estate.inputs] == ["lparcfg"] and "ppc64" not in a.estate.hosts
