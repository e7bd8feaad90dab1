"""lparstat -H, -m and -E, each read by its own module; the interval parser leaves them alone."""

from pathlib import Path

from lparscope.sources import lparstat_hcalls, lparstat_mem, lparstat_spurr, lparstat_stats
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures"


def test_hypervisor_calls():
    text = (FIX / "lparstat-H" / "lparstat_H_aix72.txt").read_text()
    r = lparstat_hcalls.parse(text)
    assert r.warnings == [] and r.hostname == "aixapp3"
    cfg, *calls = r.records
    assert cfg.ent == 2.0 and cfg.psize == 12.0
    cede = next(c for c in calls if c.name == "cede")
    assert (cede.calls, cede.total_time_pct, cede.hypervisor_time_pct, cede.avg_call_ns, cede.max_call_ns, cede.line) == (
        990412, 4.7, 91.2, 14830, 1250012, 13)
    assert len(calls) == 7 and lparstat_stats.detect(text) < 30
    bad = lparstat_hcalls.parse((FIX / "lparstat-H" / "bad.txt").read_text())
    assert len(bad.records) == 1 and [w.line for w in bad.warnings] == [4]


def test_memory_report():
    r = lparstat_mem.parse((FIX / "lparstat-m" / "lparstat_m_ams_aix71.txt").read_text())
    assert r.warnings == []
    cfg, a, b = r.records
    assert cfg.values["iome"] == "512.00MB" and cfg.values["mpsz"] == "32.00GB"
    assert (a.values["hpi"], a.values["hpit"], a.values["iomaf"], a.values["%entc"], a.line) == (12.0, 4.0, 0.0, 18.3, 7)
    assert b.values["iomf"] is None
    bad = lparstat_mem.parse((FIX / "lparstat-m" / "bad.txt").read_text())
    assert [w.line for w in bad.warnings] == [3, 4]


def test_spurr_aix_and_linux():
    r = lparstat_spurr.parse((FIX / "lparstat-E" / "lparstat_E_aix72.txt").read_text())
    assert r.warnings == [] and len(r.records) == 3
    s = r.records[1]
    assert (s.actual["user"], s.normalised["idle"], s.freq_ghz, s.freq_pct, s.line) == (1.21, 0.314, 3.9, 104.0, 10)
    lin = lparstat_spurr.parse((FIX / "lparstat-E" / "lparstat_E_linux.txt").read_text())
    assert lin.warnings == [] and (lin.records[1].actual["busy"], lin.records[1].freq_pct) == (41.2, 87.0)
    bad = lparstat_spurr.parse((FIX / "lparstat-E" / "bad.txt").read_text())
    assert bad.records == [] and [w.line for w in bad.warnings] == [3]


def test_classified_by_command_and_by_content():
    for kind, name in [("lparstat-H", "lparstat_H_aix72.txt"), ("lparstat-m", "lparstat_m_ams_aix71.txt"),
                       ("lparstat-E", "lparstat_E_aix72.txt"), ("lparstat-E", "lparstat_E_linux.txt")]:
        text = (FIX / kind / name).read_text()
        assert {s.kind for s in split_and_classify(text)} == {kind}, name
        body = "\n".join(text.splitlines()[1:]) if text.startswith(("#", "root@")) else text
        assert {s.kind for s in split_and_classify(body)} == {kind}, name
