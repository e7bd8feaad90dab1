from lparscope.model.build import apply
from lparscope.rules.config import Config
from lparscope.rules.processor import folding as processor_folding
from lparscope.rules.processor import limits as processor_limits
from lparscope.rules.processor import sharing as processor_sharing
from lparscope.rules.processor import smt as processor_smt
from lparscope.sources import levels, lparstat_stats, lsattr, tunables

from .conftest import host, run_rule


def feed(h, module, text: str, path: str = "in.txt", offset: int = 0):
    apply(h, module.KIND, module.parse(text), path, offset)
    return h


SCHEDO_L = """# schedo -L vpm_fold_policy -L vpm_xvcpus -L vpm_throughput_mode
NAME                      CUR    DEF    BOOT   MIN    MAX    UNIT           TYPE
     DEPENDENCIES
--------------------------------------------------------------------------------
vpm_fold_policy           {fold:<7}1      {fold:<7}0      15                    D
--------------------------------------------------------------------------------
vpm_throughput_mode       {tput:<7}0      {tput:<7}0      8      level          D
--------------------------------------------------------------------------------
vpm_xvcpus                {xv:<7}0      {xv:<7}-1     1K     processors     D
--------------------------------------------------------------------------------
"""

PROC0 = """# lsattr -El proc0
frequency   3800000000     Processor Speed       False
smt_enabled true           Processor SMT enabled False
smt_threads {smt:<14} Processor SMT threads False
state       enable         Processor state       False
type        PowerPC_{gen:<8} Processor type        False
"""


def schedo(h, fold=1, tput=0, xv=0):
    return feed(h, tunables, SCHEDO_L.format(fold=fold, tput=tput, xv=xv), "schedo.txt")


def test_uncapped_weight_zero():
    (f,) = run_rule(processor_sharing.uncapped_weight_zero, host(weight=0))
    assert 'uncap_weight=128' in f.fix.hmc[0] and '-o s' in f.fix.hmc[0]
    assert 'uncap_weight=0' in f.rollback.hmc[0] and f.disruption == ["dlpar"]
    assert run_rule(processor_sharing.uncapped_weight_zero, host(weight=0, mode="Capped")) == []  # capped: 0 is required
    assert run_rule(processor_sharing.uncapped_weight_zero, host(weight=128)) == []
    assert run_rule(processor_sharing.uncapped_weight_zero, host("vios9", "vios", weight=0)) == []  # left to the VIOS rules


def test_dedicated_not_donating():
    (f,) = run_rule(processor_sharing.dedicated_not_donating, host(type="Dedicated-SMT-8", mode="Capped"))
    assert "sharing_mode=share_idle_procs_active" in f.fix.hmc[1] and f.level == "info"
    assert run_rule(processor_sharing.dedicated_not_donating, host(type="Dedicated-SMT-8", mode="Donating")) == []
    assert run_rule(processor_sharing.dedicated_not_donating, host(mode="Capped")) == []  # shared


def test_vp_ec_limits_by_generation():
    # POWER7: at most 10 VPs per unit -> EC 1.0 with 12 VPs is over the limit
    h = feed(host(entitled_capacity=1.0, online_vps=12), lsattr, PROC0.format(smt=4, gen="POWER7"))
    (f,) = run_rule(processor_limits.vp_ec_limits, h)
    assert f.values["allowed"] == "1..10 VP" and "EC >= 1.20 for 12 VP" in f.values["suggested"]
    assert "--procunits 0.20" in f.fix.hmc[0] and "desired_proc_units=1.20" in f.fix.hmc[1]
    assert "desired_proc_units=1.00" in f.rollback.hmc[1]
    # POWER9: 20 per unit -> 12 VPs on EC 1.0 is fine
    h9 = feed(host(entitled_capacity=1.0, online_vps=12), lsattr, PROC0.format(smt=8, gen="POWER9"))
    assert run_rule(processor_limits.vp_ec_limits, h9) == []


def test_vp_ec_limits_unknown_generation_and_too_few_vps():
    (f,) = run_rule(processor_limits.vp_ec_limits, host(entitled_capacity=0.5, online_vps=12))
    assert f.values["allowed"] == "1..10 VP" and "generation unknown" in f.message
    cfg = Config()
    cfg.thresholds[processor_limits.VP_PER_EC_UNKNOWN] = 30
    assert run_rule(processor_limits.vp_ec_limits, host(entitled_capacity=0.5, online_vps=12), cfg) == []
    (g,) = run_rule(processor_limits.vp_ec_limits, host(entitled_capacity=2.5, online_vps=2))
    assert g.values["suggested"] == ">= 3 VP" and "--procs 1" in g.fix.hmc[0]
    assert run_rule(processor_limits.vp_ec_limits, host(type="Dedicated-SMT-8", entitled_capacity=4, online_vps=4)) == []


def test_smt_not_default_on_power9_with_aix72_tl5():
    h = feed(host(type="Shared-SMT-4"), lsattr, PROC0.format(smt=4, gen="POWER9"))
    feed(h, levels, "# oslevel -s\n7200-05-06-2320\n", "oslevel.txt")
    (f,) = run_rule(processor_smt.smt_not_default, h)
    assert f.values == {"current": "SMT4", "suggested": "SMT8"}
    assert f.fix.root == ["smtctl -t 8 -w now", "smtctl -t 8 -w boot", "bosboot -a"]
    assert f.rollback.root[0] == "smtctl -t 4 -w now" and f.level == "info"
    # POWER8 default is SMT4: no finding
    h8 = feed(host(type="Shared-SMT-4"), lsattr, PROC0.format(smt=4, gen="POWER8"))
    assert run_rule(processor_smt.smt_not_default, h8) == []


def test_smt_low_without_generation_and_smt8_unknown():
    (f,) = run_rule(processor_smt.smt_not_default, host(type="Shared-SMT-2"))
    assert f.values["suggested"] == "SMT4"
    assert run_rule(processor_smt.smt_not_default, host(type="Shared-SMT-8")) == []
    h = feed(host(type="Shared"), lsattr, PROC0.format(smt=1, gen="POWER9"))  # SMT off on POWER9
    feed(h, levels, "# oslevel -s\n7300-02-01-2346\n", "oslevel.txt")
    (g,) = run_rule(processor_smt.smt_not_default, h)
    assert g.level == "warning" and g.values["current"] == "SMT1"


def test_lcpu_over_aix_limit():
    h = feed(host(type="Shared-SMT-8", online_vps=40), levels, "# oslevel -s\n6100-09-12-1838\n")
    (f,) = run_rule(processor_limits.lcpu_over_limit, h)  # 40 x 8 = 320 > 256 on AIX 6.1
    assert "320 logical CPUs" in f.message and f.fix.root[0] == "smtctl -m limit -t 4 -w boot"
    assert f.disruption == ["reboot"] and f.rollback.root[0] == "smtctl -m limit -t 8 -w boot"
    h72 = feed(host(type="Shared-SMT-8", online_vps=40), levels, "# oslevel -s\n7200-05-06-2320\n")
    assert run_rule(processor_limits.lcpu_over_limit, h72) == []


def test_lcpu_from_lparstat_header():
    h = feed(host(type="Shared-SMT-8", online_vps=16), lparstat_stats,
             "# lparstat 5 1\n\nSystem configuration: type=Shared mode=Uncapped smt=8 lcpu=1280 mem=65536MB psize=64 ent=16.00\n\n"
             "%user  %sys  %wait  %idle physc %entc  lbusy  vcsw phint\n"
             "----- ----- ------ ------ ----- ----- ------ ----- -----\n"
             " 10.0   2.0    0.0   88.0  2.10  13.1    1.2  2211    12\n")
    (f,) = run_rule(processor_limits.lcpu_over_limit, h)
    assert "1280 logical CPUs" in f.message and "1024" in f.message


def test_folding_disabled_and_fold_policy_and_throughput_on_client():
    h = schedo(host(), fold=4, tput=4, xv=-1)
    (f,) = run_rule(processor_folding.folding_disabled, h)
    assert f.fix.root == ["schedo -p -o vpm_xvcpus=0"] and f.rollback.root == ["schedo -p -o vpm_xvcpus=-1"]
    assert f.level == "warning" and f.evidence[0].path == "schedo.txt"
    (g,) = run_rule(processor_folding.fold_policy_client, h)
    assert g.fix.root == ["schedo -p -o vpm_fold_policy=1"] and g.values["current"] == "4"
    (t,) = run_rule(processor_folding.throughput_mode, h)
    assert t.fix.root == ["schedo -p -o vpm_throughput_mode=0"] and t.rollback.root == ["schedo -p -o vpm_throughput_mode=4"]
    (x,) = run_rule(processor_folding.folding_disabled, schedo(host(), xv=2))
    assert x.level == "info"


def test_folding_rules_quiet_on_defaults_and_on_vios():
    ok = schedo(host(), fold=1, tput=0, xv=0)
    assert run_rule(processor_folding.folding_disabled, ok) == [] and run_rule(processor_folding.fold_policy_client, ok) == []
    assert run_rule(processor_folding.throughput_mode, ok) == []
    assert run_rule(processor_folding.fold_policy_client, schedo(host(), fold=3)) == []  # still folds shared VPs
    vios = schedo(host("vios1", "vios"), fold=4, tput=0, xv=-1)
    assert run_rule(processor_folding.folding_disabled, vios) == [] and run_rule(processor_folding.fold_policy_client, vios) == []


def test_hmc_commands_name_the_partition_not_the_host():
    # lparstat -i: Node Name devserver, Partition Name dev1 (the HMC knows the partition as dev1)
    h = host("devserver", type="Dedicated-SMT-4", mode="Capped", weight=0)
    h.partition.name = "dev1"
    (f,) = run_rule(processor_sharing.dedicated_not_donating, h)
    hmc = "\n".join(f.fix.hmc + f.rollback.hmc)
    assert "lpar_name=dev1," in hmc and "lpar_names=dev1 " in hmc and "devserver" not in hmc
    assert f.host == "devserver" and [c.object for c in f.changes] == ["dev1"]
    h.partition.type, h.partition.mode = "Shared-SMT-4", "Uncapped"
    (w,) = run_rule(processor_sharing.uncapped_weight_zero, h)
    assert all("-p dev1 " in line for line in w.fix.hmc if line.startswith("chhwres"))
    # no partition name in the host's outputs: the host name stands in
    (f,) = run_rule(processor_sharing.dedicated_not_donating, host("aix7", type="Dedicated-SMT-4", mode="Capped"))
    assert "lpar_name=aix7," in f.fix.hmc[1]


def test_smt_off_reads_one_thread_and_prtconf_tells_the_hardware():
    from lparscope.rules.host_facts import power_generation, smt_threads
    from lparscope.sources import prtconf

    off = PROC0.format(smt=0, gen="POWER8").replace("smt_enabled true ", "smt_enabled false")
    h = feed(host(type=None), lsattr, off)
    assert smt_threads(h)[0] == 1  # SMT off: smt_threads reads 0, one thread per processor
    (f,) = run_rule(processor_smt.smt_not_default, h)
    assert f.values == {"current": "SMT1", "suggested": "SMT4"} and f.rollback.root[0] == "smtctl -t 1 -w now"
    # a POWER8 running in POWER7 mode: prtconf's Processor Type is the hardware
    p8 = feed(host(type="Shared-SMT-4"), prtconf, "# prtconf\nSystem Model: IBM,8286-42A\n"
              "Processor Type: PowerPC_POWER8\nProcessor Implementation Mode: POWER 7\n"
              "Processor Version: PV_7_Compat\nNumber Of Processors: 4\n", "prtconf.txt")
    gen, what, _ev = power_generation(p8)
    assert gen == 8 and what == "prtconf Processor Type PowerPC_POWER8"
    # POWER7 is read but the catalogue gives no default for it: said so, not "generation unknown"
    p7 = feed(host(type="Shared-SMT-2"), lsattr, PROC0.format(smt=2, gen="POWER7"))
    (g,) = run_rule(processor_smt.smt_not_default, p7)
    assert "POWER7: the catalogue gives no default for it" in g.message


def test_an_nmon_header_tells_the_generation_when_nothing_else_does():
    from types import SimpleNamespace

    from lparscope.rules.host_facts import power_generation

    h = host(type="Shared-SMT-4")
    h.nmon, h.nmon_path = SimpleNamespace(processor="POWER8", facts_lines={"processor": 6}), "lpar3_250101_0000.nmon"
    gen, what, ev = power_generation(h)
    assert (gen, what, ev.path, ev.line) == (8.0, "nmon header processor POWER8", "lpar3_250101_0000.nmon", 6)
    feed(h, lsattr, PROC0.format(smt=4, gen="POWER9"))  # the host's own lsattr proc0 wins
    assert power_generation(h)[0] == 9.0


def test_throughput_mode_at_this_levels_own_default_is_quiet():
    text = SCHEDO_L.format(fold=1, tput=2, xv=0).replace(
        "vpm_throughput_mode       2      0      2      0      8", "vpm_throughput_mode       2      2      2      0      8")
    h = feed(host(), tunables, text, "schedo.txt")
    assert run_rule(processor_folding.throughput_mode, h) == []  # DEF 2: this level's default
    (t,) = run_rule(processor_folding.throughput_mode, schedo(host(), tput=2))  # DEF 0
    assert "this level's default is 0" in t.message


def test_smt_advice_stays_within_what_the_processor_runs():
    p6 = feed(host(type=None), lsattr, PROC0.format(smt=2, gen="POWER6"))
    assert run_rule(processor_smt.smt_not_default, p6) == []  # SMT2 is all POWER6 runs
    off = PROC0.format(smt=0, gen="POWER5").replace("smt_enabled true ", "smt_enabled false")
    (f,) = run_rule(processor_smt.smt_not_default, feed(host(type=None), lsattr, off))
    assert f.values == {"current": "SMT1", "suggested": "SMT2"} and "POWER5 runs up to SMT2" in f.message
    off3 = PROC0.format(smt=0, gen="POWER3").replace("smt_enabled true ", "smt_enabled false")
    assert run_rule(processor_smt.smt_not_default, feed(host(type=None), lsattr, off3)) == []  # no SMT at all


def test_throughput_mode_without_the_levels_default_is_a_check_not_a_change():
    h = feed(host(), tunables, "# schedo -a\n          vpm_fold_policy = 1\n      vpm_throughput_mode = 2\n", "schedo.txt")
    (t,) = run_rule(processor_folding.throughput_mode, h)
    assert t.changes == [] and t.fix.root[0].startswith("schedo -L vpm_throughput_mode")
    assert "not in the data" in t.message


def test_a_dedicated_partition_holding_every_core_has_no_pool_to_donate_to():
    h = host(type="Dedicated-SMT-4", mode="Capped", entitled_capacity=4.0, system_cores=4)
    assert run_rule(processor_sharing.dedicated_not_donating, h) == []
    h.partition.system_cores = 8
    assert len(run_rule(processor_sharing.dedicated_not_donating, h)) == 1


def test_vp_ec_limits_alternative_names_the_partition_not_the_host():
    # the host appsrv1 runs as partition "app server 1": the VP cut offered beside the EC raise names
    # the partition the HMC knows, quoted (it named the host, which the HMC does not know)
    h = feed(host(entitled_capacity=1.0, online_vps=12), lsattr, PROC0.format(smt=4, gen="POWER7"))
    h.name = "appsrv1"
    h.partition.name = "app server 1"
    (f,) = run_rule(processor_limits.vp_ec_limits, h)
    alt = next(line for line in f.fix.hmc if line.startswith("# or keep EC"))
    assert alt.endswith('-r proc -o r -p "app server 1" --procs 2'), alt
