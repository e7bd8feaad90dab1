"""HMC outputs collected without ``-m`` are merged into one frame only on evidence (model/frame_merge.py):
the same frame serial, or partitions that agree by name and id; never when they contradict.

The fixtures are written here, in the formats of lssyscfg and lshwres (``-F`` and attribute=value).
"""

from __future__ import annotations

import json
from pathlib import Path

from lparscope.inputs import collect
from lparscope.model.frame_merge import contradictions
from lparscope.pipeline import analyze, read_estate
from lparscope.report.json_report import build_report

PARTS = [("vios1", 1, "vioserver"), ("vios2", 2, "vioserver"), ("aix1", 3, "aixlinux")]


def _hmc(root: Path, *, extra: dict[str, str] | None = None, parts=PARTS) -> None:
    """Two systems named by lssyscfg -r sys; lpar, proc and memory outputs of one of them without -m."""
    d = root / "hmc1"
    d.mkdir(parents=True, exist_ok=True)
    (d / "lssyscfg_r_sys.txt").write_text(
        "hscroot@hmc1:~> lssyscfg -r sys -F name,type_model,serial_num,state\n"
        "frameA,9009-42A,7A11111,Operating\nframeB,9009-22A,7B22222,Operating\n")
    (d / "lpar.txt").write_text("hscroot@hmc1:~> lssyscfg -r lpar -F name,lpar_id,lpar_env,state\n"
                                + "".join(f"{n},{i},{e},Running\n" for n, i, e in parts))
    (d / "proc.txt").write_text(
        "hscroot@hmc1:~> lshwres -r proc --level lpar -F lpar_name,lpar_id,curr_proc_mode,curr_proc_units,curr_procs\n"
        + "".join(f"{n},{i},shared,0.5,2\n" for n, i, _ in parts))
    (d / "mem.txt").write_text(  # the VIOS only: a subset, same ids
        "hscroot@hmc1:~> lshwres -r mem --level lpar -F lpar_name,lpar_id,curr_mem,curr_min_mem,curr_max_mem\n"
        + "".join(f"{n},{i},4096,2048,8192\n" for n, i, e in parts if e == "vioserver"))
    for name, text in (extra or {}).items():
        (d / name).write_text(text)


def _vios(root: Path, node: str) -> None:
    d = root / node
    d.mkdir(parents=True, exist_ok=True)
    (d / "ioslevel.txt").write_text("$ ioslevel\n3.1.4.10\n$\n")


def _estate(root: Path):
    est, _ = read_estate(collect([str(root)]))
    return est


def _unnamed(est):
    return {n: fr for n, fr in est.frames.items() if not fr.named}


def test_files_without_managed_system_merge_when_partitions_agree(tmp_path):
    _hmc(tmp_path)
    _vios(tmp_path, "vios1")
    est = _estate(tmp_path)
    unnamed = _unnamed(est)
    assert len(unnamed) == 1, sorted(est.frames)
    fr = next(iter(unnamed.values()))
    assert {Path(p).name for p in fr.sources} == {"lpar.txt", "proc.txt", "mem.txt"}
    assert {p.name: p.id for p in fr.partitions.values()} == {"vios1": 1, "vios2": 2, "aix1": 3}
    v1 = fr.partitions["vios1"]
    assert (v1.env, v1.ec, v1.mem_max) == ("vioserver", 0.5, 8192)  # lpar, proc and memory on one partition
    assert len(fr.merged) == 2 and all("same partitions with the same ids" in m for m in fr.merged)
    notes = {n.host: n for n in est.joins}
    assert (notes["vios1"].status, notes["vios1"].partition) == ("joined", "vios1")
    report = json.loads(json.dumps(build_report(analyze([str(tmp_path)]))))
    row = [f for f in report["frames"] if f["name"] == fr.name][0]
    assert row["merged"] == fr.merged


def test_contradicting_partitions_stay_apart(tmp_path):
    # the same folder, another system: vios1 is id 2 there, id 2 is another partition here
    other = ("hscroot@hmc1:~> lssyscfg -r lpar -F name,lpar_id,lpar_env,state\n"
             "vios1,2,vioserver,Running\nvios2,1,vioserver,Running\naix1,3,aixlinux,Running\n")
    _hmc(tmp_path, extra={"other_lpar.txt": other})
    _vios(tmp_path, "vios1")
    est = _estate(tmp_path)
    unnamed = _unnamed(est)
    # the three agreeing files are one frame; the contradicting one stays on a frame of its own
    by_files = sorted(tuple(sorted(Path(p).name for p in fr.sources)) for fr in unnamed.values())
    assert by_files == [("lpar.txt", "mem.txt", "proc.txt"), ("other_lpar.txt",)]
    assert not any("other_lpar.txt" in m for fr in unnamed.values() for m in fr.merged)
    note = {n.host: n for n in est.joins}["vios1"]
    assert note.status == "ambiguous" and len(note.candidates) == 2


def test_one_shared_partition_is_not_enough(tmp_path):
    # aix1 (id 3) alone in common, and each file has partitions the other lacks: no evidence of one system
    _hmc(tmp_path, extra={"veth.txt": "hscroot@hmc1:~> lshwres -r virtualio --rsubtype eth --level lpar "
                                       "-F lpar_name,lpar_id,slot_num,port_vlan_id,is_trunk\n"
                                       "aix1,3,2,10,0\nlinux9,9,2,10,0\n"})
    est = _estate(tmp_path)
    unnamed = _unnamed(est)
    veth = [fr for fr in unnamed.values() if any(Path(p).name == "veth.txt" for p in fr.sources)]
    assert len(veth) == 1 and {Path(p).name for p in veth[0].sources} == {"veth.txt"} and not veth[0].merged


def test_a_file_of_several_systems_merges_with_nothing(tmp_path):
    various = ("hscroot@hmc1:~> lssyscfg -r lpar -F name,lpar_id,lpar_env,state\n"
               "vios1,1,vioserver,Running\nvios2,2,vioserver,Running\nbt10,1,aixlinux,Running\n")
    _hmc(tmp_path, extra={"various.txt": various})
    est = _estate(tmp_path)
    alone = [fr for fr in _unnamed(est).values() if any(Path(p).name == "various.txt" for p in fr.sources)]
    assert len(alone) == 1 and len(alone[0].sources) == 1


def test_serial_places_an_unnamed_record_on_its_named_system(tmp_path):
    _hmc(tmp_path, extra={"sys_proc.txt": "hscroot@hmc1:~> lssyscfg -r sys -F serial_num,state\n7B22222,Operating\n"})
    est = _estate(tmp_path)
    fr = est.frames["frameB"]
    assert any(Path(p).name == "sys_proc.txt" for p in fr.sources)
    assert fr.merged and "7B22222" in fr.merged[0]


def test_contradictions():
    assert contradictions({("a", 1), ("b", 2)}) == []
    assert contradictions({("a", 1), ("a", 2)}) == ["partition a has ids 1, 2"]
    assert contradictions({("a", 1), ("b", 1)}) == ["id 1 is partitions a, b"]


def test_files_that_would_join_two_ways_stay_apart(tmp_path):
    # vios.txt agrees with lpar.txt (aix1 id 3) and with other.txt (linux9 id 3): the evidence points two ways
    vios = ("hscroot@hmc1:~> lshwres -r mem --level lpar -F lpar_name,lpar_id,curr_mem\n"
            "vios1,1,4096\nvios2,2,4096\n")
    other = ("hscroot@hmc1:~> lssyscfg -r lpar -F name,lpar_id,lpar_env,state\n"
             "vios1,1,vioserver,Running\nvios2,2,vioserver,Running\nlinux9,3,aixlinux,Running\n")
    d = tmp_path / "hmc1"
    d.mkdir()
    (d / "lssyscfg_r_sys.txt").write_text("hscroot@hmc1:~> lssyscfg -r sys -F name,serial_num\nframeA,7A11111\nframeB,7B22222\n")
    (d / "lpar.txt").write_text("hscroot@hmc1:~> lssyscfg -r lpar -F name,lpar_id,lpar_env,state\n"
                                "vios1,1,vioserver,Running\nvios2,2,vioserver,Running\naix1,3,aixlinux,Running\n")
    (d / "vios.txt").write_text(vios)
    (d / "other.txt").write_text(other)
    est = _estate(tmp_path)
    unnamed = _unnamed(est)
    assert len(unnamed) == 3 and all(len(fr.sources) == 1 and not fr.merged for fr in unnamed.values())


def test_a_folder_of_two_systems_outputs_keeps_them_apart(tmp_path):
    """Outputs of two HMCs' systems, none naming its system, dropped in one folder: the second file's
    partitions contradict the first's (id 1 and 2 are other partitions), so it is not put with them."""
    d = tmp_path / "collected"
    d.mkdir()
    (d / "p5_lpars.txt").write_text("hscroot@hmc5:~> lssyscfg -r lpar -F name,lpar_id,lpar_env,state\n"
                                    "dump,1,aixlinux,Running\nvioa,2,vioserver,Running\nnim1,5,aixlinux,Running\n")
    (d / "p7_lpars.txt").write_text("hscroot@hmc7:~> lssyscfg -r lpar -F name,lpar_id,lpar_env,state\n"
                                    "p7vio1,1,vioserver,Running\np7vio2,2,vioserver,Running\n")
    est = _estate(tmp_path)
    frames = {tuple(sorted(fr.partitions)) for fr in est.frames.values()}
    assert frames == {("dump", "nim1", "vioa"), ("p7vio1", "p7vio2")}, sorted(est.frames)
    # with one system named in the folder, an output that contradicts it is not put under its name
    (d / "sys.txt").write_text("hscroot@hmc5:~> lssyscfg -r sys -F name,type_model,serial_num,state\n"
                               "p5frame,9117-570,65B4D6E,Operating\n"
                               "hscroot@hmc5:~> lssyscfg -r lpar -m p5frame -F name,lpar_id,lpar_env,state\n"
                               "dump,1,aixlinux,Running\nvioa,2,vioserver,Running\n")
    est = _estate(tmp_path)
    named = est.frames["p5frame"]
    assert set(named.partitions) == {"dump", "vioa", "nim1"}  # p5_lpars.txt agrees with it: joined
    assert not any(p.startswith("p7vio") for p in named.partitions)
