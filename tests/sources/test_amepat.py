from pathlib import Path

import pytest

from lparscope.sources import amepat

FIX = Path(__file__).parent.parent / "fixtures" / "amepat"


def test_aix72_padded_report_ame_disabled():
    text = (FIX / "aix72_ame_disabled_padded.txt").read_text()
    assert amepat.detect(text) >= 90
    r = amepat.parse(text)
    assert r.warnings == [] and r.hostname == "erp01"
    (a,) = r.records
    assert a.command_invoked == "amepat 2 5" and a.invoked_at.startswith("Wed Mar 13")
    assert a.monitored_time == "1 hrs 2 mins 7 secs" and a.monitored_seconds == 3727 and a.samples_collected == 5
    assert a.partition_name == "erp01" and a.processor_implementation_mode == "POWER9 Mode"
    assert (a.logical_cpus, a.entitled_capacity, a.max_capacity, a.smt_threads) == (32, 2.5, 8.0, 8)
    assert a.true_memory_mb == 65536.0 and a.shared_processor_mode == "Enabled-Uncapped"
    assert a.active_memory_expansion == "Disabled" and a.ame_enabled is False
    assert a.target_expanded_memory_mb is None and a.ame_stats == {}
    cpu = a.resource_stats["cpu_util"]
    assert (cpu.average, cpu.average_pct, cpu.min, cpu.max, cpu.max_pct) == (3.12, 39.0, 2.04, 4.81, 60.0)
    assert cpu.unit == "Phys. Processors" and cpu.line == 24
    assert a.resource_stats["true_memory_in_use"].average == 61002.0
    assert a.resource_stats["available_memory"].min_pct == 51.0
    assert set(a.resource_stats) == {"cpu_util", "virtual_memory_size", "true_memory_in_use", "pinned_memory",
                                     "file_cache_size", "available_memory"}
    assert a.modeled_expanded_memory_mb == 65536.0 and a.achievable_compression_ratio == 2.71
    assert [m.expansion_factor for m in a.modeled] == [1.0, 1.19, 1.42, 1.66]
    row = a.modeled[2]
    assert (row.true_memory_mb, row.memory_gain_mb, row.memory_gain_pct, row.cpu_usage, row.cpu_usage_pct) == (
        46336.0, 19200.0, 41.0, 0.35, 4.0)
    assert row.line == 41 and not any(m.current for m in a.modeled)
    assert a.recommended_true_memory_mb == 46336.0 and a.recommended_expansion_factor == 1.42
    assert a.recommended_memory_gain_pct == 41.0 and a.recommended_ame_cpu == 0.35 and a.recommended_peak_cpu == 5.16
    assert a.lines["recommendation"] == 46 and a.lines["true_memory_mb"] == 16
    assert a.warnings == [] and "NOTE" not in a.recommendation


def test_aix61_collapsed_ame_enabled_with_deficit_warning():
    text = (FIX / "aix61_ame_enabled_deficit_collapsed.txt").read_text()
    assert amepat.detect(text) >= 90
    r = amepat.parse(text)
    assert r.warnings == []
    (a,) = r.records
    assert a.ame_enabled is True and a.target_expanded_memory_mb == 12288.0 and a.target_expansion_factor == 3.0
    assert a.true_memory_mb == 4096.0 and a.monitored_seconds == 184
    assert a.ame_stats["ame_cpu_usage"].average == 0.22 and a.ame_stats["ame_cpu_usage"].max_pct == 15.0
    assert a.ame_stats["compressed_memory"].average == 5410.0
    assert a.ame_stats["deficit_memory_size"].average == 1410.0 and a.ame_stats["deficit_memory_size"].line == 33
    assert a.compression_ratio == 2.4 and a.achievable_compression_ratio == 2.4
    current = [m for m in a.modeled if m.current]
    assert len(current) == 1 and current[0].expansion_factor == 3.0 and current[0].line == 43
    assert len(a.warnings) == 1 and a.warnings[0].startswith("This LPAR currently has a memory deficit of 1410 MB")
    assert "eliminate this memory deficit." in a.warnings[0] and "recommended AME configuration" not in a.warnings[0]
    assert a.deficit_memory_mb == 1410.0 and a.lines["warnings"] == 44
    assert a.recommended_expansion_factor == 2.4 and a.recommended_true_memory_mb == 5120.0
    assert a.recommended_peak_cpu == 1.13


def test_partial_excerpt_modeled_table_and_recommendation_only():
    text = (
        "Active Memory Expansion Modeled Statistics:\n-------------------------------------------\n"
        "Modeled Expanded Memory Size : 24.00 GB\nAchievable Compression ratio : 3.10\n"
        "Expansion Modeled True Modeled CPU Usage\nFactor Memory Size Memory Gain Estimate\n"
        "--------- ------------- ------------------ -----------\n"
        "1.50 16.00 GB 8.00 GB [ 50%] 0.12 [ 3%]\n2.00 12.00 GB 12.00 GB [100%] 0.80 [ 20%]\n"
        "Active Memory Expansion Recommendation:\n---------------------------------------\n"
        "The recommended AME configuration for this workload is to configure the LPAR\n"
        "with a memory size of 16.00 GB and to configure a memory expansion factor\n"
        "of 1.50. This will result in a memory gain of 50%. With this\n"
        "configuration, the estimated CPU usage due to AME is approximately 0.12\n"
        "physical processors, and the estimated overall peak CPU resource required for\n"
        "the LPAR is 3.40 physical processors.\n"
    )
    assert amepat.detect(text) >= 90
    (a,) = amepat.parse(text).records
    assert a.command_invoked is None and len(a.modeled) == 2 and a.modeled[1].memory_gain_pct == 100.0
    assert a.recommended_expansion_factor == 1.5 and a.recommended_peak_cpu == pytest.approx(3.4)
    assert a.line == 1


def test_not_amepat_and_bad_rows():
    assert amepat.detect("Node Name : aix1\nType : Shared-SMT-4\n") == 0
    r = amepat.parse("random words\n")
    assert r.records == [] and r.warnings
    r = amepat.parse("System Resource Statistics: Average Min Max\nCPU Util (Phys. Processors) lots\n"
                     "Pinned Memory (MB) 1105 [ 13%] 1105 [ 13%] 1106 [ 14%]\n")
    (a,) = r.records
    assert a.resource_stats["pinned_memory"].max == 1106.0
    assert [w.line for w in r.warnings] == [2]
