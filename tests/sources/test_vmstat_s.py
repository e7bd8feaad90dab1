from pathlib import Path

from lparscope.sources import vmstat_s, vmstat_v

FIX = Path(__file__).parent.parent / "fixtures" / "vmstat-s"


def test_aix61_vmstat_s():
    text = (FIX / "aix61_vmstat_s.txt").read_text()
    assert vmstat_s.detect(text) >= 90 and vmstat_v.detect(text) <= 10
    r = vmstat_s.parse(text)
    assert r.warnings == [] and len(r.records) == 26 and r.kind == "vmstat-s"
    c = vmstat_s.counters(r)
    assert c["total_address_trans_faults"] == 7741230915
    assert c["paging_space_page_ins"] == 58213 and c["paging_space_page_outs"] == 104477
    assert c["pending_io_waits"] == 23011872 and c["start_ios"] == 509228714
    assert c["mpc_sent_interrupts"] == 188213 and c["syscalls"] == 81122038411
    assert r.records[0].line == 2


def test_aix72_vmstat_sc_compressed_pool_counters():
    r = vmstat_s.parse((FIX / "aix72_vmstat_sc_ame.txt").read_text())
    c = vmstat_s.counters(r)
    assert r.warnings == [] and r.hostname == "appsrv9"
    assert c["compressed_pool_page_ins"] == 44107 and c["compressed_pool_page_outs"] == 61930
    rec = r.records[-1]
    assert rec.name == "compressed_pool_page_outs" and rec.line == 29


def test_bad_input():
    r = vmstat_s.parse("  5 page ins\nnot a counter\n")
    assert len(r.records) == 1 and r.warnings[0].line == 2
    assert vmstat_s.detect("  5 page ins\n") == 0  # too little to tell
