"""Hosts are joined to partitions of the HMC data on evidence only (model/frame_join.py): partition
name, node name, or frame serial and partition id; never a partition number alone; never an AIX
host to a VIOS partition or the reverse; ambiguous joins are listed, not guessed.

The fixtures are written here, in the formats of lssyscfg, lparstat -i, prtconf, oslevel and ioslevel.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lparscope.cli import app
from lparscope.inputs import collect
from lparscope.model.frame_join import same_serial
from lparscope.pipeline import analyze, read_estate
from lparscope.report.html import render_html
from lparscope.report.json_report import build_report

FRAMES = {"frameA": ("9009-42A", "7A11111"), "frameB": ("9009-22A", "7B22222")}


def _hmc(root: Path, lpars: dict[str, list[tuple[str, int, str]]]) -> None:
    """lssyscfg -r sys (the frames named in ``lpars``) and lssyscfg -r lpar -m <frame> per frame."""
    d = root / "hmc1"
    d.mkdir(parents=True, exist_ok=True)
    sys_lines = [f"name={n},type_model={FRAMES[n][0]},serial_num={FRAMES[n][1]},state=Operating" for n in lpars]
    (d / "lssyscfg_r_sys.txt").write_text("hscroot@hmc1:~> lssyscfg -r sys\n" + "\n".join(sys_lines) + "\n")
    for frame, rows in lpars.items():
        body = "\n".join(f"name={name},lpar_id={lid},lpar_env={env},state=Running,os_version=x" for name, lid, env in rows)
        (d / f"lssyscfg_r_lpar_{frame}.txt").write_text(f"hscroot@hmc1:~> lssyscfg -r lpar -m {frame}\n{body}\n")


def _host(root: Path, node: str, pname: str | None = None, number: int | None = None, *,
          serial: str | None = None, vios: bool = False, oslevel: bool = False) -> None:
    d = root / node
    d.mkdir(parents=True, exist_ok=True)
    if pname is not None:
        (d / "lparstat_i.txt").write_text(
            f"root@{node}:/ # lparstat -i\n"
            f"Node Name                                  : {node}\n"
            f"Partition Name                             : {pname}\n"
            f"Partition Number                           : {number}\n"
            "Type                                       : Shared-SMT-8\n"
            "Mode                                       : Uncapped\n"
            "Entitled Capacity                          : 0.50\n"
            "Online Virtual CPUs                        : 2\n"
            "Online Memory                              : 8192 MB\n")
    if serial is not None:
        (d / "prtconf.txt").write_text(f"root@{node}:/ # prtconf\nSystem Model: IBM,9009-22A\n"
                                       f"Machine Serial Number: {serial}\nProcessor Type: PowerPC_POWER9\n")
    if vios:
        (d / "ioslevel.txt").write_text("$ ioslevel\n3.1.4.10\n$\n")
    if oslevel:
        (d / "oslevel_s.txt").write_text(f"root@{node}:/ # oslevel -s\n7200-05-03-2148\n")


def _estate(root: Path):
    est, _ = read_estate(collect([str(root)]))
    return est, {n.host: n for n in est.joins}


def _joined(est) -> dict[str, tuple[str, str, str | None]]:
    return {p.host: (fr.name, p.name, p.join) for fr in est.frames.values() for p in fr.partitions.values() if p.host}


def test_join_by_partition_name_picks_the_named_partition_not_the_same_number_elsewhere(tmp_path):
    _hmc(tmp_path, {"frameA": [("LPAR_A1", 3, "aixlinux")], "frameB": [("other", 3, "aixlinux")]})
    _host(tmp_path, "aixa", "LPAR_A1", 3)
    est, notes = _estate(tmp_path)
    assert _joined(est) == {"aixa": ("frameA", "LPAR_A1", "partition name")}
    n = notes["aixa"]
    assert (n.status, n.frame, n.partition, n.basis) == ("joined", "frameA", "LPAR_A1", "partition name")
    assert n.evidence and n.evidence[0].path.endswith("lparstat_i.txt") and n.evidence[0].line == 3


def test_join_by_node_name(tmp_path):
    _hmc(tmp_path, {"frameA": [("AIXB", 5, "aixlinux"), ("x", 6, "aixlinux")]})
    _host(tmp_path, "aixb", oslevel=True)  # no lparstat -i: only its node name tells the partition
    est, notes = _estate(tmp_path)
    assert est.hosts["aixb"].role == "aix"
    assert _joined(est) == {"aixb": ("frameA", "AIXB", "node name")}
    assert notes["aixb"].status == "joined"


def test_node_name_refused_when_the_partition_name_says_otherwise(tmp_path):
    _hmc(tmp_path, {"frameA": [("aixc", 5, "aixlinux")]})
    _host(tmp_path, "aixc", "PROD_C", 5)
    est, notes = _estate(tmp_path)
    assert _joined(est) == {}
    assert notes["aixc"].status == "refused" and "partition name is PROD_C" in notes["aixc"].reason


def test_join_by_frame_serial_and_partition_id(tmp_path):
    _hmc(tmp_path, {"frameA": [("x4", 4, "aixlinux")], "frameB": [("web7-new", 4, "aixlinux")]})
    _host(tmp_path, "web7", "web7_old", 4, serial="7B22222")
    est, notes = _estate(tmp_path)
    assert _joined(est) == {"web7": ("frameB", "web7-new", "frame serial and partition id")}
    n = notes["web7"]
    assert "web7_old" in n.reason  # the differing names are said, not hidden
    assert {Path(e.path).name for e in n.evidence} == {"prtconf.txt", "lparstat_i.txt"}


def test_serial_forms_compare_and_a_different_serial_refuses_a_name_match(tmp_path):
    assert same_serial("IBM,027B22222", "7B22222") and same_serial("7b22222", "7B22222")
    assert same_serial("7A11111", "7B22222") is False and same_serial(None, "7B22222") is None
    _hmc(tmp_path, {"frameA": [("LPAR_A1", 3, "aixlinux")]})
    _host(tmp_path, "aixa", "LPAR_A1", 3, serial="7B22222")  # runs on frameB, whose HMC data is absent
    est, notes = _estate(tmp_path)
    assert _joined(est) == {}
    assert notes["aixa"].status == "refused" and "frame serial is 7B22222" in notes["aixa"].reason


def test_partition_number_alone_never_joins_even_with_one_frame(tmp_path):
    _hmc(tmp_path, {"frameA": [("app2", 2, "aixlinux"), ("app3", 3, "aixlinux")]})
    _host(tmp_path, "lonely", "lonely", 2)
    est, notes = _estate(tmp_path)
    assert len(est.frames) == 1 and _joined(est) == {}
    n = notes["lonely"]
    assert n.status == "refused" and n.warns
    assert n.candidates == ["frameA/app2 (id 2)"] and "number alone is no evidence" in n.reason


def test_unrelated_aix_hosts_are_not_shown_as_vios_of_the_only_frame(tmp_path):
    """The issue's case: AIX hosts numbered 1..3 and one frame whose partitions 1..3 are VIOS."""
    _hmc(tmp_path, {"frameA": [("vio1", 1, "vioserver"), ("vio2", 2, "vioserver"), ("vio3", 3, "vioserver")]})
    for i in (1, 2, 3):
        _host(tmp_path, f"app{i}", f"app{i}", i)
    est, notes = _estate(tmp_path)
    assert _joined(est) == {}
    assert all(notes[f"app{i}"].status == "refused" and "VIOS" in notes[f"app{i}"].reason for i in (1, 2, 3))


def test_aix_host_never_joins_a_vios_partition(tmp_path):
    _hmc(tmp_path, {"frameA": [("vioa", 1, "vioserver")]})
    _host(tmp_path, "vioa", "vioa", 1)  # lparstat -i only: an AIX partition as far as its outputs tell
    est, notes = _estate(tmp_path)
    assert est.hosts["vioa"].role == "aix" and _joined(est) == {}
    n = notes["vioa"]
    assert n.status == "refused" and n.candidates == ["frameA/vioa (id 1)"]
    assert "AIX partition" in n.reason and "vioserver" in n.reason


def test_vios_host_never_joins_an_aix_partition_but_joins_a_vios_one(tmp_path):
    _hmc(tmp_path, {"frameA": [("appx", 3, "aixlinux"), ("vios9", 1, "vioserver")]})
    _host(tmp_path, "appx", "appx", 3, vios=True)
    _host(tmp_path, "vios9", "vios9", 1, vios=True)
    est, notes = _estate(tmp_path)
    assert est.hosts["appx"].role == "vios"
    assert _joined(est) == {"vios9": ("frameA", "vios9", "partition name")}
    assert notes["appx"].status == "refused" and "environment is aixlinux" in notes["appx"].reason


def test_one_host_matching_two_partitions_is_ambiguous(tmp_path):
    _hmc(tmp_path, {"frameA": [("dup", 7, "aixlinux")], "frameB": [("dup", 9, "aixlinux")]})
    _host(tmp_path, "dup", oslevel=True)  # no serial, no number: nothing tells the two apart
    est, notes = _estate(tmp_path)
    assert _joined(est) == {}
    n = notes["dup"]
    assert n.status == "ambiguous" and n.warns
    assert sorted(n.candidates) == ["frameA/dup (id 7)", "frameB/dup (id 9)"]


def test_two_hosts_claiming_one_partition_are_ambiguous(tmp_path):
    _hmc(tmp_path, {"frameA": [("shared1", 4, "aixlinux")]})
    _host(tmp_path, "h1", "shared1", 4)
    _host(tmp_path, "shared1", oslevel=True)
    est, notes = _estate(tmp_path)
    assert _joined(est) == {}
    assert notes["h1"].status == notes["shared1"].status == "ambiguous"
    assert "h1, shared1" in notes["h1"].reason


def test_reports_show_the_basis_and_list_the_joins_not_made(tmp_path):
    _hmc(tmp_path, {"frameA": [("LPAR_A1", 3, "aixlinux"), ("app2", 2, "aixlinux")]})
    _host(tmp_path, "aixa", "LPAR_A1", 3)
    _host(tmp_path, "lonely", "lonely", 2)
    rep = build_report(analyze([str(tmp_path)]))
    (fr,) = rep["frames"]
    rows = {p["name"]: (p["host"], p["join"]) for p in fr["partitions"]}
    assert rows == {"LPAR_A1": ("aixa", "partition name"), "app2": (None, None)}
    joins = {j["host"]: j for j in rep["joins"]}
    assert joins["aixa"]["status"] == "joined" and joins["aixa"]["basis"] == "partition name"
    assert joins["lonely"]["status"] == "refused" and joins["lonely"]["candidates"] == ["frameA/app2 (id 2)"]
    html = render_html(rep)
    assert "Hosts and partitions" in html and "<td>by partition name</td>" in html and "number alone is no evidence" in html
    res = CliRunner().invoke(app, ["analyze", str(tmp_path), "-q", "--json", str(tmp_path / "r.json")])
    assert res.exit_code in (0, 1), res.output
    assert "joins: 1 host(s) joined to frame partitions (1 by partition name); 1 refused or ambiguous" in res.output
    assert any(line.strip().startswith("refused") and "lonely" in line for line in res.output.splitlines())
    assert json.loads((tmp_path / "r.json").read_text())["joins"] == rep["joins"]
    import openpyxl

    from lparscope.report.frame import export_xlsx

    export_xlsx(rep, tmp_path / "r.xlsx")
    ws = openpyxl.load_workbook(tmp_path / "r.xlsx")["Joins"]
    rows = [[c.value for c in r] for r in ws.iter_rows()]
    assert rows[0][:5] == ["host", "status", "frame", "partition", "basis"]
    assert ["lonely", "refused", None, None, None, "frameA/app2 (id 2)"] == rows[2][:6]


def test_flat_folder_of_host_prefixed_files_one_host_per_prefix_joined_on_evidence(tmp_path):
    """Outputs saved one per file, named <host>_<command>.txt, no prompts; HMC outputs beside them."""
    (tmp_path / "hmc1_lssyscfg_r_sys.txt").write_text("name=frameA,type_model=9009-42A,serial_num=7A11111,state=Operating\n")
    (tmp_path / "hmc1_lssyscfg_r_lpar_m_frameA.txt").write_text(
        "name=AIX1,lpar_id=3,lpar_env=aixlinux,state=Running\nname=aix2,lpar_id=4,lpar_env=aixlinux,state=Running\n"
        "name=vios1,lpar_id=1,lpar_env=vioserver,state=Running\nname=db9,lpar_id=9,lpar_env=aixlinux,state=Running\n")
    (tmp_path / "aix1_lparstat_i.txt").write_text("Node Name : aix1\nPartition Name : AIX1\nPartition Number : 3\n"
                                                  "Type : Shared-SMT-8\n")
    (tmp_path / "aix2_oslevel_s.txt").write_text("7200-05-03-2148\n")
    (tmp_path / "vios1_ioslevel.txt").write_text("3.1.4.10\n")
    (tmp_path / "aix9_lparstat_i.txt").write_text("Node Name : aix9\nPartition Name : aix9\nPartition Number : 9\n"
                                                  "Type : Shared-SMT-8\n")
    (tmp_path / "README.md").write_text("# aix1 aix2 vios1: lparstat -i, oslevel -s, ioslevel\n")
    out = tmp_path / "r.json"
    res = CliRunner().invoke(app, ["analyze", str(tmp_path), "--json", str(out)])
    assert res.exit_code in (0, 1), res.output
    rep = json.loads(out.read_text())
    roles = {h["name"]: h["role"] for h in rep["hosts"] if h["role"] != "hmc"}
    assert roles == {"aix1": "aix", "aix2": "aix", "aix9": "aix", "vios1": "vios"}  # no host from README.md
    joins = {j["host"]: (j["status"], j["partition"], j["basis"]) for j in rep["joins"]}
    assert joins == {"aix1": ("joined", "AIX1", "partition name"), "aix2": ("joined", "aix2", "node name"),
                     "vios1": ("joined", "vios1", "node name"), "aix9": ("refused", None, None)}  # db9 is id 9


def _nmon(path: Path, host: str, serial: str, lpar: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "AAA,progname,topas_nmon\nAAA,command,/usr/bin/topas_nmon -f -s 300 -c 2\nAAA,version,TOPAS-NMON\n"
        f"AAA,host,{host}\nAAA,user,root\nAAA,OS,Linux,7.2.5.0\nAAA,runname,{host}\nAAA,time,10:00:00\n"
        "AAA,date,20-NOV-2026\nAAA,interval,300\nAAA,snapshots,2\n"
        f"AAA,SerialNumber,{serial}\nAAA,LPARNumberName,{lpar}\nAAA,MachineType,IBM,9009-22A\n"
        "CPU_ALL,CPU Total aix,User%,Sys%,Wait%,Idle%,Busy,PhysicalCPUs\n"
        "ZZZZ,T0001,10:00:00,20-NOV-2026\nCPU_ALL,T0001,10.0,5.0,0.0,85.0,,4\n"
        "ZZZZ,T0002,10:05:00,20-NOV-2026\nCPU_ALL,T0002,12.0,5.0,0.0,83.0,,4\n")


def test_nmon_header_gives_partition_name_number_and_serial(tmp_path):
    _hmc(tmp_path, {"frameA": [("anon1", 7, "aixlinux")], "frameB": [("LPAR_N5", 5, "aixlinux"), ("n6", 6, "aixlinux")]})
    _nmon(tmp_path / "nmon" / "nmonhost_261120_1000.nmon", "nmonhost", "7B22222", "5,LPAR_N5")
    _nmon(tmp_path / "nmon" / "web6_261120_1000.nmon", "web6", "IBM,027B22222", "6,web6_renamed")
    # an anonymised header tells nothing: it must not contradict the node name
    _nmon(tmp_path / "nmon" / "anon1_261120_1000.nmon", "anon1", "<Serial Number>", "7,<LPAR Number>")
    est, notes = _estate(tmp_path)
    assert _joined(est) == {"nmonhost": ("frameB", "LPAR_N5", "partition name"),
                            "web6": ("frameB", "n6", "frame serial and partition id"),
                            "anon1": ("frameA", "anon1", "node name")}
    ev = notes["nmonhost"].evidence[0]
    assert ev.path.endswith("nmonhost_261120_1000.nmon") and ev.line == 13 and "LPARNumberName" in ev.excerpt


def test_plan_does_not_guess_the_frame_of_an_ambiguous_host(tmp_path):
    from lparscope.plan.names import locate

    _hmc(tmp_path, {"frameA": [("dup", 7, "aixlinux")], "frameB": [("dup", 9, "aixlinux")]})
    _host(tmp_path, "dup", oslevel=True)
    est, _ = _estate(tmp_path)
    assert locate(est, "dup", "dup") == (None, None)
    assert locate(est, "dup", "dup", by_partition=True) == (None, None)  # two frames have it: not guessed
    # a frame rule's change names its frame and partition: that one
    assert locate(est, "dup", "dup", "frameB", by_partition=True)[0].name == "frameB"
    # a host's change is named only by the host's join, which was not made
    assert locate(est, "dup", "dup", "frameB") == (None, None)


def test_a_host_compares_only_the_partitions_its_evidence_names(tmp_path, monkeypatch):
    """Every frame numbers its partitions from 1: a host with a frame serial and partition id
    looks at the partition of that id on frames with that serial, not at every frame's (a
    thousand hosts over a hundred frames made the joins quadratic)."""
    from lparscope.model import frame_join

    frames = {f"f{i}": ("9009-22A", f"7C{i:05d}") for i in range(60)}
    FRAMES.update(frames)  # _hmc lists the frames it is given from FRAMES
    try:
        _hmc(tmp_path, {name: [(f"lp{name}", 4, "aixlinux")] for name in frames})
        _host(tmp_path, "web9", "web9_old", 4, serial="IBM,027C00042")
        looked: list[str] = []
        real = frame_join._bases
        monkeypatch.setattr(frame_join, "_bases", lambda h, f, fr, p: looked.append(fr.name) or real(h, f, fr, p))
        est, notes = _estate(tmp_path)
        assert _joined(est) == {"web9": ("f42", "lpf42", "frame serial and partition id")}
        assert looked == ["f42"]
    finally:
        for name in frames:
            FRAMES.pop(name, None)
