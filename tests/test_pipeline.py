"""End to end: files on disk -> findings, including the seed examples the issue names."""

from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path

from typer.testing import CliRunner

from lparscope.cli import app
from lparscope.pipeline import analyze

FIX = Path(__file__).parent / "fixtures"
EXAMPLE = Path(__file__).parents[1] / "examples" / "estate"


def _ids(analysis, host=None):
    return {f.rule.id for f in analysis.findings if host is None or f.host == host}


def test_seed_000_example_3_32_gives_buffer_and_hypervisor_findings(tmp_path):
    # 000_31a80e54567cd02b.txt §3.7.11 Example 3-32, as printed (whitespace collapsed)
    shutil.copy(FIX / "entstat" / "seed000_example_3_32_collapsed.txt", tmp_path / "netstat_v.txt")
    a = analyze([str(tmp_path)])
    by_id = {f.rule.id: f for f in a.findings}
    buf = by_id["NET-VETH-BUFFERS"]
    assert buf.host == "aix1" and buf.subject == "ent0"
    assert "min_buf_huge=72 max_buf_huge=128" in buf.values["suggested"]
    assert "min_buf_medium=256 max_buf_medium=256" in buf.values["suggested"]
    hyp = by_id["NET-VETH-HYPERVISOR-FAILURES"]
    assert hyp.values["hypervisor_send_failures"] == "2090" and hyp.values["hypervisor_receive_failures"] == "8184"
    assert hyp.values["no_resource_errors"] == "8184"
    assert all(e.path.endswith("netstat_v.txt") and e.line > 1 for e in hyp.evidence)
    assert any("Hypervisor Send Failures" in e.excerpt for e in hyp.evidence)


def test_seed_002_sea_thread_state_drives_the_thread_rules(tmp_path):
    # 002_17cd08c97e154efa.txt: SEA Flags 00000000 = not threaded; this VIOS serves vSCSI.
    vios = tmp_path / "vios1"
    vios.mkdir()
    shutil.copy(FIX / "entstat" / "seed002_sea_ent5_not_threaded.txt", vios / "entstat.txt")
    shutil.copy(FIX / "lsmap" / "vios31_all_vscsi.txt", vios / "lsmap.txt")
    a = analyze([str(tmp_path)])
    assert a.estate.hosts["vios1"].role == "vios"
    assert "NET-SEA-THREAD-OFF-VSCSI" in _ids(a, "vios1")
    shutil.copy(FIX / "entstat" / "seed002_sea_ent5_threaded_variant.txt", vios / "entstat.txt")
    a = analyze([str(tmp_path)])
    assert "NET-SEA-THREAD-OFF-VSCSI" not in _ids(a, "vios1")
    assert "NET-SEA-THREAD-OVERFLOW" in _ids(a, "vios1")


SEED_004 = """# lsattr -El hdisk3 -a queue_depth
queue_depth 256 Queue DEPTH True
# lswpar -D p8wpar1
Name     Device Name  Type  Virtual Device  RootVG  Status
-----------------------------------------------------------
p8wpar1  hdisk3       disk  hdisk1          no      EXPORTED
p8wpar1  hdisk2       disk  hdisk0          yes     EXPORTED
# echo scsidisk | kdb
(0)> scsidisk
"scsidisk_list" address...[0x0]
NAME     ADDRESS             STATE       CMDS_OUT  CURRBUF             LOW
hdisk0   0xF1000A01505DC000  0x00000002  0x0000    0x0000000000000000  0x0
hdisk0   0xF1000A01C0148000  0x00000002  0x0000    0x0000000000000000  0x0
hdisk1   0xF1000A01505D4000  0x00000002  0x0000    0x0000000000000000  0x0
hdisk1   0xF1000A01C014C000  0x00000001  0x0000    0x0000000000000000  0x0
# echo scsidisk 0xF1000A01C014C000 | kdb | grep queue_depth
        ushort queue_depth = 0x1;
"""


def test_seed_004_kdb_and_lsattr_give_the_queue_depth_mismatch(tmp_path):
    # 004_39e9519fe8a18f63.txt: ODM 256, kernel 1 for hdisk3 exported to a 5.3 Versioned WPAR
    (tmp_path / "gibopvc1").mkdir()
    (tmp_path / "gibopvc1" / "wpar_disk.txt").write_text(SEED_004)
    a = analyze([str(tmp_path)])
    (f,) = [f for f in a.findings if f.rule.id == "WPAR-KERNEL-QDEPTH-MISMATCH"]
    assert f.host == "gibopvc1" and "hdisk3" in f.subject and "kernel queue_depth 1" in f.message
    assert f.values == {"current": "kernel 1", "suggested": "kernel 256"}


def test_bundle_and_folder_give_the_same_findings(tmp_path):
    bundle = tmp_path / "estate.tgz"
    with tarfile.open(bundle, "w:gz") as tf:
        tf.add(EXAMPLE, arcname="estate")
    from_folder = sorted((f.rule.id, f.host, f.subject) for f in analyze([str(EXAMPLE)]).findings)
    from_bundle = sorted((f.rule.id, f.host, f.subject) for f in analyze([str(bundle)]).findings)
    assert from_folder and from_folder == from_bundle


def test_cli_reports_and_exit_codes(tmp_path):
    runner = CliRunner()
    out = tmp_path / "r.json"
    html = tmp_path / "r.html"
    fix = tmp_path / "fix.ksh"
    res = runner.invoke(app, ["analyze", str(EXAMPLE), "-q", "--json", str(out), "--html", str(html), "--fix-script", str(fix)])
    assert res.exit_code == 0, res.output
    report = json.loads(out.read_text())
    assert report["schema"] == "lparscope.report/1" and report["summary"]["hosts"] == 8  # 7 partitions + the HMC
    assert [f["name"] for f in report["frames"]] == ["p9frame1"]
    assert html.read_text().lstrip().lower().startswith("<!doctype html")
    assert fix.read_text().startswith("#!/usr/bin/ksh")  # the index; one script per host and the HMC's beside it
    assert (tmp_path / "fix-hmc.sh").read_text().startswith("#!/bin/sh")
    res = runner.invoke(app, ["analyze", str(EXAMPLE), "-q", "--fail-on", "warning"])
    assert res.exit_code == 1
    res = runner.invoke(app, ["analyze", str(tmp_path / "missing")])
    assert res.exit_code == 2
    bad = tmp_path / "bad.toml"
    bad.write_text("[thresholds]\nno_such = 1\n")
    res = runner.invoke(app, ["analyze", str(EXAMPLE), "--config", str(bad)])
    assert res.exit_code == 2 and "unknown threshold" in res.output


def test_config_disables_and_retunes_rules(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[rules]\ndisable = ["CPU-EC-BELOW-VP"]\n[rules.severity]\nNET-CLIENT-MTU-BYPASS = "info"\n')
    out = tmp_path / "r.json"
    res = CliRunner().invoke(app, ["analyze", str(EXAMPLE), "-q", "--config", str(cfg), "--json", str(out)])
    assert res.exit_code == 0, res.output
    findings = json.loads(out.read_text())["findings"]
    assert not [f for f in findings if f["rule_id"] == "CPU-EC-BELOW-VP"]
    assert {f["severity"] for f in findings if f["rule_id"] == "NET-CLIENT-MTU-BYPASS"} == {"info"}


def test_bad_input_is_reported_not_raised(tmp_path):
    (tmp_path / "h1").mkdir()
    (tmp_path / "h1" / "junk.txt").write_text("# lsattr -El hdisk0\nqueue_depth 3 Queue DEPTH True\n\x7f\x7f garbage line\n")
    (tmp_path / "h1" / "empty.txt").write_text("")
    a = analyze([str(tmp_path)])
    statuses = {(Path(i.path).name, i.status) for i in a.estate.inputs}
    assert ("junk.txt", "partly") in statuses and ("empty.txt", "unrecognised") in statuses
    (partly,) = [i for i in a.estate.inputs if i.status == "partly"]
    assert partly.warnings[0][0] == 3  # the file line of the bad row


def test_rules_and_explain_commands():
    runner = CliRunner()
    res = runner.invoke(app, ["rules"])
    assert res.exit_code == 0 and "CPU-EC-BELOW-VP" in res.output and "ec_to_vp_min_ratio" in res.output
    res = runner.invoke(app, ["explain", "CPU-EC-BELOW-VP"])
    assert res.exit_code == 0
    assert "000_31a80e54567cd02b.txt §3.1" in res.output and "ec_to_vp_min_ratio = 0.25" in res.output
    assert runner.invoke(app, ["explain", "NO-SUCH-RULE"]).exit_code == 2


def test_nmon_evidence_in_the_header_part_shows_the_line_as_written(tmp_path):
    """Evidence from a recording's BBBP command outputs shows the line itself, value included (not a
    field name or a label); a snapshot keeps its short description."""
    shutil.copy(FIX / "nmon" / "aix_small.nmon", tmp_path / "aix_small.nmon")
    a = analyze([str(tmp_path)], workers=1)
    lines = (tmp_path / "aix_small.nmon").read_text().splitlines()
    first_snapshot = next(n for n, ln in enumerate(lines, start=1) if ln.startswith("ZZZZ,"))
    evidence = [e for f in a.findings for e in f.evidence if e.path.endswith("aix_small.nmon")]
    header = [e for e in evidence if e.line < first_snapshot]
    assert any(e.excerpt.startswith("BBBP,") and "pbuf" in e.excerpt for e in header)
    assert all(e.excerpt == lines[e.line - 1].strip() for e in header)
    assert any(e.excerpt.startswith("LPAR snapshot") for e in evidence if e.line > first_snapshot)


def test_files_without_a_host_in_a_generic_folder_are_hosts_of_their_own(tmp_path):
    attrs = "attribute value description user_settable\nmaxuproc {} Maximum number of PROCESSES allowed per user True\n"
    for folder in ("files", "entstat", "aix7"):
        (tmp_path / folder).mkdir()
        for n, name in enumerate(("lsattr_El_sys0_a.txt", "lsattr_El_sys0_b.txt")):
            (tmp_path / folder / name).write_text(attrs.format(4096 * (n + 1)))
    hosts = analyze([str(tmp_path)]).estate.hosts
    # a folder named after a host collects its files; "files" or a command's name does not
    assert hosts["aix7"].devices["sys0"].attr("maxuproc") == "8192"
    assert "files" not in hosts and "entstat" not in hosts
    assert sorted(h for h in hosts if h.startswith("lsattr")) == ["lsattr_El_sys0_a", "lsattr_El_sys0_b"]


def test_padmin_syntax_makes_a_host_a_vios(tmp_path):
    (tmp_path / "v").mkdir()
    (tmp_path / "a").mkdir()
    (tmp_path / "v" / "out.txt").write_text(
        "$ lsdev -dev fscsi0 -attr\nattribute     value       description                          user_settable\n"
        "dyntrk        yes         Dynamic Tracking of FC Devices       True\n"
        "fc_err_recov  fast_fail   FC Fabric Event Error RECOVERY Policy True\n")
    (tmp_path / "a" / "out.txt").write_text(
        "# lsattr -El fscsi0\ndyntrk        yes         Dynamic Tracking of FC Devices       True\n")
    hosts = analyze([str(tmp_path)]).estate.hosts
    assert hosts["v"].role == "vios" and "padmin command syntax" in hosts["v"].role_reasons[0]
    assert hosts["a"].role == "aix"
