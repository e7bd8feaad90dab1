from lparscope.model.frame import SharedPool
from lparscope.rules.config import Config
from lparscope.rules.frame.processor import (
    frame_ec_above_pool,
    frame_pool_peak,
    frame_vios_weight,
    frame_vp_above_pool,
    frame_weights_flat,
)
from lparscope.rules.frame.profiles import frame_profile_drift

from ._frame_builders import estate, frame, part, use
from .conftest import host


def run(fn, e):
    return list(fn(e, Config()))


def test_vios_weight_fires_against_a_partition_only_the_hmc_knows():
    e = estate(frame(part("vios1", 1, "vioserver", weight=128), part("db1", 7, weight=200)))
    [f] = run(frame_vios_weight, e)
    assert f.host == "vios1" and f.values["highest_client"] == "db1 200"
    assert "chhwres -m p9frame1 -r proc -o s -p vios1 -a uncap_weight=255" in f.fix.hmc
    assert any("name=default_profile,lpar_name=vios1,uncap_weight=255" in c for c in f.fix.hmc)
    assert "uncap_weight=128" in f.rollback.hmc[0]


def test_vios_weight_quiet_when_highest_or_left_to_the_host_rule():
    assert not run(frame_vios_weight, estate(frame(part("vios1", 1, "vioserver", weight=255), part("db1", 7, weight=200))))
    # the host-level VIOS-WEIGHT-NOT-HIGHEST already reports vios1 (its own lparstat -i shows 100 < client 128)
    v = host("vios1", role="vios", weight=100)
    c = host("aix1", weight=128)
    fr = frame(part("vios1", 1, "vioserver", weight=100, host="vios1"), part("aix1", 3, weight=128, host="aix1"))
    assert not run(frame_vios_weight, estate(fr, hosts=[v, c]))


def test_flat_weights():
    fr = frame(part("vios1", 1, "vioserver"), part("a", 2), part("b", 3))
    [f] = run(frame_weights_flat, estate(fr))
    assert f.host == "p9frame1" and "All 3 uncapped partitions of p9frame1 have weight 128" in f.message
    fr.partitions["vios1"].weight = 255
    assert not run(frame_weights_flat, estate(fr))


def test_sum_ec_above_pool_fires_and_not_below():
    fr = frame(part("a", 2, ec=8.0), part("b", 3, ec=6.0), part("c", 4, ec=3.0))
    [f] = run(frame_ec_above_pool, estate(fr))
    assert f.values == {"current": "17", "suggested": "<= 16"}
    fr.partitions["c"].ec = 2.0
    assert not run(frame_ec_above_pool, estate(fr))


def test_default_pool_size_without_pool_data_is_cores_minus_dedicated():
    fr = frame(part("a", 2, ec=10.0), part("d", 3, proc_mode="ded", sharing_mode="keep_idle_procs", vps=12))
    fr.pools.clear()
    [f] = run(frame_ec_above_pool, estate(fr))  # 20 cores - 12 dedicated = 8 < 10
    assert "8 cores" in f.message


def test_vp_above_pool():
    fr = frame(part("a", 2, vps=24), part("b", 3, vps=16))
    [f] = run(frame_vp_above_pool, estate(fr))
    assert f.host == "a" and "--procs 8" in f.fix.hmc[0]


def test_vp_above_pool_left_to_host_rule_when_host_has_lparstat():
    h = host("a", online_vps=24, pool_cores=16)
    fr = frame(part("a", 2, vps=24, host="a"))
    assert not run(frame_vp_above_pool, estate(fr, hosts=[h]))


def test_pool_peak_of_a_named_pool():
    fr = frame(part("a", 2, pool_id=1), part("b", 3, pool_id=1))
    fr.pools[1] = SharedPool(1, "oracle", max_units=4.0, partitions=["a", "b"], use=use(2.1, 3.9, 3.2))
    [f] = run(frame_pool_peak, estate(fr))
    assert "peaked at 3.90 of its 4" in f.message
    assert f.fix.hmc[0].endswith("-r procpool -o s --poolname oracle -a max_pool_proc_units=5")  # -o s: set
    fr.pools[1].use = use(2.1, 2.9)
    assert not run(frame_pool_peak, estate(fr))


def test_profile_drift_per_attribute():
    p = part("aix1", 3)
    p.profile = {"desired_proc_units": "1.5", "desired_mem": "8192", "sharing_mode": "uncap"}
    p.running = {"desired_proc_units": "0.5", "desired_mem": "8192", "sharing_mode": "uncap"}
    [f] = run(frame_profile_drift, estate(frame(p)))
    assert "desired_proc_units profile 1.5 / running 0.5" in f.message and "desired_mem" not in f.message
    assert f.fix.hmc[0].startswith("mksyscfg -r prof -m p9frame1 -o save -p aix1 -n default_profile")
    p.running["desired_proc_units"] = "1.50"
    assert not run(frame_profile_drift, estate(frame(p)))


def test_hmc_commands_quote_partition_names_with_spaces():
    # the HMC allows spaces and brackets in partition names: every command names it as one shell word
    e = estate(frame(part("vios a", 1, "vioserver", weight=128), part("db(1)", 7, weight=200)))
    [f] = run(frame_vios_weight, e)
    assert 'chhwres -m p9frame1 -r proc -o s -p "vios a" -a uncap_weight=255' in f.fix.hmc
    assert f.rollback.hmc[0] == 'chhwres -m p9frame1 -r proc -o s -p "vios a" -a uncap_weight=128'


def test_dedicated_partitions_seen_through_the_hmc_that_do_not_lend_idle_cycles_while_running():
    from lparscope.rules.frame.sharing import frame_dedicated_not_donating
    fr = frame(part("db1", 7, proc_mode="ded", sharing_mode="share_idle_procs", vps=4),   # lends only when shut down
               part("db2", 8, proc_mode="ded", sharing_mode="keep_idle_procs", vps=2),
               part("db3", 9, proc_mode="ded", sharing_mode="share_idle_procs_active", vps=2),
               part("db4", 10, proc_mode="ded", sharing_mode="keep_idle_procs", vps=2, host="db4"),
               part("vios1", 1, "vioserver", proc_mode="ded", sharing_mode="keep_idle_procs", vps=1))
    db4 = host("db4", type="Dedicated-SMT-8", mode="Capped")  # its own lparstat -i: the host rule judges it
    found = {f.host: f for f in run(frame_dedicated_not_donating, estate(fr, hosts=[db4]))}
    assert sorted(found) == ["db1", "db2"]
    # share_idle_procs keeps lending while shut down and lends while running too; the rollback is the mode read
    assert found["db1"].fix.hmc[0] == 'chsyscfg -r prof -m p9frame1 -i "name=default_profile,lpar_name=db1,sharing_mode=share_idle_procs_always"'
    assert found["db1"].rollback.hmc == ['chsyscfg -r prof -m p9frame1 -i "name=default_profile,lpar_name=db1,sharing_mode=share_idle_procs"']
    assert "share_idle_procs_active" in found["db2"].fix.hmc[0] and found["db2"].changes[0].method == "profile"
