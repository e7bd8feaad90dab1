"""The generated fix scripts run under ksh with stub commands: only the changes named, rollback
from the captured values, a second run changes nothing, the session interface and unfailed-over
SEAs are refused, and hostile names never reach a command."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from plan_helpers import estate, finding, part
from stubs import changes, get_attr, install, set_attr

from lparscope.model.change import ProposedChange
from lparscope.plan import build_plan
from lparscope.report.fixscript import render_fix_scripts, render_host_script
from lparscope.report.fixscript_hmc import render_hmc_script

pytestmark = pytest.mark.skipif(shutil.which("ksh") is None, reason="ksh is not installed")


def dev(host, obj, attr, cur, target, method="chdev-now", **kw):
    return ProposedChange("device", obj, attr, cur, target, method, host=host, **kw)


def _plan(*findings):
    return build_plan(estate(), list(findings)).to_dict()


def _run(script: Path, env, *args, extra_env=None, shell="ksh"):
    e = dict(env, **(extra_env or {}))
    return subprocess.run([shell, str(script), *args], env=e, capture_output=True, text=True, timeout=60,
                          cwd=script.parent)


@pytest.fixture
def aix(tmp_path):
    plan = _plan(
        finding("STO-QD", "a", dev("a", "hdisk0", "queue_depth", "3", 6, "chdev-reboot")),
        finding("NET-MTU", "a", dev("a", "en0", "mtu_bypass", "off", "on")),
        finding("NET-BUF", "a", dev("a", "ent0", "min_buf_small", "512", 1024, "device-cycle")),
        finding("CPU-FOLD", "a", ProposedChange("tunable", "schedo", "vpm_xvcpus", "-1", 0, "tunable-now", host="a")),
    )
    script = tmp_path / "fix-a.ksh"
    script.write_text(render_host_script(plan, "a"))
    state, env = install(tmp_path, "a")
    set_attr(state, "hdisk0", "queue_depth", "3")
    set_attr(state, "en0", "mtu_bypass", "off")
    set_attr(state, "ent0", "min_buf_small", "512")
    (state / "tun.schedo.vpm_xvcpus").write_text("-1\n")
    return plan, script, state, env


def test_print_only_by_default(aix):
    plan, script, state, env = aix
    r = _run(script, env)
    assert r.returncode == 0, r.stderr
    assert "a.hdisk0.queue_depth" in r.stdout and "chdev -l hdisk0 -a queue_depth=6 -P" in r.stdout
    assert changes(state) == []


def test_apply_one_id_runs_only_that_change_then_rollback_and_rerun(aix):
    plan, script, state, env = aix
    r = _run(script, env, "--apply", "a.hdisk0.queue_depth")
    assert r.returncode == 0, r.stdout + r.stderr
    assert changes(state) == ["chdev -l hdisk0 -a queue_depth=6 -P"]
    assert get_attr(state, "en0", "mtu_bypass") == "off"
    log = next(script.parent.glob("lparscope-a-*.log")).read_text()
    assert "queue_depth was 3" in log
    # a second run changes nothing
    (state / "changes").write_text("")
    r = _run(script, env, "--apply", "a.hdisk0.queue_depth")
    assert r.returncode == 0 and changes(state) == [] and "already 6" in r.stdout
    # the rollback script of the first run puts back the captured value
    rollbacks = sorted(script.parent.glob("lparscope-rollback-a-*.ksh"))
    first = next(p for p in rollbacks if "queue_depth" in p.read_text())
    r = _run(first, env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert get_attr(state, "hdisk0", "queue_depth") == "3"
    assert changes(state) == ["chdev -l hdisk0 -a queue_depth=3 -P"]


def test_tunable_and_unknown_id(aix):
    plan, script, state, env = aix
    assert _run(script, env, "--apply", "a.nothing").returncode == 2
    r = _run(script, env, "--apply", "a.schedo.vpm_xvcpus")
    assert r.returncode == 0, r.stderr
    assert changes(state) == ["schedo -p -o vpm_xvcpus=0"]


def test_wrong_host_refused(aix):
    plan, script, state, env = aix
    (state / "hostname").write_text("other\n")
    r = _run(script, env, "--apply", "a.hdisk0.queue_depth")
    assert r.returncode == 2 and "this script is for a" in r.stderr and changes(state) == []


def test_session_interface_refused(aix):
    plan, script, state, env = aix
    (state / "ifconfig").write_text("en0: flags=1e084863\n\tinet 10.0.0.5 netmask 0xffffff00 broadcast 10.0.0.255\n"
                                    "lo0: flags=e08084b\n\tinet 127.0.0.1 netmask 0xff000000\n")
    ssh = {"SSH_CONNECTION": "10.0.0.9 50000 10.0.0.5 22"}
    r = _run(script, env, "--apply", "a.ent0.min_buf_small", extra_env=ssh)
    assert r.returncode == 1 and "en0 carries this session" in r.stdout
    assert changes(state) == []
    # not the session's interface (nor the default route): the detach-change-up cycle runs
    (state / "ifconfig").write_text("en1: flags=1e084863\n\tinet 10.0.0.5 netmask 0xffffff00\n")
    (state / "netstat").write_text("default 10.0.0.1 UG 5 100 en1 - -\n")
    r = _run(script, env, "--apply", "a.ent0.min_buf_small", extra_env=ssh)
    assert r.returncode == 0, r.stdout + r.stderr
    assert changes(state) == ["chdev -l en0 -a state=detach", "chdev -l ent0 -a min_buf_small=1024",
                              "chdev -l en0 -a state=up"]


def test_default_route_interface_refused(aix):
    plan, script, state, env = aix
    (state / "netstat").write_text("Destination Gateway Flags Refs Use If Exp Groups\ndefault 10.0.0.1 UG 5 100 en0 - -\n")
    r = _run(script, env, "--apply", "a.ent0.min_buf_small")
    assert r.returncode == 1 and changes(state) == []


def test_stop_at_first_failure_writes_rollback(aix):
    plan, script, state, env = aix
    (state / "fail-chdev").write_text("")
    r = _run(script, env, "--apply", "a.en0.mtu_bypass,a.hdisk0.queue_depth")
    assert r.returncode == 1 and "stopped at the first failure" in r.stderr
    assert len(changes(state)) == 1  # the second change was never tried


def test_sea_change_on_vios_needs_failover_done(tmp_path):
    plan = _plan(finding("NET-SEA", "vios2", dev("vios2", "ent8", "largesend", "0", 1, vios=True, failover=True)))
    script = tmp_path / "fix-vios2.ksh"
    script.write_text(render_host_script(plan, "vios2"))
    state, env = install(tmp_path, "vios2")
    set_attr(state, "ent8", "largesend", "0")
    r = _run(script, env, "--apply", "vios2.ent8.largesend")
    assert r.returncode == 1 and "--failover-done" in r.stdout and changes(state) == []
    r = _run(script, env, "--apply", "vios2.ent8.largesend", "--failover-done")
    assert r.returncode == 0, r.stdout + r.stderr
    assert changes(state) == ["chdev -l ent8 -a largesend=1"]


HOSTILE = ["ent8$(touch PWNED)", "x;touch PWNED", "x|touch PWNED", "x`touch PWNED`", "x'touch PWNED'", 'x"y']


@pytest.mark.parametrize("bad", HOSTILE)
def test_hostile_names_never_reach_a_command(tmp_path, bad):
    plan = _plan(finding("X", "a", dev("a", bad, "thread", "1", 0)),
                 finding("Y", "a", dev("a", "ent1", "thread", "1", bad)),
                 finding("Z", bad, part(bad, "desired_proc_units", 0.5, 1.0)),
                 finding("W", "a", dev("a", "ent2", "thread", "1", 0)))
    assert {c["id"] for c in plan["changes"] if c["status"] == "planned"} == {"a.ent2.thread"}
    files = render_fix_scripts(plan, tmp_path / "fix.ksh")
    state, env = install(tmp_path, "a")
    set_attr(state, "ent2", "thread", "1")
    for path, text in files.items():
        path.write_text(text)
    for path in files:
        shell = "sh" if path.suffix == ".sh" else "ksh"
        args = ["--hmc", "h@hmc1", "--apply", "a.ent2.thread"] if shell == "sh" else ["--apply", "a.ent2.thread"]
        _run(path, env, *args, shell=shell)
        _run(path, env, shell=shell)
    assert not list(tmp_path.rglob("PWNED")) and not (Path.cwd() / "PWNED").exists()
    assert changes(state) == ["chdev -l ent2 -a thread=0"]


def test_hostile_captured_value_is_quoted_in_the_rollback(aix):
    plan, script, state, env = aix
    set_attr(state, "en0", "mtu_bypass", "o'; touch PWNED; '")
    r = _run(script, env, "--apply", "a.en0.mtu_bypass")
    assert r.returncode == 0, r.stdout + r.stderr
    rb = next(script.parent.glob("lparscope-rollback-a-*.ksh"))
    r = _run(rb, env)
    assert r.returncode == 1 and "not plain" in r.stdout  # the odd value is refused, never executed
    assert not list(script.parent.rglob("PWNED"))


# --- HMC script ------------------------------------------------------------------------------

def _hmc_state(state: Path, values: dict[str, str], profile: dict[str, str]) -> None:
    for k, v in values.items():
        (state / f"hmc.p9frame1.{k}").write_text(v + "\n")
    for k, v in profile.items():
        (state / f"prof.p9frame1.{k}").write_text(v + "\n")


def test_hmc_script_dlpar_profile_rollback_and_rerun(tmp_path):
    plan = _plan(finding("CPU", "a", part("a", "desired_proc_units", 0.5, 1.4, basis="measured"),
                         part("a", "desired_procs", 12, 3, basis="measured")),
                 finding("MEM", "b", part("b", "max_mem", 262144, 32768, method="profile", kind="profile")))
    script = tmp_path / "fix-hmc.sh"
    script.write_text(render_hmc_script(plan))
    state, env = install(tmp_path, "admin")
    _hmc_state(state, {"a.curr_proc_units": "0.5", "a.curr_procs": "12"},
               {"a.desired_proc_units": "1.5", "a.desired_procs": "12", "b.max_mem": "262144"})
    r = _run(script, env, shell="sh")
    assert r.returncode == 0 and "a.desired_proc_units" in r.stdout and changes(state) == []
    r = _run(script, env, "--hmc", "hscroot@hmc1", "--apply", "a.desired_proc_units", shell="sh")
    assert r.returncode == 0, r.stdout + r.stderr
    assert changes(state) == ["chhwres -m p9frame1 -r proc -o a -p a --procunits 0.90",
                              "chsyscfg -r prof -m p9frame1 -i name=default_profile,lpar_name=a,desired_proc_units=1.40"]
    assert (state / "hmc.p9frame1.a.curr_proc_units").read_text().strip() == "1.4"
    (state / "changes").write_text("")
    r = _run(script, env, "--hmc", "hscroot@hmc1", "--apply", "a.desired_proc_units", shell="sh")
    assert r.returncode == 0 and changes(state) == []
    rb = next(p for p in tmp_path.glob("lparscope-rollback-hmc-*.sh") if "set_running" in p.read_text())
    r = _run(rb, env, "--hmc", "hscroot@hmc1", shell="sh")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (state / "hmc.p9frame1.a.curr_proc_units").read_text().strip() == "0.5"
    assert (state / "prof.p9frame1.a.desired_proc_units").read_text().strip() == "1.5"


def test_hmc_change_without_names_is_never_run(tmp_path):
    e = estate()
    from lparscope.model.estate import Host, Partition
    e.hosts["z"] = Host("z", role="aix", partition=Partition(name="z", type="Shared-SMT-4", mode="Uncapped",
                                                            entitled_capacity=1.0, online_vps=6, max_vps=8))
    plan = build_plan(e, [finding("S", "z", part("z", "desired_proc_units", 1.0, 2.55, basis="measured"))]).to_dict()
    script = tmp_path / "fix-hmc.sh"
    text = render_hmc_script(plan)
    assert "needs: managed-system name of z" in text
    script.write_text(text)
    state, env = install(tmp_path, "admin")
    r = _run(script, env, "--hmc", "hscroot@hmc1", "--apply", "z.desired_proc_units", shell="sh")
    assert r.returncode == 1 and "managed-system name is not in the inputs" in r.stdout
    assert (state / "ssh").read_text() == ""


def test_profile_changes_no_order_of_single_commands_allows_are_made_in_one_chsyscfg(tmp_path):
    from lparscope.model.generation import vp_range
    e = estate(model="9179-MHB")  # POWER7: at least 0.1 processing units per VP
    fp = e.frames["p9frame1"].partitions["c"]
    fp.ec, fp.vps, fp.max_ec = 4.0, 20, 24.0
    fp.profile.update({"desired_proc_units": "4.0", "desired_procs": "20"})
    assert vp_range(1.2, 7)[1] < 20 and vp_range(4.0, 7)[0] > 2  # neither single change leaves it valid
    plan = build_plan(e, [finding("S", "c", part("c", "desired_proc_units", 4.0, 1.2, basis="measured"),
                                  part("c", "desired_procs", 20, 2, basis="measured"))]).to_dict()
    ids = ["c.desired_proc_units", "c.desired_procs"]
    assert all(sorted(c["together"]) == sorted(ids) for c in plan["changes"] if c["id"] in ids)
    script = tmp_path / "fix-hmc.sh"
    script.write_text(render_hmc_script(plan))
    state, env = install(tmp_path, "admin")
    _hmc_state(state, {}, {"c.desired_proc_units": "4.0", "c.desired_procs": "20"})
    r = _run(script, env, "--hmc", "hscroot@hmc1", "--apply", "c.desired_procs", shell="sh")
    assert r.returncode == 1 and "apply them together" in r.stdout + r.stderr and changes(state) == []
    r = _run(script, env, "--hmc", "hscroot@hmc1", "--apply", ",".join(ids), shell="sh")
    assert r.returncode == 0, r.stdout + r.stderr
    assert changes(state) == ["chsyscfg -r prof -m p9frame1 -i name=default_profile,lpar_name=c,"
                              "desired_proc_units=1.20,desired_procs=2"]
    rb = next(p for p in tmp_path.glob("lparscope-rollback-hmc-*.sh") if "set_profile_together" in p.read_text())
    r = _run(rb, env, "--hmc", "hscroot@hmc1", shell="sh")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (state / "prof.p9frame1.c.desired_procs").read_text().strip() == "20"


def _renamed(e, old: str, new: str, host: str):
    """Estate ``e`` with partition ``old`` named ``new`` on the HMC, joined to host ``host``."""
    import copy
    fr = e.frames["p9frame1"]
    fp = copy.deepcopy(fr.partitions.pop(old))
    fp.name, fp.host = new, host
    fr.partitions[new] = fp
    h = e.hosts.pop(old)
    h.name = host
    h.partition.name = new
    e.hosts[host] = h
    return e


@pytest.mark.parametrize("lpar,host", [("app server 1", "appsrv1"), ("web(2)", "web2"), ("34_PROD_1", "prod34")])
def test_hmc_names_with_spaces_brackets_or_a_leading_digit_are_applied_quoted(tmp_path, lpar, host):
    # the HMC takes partition names with spaces and brackets, and names that start with a digit:
    # the change is planned, its commands quote the name, and the script makes it
    e = _renamed(estate(), "a", lpar, host)
    f = finding("CPU", host, ProposedChange("partition", lpar, "desired_proc_units", 0.5, 1.4, "dlpar", host=host,
                                            basis="measured"))  # a host rule names the partition by lpar_name
    from lparscope.rules.changes import propose
    f.fix, f.rollback = propose(*f.changes)
    from lparscope.plan.reconcile import align_findings
    p = build_plan(e, [f])
    align_findings(p, [f], e)
    (c,) = p.planned()
    word = lpar if lpar == "34_PROD_1" else f'"{lpar}"'
    assert f.fix.hmc[0] == f"chhwres -m p9frame1 -r proc -o a -p {word} --procunits 0.90", f.fix.hmc
    assert f'lpar_name={lpar},desired_proc_units=1.40"' in f.fix.hmc[1]
    plan = p.to_dict()
    script = tmp_path / "fix-hmc.sh"
    script.write_text(render_hmc_script(plan))
    state, env = install(tmp_path, "admin")
    _hmc_state(state, {f"{lpar}.curr_proc_units": "0.5"}, {f"{lpar}.desired_proc_units": "0.5"})
    r = _run(script, env, shell="sh")  # the printed plan shows the name as it is typed
    assert f"chhwres -m p9frame1 -r proc -p {word} (curr_proc_units to 1.40)" in r.stdout, r.stdout
    r = _run(script, env, "--hmc", "hscroot@hmc1", "--apply", c.id, shell="sh")
    assert r.returncode == 0, r.stdout + r.stderr
    assert changes(state) == [f"chhwres -m p9frame1 -r proc -o a -p {lpar} --procunits 0.90",
                              f"chsyscfg -r prof -m p9frame1 -i name=default_profile,lpar_name={lpar},desired_proc_units=1.40"]
    assert (state / f"prof.p9frame1.{lpar}.desired_proc_units").read_text().strip() == "1.40"
    rb = next(p for p in tmp_path.glob("lparscope-rollback-hmc-*.sh"))
    r = _run(rb, env, "--hmc", "hscroot@hmc1", shell="sh")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (state / f"hmc.p9frame1.{lpar}.curr_proc_units").read_text().strip() == "0.5"
