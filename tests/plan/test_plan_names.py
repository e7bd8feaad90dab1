"""HMC names for the plan (plan/names.py): a host's change is named only through the host's
evidence-backed join; a frame rule's change about a partition seen through the HMC by that partition.
A host whose join was refused never borrows the names of the partition that bears its name."""

from __future__ import annotations

from lparscope.model.change import ProposedChange
from lparscope.model.estate import Host, Partition
from lparscope.model.frame import FramePartition
from lparscope.plan.build import build_plan
from lparscope.plan.names import locate, names
from lparscope.rules.changes import partition_change

from plan_helpers import estate, finding, part


def _with_refused_vioa():
    """p9frame1 has a VIOS partition 'vioa' joined to no host (the AIX host 'vioa' was refused: roles
    differ) and an unjoined AIX partition 'db1' seen only through the HMC."""
    e = estate()
    fr = e.frames["p9frame1"]
    fr.partitions["vioa"] = FramePartition("vioa", id=8, env="vioserver", state="Running", proc_mode="shared",
                                           sharing_mode="uncap", ec=1.0, vps=2, max_vps=4, pool_id=0, mem=4096,
                                           mem_max=8192, profile_name="vioa_prof")
    fr.partitions["db1"] = FramePartition("db1", id=9, env="aixlinux", state="Running", proc_mode="shared",
                                          sharing_mode="uncap", ec=0.5, vps=2, max_vps=4, pool_id=0, mem=8192,
                                          mem_max=16384, profile_name="db1_prof")
    h = Host("vioa", role="aix")
    h.partition = Partition(name="vioa", number=8, type="Shared-SMT-8", mode="Uncapped", entitled_capacity=0.5,
                            online_vps=2, max_vps=4, online_memory_mb=4096, max_memory_mb=8192, pool_cores=16)
    e.hosts["vioa"] = h
    return e


def _planned(plan, lpar, attribute):
    return next(c for c in plan.changes if c.lpar == lpar and c.change.attribute == attribute)


def test_refused_host_does_not_borrow_the_partition_of_its_name():
    e = _with_refused_vioa()
    assert locate(e, "vioa", "vioa") == (None, None)
    plan = build_plan(e, [finding("T-EC", "vioa", part("vioa", "desired_proc_units", 0.5, 0.8))])
    c = _planned(plan, "vioa", "desired_proc_units")
    assert (c.frame, c.profile) == (None, None)
    assert any(n.startswith("managed-system name of vioa") for n in c.needs)
    assert any(n.startswith("profile name of vioa") for n in c.needs)


def test_joined_host_is_named_by_its_join():
    e = _with_refused_vioa()
    frame, lpar, profile, needs, fp = names(e, "a", "a")
    assert (frame, lpar, profile, needs, fp.name) == ("p9frame1", "a", "default_profile", [], "a")


def test_frame_rule_change_names_the_partition_it_saw_on_the_hmc():
    e = _with_refused_vioa()
    ch = ProposedChange("profile", "db1", "max_mem", 16384, 12288, "profile", host="db1", frame="p9frame1",
                        hmc_partition=True)
    plan = build_plan(e, [finding("T-MEM", "db1", ch)])
    c = _planned(plan, "db1", "max_mem")
    assert (c.frame, c.profile, c.needs) == ("p9frame1", "db1_prof", [])
    # the same object as a host's change (no host db1 was joined): nothing is borrowed
    assert locate(e, "db1", "db1", "p9frame1") == (None, None)
    assert locate(e, "db1", "db1", "p9frame1", by_partition=True)[1].name == "db1"


def test_frame_rule_change_does_not_take_a_partition_joined_to_another_host():
    e = _with_refused_vioa()
    e.frames["p9frame1"].partitions["db1"].host = "b"  # db1 is host b's partition (odd, but joined)
    assert locate(e, "db1", "db1", by_partition=True) == (None, None)


def test_partition_change_marks_the_changes_that_name_a_partition():
    assert partition_change("aix1", "desired_procs", 2, 3).hmc_partition is False
    assert partition_change("aix1", "max_mem", 1, 2, method="profile", lpar="AIX1", frame="f").hmc_partition is True


def test_finding_commands_take_the_joined_partitions_name():
    from lparscope.model.change import Commands
    from lparscope.plan.names import name_findings

    e = _with_refused_vioa()
    e.hosts["a"].partition.name = "a_old"  # the host's outputs name it a_old; the HMC partition it is joined to is a
    f = finding("T-W", "a", part("a", "uncap_weight", 0, 128))
    f.fix = Commands(hmc=['chhwres -m <managed-system> -r proc -o s -p a_old -a "uncap_weight=128"',
                          'chsyscfg -r prof -m <managed-system> -i "name=<profile>,lpar_name=a_old,uncap_weight=128"',
                          "lssyscfg -r prof -m <managed-system> --filter lpar_names=a_old -F name   # a_old2 and -p a_old_x stay"])
    f.rollback = Commands(hmc=[], root=["echo -p a_old"])
    name_findings(e, [f])
    assert f.fix.hmc == ['chhwres -m p9frame1 -r proc -o s -p a -a "uncap_weight=128"',
                         'chsyscfg -r prof -m p9frame1 -i "name=default_profile,lpar_name=a,uncap_weight=128"',
                         "lssyscfg -r prof -m p9frame1 --filter lpar_names=a -F name   # a_old2 and -p a_old_x stay"]
    assert f.rollback.root == ["echo -p a_old"]  # only HMC commands name partitions
