"""Frame rules that judge the profiles (the next activation) beside the running values."""

from __future__ import annotations

from lparscope.rules.config import Config
from lparscope.rules.frame.next_activation import profile_ec_above_pool, profile_mem_above_frame
from lparscope.rules.frame.processor import frame_ec_above_pool

from ._frame_builders import estate, frame, part


def _with_profile(p, **attrs):
    for k, v in attrs.items():
        p.profile[k] = str(v)
    return p


def test_profile_only_pool_overcommit_fires_while_running_values_fit() -> None:
    # running: 6 + 6 + 2 = 14 EC in a 16-core pool; profiles (never saved after DLPAR): 8 + 8 + 2 = 18
    a = _with_profile(part("db1", 3, ec=6.0, vps=8), desired_proc_units=8.0, desired_procs=8, proc_mode="shared")
    b = _with_profile(part("db2", 4, ec=6.0, vps=8), desired_proc_units=8.0, desired_procs=8, proc_mode="shared")
    c = _with_profile(part("app1", 5, ec=2.0, vps=4), desired_proc_units=2.0, desired_procs=4, proc_mode="shared")
    e = estate(frame(a, b, c))
    assert not list(frame_ec_above_pool(e, Config()))  # the running values fit
    found = list(profile_ec_above_pool(e, Config()))
    assert len(found) == 1
    f = found[0]
    assert f.values["judged"] == "profiles" and f.values["current"] == "18" and f.values["running"] == "14"
    assert "next activation" in f.message and "running EC 14 fits" in f.message


def test_profiles_within_the_pool_are_quiet_and_profile_vps_are_judged() -> None:
    a = _with_profile(part("db1", 3, ec=6.0, vps=8), desired_proc_units=6.0, desired_procs=20, proc_mode="shared")
    b = _with_profile(part("app1", 5, ec=2.0, vps=4), desired_proc_units=2.0, desired_procs=4, proc_mode="shared")
    found = list(profile_ec_above_pool(estate(frame(a, b)), Config()))
    # EC 8 of 16 fits; db1's profile asks for 20 VPs in a 16-core pool
    assert [(f.host, f.subject) for f in found] == [("db1", "profile")]
    assert "desired_procs=16" in found[0].fix.hmc[0]
    # a limit the plan merges with the other proposals for the setting (one value in every report)
    (ch,) = found[0].fix.changes
    assert (ch.attribute, ch.current, ch.target, ch.method, ch.basis, ch.bound) == ("desired_procs", 20, 16, "profile", "limit", "max")


def test_profile_memory_with_page_tables_above_the_frame() -> None:
    # frame: 524288 MB configurable, 13568 MB firmware; profiles 2 x 252 GB desired, 512 GB max (HPT 1:128 = 4096 MB each)
    a = _with_profile(part("db1", 3, mem=131072, mem_max=262144), desired_mem=258048, max_mem=524288)
    b = _with_profile(part("db2", 4, mem=131072, mem_max=262144), desired_mem=258048, max_mem=524288)
    found = list(profile_mem_above_frame(estate(frame(a, b)), Config()))
    assert len(found) == 1 and found[0].values["judged"] == "profiles"
    assert "8192 MB of page tables" in found[0].message  # 2 x 524288 / 128 = 2 x 4096
    # the same partitions with modest profiles fit
    for p in (a, b):
        p.profile.update(desired_mem="131072", max_mem="262144")
    assert not list(profile_mem_above_frame(estate(frame(a, b)), Config()))


def test_profile_memory_counts_the_running_page_tables_once() -> None:
    # sys_firmware_mem already holds the page tables of the running partitions (rules-catalogue SZ-08,
    # MEM-04): a frame whose partitions run with exactly their profiles' memory, with 1024 MB left,
    # fits at its next activation. 13568 MB firmware + 509696 MB of partitions + 1024 MB free = 524288.
    a = _with_profile(part("npiv1", 4, mem=262144, mem_max=262144), desired_mem=262144, max_mem=262144)
    b = _with_profile(part("npiv2", 5, mem=247552, mem_max=262144), desired_mem=247552, max_mem=262144)
    assert not list(profile_mem_above_frame(estate(frame(a, b)), Config()))
    # the same profiles on a frame with less firmware memory than their page tables still leave
    # the firmware's own part (never below 0), and a profile that grows past the frame is still seen
    b.profile.update(desired_mem="262144")
    found = list(profile_mem_above_frame(estate(frame(a, b)), Config()))
    assert len(found) == 1
    assert "4096 MB of page tables" in found[0].message
    # 524288 desired + 4096 page tables + (13568 - 4096 running page tables) firmware = 537856
    assert found[0].values["current"] == "537856 MB"
