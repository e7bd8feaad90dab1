from pathlib import Path

from lparscope.sources import lparstat_info, lparstat_stats

FIX = Path(__file__).parent.parent / "fixtures" / "lparstat-i"


def test_aix72_shared_smt8_with_ame():
    text = (FIX / "aix72_shared_smt8_ame.txt").read_text()
    assert lparstat_info.detect(text) >= 90
    r = lparstat_info.parse(text)
    assert r.warnings == []
    (i,) = r.records
    assert r.hostname == "lpdb07"
    assert (i.node_name, i.partition_name, i.partition_number) == ("lpdb07", "LPDB07_PROD", 17)
    assert i.type == "Shared-SMT-8" and i.shared is True and i.smt_threads == 8 and i.smt_enabled is True
    assert i.mode == "Uncapped" and i.capped is False
    assert i.entitled_capacity == 1.5 and i.online_virtual_cpus == 4 and i.maximum_virtual_cpus == 12
    assert i.online_memory_mb == 24576 and i.maximum_memory_mb == 65536 and i.minimum_memory_mb == 8192
    assert i.shared_pool_id == 2 and i.variable_capacity_weight == 96
    assert i.maximum_capacity_of_pool == 1200 and i.entitled_capacity_of_pool == 930
    assert i.active_cpus_in_pool == 12 and i.physical_cpu_percentage == 37.5
    assert i.memory_mode == "Dedicated-Expanded" and i.ame_enabled is True
    assert i.target_memory_expansion_factor == 1.4 and i.target_memory_expansion_size_mb == 34304
    assert i.desired_memory_mb == 24576 and i.desired_capacity == 1.5 and i.desired_virtual_cpus == 4
    assert i.total_io_memory_entitlement is None and i.memory_pool_id is None
    assert i.power_saving_mode == "Static Power Saving"
    assert i.raw["Sub Processor Mode"] == "-"
    assert i.lines["node_name"] == 2 and i.lines["entitled_capacity"] == 7
    assert i.lines["target_memory_expansion_size_mb"] == 43 and i.line == 2


def test_aix53_dedicated_donating_comma_decimals_irregular_spacing():
    r = lparstat_info.parse((FIX / "aix53_dedicated_smt_comma_decimal.txt").read_text())
    assert r.warnings == []
    (i,) = r.records
    assert r.hostname == "batch02" and i.partition_number == 3
    assert i.type == "Dedicated-SMT" and i.shared is False and i.smt_enabled is True and i.smt_threads is None
    assert i.mode == "Donating" and i.capped is None
    assert i.entitled_capacity == 6.0 and i.capacity_increment == 1.0 and i.minimum_capacity == 1.0
    assert i.online_memory_mb == 15616 and i.physical_cpu_percentage == 100.0
    assert i.shared_pool_id is None and i.active_cpus_in_pool is None
    assert i.memory_mode is None and i.ame_enabled is None  # older AIX: no memory section
    assert i.raw["Entitled Capacity"] == "6,00"


def test_aix61_collapsed_spacing_shared_capped():
    text = (FIX / "aix61_shared_capped_collapsed.txt").read_text()
    assert lparstat_info.detect(text) >= 90
    r = lparstat_info.parse(text)
    (i,) = r.records
    assert r.warnings == []
    assert i.type == "Shared-SMT-4" and i.smt_threads == 4 and i.capped is True and i.shared is True
    assert i.entitled_capacity == 0.75 and i.online_memory_mb == 6144
    assert i.memory_mode == "Dedicated" and i.ame_enabled is False
    assert i.lines["memory_mode"] == 29


def test_memory_in_gb_and_unknown_keys_kept_raw():
    r = lparstat_info.parse("Node Name : n1\nOnline Memory : 2 GB\nSome New Key : 42\n")
    (i,) = r.records
    assert i.online_memory_mb == 2048 and i.raw["Some New Key"] == "42" and i.lines["some_new_key"] == 3


def test_not_mistaken_for_interval_lparstat_and_back():
    info = (FIX / "aix72_shared_smt8_ame.txt").read_text()
    assert lparstat_stats.detect(info) <= 10
    stats = "System configuration: type=Shared mode=Uncapped smt=4 lcpu=8 mem=8192MB psize=4 ent=0.50\n"
    assert lparstat_info.detect(stats) == 0


def test_bad_input_warns_without_raising():
    r = lparstat_info.parse("Node Name : aix9\n\x00\x01 garbage\nEntitled Capacity : lots\n")
    (i,) = r.records
    assert i.node_name == "aix9" and i.entitled_capacity is None
    assert [w.line for w in r.warnings] == [2, 3]
    r = lparstat_info.parse("nothing useful here\n")
    assert r.records == [] and r.warnings
    assert lparstat_info.parse("").records == []


def test_a_grep_of_lparstat_i_is_still_lparstat_i():
    text = ("Online Virtual CPUs                        : 3\n"
            "Maximum Virtual CPUs                       : 6\n"
            "Minimum Virtual CPUs                       : 1\n"
            "Active Physical CPUs in system             : 40\n"
            "Physical CPU Percentage                    : 41.67%\n")
    assert lparstat_info.detect(text) >= 60
    (info,) = lparstat_info.parse(text).records
    assert (info.online_virtual_cpus, info.maximum_virtual_cpus, info.minimum_virtual_cpus) == (3, 6, 1)


def test_a_negative_size_is_the_commands_overflow_not_a_value():
    text = ("Online Virtual CPUs                        : 4\nMaximum Virtual CPUs                       : 8\n"
            "Online Memory                              : -511604 MB\n")
    r = lparstat_info.parse(text)
    (info,) = r.records
    assert info.online_memory_mb is None and [w.line for w in r.warnings] == [3]
