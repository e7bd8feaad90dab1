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


def test_linux_lparstat_E_run_from_its_build_folder_with_the_two_line_header():
    from lparscope.sources import lparstat_spurr
    from lparscope.sources.detect import split_and_classify
    text = (" ./lparstat -E 2 2\n\nSystem Configuration\n"
            "type=Shared mode=Uncapped smt=8 lcpu=16 mem=65011712 kB cpus=24 ent=4.00\n\n"
            "---Actual---                 -Normalized-\n%busy  %idle   Frequency     %busy  %idle\n"
            "------ ------  ------------- ------ ------\n"
            "100.72  -0.72  3.80GHz[ 95%]  95.68   4.61\n 42.10  57.90  3.80GHz[ 95%]  40.00  60.00\n")
    [seg] = split_and_classify(text)
    assert seg.kind == "lparstat-E" and seg.prompt.command == "lparstat -E 2 2"
    r = lparstat_spurr.parse(seg.text)
    cfg, first, second = r.records
    assert (cfg.platform, cfg.ent, cfg.lcpu, cfg.mem_mb, cfg.line) == ("linux", 4.0, 16, 63488, 4)
    assert first.actual == {"busy": 100.72, "idle": -0.72} and second.normalised["idle"] == 60.0
    assert len(r.warnings) == 1 and r.warnings[0].line == 9 and "outside 0..100" in r.warnings[0].message
