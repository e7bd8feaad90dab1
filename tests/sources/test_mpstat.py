from pathlib import Path

from lparscope.sources import mpstat, lparstat_stats, vmstat_v
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "mpstat"


def rows(r):
    return [x for x in r.records if isinstance(x, mpstat.CpuRow)]


def test_mpstat_d_interval_run_gives_two_reports():
    text = (FIX / "aix73_mpstat_d_interval.txt").read_text()
    assert mpstat.detect(text) == 95 and mpstat.detect(text.split("\n", 1)[1]) == 90
    r = mpstat.parse(text)
    assert r.warnings == [] and r.hostname == "aixdb2"
    cfg = r.records[0]
    assert isinstance(cfg, mpstat.MpstatConfig) and cfg.values == {"lcpu": "8", "ent": "1.5", "mode": "Uncapped"}
    assert cfg.line == 3
    rs = rows(r)
    assert [(x.cpu, x.sample) for x in rs] == [("0", 1), ("1", 1), ("2", 1), ("3", 1), ("ALL", 1),
                                               ("0", 2), ("1", 2), ("2", 2), ("3", 2), ("ALL", 2)]
    total = rs[4]
    assert total.is_total and total.number is None and total.line == 10
    assert (total.values["S0rd"], total.values["S1rd"], total.values["S3rd"], total.values["S5hrd"]) == (91.6, 4.0, 4.4, 0.4)
    assert rs[2].number == 2 and rs[2].values["S1rd"] == 20.1
    idle = rs[7]  # a processor with no dispatch in the interval prints "-"
    assert idle.values["S0rd"] is None and idle.values["vlcs"] == 40.0


def test_mpstat_a_every_column_and_the_unused_entitlement_row():
    r = mpstat.parse((FIX / "aix72_mpstat_a.txt").read_text())
    assert r.warnings == []
    rs = {x.cpu: x for x in rows(r)}
    assert set(rs) == {"0", "1", "2", "3", "U", "ALL"}
    assert len(rs["ALL"].values) == 34
    assert (rs["0"].values["pc"], rs["0"].values["%ec"], rs["0"].values["%nsp"]) == (0.09, 18.1, 102.0)
    assert rs["U"].values["id"] == 76.4 and rs["U"].values["cs"] is None


def test_default_report_and_bad_rows_warn_with_lines():
    r = mpstat.parse((FIX / "aix71_mpstat_default_bad.txt").read_text())
    assert [x.cpu for x in rows(r)] == ["0", "1", "2", "ALL"]
    assert [w.line for w in r.warnings] == [6, 7, 8]
    assert "5 values for 18 columns" in r.warnings[0].message
    assert "min=x1" in r.warnings[1].message
    assert rows(r)[2].values["min"] is None


def test_kinds_apart():
    text = (FIX / "aix73_mpstat_d_interval.txt").read_text()
    assert [s.kind for s in split_and_classify(text)] == ["mpstat"]
    body = text.split("\n", 1)[1]
    assert [s.kind for s in split_and_classify(body)] == ["mpstat"]
    assert lparstat_stats.detect(body) < 90 and vmstat_v.detect(body) == 0
    (seg,) = split_and_classify("# mpstat -s 1 1\n  Proc0   Proc4\n 48.1%   30.2%\n")
    assert seg.kind is None


def test_junk_never_raises():
    for junk in ("", "cpu", "cpu cs ics\n0", "\x00\xff" * 50, "ALL 1 2 3\n" * 3):
        mpstat.parse(junk)
        mpstat.detect(junk)
