"""File names as a last resort: outputs saved without their command line give the same model
as the same outputs with it; host-prefixed files give one host per prefix; documents, YAML,
scripts and images are unrecognised and create no host."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from lparscope.cli import app
from lparscope.pipeline import analyze
from lparscope.sources.filenames import NameHint, name_hint, not_command_output

FIX = Path(__file__).parent / "fixtures"

# (host, command as typed, fixture holding that output, file name used when saved bare)
OUTPUTS = [
    ("aix1", "lsattr -El hdisk1", "lsattr/aix72_hdisk_vscsi_client.txt", "aix1_lsattr_-El_hdisk1.txt"),
    ("aix1", "vmstat -v", "vmstat-v/aix71_vmstat_v.txt", "aix1_vmstat_v.txt"),
    ("aix1", "no -a", "tunables/aix61_no_a.txt", "aix1-no-a.out"),
    ("aix1", "lsdev -Cc adapter", "lsdev/aix73_Cc_adapter_physloc.txt", "aix1_lsdev_Cc_adapter.txt"),
    ("aix1", "entstat -d ent1", "entstat/aix72_physical_goent_ent1.txt", "aix1.entstat.ent1"),
    ("aix1", "lsps -a", "lsps/lsps_a_aix72.txt", "aix1_lsps_a.txt"),
    ("aix1", "df -g", "df/df_g_aix72.txt", "aix1_df_g.txt"),
    ("aix2", "lsattr -El hdisk1", "lsattr/aix72_hdisk_vscsi_client.txt", "aix2.lsattr.hdisk1"),
    ("aix2", "errpt", "errpt/errpt_summary_aix72.txt", "aix2_errpt.txt"),
    ("vios1", "lsdev -dev ent8 -attr", "lsattr/vios_lsdev_dev_attr_sea.txt", "vios1_lsdev_-dev_ent8_-attr.txt"),
    ("vios1", "ioslevel", "oslevel/vios_ioslevel.txt", "vios1_ioslevel.txt"),
]


def _body(fixture: str) -> str:
    """The output without its prompt line."""
    lines = (FIX / fixture).read_text().splitlines()
    return "\n".join(lines[1:]) + "\n"


def _snapshot(estate) -> dict:
    out = {}
    for name, h in estate.hosts.items():
        out[name] = {
            "role": h.role,
            "devices": {d.name: (d.cls, d.description, {k: s.value for k, s in d.attrs.items()}) for d in h.devices.values()},
            "tunables": {k: s.value for k, s in h.tunables.items()},
            "vmstat": {k: s.value for k, s in h.vmstat.items()},
            "levels": {k: s.value for k, s in h.levels.items()},
            "records": {k: len(v) for k, v in h.records.items()},
            "paging": sorted(h.paging_spaces), "fs": sorted(h.filesystems), "errors": len(h.errors),
        }
    return out


def _write_both(tmp_path: Path) -> tuple[Path, Path]:
    with_cmd, bare = tmp_path / "with_commands", tmp_path / "bare"
    with_cmd.mkdir()
    bare.mkdir()
    for n, (host, command, fixture, bare_name) in enumerate(OUTPUTS):
        prompt = f"padmin@{host}:/home/padmin$ {command}" if host.startswith("vios") else f"root@{host}:/ # {command}"
        (with_cmd / f"output{n:02d}.txt").write_text(prompt + "\n" + _body(fixture))
        (bare / bare_name).write_text(_body(fixture))
    return with_cmd, bare


def test_bare_outputs_give_the_same_model_as_outputs_with_command_lines(tmp_path):
    with_cmd, bare = _write_both(tmp_path)
    a, b = analyze([str(with_cmd)]).estate, analyze([str(bare)]).estate
    assert set(a.hosts) == {"aix1", "aix2", "vios1"}
    assert _snapshot(b) == _snapshot(a)
    assert b.hosts["aix1"].devices["hdisk1"].attrs["queue_depth"].value == a.hosts["aix1"].devices["hdisk1"].attrs["queue_depth"].value
    assert b.hosts["vios1"].is_vios and b.hosts["vios1"].devices["ent8"].attrs
    # Evidence points at the real line of the bare file (one line higher than with the prompt).
    ev_b = b.hosts["aix1"].devices["hdisk1"].attrs["queue_depth"].evidence
    ev_a = a.hosts["aix1"].devices["hdisk1"].attrs["queue_depth"].evidence
    assert ev_b.line == ev_a.line - 1
    assert "queue_depth" in (bare / "aix1_lsattr_-El_hdisk1.txt").read_text().splitlines()[ev_b.line - 1]
    # Every status line says the name was used; all were read in full.
    statuses = [i for i in b.inputs]
    assert all(i.status == "parsed" for i in statuses), [(i.path, i.status, i.reason) for i in statuses]
    hinted = [i for i in statuses if "read from the file name" in i.reason]
    assert len(hinted) == len(OUTPUTS)
    lsattr_status = next(i for i in statuses if i.path.endswith("aix1_lsattr_-El_hdisk1.txt"))
    assert "command 'lsattr -El hdisk1'" in lsattr_status.reason and "host 'aix1'" in lsattr_status.reason
    assert lsattr_status.line == 1


def test_content_wins_over_the_name(tmp_path):
    # Named after vmstat but holding lsps output: read as lsps; the host still comes from the name.
    (tmp_path / "aix9_vmstat_v.txt").write_text(_body("lsps/lsps_a_aix72.txt"))
    # A command line in the content wins over the name's command and flags.
    (tmp_path / "aix9_lsattr_El_hdisk7.txt").write_text("# lsattr -El hdisk1\n" + _body("lsattr/aix72_hdisk_vscsi_client.txt"))
    est = analyze([str(tmp_path)]).estate
    assert set(est.hosts) == {"aix9"}
    h = est.hosts["aix9"]
    assert "hd6" in h.paging_spaces and not h.vmstat
    assert "hdisk1" in h.devices and "hdisk7" not in h.devices
    named = {i.path.split("/")[-1]: i for i in est.inputs}
    assert "command" not in named["aix9_vmstat_v.txt"].reason and "host 'aix9'" in named["aix9_vmstat_v.txt"].reason


def test_a_status_credits_the_name_only_for_what_the_name_gave(tmp_path):
    """A prompt's host wins over the name's, and the status then does not say the host came from the name."""
    (tmp_path / "aix9_lsps_a.txt").write_text("root@aix3:/ # lsps -a\n" + _body("lsps/lsps_a_aix72.txt"))
    est = analyze([str(tmp_path)]).estate
    assert set(est.hosts) == {"aix3"}
    (status,) = est.inputs
    assert (status.host, status.reason) == ("aix3", "")


def test_host_prefixed_flat_folder_gives_one_host_per_prefix_and_documents_no_host(tmp_path):
    folder = tmp_path / "collection_2025"
    folder.mkdir()
    for host in ("aix1", "aix2", "aix3"):
        (folder / f"{host}_vmstat_v.txt").write_text(_body("vmstat-v/aix71_vmstat_v.txt"))
        (folder / f"{host}_lsattr_-El_hdisk1.txt").write_text(_body("lsattr/aix72_hdisk_vscsi_client.txt"))
    (folder / "README.md").write_text("# Collected outputs\n\nRun `lsattr -El hdisk1` and `vmstat -v` on each host.\n")
    (folder / "hosts.yaml").write_text("hosts:\n  - aix1\n  - aix2\n")
    (folder / "collect.sh").write_text("#!/bin/ksh\nfor c in 'vmstat -v' 'lsattr -El hdisk1'; do $c; done\n")
    (folder / "collect_cmds").write_text("#!/usr/bin/ksh\nlsattr -El hdisk1\n")
    (folder / "screenshot.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    analysis = analyze([str(folder)])
    assert set(analysis.estate.hosts) == {"aix1", "aix2", "aix3"}
    docs = {i.path.split("/")[-1]: i for i in analysis.estate.inputs
            if i.path.split("/")[-1] in ("README.md", "hosts.yaml", "collect.sh", "collect_cmds", "screenshot.png")}
    assert {n: i.status for n, i in docs.items()} == {n: "unrecognised" for n in docs}
    assert docs["README.md"].reason == "not command output (markdown document)" and docs["README.md"].host == ""
    assert "script" in docs["collect_cmds"].reason
    # The same through the command line: one host per prefix in the JSON report.
    out = tmp_path / "r.json"
    res = CliRunner().invoke(app, ["analyze", str(folder), "--json", str(out)])
    assert res.exit_code in (0, 1, 2), res.output
    import json
    hosts = {h["name"] for h in json.loads(out.read_text())["hosts"]}
    assert hosts == {"aix1", "aix2", "aix3"}


def test_name_forms():
    assert name_hint("lsattr_-El_ent6.txt") == NameHint("lsattr -El ent6", None)
    assert name_hint("aix1_vmstat_v.txt") == NameHint("vmstat -v", "aix1")
    assert name_hint("aix1.lsattr.ent0") == NameHint("lsattr -El ent0", "aix1")
    assert name_hint("dir/vios2-entstat-d-ent8.out") == NameHint("entstat -d ent8", "vios2")
    assert name_hint("012_lparstat_i.txt") == NameHint("lparstat -i", None)
    assert name_hint("bundle.tgz!c/aix-prod-01_lsmap_all_npiv.txt") == NameHint("lsmap -all -npiv", "aix-prod-01")
    assert name_hint("aix1.example.com_no_a.txt") == NameHint("no -a", "aix1.example.com")
    assert name_hint("notes_from_monday.txt") == NameHint(None, None)
    assert not_command_output("x/README.md") == "markdown document" and not_command_output("a.txt", "#!/bin/sh\n") == "script"
    assert not_command_output("aix1_lsattr.txt", "# lsattr -El hdisk0\n") is None


def test_device_from_the_name_when_the_content_is_clear_but_names_none(tmp_path):
    # lsattr rows with no command line; the name carries only a device ("pasted from hdisk5").
    (tmp_path / "pasted_from_hdisk5.txt").write_text((FIX / "lsattr" / "no_device_pasted.txt").read_text())
    est = analyze([str(tmp_path)]).estate
    (inp,) = est.inputs
    assert inp.status == "parsed" and "command 'lsattr -El hdisk5'" in inp.reason
    (host,) = est.hosts.values()
    assert host.devices["hdisk5"].attrs["queue_depth"].value == "8"
    assert host.devices["hdisk5"].attrs["queue_depth"].evidence.line == 3
    # Without a device in the name the rows stay warned about (see test_no_silent_drops).
    assert name_hint("pasted_from_hdisk5.txt") == NameHint(None, None)


def test_vios_word_flags_in_file_names() -> None:
    from lparscope.sources.filenames import name_hint

    assert name_hint("viof_lsdev_slots.txt").command == "lsdev -slots"  # not read: lsdev.py takes no -slots
    assert name_hint("vios2_lsdev_virtual.txt").command == "lsdev -virtual"


def test_a_folder_named_for_a_kind_of_system_is_no_host(tmp_path):
    # several Linux partitions' outputs in a "linux" folder (a "vios", "aix" or "nmon" one alike) must
    # not be merged into one host of that name: each file without a host of its own stands apart
    lparstat = ("System Configuration\ntype=Shared mode=Uncapped smt=8 lcpu=8 mem=7759616 kB cpus=6 ent={ent}\n\n"
                "%user  %sys %wait    %idle    physc %entc lbusy  vcsw phint\n"
                "----- ----- -----    -----    ----- ----- ----- ----- -----\n"
                " 20.00  5.00  0.00    75.00     0.30 {entc} 25.00  1000     0\n")
    (tmp_path / "linux").mkdir()
    (tmp_path / "linux" / "lnxweb1_lparstat.txt").write_text(lparstat.format(ent="1.00", entc="30.00"))
    (tmp_path / "linux" / "lnxdb2_lparstat.txt").write_text(lparstat.format(ent="0.50", entc="60.00"))
    hosts = analyze([str(tmp_path)]).estate.hosts
    assert "linux" not in hosts and len(hosts) == 2
    assert sorted(h.partition.entitled_capacity for h in hosts.values()) == [0.5, 1.0]
