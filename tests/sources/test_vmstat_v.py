from pathlib import Path

from lparscope.sources import vmstat_s, vmstat_v

FIX = Path(__file__).parent.parent / "fixtures"


def test_aix71_vmstat_v_counters_and_keys():
    text = (FIX / "vmstat-v" / "aix71_vmstat_v.txt").read_text()
    assert vmstat_v.detect(text) >= 90 and vmstat_s.detect(text) <= 10
    r = vmstat_v.parse(text)
    assert r.warnings == [] and len(r.records) == 22
    c = vmstat_v.counters(r)
    assert c["memory_pages"] == 6291456 and isinstance(c["memory_pages"], int)
    assert c["maxpin_percentage"] == 90.0 and isinstance(c["maxpin_percentage"], float)
    assert c["numperm_percentage"] == 61.2
    assert c["pending_disk_ios_blocked_with_no_pbuf"] == 48211
    assert c["paging_space_ios_blocked_with_no_psbuf"] == 127
    assert c["filesystem_ios_blocked_with_no_fsbuf"] == 2228
    assert c["client_filesystem_ios_blocked_with_no_fsbuf"] == 19
    assert c["external_pager_filesystem_ios_blocked_with_no_fsbuf"] == 903355
    rec = next(x for x in r.records if x.name == "pending_disk_ios_blocked_with_no_pbuf")
    assert rec.line == 18 and rec.description == "pending disk I/Os blocked with no pbuf"


def test_aix72_vmstat_vc_ame_lines():
    text = (FIX / "vmstat-v" / "aix72_vmstat_vc_ame.txt").read_text()
    assert vmstat_v.detect(text) >= 90
    r = vmstat_v.parse(text)
    assert r.warnings == [] and r.hostname == "appsrv9"
    c = vmstat_v.counters(r)
    assert c["compressed_pool_size"] == 902144
    assert c["percentage_of_true_memory_used_for_compressed_pool"] == 27.5
    assert c["free_pages_in_compressed_pool_4k_pages"] == 88210
    assert c["target_memory_expansion_factor"] == 1.4 and c["achieved_memory_expansion_factor"] == 1.3


def test_without_prompt_told_from_vmstat_s_by_descriptions():
    v = "\n".join((FIX / "vmstat-v" / "aix71_vmstat_v.txt").read_text().splitlines()[1:])
    s = "\n".join((FIX / "vmstat-s" / "aix61_vmstat_s.txt").read_text().splitlines()[1:])
    assert vmstat_v.detect(v) >= 90 and vmstat_s.detect(v) == 0
    assert vmstat_s.detect(s) >= 90 and vmstat_v.detect(s) == 0


def test_interval_vmstat_and_garbage_are_warnings():
    text = "System configuration: lcpu=8 mem=8192MB ent=1.00\n 1  0 512211 8812   0   0   0   0    0   0\n"
    assert vmstat_v.detect(text) == 0
    r = vmstat_v.parse(text)
    assert r.records == [] and [w.line for w in r.warnings] == [1, 2]
    r = vmstat_v.parse("   12 memory pages\n\x00\x02junk\n  3.0 minperm percentage\n")
    assert len(r.records) == 2 and r.warnings[0].line == 2
