"""After the plan is built, every finding shows the plan's target for the settings it touches."""

from __future__ import annotations

import re
from pathlib import Path

from plan_helpers import estate, finding, part

from lparscope.model.change import ProposedChange, fmt_value
from lparscope.pipeline import analyze, plan_for
from lparscope.rules.changes import propose

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "estate"


def _with_fix(f, *, notes=(), extra_hmc=()):
    fix, undo = propose(*f.changes, fix_notes=notes)
    fix.hmc += list(extra_hmc)
    f.fix, f.rollback = fix, undo
    return f


def test_a_vp_target_raised_by_the_plan_is_what_the_finding_shows():
    e = estate()
    measured = _with_fix(finding("CPU-EC-BELOW-VP", "c", part("c", "desired_procs", 24, 4, basis="measured")),
                         notes=["# or keep the VPs and raise EC to 6.00 instead"])
    limit = _with_fix(finding("CPU-VP-EXCEEDS-POOL", "c", part("c", "desired_procs", 24, 6, basis="limit", bound="min")))
    findings = [measured, limit]
    plan = plan_for(e, findings, [])
    vp = next(c for c in plan.changes if c.change.attribute == "desired_procs")
    assert vp.change.target == 6
    assert measured.changes[0].target == 6 and measured.values["suggested"].startswith("6 VP")
    hmc = measured.fix.hmc
    assert any("desired_procs=6" in line for line in hmc), hmc
    assert not any("desired_procs=4" in line for line in hmc), hmc
    assert any("-o r -p c --procs 18" in line for line in hmc), hmc  # 24 -> 6
    assert not any(line.startswith("# or") for line in hmc)  # the plan decided between the alternatives
    assert any("desired_procs=24" in line for line in measured.rollback.hmc)
    ref = measured.plan_refs[0]
    assert (ref["id"], ref["proposed"], ref["target"], ref["status"]) == (vp.id, 4, 6, "planned")
    assert measured.to_dict()["plan"] == measured.plan_refs


def test_a_finding_the_plan_agrees_with_is_left_as_the_rule_wrote_it():
    e = estate()
    f = _with_fix(finding("CPU-EC-BELOW-VP", "a", part("a", "desired_proc_units", 0.5, 1.4, basis="measured")),
                  notes=["# check the application after the change"])
    named = lambda lines: [x.replace("<managed-system>", "p9frame1").replace("<profile>", "default_profile")
                           for x in lines]
    before = (named(f.fix.hmc), named(f.rollback.hmc), dict(f.values))
    plan_for(e, [f], [])
    assert (f.fix.hmc, f.rollback.hmc, f.values) == before  # the model's names put in, nothing else
    assert f.plan_refs and f.plan_refs[0]["status"] == "planned"


def test_an_infeasible_change_leaves_a_reason_instead_of_a_command():
    e = estate(avail=0.0, pool=4.0)
    f = _with_fix(finding("CPU-EC-BELOW-VP", "a", part("a", "desired_proc_units", 0.5, 3.0, basis="measured")))
    plan = plan_for(e, [f], [])
    ec = next(c for c in plan.changes if c.change.attribute == "desired_proc_units")
    assert ec.status == "infeasible", ec.to_dict()
    assert not any(line.startswith("chhwres") for line in f.fix.hmc), f.fix.hmc
    assert any(line.startswith("# not planned: EC 3.00") for line in f.fix.hmc), f.fix.hmc
    assert f.plan_refs[0]["status"] == "infeasible" and f.values["suggested"].startswith("not planned")


def test_a_conflict_leaves_no_command_of_either_side():
    e = estate()
    mode = lambda rid, m: _with_fix(finding(rid, "a", ProposedChange("device", "ent7", "mode", "standard", m,
                                                                        "chdev-now", host="a"), subject="ent7"))
    a, b = mode("X", "8023ad"), mode("Y", "round_robin")
    plan = plan_for(e, [a, b], [])
    assert plan.conflicts
    for f in (a, b):
        assert not any(line.startswith("chdev") for line in f.fix.root), f.fix.root
        assert any("rules disagree" in line for line in f.fix.root)
        assert f.plan_refs[0]["status"] == "conflict"


_PROFILE = re.compile(r'chsyscfg -r prof -m \S+ -i "name=[^,]+,lpar_name=(?P<obj>[^,]+),(?P<pairs>[^"]+)"')
_DEVICE = re.compile(r"^chdev -l (?P<obj>\S+) (?P<pairs>.*)|^chdev -dev (?P<obj2>\S+) -attr (?P<pairs2>.*)")
_TUNABLE = re.compile(r"^(?P<obj>schedo|vmo|ioo|no|nfso) -[pr] (?P<pairs>.*)")


def _settings(line: str):
    """(object, attribute, value) of each setting a command line writes."""
    line = line.strip()
    for rx in (_PROFILE, _DEVICE, _TUNABLE):
        m = rx.search(line)
        if m:
            d = {k: v for k, v in m.groupdict().items() if v}
            obj, pairs = d.get("obj") or d.get("obj2"), d.get("pairs") or d.get("pairs2")
            for a, v in re.findall(r"(\w+)=([^\s,]+)", pairs):
                yield obj, a, v
            return


def test_on_the_example_no_finding_sets_a_value_the_plan_does_not():
    """Every setting a finding's fix writes is the plan's target for it (one target per setting)."""
    a = analyze([str(EXAMPLE)])
    assert not a.problems
    targets = {}
    for c in a.plan.changes:
        if c.status in ("planned", "in-place"):
            ch = c.change
            targets[(c.host, ch.object, ch.attribute)] = fmt_value(ch.attribute, ch.target)
    checked = 0
    for f in a.findings:
        for line in f.fix.root + f.fix.padmin + f.fix.hmc:
            for obj, attr, val in _settings(line):
                key = (f.host, obj, attr)
                if key in targets:
                    checked += 1
                    assert val == targets[key], (f.rule.id, line, targets[key])
    assert checked >= 10
    shown = {f.host: f.values.get("suggested") for f in a.findings if f.rule.id == "CPU-EC-BELOW-VP"}
    vp = {c.host: c.change.target for c in a.plan.changes if c.change.attribute == "desired_procs"}
    for host, text in shown.items():
        if host in vp:
            assert f"{vp[host]} VP" in text, (host, text, vp[host])



def test_a_finding_whose_value_needs_a_profile_limit_sets_both_in_one_chsyscfg():
    from lparscope.plan.reconcile import one_profile_command
    e = estate(avail=20.0, pool=32.0)
    f = _with_fix(finding("CPU-SIZING-MEASURED", "a", part("a", "desired_proc_units", 0.5, 13.0, basis="measured")))
    plan_for(e, [f], [])
    profile = [line for line in f.fix.hmc if line.startswith("chsyscfg")]
    # 13 is above the running and profile maximum 12: the maximum goes with it, in the same command
    assert profile == ['chsyscfg -r prof -m p9frame1 -i "name=default_profile,lpar_name=a,max_proc_units=13.00,'
                       'desired_proc_units=13.00"'], f.fix.hmc
    undo = [line for line in f.rollback.hmc if line.startswith("chsyscfg")]
    assert len(undo) == 1 and "max_proc_units=12" in undo[0] and "desired_proc_units=0.50" in undo[0]
    lines = ['chhwres -m f -r proc -o r -p x --procs 2', 'chsyscfg -r prof -m f -i "name=p,lpar_name=x,desired_procs=2"',
             'chsyscfg -r prof -m f -i "name=p,lpar_name=y,desired_procs=4"',
             'chsyscfg -r prof -m f -i "name=p,lpar_name=x,desired_proc_units=0.20"']
    assert one_profile_command(lines) == [
        'chhwres -m f -r proc -o r -p x --procs 2', 'chsyscfg -r prof -m f -i "name=p,lpar_name=y,desired_procs=4"',
        'chsyscfg -r prof -m f -i "name=p,lpar_name=x,desired_procs=2,desired_proc_units=0.20"']


def test_a_vios_reboot_that_stops_clients_only_it_serves_says_so():
    plan = analyze([str(EXAMPLE)]).plan
    reboot = next(s for s in plan.steps if s.where == "vios1" and s.disruption == "reboot")
    assert reboot.checks[0].startswith("CLIENT OUTAGE: vios1 alone serves the storage of client partition(s) 3 (aix1)")
    assert "stops client partitions" in reboot.title
    # vios2 serves no vSCSI client, but the HMC lists the vFC client adapters of aix1..aix4 all leading to
    # vios2 (vios1 has none): its restart stops their NPIV disks
    restart = next(s for s in plan.steps if "vios2" in s.title and s.disruption == "partition restart")
    assert restart.checks[0].startswith("CLIENT OUTAGE: vios2 alone serves the storage of client partition(s) "
                                        "3 (aix1), 4 (aix2), 5 (aix3), 6 (aix4)"), restart.checks
    # its SEA step fails the network over: the storage stays, no outage said
    sea = next(s for s in plan.steps if s.where == "vios2" and s.disruption == "failover")
    assert not sea.checks[0].startswith("CLIENT OUTAGE")


def test_a_value_the_rule_did_not_know_is_read_from_the_hmc_data_and_undone_to_it():
    # a host rule proposes a profile setting without its current value (lparstat -i does not show the
    # HMC's sharing mode); the HMC data does: the plan says what is changed from, and the finding's
    # rollback puts back that value, not the rule's guess
    e = estate()
    f = finding("CPU-DEDICATED-NOT-DONATING", "b", part("b", "sharing_mode", None, "uncap", method="profile"))
    fix, _undo = propose(*f.changes)
    from lparscope.rules.engine import Commands
    fix.hmc.insert(0, "lssyscfg -r prof -m <managed-system> --filter lpar_names=b -F name,sharing_mode   # note the current value")
    f.fix = fix
    f.rollback = Commands(hmc=['chsyscfg -r prof -m <managed-system> -i "name=<profile>,lpar_name=b,sharing_mode=share_idle_procs"',
                               "# or keep_idle_procs, whichever lssyscfg showed before the change"])
    plan = plan_for(e, [f], [])
    pc = next(c for c in plan.changes if c.change.attribute == "sharing_mode")
    assert pc.change.current == "cap" and pc.to_dict()["current"] == "cap"
    assert f.rollback.hmc == ['chsyscfg -r prof -m p9frame1 -i "name=default_profile,lpar_name=b,sharing_mode=cap"'], f.rollback.hmc
    assert any("sharing_mode=uncap" in line for line in f.fix.hmc), f.fix.hmc
    assert f.fix.hmc[0].startswith("lssyscfg -r prof -m p9frame1"), f.fix.hmc  # the look stays before the change


def test_a_profile_limit_and_a_profile_save_give_one_value_undone_to_the_profiles():
    # FRAME-PROFILE-EC-ABOVE-POOL (profile VPs 14 within a pool of 4 cores: a limit) and
    # FRAME-PROFILE-DRIFT (save the 2 VPs b runs with) on one setting: the plan sets 2, both findings
    # say 2, the limit's rollback puts back the profile's 14 (not the running 2), and saving what
    # runs needs no restart
    e = estate()
    fp = e.frames["p9frame1"].partitions["b"]
    fp.profile["desired_procs"], fp.running["desired_procs"] = "14", "2"
    from lparscope.rules.engine import Commands
    limit = finding("FRAME-PROFILE-EC-ABOVE-POOL", "b", part("b", "desired_procs", 14, 4, method="profile", kind="profile",
                                                             basis="limit", bound="max"))
    limit.fix = Commands(hmc=['chsyscfg -r prof -m <managed-system> -i "name=<profile>,lpar_name=b,desired_procs=4"'])
    limit.rollback = Commands(hmc=['chsyscfg -r prof -m <managed-system> -i "name=<profile>,lpar_name=b,desired_procs=14"'])
    limit.disruption = ["restart-needed"]
    drift = _with_fix(finding("FRAME-PROFILE-DRIFT", "b", part("b", "desired_procs", 2, 2, method="profile", kind="profile")))
    plan = plan_for(e, [limit, drift], [])
    pc = next(c for c in plan.changes if c.change.attribute == "desired_procs")
    assert pc.change.target == 2 and pc.disruption == "none"
    assert limit.fix.hmc == ['chsyscfg -r prof -m p9frame1 -i "name=default_profile,lpar_name=b,desired_procs=2"']
    assert limit.rollback.hmc == ['chsyscfg -r prof -m p9frame1 -i "name=default_profile,lpar_name=b,desired_procs=14"']
    assert "restart-needed" not in limit.disruption


def test_a_dlpar_change_is_undone_to_the_profiles_own_value_when_it_differed_from_the_running_one():
    # a runs with EC 0.5 while its profile says 0.8 (a DLPAR change never saved): raising it to 1.4 sets
    # both; the rollback puts the running value back by DLPAR and the profile's own 0.8 back in the profile
    e = estate()
    e.frames["p9frame1"].partitions["a"].profile["desired_proc_units"] = "0.8"
    f = _with_fix(finding("CPU-EC-BELOW-VP", "a", part("a", "desired_proc_units", 0.5, 1.4, basis="measured")))
    plan_for(e, [f], [])
    assert f.rollback.hmc == ["chhwres -m p9frame1 -r proc -o r -p a --procunits 0.90",
                              'chsyscfg -r prof -m p9frame1 -i "name=default_profile,lpar_name=a,desired_proc_units=0.80"'], f.rollback.hmc
    assert f.fix.hmc[-1].endswith("desired_proc_units=1.40\"")
