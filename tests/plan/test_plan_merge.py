"""The plan merges proposals into one target per setting, checks them against the frame and orders them."""

from __future__ import annotations

from plan_helpers import estate, finding, part

from lparscope.model.change import ProposedChange
from lparscope.plan import build_plan
from lparscope.model.generation import generation_of, vp_range


def _by(plan, attr, obj):
    got = [c for c in plan.changes if c.change.attribute == attr and c.change.object == obj]
    assert len(got) <= 1, got
    return got[0] if got else None


def test_three_ec_increases_give_one_target_measured_wins():
    e = estate()
    plan = build_plan(e, [
        finding("CPU-EC-BELOW-VP", "a", part("a", "desired_proc_units", 0.5, 1.4, basis="measured"),
                part("a", "desired_procs", 12, 3, basis="measured")),
        finding("CPU-UNCAPPED-ABOVE-EC", "a", part("a", "desired_proc_units", 0.5, 1.4, basis="measured")),
        finding("CPU-VP-EC-LIMITS", "a", part("a", "desired_proc_units", 0.5, 0.6, basis="limit", bound="min")),
    ])
    ec = _by(plan, "desired_proc_units", "a")
    assert ec.change.target == 1.4 and ec.status == "planned"
    assert {r.rule_id for r in ec.reasons} == {"CPU-EC-BELOW-VP", "CPU-UNCAPPED-ABOVE-EC", "CPU-VP-EC-LIMITS"}
    assert ec.frame == "p9frame1" and ec.profile == "default_profile" and ec.lpar == "a" and not ec.needs
    assert _by(plan, "desired_procs", "a").change.target == 3
    keys = [c.change.key() for c in plan.changes]
    assert len(keys) == len(set(keys))


def test_limit_wins_over_measured_target():
    plan = build_plan(estate(), [
        finding("MEASURED", "c", part("c", "desired_procs", 24, 20, basis="measured")),
        finding("CPU-VP-EXCEEDS-POOL", "c", part("c", "desired_procs", 24, 16, basis="limit", bound="max")),
    ])
    vp = _by(plan, "desired_procs", "c")
    assert vp.change.target == 16
    assert any("limit 16" in n for n in vp.notes)


def test_same_direction_takes_smaller_step_and_opposite_is_a_conflict():
    dev = lambda t, rid: finding(rid, "a", ProposedChange("device", "hdisk0", "queue_depth", "3", t, "chdev-reboot",
                                                          host="a"), subject="hdisk0")
    plan = build_plan(estate(), [dev(6, "STO-SQFULL"), dev(32, "STO-VSCSI"), dev(6, "STO-CEILING")])
    qd = _by(plan, "queue_depth", "hdisk0")
    assert qd.change.target == 6 and any("STO-VSCSI proposed 32" in n for n in qd.notes)
    assert sum(1 for r in qd.reasons if r.chosen) == 2
    plan = build_plan(estate(), [dev(6, "UP"), dev(2, "DOWN")])
    assert _by(plan, "queue_depth", "hdisk0") is None
    assert len(plan.conflicts) == 1 and "both ways" in plan.conflicts[0].why
    modes = [finding(r, "a", ProposedChange("device", "ent7", "mode", "standard", m, "device-cycle", host="a"))
             for r, m in (("X", "8023ad"), ("Y", "round_robin"))]
    plan = build_plan(estate(), modes)
    assert plan.conflicts and not plan.planned()


def test_additions_fit_the_pool_after_reductions():
    # 0.2 free: the reduction of c (1.0 -> 0.5) frees 0.5, so a's +0.6 fits, b's +1.0 does not
    e = estate(avail=0.2)
    plan = build_plan(e, [
        finding("R1", "c", part("c", "desired_proc_units", 1.0, 0.5, basis="measured")),
        finding("R2", "a", part("a", "desired_proc_units", 0.5, 1.1, basis="measured")),
        finding("R3", "b", part("b", "desired_proc_units", 2.0, 3.0)),
    ])
    a, b, c = (_by(plan, "desired_proc_units", n) for n in "abc")
    assert c.status == a.status == "planned" and b.status == "infeasible"
    assert "0.10 processing units left for it (0.20 free now + 0.50 released by the plan's DLPAR reductions - 0.60 taken by its additions placed first)" in b.blocked and "needs 1.00" in b.blocked
    assert c.step < a.step  # reductions first
    assert not any(s for s in plan.steps if b.id in s.ids)


def test_no_free_capacity_blocks_every_addition():
    plan = build_plan(estate(avail=0.0), [finding("R", "a", part("a", "desired_proc_units", 0.5, 1.4))])
    assert _by(plan, "desired_proc_units", "a").status == "infeasible"
    assert "1 infeasible" in plan.summary()
    # EC stays 0.5, so its 12 VPs are above the 10 a POWER9 allows: the plan lowers them instead
    assert [(c.change.attribute, c.change.target) for c in plan.planned()] == [("desired_procs", 10)]


def test_memory_above_maximum_goes_the_profile_path():
    plan = build_plan(estate(), [finding("M", "c", part("c", "desired_mem", 16384, 40960, basis="measured"))])
    mem = _by(plan, "desired_mem", "c")
    mx = _by(plan, "max_mem", "c")
    assert mem.method == "profile" and mem.restart and any("running maximum 32768" in n for n in mem.notes)
    assert mx is not None and mx.change.target == 40960 and mx.method == "profile"
    # within the maximum and the frame's free memory: DLPAR
    plan = build_plan(estate(), [finding("M", "c", part("c", "desired_mem", 16384, 20480))])
    assert _by(plan, "desired_mem", "c").method == "dlpar"


def test_lowered_maximum_never_below_desired():
    plan = build_plan(estate(), [finding("MAX", "b", part("b", "max_mem", 262144, 8192, method="profile", kind="profile"))])
    assert _by(plan, "max_mem", "b").change.target == 16384


def test_vps_kept_within_generation_and_pool():
    assert generation_of("9009-42A") == 9 and generation_of("9179-MHB") == 7 and generation_of("1234-XYZ") is None
    assert vp_range(0.5, 7) == (1, 5) and vp_range(0.5, 9) == (1, 10)
    # POWER7 frame: EC 0.5 allows 5 VPs; a's 12 must come down although no rule asked
    plan = build_plan(estate(model="9179-MHB"), [finding("W", "a", part("a", "uncap_weight", 128, 200))])
    vp = _by(plan, "desired_procs", "a")
    assert vp is not None and vp.change.target == 5 and "POWER7" in " ".join(vp.notes)
    plan = build_plan(estate(), [finding("VP", "c", part("c", "desired_procs", 24, 30, basis="measured"))])
    assert _by(plan, "desired_procs", "c").change.target == 16


def test_profiles_over_the_pool_are_reported():
    e = estate(pool=6.0, avail=9.0)
    e.frames["p9frame1"].partitions["b"].profile["desired_proc_units"] = "4.0"  # the profile asks more than runs
    plan = build_plan(e, [finding("R", "a", part("a", "desired_proc_units", 0.5, 1.0))])
    assert any("profiles ask" in c for c in plan.checks)


def test_host_without_frame_needs_names():
    e = estate()
    from lparscope.model.estate import Host, Partition
    e.hosts["z"] = Host("z", role="aix", partition=Partition(name="zlpar", type="Shared-SMT-4", mode="Uncapped",
                                                            entitled_capacity=1.0, online_vps=6, max_vps=8))
    plan = build_plan(e, [finding("S", "z", part("z", "desired_proc_units", 1.0, 2.55, basis="measured"))])
    ec = plan.changes[0]
    assert ec.lpar == "zlpar" and ec.frame is None and ec.profile is None
    assert any("managed-system name of zlpar" in n for n in ec.needs) and any("profile" in n for n in plan.needs())
    assert "free capacity" in ec.unverified


def test_vios_profile_steps_one_at_a_time():
    plan = build_plan(estate(), [
        finding("VIOS-CAPPED", "vios2", part("vios2", "sharing_mode", "cap", "uncap", method="profile", kind="profile", vios=True)),
        finding("VIOS-X", "vios1", part("vios1", "uncap_weight", 255, 200, method="profile", kind="profile", vios=True)),
    ])
    s1 = next(s for s in plan.steps if "vios1" in s.title)
    s2 = next(s for s in plan.steps if "vios2" in s.title)
    assert s1.number in s2.after and s2.window and any("failover check" in c for c in s2.checks)


def test_reboot_changes_batched_behind_one_reboot():
    ch = lambda dev, attr, t: ProposedChange("device", dev, attr, "1", t, "chdev-reboot", host="a")
    plan = build_plan(estate(), [finding("X", "a", ch("hdisk0", "queue_depth", 8), ch("hdisk0", "max_transfer", "0x80000")),
                                 finding("Y", "a", ch("fcs0", "num_cmd_elems", 1024))])
    reboots = [s for s in plan.steps if s.disruption == "reboot"]
    assert len(reboots) == 1 and len(reboots[0].ids) == 3


def test_unsafe_names_never_planned():
    bad = "ent8$(touch x)"
    plan = build_plan(estate(), [finding("X", "a", ProposedChange("device", bad, "thread", "1", "0", "chdev-now", host="a")),
                                 finding("Y", "a", ProposedChange("device", "ent0", "x", "1", "NONE;touch y", "chdev-now", host="a"))])
    assert not plan.planned()
    assert all(c.status == "infeasible" and "not a plain" in c.blocked for c in plan.changes)


def _seen_host(e, name, ec, cap, ent, pool_id=0, serial=None):
    """A partition known from its lparstat -i only: no HMC output of its frame."""
    from lparscope.model.estate import Evidence, Host, Partition, Sourced
    from types import SimpleNamespace
    p = Partition(name=f"{name}lpar", type="Shared-SMT-8", mode="Uncapped", entitled_capacity=ec, online_vps=8,
                  max_vps=16, shared_pool_id=pool_id, pool_capacity=cap, pool_entitled=ent)
    p.evidence["pool_capacity"] = Evidence(f"{name}/lparstat_i.txt", 27)
    h = Host(name, role="aix", partition=p)
    if serial:
        h.system = Sourced(SimpleNamespace(serial=serial), f"{name}/prtconf.txt", 3)
    e.hosts[name] = h


def test_additions_without_frame_data_fit_the_pool_room_lparstat_shows():
    e = estate()
    _seen_host(e, "y", 1.0, 16.0, 14.5, serial="78ABCDE")  # 1.5 units of room when collected
    _seen_host(e, "z", 1.0, 16.0, 14.8, serial="78ABCDE")  # the same pool read later: 1.2, the smaller wins
    plan = build_plan(e, [finding("S", "y", part("y", "desired_proc_units", 1.0, 2.0, basis="measured")),
                          finding("S", "z", part("z", "desired_proc_units", 1.0, 1.5, basis="measured"))])
    y, z = _by(plan, "desired_proc_units", "ylpar"), _by(plan, "desired_proc_units", "zlpar")
    assert y.status == "planned" and not y.unverified and "1.20 processing units of room" in " ".join(y.notes)
    assert "lparstat -i of z at z/lparstat_i.txt:27" in " ".join(y.notes)  # the reading that gave the room
    # 0.2 left after y's 1.0: z's 0.5 does not fit the same pool
    assert z.status == "infeasible" and "0.20 after the plan's reductions" in z.blocked


def test_pool_room_per_frame_and_user_pools_stay_half_checked():
    e = estate()
    _seen_host(e, "y", 1.0, 16.0, 14.5, serial="78ABCDE")
    _seen_host(e, "z", 1.0, 16.0, 14.5, serial="78FFFFF")  # another frame: its own room
    _seen_host(e, "u", 0.5, 4.0, 3.0, pool_id=2)  # a user-defined pool, frame serial unknown
    _seen_host(e, "n", 1.0, None, None)  # no pool figures ("-" in lparstat -i)
    plan = build_plan(e, [finding("S", h, part(h, "desired_proc_units", cur, cur + 1.0, basis="measured"))
                          for h, cur in (("y", 1.0), ("z", 1.0), ("u", 0.5), ("n", 1.0))])
    got = {h: _by(plan, "desired_proc_units", h + "lpar") for h in "yzun"}
    assert got["y"].status == got["z"].status == got["u"].status == "planned"
    assert not got["y"].unverified and not got["z"].unverified
    assert "unassigned processing units" in got["u"].unverified and "shared pool 2" in " ".join(got["u"].notes)
    assert "no pool figures" in got["n"].unverified


def test_a_partition_name_on_two_frames_keeps_two_changes_with_their_own_frames():
    import copy

    from lparscope.model.estate import Host, Partition
    e = estate()
    twin = copy.deepcopy(e.frames["p9frame1"])
    twin.name, twin.cores_available = "p7frame2", 2.0
    twin.partitions = {"a": twin.partitions["a"]}
    twin.partitions["a"].id, twin.partitions["a"].host, twin.partitions["a"].max_ec = 7, "adr", 2.0
    e.frames["p7frame2"] = twin
    e.hosts["adr"] = Host("adr", role="aix", partition=Partition(name="a", number=7, type="Shared-SMT-8",
                                                                 mode="Uncapped", entitled_capacity=0.5, online_vps=12))
    plan = build_plan(e, [finding("S", "a", part("a", "desired_proc_units", 0.5, 1.4, basis="measured")),
                          finding("S", "adr", part("adr", "desired_proc_units", 0.5, 1.0, basis="measured"))])
    ecs = {c.id: c for c in plan.changes if c.change.attribute == "desired_proc_units"}
    assert set(ecs) == {"p9frame1.a.desired_proc_units", "p7frame2.a.desired_proc_units"}
    here, there = ecs["p9frame1.a.desired_proc_units"], ecs["p7frame2.a.desired_proc_units"]
    assert here.frame == "p9frame1" and here.change.target == 1.4 and "p9frame1" in " ".join(here.notes)
    assert there.frame == "p7frame2" and there.change.target == 1.0 and "p7frame2" in " ".join(there.notes)
    assert len({c.id for c in plan.changes}) == len(plan.changes)  # an id is one change


def test_a_reduction_only_a_restart_applies_frees_nothing_for_dlpar_additions():
    # c's EC 1.0 -> 0.05 is below its running minimum 0.1: a profile change, applied at its restart,
    # which comes after the DLPAR additions: a's +0.6 cannot count on it (0.2 free)
    e = estate(avail=0.2)
    plan = build_plan(e, [
        finding("R1", "c", part("c", "desired_proc_units", 1.0, 0.05, basis="measured")),
        finding("R2", "a", part("a", "desired_proc_units", 0.5, 1.1, basis="measured")),
    ])
    a, c = _by(plan, "desired_proc_units", "a"), _by(plan, "desired_proc_units", "c")
    assert c.change.method == "profile" and a.status == "infeasible"
    assert "0.00 released" in a.blocked


def test_pools_of_one_frame_share_its_unassigned_units():
    from lparscope.model.frame import SharedPool
    e = estate(avail=1.0)
    fr = e.frames["p9frame1"]
    fr.pools[1] = SharedPool(1, "OraPool", max_units=8.0)
    fr.partitions["a"].pool_id = 1  # a alone in OraPool: 7.5 units of room there
    plan = build_plan(e, [finding("S", "a", part("a", "desired_proc_units", 0.5, 1.3, basis="measured")),
                          finding("S", "c", part("c", "desired_proc_units", 1.0, 1.6, basis="measured"))])
    a, c = _by(plan, "desired_proc_units", "a"), _by(plan, "desired_proc_units", "c")
    # 1.0 unassigned on the frame: a's 0.8 takes it (its pool has room), c's 0.6 then does not fit
    assert a.status == "planned" and "unassigned on the frame" in " ".join(a.notes)
    assert c.status == "infeasible" and "unassigned processing units left for all its pools" in c.blocked


def test_a_vp_cut_waits_for_the_ec_cut_it_needs_when_that_one_waits_for_a_restart():
    e = estate()
    fp = e.frames["p9frame1"].partitions["b"]  # EC 2.0 on 2 VPs; running minimum EC 1.5
    fp.min_ec = 1.5
    plan = build_plan(e, [finding("S", "b", part("b", "desired_proc_units", 2.0, 0.5, basis="measured"),
                                  part("b", "desired_procs", 2, 1, basis="measured"))])
    ec, vp = _by(plan, "desired_proc_units", "b"), _by(plan, "desired_procs", "b")
    assert ec.change.method == "profile"  # below the running minimum: applies at the restart
    # 1 VP cannot carry the 2.0 EC that runs until then: the VP cut goes with the profile too
    assert vp.change.method == "profile" and "goes with the profile change of desired_proc_units" in " ".join(vp.notes)
    assert vp.step == ec.step
    # the EC cut by DLPAR (no minimum in the way): both by DLPAR, in one step
    plan = build_plan(estate(), [finding("S", "b", part("b", "desired_proc_units", 2.0, 0.5, basis="measured"),
                                         part("b", "desired_procs", 2, 1, basis="measured"))])
    assert {_by(plan, a, "b").change.method for a in ("desired_proc_units", "desired_procs")} == {"dlpar"}


def _step_order(plan, lpar):
    return [i.split(".")[-1] for s in plan.steps for i in s.ids if i.startswith(lpar + ".")]


def test_within_a_step_each_command_leaves_the_partition_valid():
    # a profile step: the maximum is raised before the value that needs it
    plan = build_plan(estate(avail=20.0, pool=32.0), [
        finding("S", "a", part("a", "desired_proc_units", 0.5, 13.0, basis="measured"),
                part("a", "desired_procs", 12, 14, basis="measured"))])
    assert _by(plan, "desired_proc_units", "a").method == "profile" and _by(plan, "max_proc_units", "a").serves
    order = _step_order(plan, "a")
    assert order.index("max_proc_units") < order.index("desired_proc_units")
    # DLPAR cuts on POWER9: EC 4.0 -> 1.2 with 20 VPs -> 2: the EC goes first (2 VPs cannot carry 4.0)
    e = estate()
    fp = e.frames["p9frame1"].partitions["c"]
    fp.ec, fp.vps, fp.max_ec = 4.0, 20, 24.0
    plan = build_plan(e, [finding("S", "c", part("c", "desired_proc_units", 4.0, 1.2, basis="measured"),
                                  part("c", "desired_procs", 20, 2, basis="measured"))])
    assert {_by(plan, a, "c").method for a in ("desired_proc_units", "desired_procs")} == {"dlpar"}
    assert _step_order(plan, "c") == ["desired_proc_units", "desired_procs"]
    # the same on POWER7 (0.1 per VP at least): neither can go first, so both go with the profile
    e = estate(model="9179-MHB")
    fp = e.frames["p9frame1"].partitions["c"]
    fp.ec, fp.vps, fp.max_ec = 4.0, 20, 24.0
    plan = build_plan(e, [finding("S", "c", part("c", "desired_proc_units", 4.0, 1.2, basis="measured"),
                                  part("c", "desired_procs", 20, 2, basis="measured"))])
    ec, vp = _by(plan, "desired_proc_units", "c"), _by(plan, "desired_procs", "c")
    assert ec.method == vp.method == "profile" and "no order of DLPAR commands" in " ".join(ec.notes)


def test_an_ame_factor_cut_goes_with_its_memory_addition():
    def plan_for(avail_mb):
        e = estate()
        e.frames["p9frame1"].mem_available = avail_mb
        return build_plan(e, [finding("AME-AMEPAT-DEFICIT", "a", part("a", "desired_mem", 65536, 81920, basis="measured"),
                                      part("a", "mem_expansion", 1.8, 1.44, basis="measured"))])
    plan = plan_for(8192)  # 16384 MB more does not fit 8192 free: the factor cut alone would shrink memory
    mem, factor = _by(plan, "desired_mem", "a"), _by(plan, "mem_expansion", "a")
    assert mem.status == "infeasible" and factor.status == "infeasible" and "goes with a.desired_mem" in factor.blocked
    plan = plan_for(32768)  # it fits: memory first, then the lower factor, in one step
    mem, factor = _by(plan, "desired_mem", "a"), _by(plan, "mem_expansion", "a")
    assert mem.status == factor.status == "planned" and mem.step == factor.step
    assert _step_order(plan, "a").index("desired_mem") < _step_order(plan, "a").index("mem_expansion")


def test_an_ame_factor_also_proposed_alone_falls_back_to_that_proposal_without_the_memory():
    e = estate()
    plan = build_plan(e, [finding("AME-AMEPAT-DEFICIT", "a", part("a", "desired_mem", 65536, 81920, basis="measured"),
                                  part("a", "mem_expansion", 1.8, 1.44, basis="measured")),
                          finding("AME-MEMORY-DEFICIT", "a", part("a", "mem_expansion", 1.8, 1.6, basis="measured"))])
    factor = _by(plan, "mem_expansion", "a")
    assert _by(plan, "desired_mem", "a").status == "infeasible"
    assert factor.status == "planned" and factor.change.target == 1.6  # not cut further without the memory
    assert [r.rule_id for r in factor.reasons if r.chosen] == ["AME-MEMORY-DEFICIT"]


def test_ams_logical_memory_is_not_checked_against_the_frames_free_memory():
    e = estate()
    e.frames["p9frame1"].partitions["c"].mem_mode = "shared"
    plan = build_plan(e, [finding("M", "c", part("c", "desired_mem", 16384, 28672, basis="measured"))])
    mem = _by(plan, "desired_mem", "c")  # 12288 MB more, 8192 MB free: dedicated memory would not fit
    assert mem.status == "planned" and "shared memory pool" in mem.unverified


def test_a_partition_the_hmc_listing_misses_draws_on_its_frame_by_serial():
    e = estate(avail=1.0)
    e.frames["p9frame1"].serial = "78ABCDE"
    _seen_host(e, "y", 1.0, 16.0, 10.0, serial="78abcde")  # its own lparstat -i shows 6.0 of room
    plan = build_plan(e, [finding("S", "a", part("a", "desired_proc_units", 0.5, 1.3, basis="measured")),
                          finding("S", "y", part("y", "desired_proc_units", 1.0, 1.5, basis="measured"))])
    a, y = _by(plan, "desired_proc_units", "a"), _by(plan, "desired_proc_units", "ylpar")
    # one frame, 1.0 unassigned: a's 0.8 fits, y's 0.5 then does not (counted once, not from y's own view)
    assert a.status == "planned" and y.status == "infeasible"
    assert "by its frame serial 78abcde" in " ".join(y.notes)


def test_partitions_of_unknown_frames_get_steps_of_their_own():
    from lparscope.model.estate import Host, Partition
    e = estate()
    for name in ("x", "z"):
        e.hosts[name] = Host(name, role="aix", partition=Partition(name=name, type="Shared-SMT-8", mode="Uncapped",
                                                                   entitled_capacity=2.0, online_vps=4, max_vps=8))
    plan = build_plan(e, [finding("S", "x", part("x", "desired_proc_units", 2.0, 1.0, basis="measured")),
                          finding("S", "z", part("z", "desired_proc_units", 2.0, 3.0, basis="measured"))])
    x, z = _by(plan, "desired_proc_units", "x"), _by(plan, "desired_proc_units", "z")
    assert x.step != z.step  # what x frees may be on another frame than z's
    titles = {s.number: s.title for s in plan.steps}
    assert "of x (its frame is not in the data)" in titles[x.step] and "of z" in titles[z.step]


def test_a_profile_set_to_the_value_the_partition_runs_with_needs_no_restart():
    # FRAME-PROFILE-DRIFT: b runs with 2 VPs, its profile says 3; saving 2 into the profile changes
    # nothing that runs, so no restart and no maintenance window; the change reads 3 -> 2 (the profile's)
    e = estate()
    fp = e.frames["p9frame1"].partitions["b"]
    fp.profile["desired_procs"] = "3"
    fp.running["desired_procs"] = "2"
    plan = build_plan(e, [finding("FRAME-PROFILE-DRIFT", "b", part("b", "desired_procs", 2, 2, method="profile",
                                                                      kind="profile"))])
    c = _by(plan, "desired_procs", "b")
    assert c.status == "planned" and c.disruption == "none" and not c.window and not c.restart
    assert (c.to_dict()["current"], c.to_dict()["target"]) == (3, 2)
    step = next(s for s in plan.steps if c.id in s.ids)
    assert step.disruption == "none" and not step.window and "shut" not in step.title
    assert "(0 need a restart, 0 a maintenance window)" in plan.summary()
    # a profile value the partition does not run with still waits for its restart
    plan = build_plan(e, [finding("X", "b", part("b", "desired_procs", 2, 4, method="profile", kind="profile"))])
    c = _by(plan, "desired_procs", "b")
    assert c.disruption == "partition restart" and c.window
    assert "shut b down" in next(s for s in plan.steps if c.id in s.ids).title


def _sea(e, host: str, ha_mode: str | None):
    from lparscope.model.estate import Device, Setting
    attrs = {"real_adapter": Setting("ent7"), "accounting": Setting("disabled")}
    if ha_mode is not None:
        attrs["ha_mode"] = Setting(ha_mode)
    e.hosts[host].devices["ent8"] = Device("ent8", cls="sea", attrs=attrs)
    e.hosts[host].devices["ent7"] = Device("ent7", cls="etherchannel", parent="ent8")


def test_an_sea_step_says_how_to_fail_over_and_back_from_the_ha_mode_read():
    # vios1's SEA shares the load with vios2's (ha_mode=sharing): the step gives the commands that move
    # its traffic to vios2 and give it back with the mode read; an SEA without failover (vios2's,
    # ha_mode=disabled) has no partner to take its traffic: the step says the clients lose the network
    e = estate()
    _sea(e, "vios1", "sharing")
    _sea(e, "vios2", "disabled")
    sea = lambda h, obj="ent8": ProposedChange("device", obj, "accounting", "disabled", "enabled", "chdev-now",
                                               host=h, vios=True, failover=True)
    plan = build_plan(e, [finding("NET-SEA-ACCOUNTING", "vios1", sea("vios1")),
                          finding("NET-SEA-ACCOUNTING", "vios2", sea("vios2"))])
    s1 = next(s for s in plan.steps if s.where == "vios1")
    assert "fail over first: chdev -dev ent8 -attr ha_mode=standby (root: chdev -l ent8 -a ha_mode=standby); " \
           "when done, give the traffic back: chdev -dev ent8 -attr ha_mode=sharing" in s1.checks, s1.checks
    s2 = next(s for s in plan.steps if s.where == "vios2")
    assert s2.checks[0].startswith("CLIENT OUTAGE: ent8 on vios2 has no SEA failover (ha_mode=disabled)"), s2.checks
    # an EtherChannel under the SEA fails over with it
    plan = build_plan(e, [finding("NET-EC", "vios1", sea("vios1", "ent7"))])
    s1 = next(s for s in plan.steps if s.where == "vios1")
    assert any(c.startswith("fail over first: chdev -dev ent8 -attr ha_mode=standby") for c in s1.checks), s1.checks
    assert "stops client partitions" in s2.title


def test_a_vios_restart_says_which_clients_the_hmc_shows_only_it_serves():
    # no lsmap output at all: the HMC lists a's vFC client adapters all leading to vios1 (id 4), b's to
    # both VIOS; vios1's profile step (a restart) stops a, and says so first; vios2's does not
    from lparscope.model.frame import VirtualSlot
    e = estate()
    fr = e.frames["p9frame1"]
    fr.partitions["a"].vfc = [VirtualSlot("vfc", 30, "client", 4, "vios1", 201), VirtualSlot("vfc", 31, "client", 4, "vios1", 202)]
    fr.partitions["b"].vfc = [VirtualSlot("vfc", 30, "client", 4, "vios1", 203), VirtualSlot("vfc", 31, "client", 5, "vios2", 203)]
    plan = build_plan(e, [
        finding("X", "vios1", part("vios1", "uncap_weight", 255, 200, method="profile", kind="profile", vios=True)),
        finding("X", "vios2", part("vios2", "sharing_mode", "cap", "uncap", method="profile", kind="profile", vios=True))])
    s1 = next(s for s in plan.steps if "vios1" in s.title)
    assert s1.checks[0].startswith("CLIENT OUTAGE: vios1 alone serves the storage of client partition(s) 1 (a)"), s1.checks
    assert "stops client partitions" in s1.title
    s2 = next(s for s in plan.steps if "vios2" in s.title)
    assert not s2.checks[0].startswith("CLIENT OUTAGE"), s2.checks
