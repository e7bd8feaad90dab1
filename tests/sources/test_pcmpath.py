"""SDDPCM pcmpath / SDD datapath query device: each path in lspath's words, read by HEALTH-DISK-PATHS."""

from __future__ import annotations

import shutil
from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.sources import pcmpath
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "pcmpath"


def _paths(parsed):
    return [r for r in parsed.records if type(r).__name__ == "SddPath"]


def test_sddpcm_paths_states_and_modes_in_lspath_words():
    text = (FIX / "sddpcm_svc_dead_path.txt").read_text()
    assert pcmpath.detect(text) == 95 and [s.kind for s in split_and_classify(text)] == ["pcmpath"]
    r = pcmpath.parse(text)
    assert r.warnings == [] and r.hostname == "aixora5"
    devices = [x for x in r.records if type(x).__name__ == "SddDevice"]
    assert [(d.number, d.name, d.type, d.policy, d.serial, d.line) for d in devices] == [
        (2, "hdisk2", "2145", "Load Balance", "60050768018105A1C000000000000042", 5),
        (3, "hdisk3", "2145", "Load Balance", "60050768018105A1C000000000000043", 14),
        (4, "hdisk4", "2145", "Load Balance", "60050768018105A1C000000000000044", 23)]
    paths = _paths(r)
    assert len(paths) == 12
    p = paths[1]
    assert (p.disk, p.path_id, p.parent, p.path_name, p.state, p.mode, p.select, p.errors, p.preferred, p.status, p.line) == (
        "hdisk2", 1, "fscsi0", "path1", "DEAD", "NORMAL", 181520, 47, True, "Failed", 10)
    assert paths[0].preferred is False  # "0*": a non-preferred path
    assert [(x.disk, x.path_id, x.status) for x in paths if x.status != "Enabled"] == [("hdisk2", 1, "Failed"), ("hdisk3", 2, "Disabled")]
    assert {x.status for x in paths if x.disk == "hdisk4"} == {"Enabled"}  # CLOSE NORMAL: a closed disk's healthy paths


def test_sdd_datapath_vpaths():
    r = pcmpath.parse((FIX / "sdd_datapath_vpath.txt").read_text())
    assert r.warnings == [] and r.hostname is None
    assert [(x.disk, x.parent, x.path_name, x.state, x.status, x.command, x.preferred) for x in _paths(r)] == [
        ("vpath0", "fscsi0", "hdisk4", "OPEN", "Enabled", "datapath", None),
        ("vpath0", "fscsi1", "hdisk8", "CLOSE_DEAD", "Failed", "datapath", None),
        ("vpath1", "fscsi0", "hdisk5", "INVALID", "Failed", "datapath", None),
        ("vpath1", "fscsi1", "hdisk9", "INVALID", "Failed", "datapath", None)]


def test_mapping_is_conservative():
    assert pcmpath.lspath_status("OPEN", "NORMAL") == "Enabled" and pcmpath.lspath_status("CLOSE", "NORMAL") == "Enabled"
    assert pcmpath.lspath_status("OPEN", "OFFLINE") == "Disabled"
    assert pcmpath.lspath_status("DEAD", "OFFLINE") == "Failed" and pcmpath.lspath_status("CLOSE_DEAD", "NORMAL") == "Failed"
    assert pcmpath.lspath_status("DEGRADED", "NORMAL") is None and pcmpath.lspath_status("OPEN", "FOO") is None


def test_damaged_lines_are_warned_and_an_unknown_state_is_not_judged():
    r = pcmpath.parse((FIX / "damaged.txt").read_text())
    assert [(w.line, w.message.split(":")[0]) for w in r.warnings] == [
        (2, "path row outside a device's path table"), (7, "path 0 of hdisk5"), (8, "not a pcmpath / datapath line")]
    assert [(x.path_id, x.status) for x in _paths(r)] == [(0, None), (2, "Enabled")]
    assert pcmpath.parse("# pcmpath query device\n\nTotal Devices : 0\n").empty
    for text in ("", "DEV#: x\n", "Path# Adapter/Path Name State Mode Select Errors\n 0 a/b OPEN NORMAL 1 1 1\n"):
        pcmpath.parse(text)


def test_a_dead_path_reaches_the_disk_path_check(tmp_path):
    shutil.copy(FIX / "sddpcm_svc_dead_path.txt", tmp_path / "pcmpath.txt")
    shutil.copy(FIX / "sdd_datapath_vpath.txt", tmp_path / "aixold1_datapath_query_device.txt")
    a = analyze([str(tmp_path)])
    assert {(i.kind, i.host, i.status) for i in a.estate.inputs} == {("pcmpath", "aixora5", "parsed"), ("pcmpath", "aixold1", "parsed")}
    found = {(f.host, f.subject): f for f in a.findings if f.rule.id == "HEALTH-DISK-PATHS"}
    assert set(found) == {("aixora5", "hdisk2"), ("aixora5", "hdisk3"), ("aixold1", "vpath0"), ("aixold1", "vpath1")}
    dead = found[("aixora5", "hdisk2")]
    assert (dead.severity or dead.rule.severity) == "warning" and "3 Enabled of 4 paths" in dead.message and "fscsi0/path1 DEAD" in dead.message
    assert dead.fix.root == ["pcmpath query device 2",
                             "# path 1 (fscsi0/path1) is DEAD: repair the fault first (errpt, the switch port, the zoning), then:",
                             "pcmpath set device 2 path 1 online"]
    assert [e.line for e in dead.evidence] == [9, 10, 11, 12]
    assert found[("aixora5", "hdisk3")].fix.root[-1] == "pcmpath set device 3 path 2 online"  # OFFLINE: set online
    assert found[("aixold1", "vpath1")].severity == "critical"


def test_a_disk_lspath_lists_is_not_counted_twice(tmp_path):
    (tmp_path / "aixora5.txt").write_text(
        "root@aixora5:/ # lspath -l hdisk2 -F 'status name parent connection'\n"
        "Enabled hdisk2 fscsi0 500507680b215a61,2000000000000\nFailed hdisk2 fscsi0 500507680b215a62,2000000000000\n"
        "Enabled hdisk2 fscsi1 500507680b225a61,2000000000000\nEnabled hdisk2 fscsi1 500507680b225a62,2000000000000\n"
        + (FIX / "sddpcm_svc_dead_path.txt").read_text())
    a = analyze([str(tmp_path)])
    (f,) = [f for f in a.findings if f.rule.id == "HEALTH-DISK-PATHS" and f.subject == "hdisk2"]
    assert "3 Enabled of 4 paths" in f.message and f.fix.root[0].startswith("lspath -l hdisk2")
