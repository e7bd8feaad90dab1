"""The plan for the shipped example estate keeps the issue's promises."""

from __future__ import annotations

from pathlib import Path

import pytest

from lparscope.model.change import MS, PROFILE
from lparscope.pipeline import analyze
from lparscope.plan.names import locate
from lparscope.report.fixscript import render_fix_scripts
from lparscope.report.json_report import build_report

EXAMPLE = Path(__file__).parents[2] / "examples" / "estate"


@pytest.fixture(scope="module")
def analysis():
    return analyze([str(EXAMPLE)])


def test_one_target_per_setting(analysis):
    plan = analysis.plan
    assert plan is not None and plan.planned()
    keys = [c.change.key() for c in plan.changes]
    assert len(keys) == len(set(keys))
    ids = [c.id for c in plan.changes]
    assert len(ids) == len(set(ids))
    # aix1 got three entitlement increases from three findings: one target (the sizing of its longest
    # measured series, the HMC's day of samples, not a minute of lparstat), all three reasons
    ec = next(c for c in plan.changes if c.lpar == "aix1" and c.change.attribute == "desired_proc_units")
    sizing = analysis.estate.hosts["aix1"].sizing
    assert sizing.series.startswith("HMC") and sizing.n_samples == 288
    assert ec.change.target == pytest.approx(sizing.recommended_ec) and ec.change.target > 1.4
    assert {"CPU-EC-BELOW-VP", "CPU-UNCAPPED-ABOVE-EC"} <= {r.rule_id for r in ec.reasons}
    qd = [c for c in plan.changes if c.host == "aix1" and c.change.object == "hdisk0"
          and c.change.attribute == "queue_depth"]
    assert len(qd) == 1


def test_dlpar_additions_fit_the_pool_after_reductions(analysis):
    plan = analysis.plan
    for fr in analysis.estate.frames.values():
        adds = [c for c in plan.planned() if c.frame == fr.name and c.change.attribute == "desired_proc_units"
                and c.change.target > c.change.current]
        reds = [c for c in plan.planned() if c.frame == fr.name and c.change.attribute == "desired_proc_units"
                and c.change.target < c.change.current]
        free = fr.cores_available
        assert sum(c.change.target - c.change.current for c in adds) <= \
            free + sum(c.change.current - c.change.target for c in reds) + 1e-9
        for a in adds:
            assert all(r.step < a.step for r in reds)
    for f in plan.to_dict()["frames"]:
        assert f["free_after"] is None or f["free_after"] >= -1e-9


def test_no_memory_addition_above_maximum_without_the_profile_path(analysis):
    plan = analysis.plan
    for c in plan.planned():
        if c.change.attribute != "desired_mem":
            continue
        _fr, fp = locate(analysis.estate, c.host)
        host = analysis.estate.hosts.get(c.host)
        limit = fp.mem_max if fp is not None else (host.partition.max_memory_mb if host and host.partition else None)
        if limit is not None and c.change.target > limit:
            assert c.method == "profile"
            mx = next(x for x in plan.planned() if x.lpar == c.lpar and x.change.attribute == "max_mem")
            assert mx.change.target >= c.change.target


def test_no_placeholder_where_the_model_knows_the_name(analysis, tmp_path):
    plan = analysis.plan
    joined = {p.host for fr in analysis.estate.frames.values() if fr.named for p in fr.partitions.values() if p.host}
    assert {"aix1", "aix2", "aix3", "vios1", "vios2"} <= joined
    for c in plan.changes:
        if c.change.on_hmc and c.host in joined:
            assert c.frame == "p9frame1" and c.profile == "default_profile" and not c.needs, c.id
    for f in analysis.findings:
        if f.host in joined:
            text = " ".join(f.fix.hmc + f.rollback.hmc)
            assert MS not in text and PROFILE not in text, (f.rule.id, f.host)
    report = build_report(analysis)
    hmc = next(t for p, t in render_fix_scripts(report["plan"], tmp_path / "fix.ksh").items() if p.name == "fix-hmc.sh")
    for line in hmc.splitlines():
        if line.startswith("change ") and any(f"'{h}'" in line for h in joined):
            assert MS not in line and PROFILE not in line
    # aix5 is not in the HMC listing: its frame is named by the serial its nmon header gives (HMC
    # commands take it), its profile is not known, and its changes say so
    aix5 = [c for c in plan.changes if c.host == "aix5" and c.change.on_hmc]
    assert aix5 and all(c.frame == "p9frame1" for c in aix5)
    assert all([n.split(" (")[0] for n in c.needs] == ["profile name of aix5"] for c in aix5)


def test_plan_ec_equals_the_measured_sizing(analysis):
    plan = analysis.plan
    sized = [h for h in analysis.estate.hosts.values() if h.sizing is not None and h.sizing.recommended_ec]
    assert sized
    changed = 0
    for h in sized:
        ec = next((c for c in plan.changes if c.host == h.name and c.change.attribute == "desired_proc_units"), None)
        if ec is None:  # the sizing is close enough to the current EC that no rule moves it
            cur = h.sizing.current_ec
            assert abs(h.sizing.recommended_ec - cur) <= 0.25 * cur, h.name
            continue
        if not any(r.chosen and r.bound == "set" and r.basis == "measured" for r in ec.reasons):
            continue  # only a floor moves it (vios1: its SEA ports need 2 EC, 003), no measured target
        changed += 1
        if any(n.startswith("raised from") and "limit" in n for n in ec.notes):
            # a measured floor of another rule (vios2: SEA packets dropped for want of CPU) wins over a cut
            assert ec.change.target > h.sizing.recommended_ec, h.name
            continue
        assert ec.change.target == pytest.approx(h.sizing.recommended_ec), h.name
        assert ec.change.basis == "measured"
        vp = next((c for c in plan.changes if c.host == h.name and c.change.attribute == "desired_procs"), None)
        if vp is not None and vp.status == "planned":
            assert vp.change.target >= h.sizing.recommended_vp, h.name
    assert changed >= 3


def test_scripts_for_every_host_with_changes(analysis, tmp_path):
    report = build_report(analysis)
    files = {p.name for p in render_fix_scripts(report["plan"], tmp_path / "fix.ksh")}
    assert {"fix.ksh", "fix-hmc.sh", "fix-aix1.ksh", "fix-vios2.ksh"} <= files
