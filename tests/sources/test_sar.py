"""AIX sar -u / sar -P ALL: the partition's rows are its processor series, as lparstat's samples are."""

from __future__ import annotations

import shutil
from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.sources import sar
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "sar"


def _rows(parsed):
    return [r for r in parsed.records if type(r).__name__ == "SarRow"]


def test_sar_P_ALL_of_a_shared_partition():
    text = (FIX / "aix73_P_ALL_shared_uncapped.txt").read_text()
    assert sar.detect(text) >= 90 and [s.kind for s in split_and_classify(text)] == ["sar"]
    r = sar.parse(text)
    assert r.warnings == [] and r.hostname == "aixweb3"
    head, cfg = r.records[0], r.records[1]
    assert (head.host, head.release, head.machine_id, head.date, head.line) == ("aixweb3", "7.3", "00C8E4F14C00", "11/20/26", 2)
    assert (cfg.lcpu, cfg.ent, cfg.mode, cfg.type, cfg.line) == (8, 0.5, "Uncapped", "Shared", 4)
    rows = _rows(r)
    assert len(rows) == 36 and {x.cpu for x in rows} == {"0", "1", "2", "3", "4", "5", "6", "7", "-"}
    part = [x for x in rows if x.is_partition]
    assert [(x.time, x.elapsed_s, x.values["physc"], x.values["%entc"], x.average, x.line) for x in part] == [
        ("14:00:10", 0.0, 0.93, 186.0, False, 15), ("14:00:20", 10.0, 0.85, 170.0, False, 24),
        ("14:00:30", 20.0, 0.99, 198.0, False, 33), (None, None, 0.92, 184.7, True, 43)]
    assert rows[1].time == "14:00:10" and rows[1].cpu == "1" and rows[1].values["%usr"] == 12.0


def test_sar_u_across_midnight_with_a_prompt():
    text = (FIX / "aix72_u_shared_midnight.txt").read_text()
    assert sar.detect(text) == 95
    r = sar.parse(text)
    assert r.warnings == [] and r.hostname == "aixbat2"
    rows = _rows(r)
    assert [(x.cpu, x.elapsed_s) for x in rows] == [(None, 0.0), (None, 600.0), (None, 1200.0), (None, 1800.0), (None, None)]
    assert all(x.is_partition for x in rows) and rows[-1].average and rows[1].values["%entc"] == 100.0


def test_a_dedicated_partition_has_no_entitlement_columns():
    r = sar.parse((FIX / "aix71_P_ALL_dedicated.txt").read_text())
    assert r.warnings == [] and r.hostname == "aixdb01"
    cfg = r.records[1]
    assert cfg.ent is None and cfg.type is None and cfg.mode == "Capped"
    part = [x for x in _rows(r) if x.is_partition and not x.average]
    assert [x.values["physc"] for x in part] == [1.40, 1.42] and "%entc" not in part[0].values


def test_damaged_rows_are_warned_with_their_line_and_never_raise():
    r = sar.parse((FIX / "damaged.txt").read_text())
    assert [(w.line, w.message.split(":")[0]) for w in r.warnings] == [
        (8, "not a data row"), (9, "not a processor row"), (10, "5 values for 6 columns"), (11, "7 values for 6 columns")]
    assert [x.values["%entc"] for x in _rows(r) if x.is_partition] == [186.0, None, 198.0]
    for text in ("", "sar -P ALL\n", "10:00:00 cpu %usr %sys %wio %idle\n  \x00 - - -\n", "Average\n", "AIX a 3 7 00C8E4F14C00 1/2/26\n"):
        sar.parse(text)


def test_other_sar_reports_are_not_read_as_processor_use():
    assert sar.detect("# sar -d 5 2\n\nAIX aix1 3 7 00C8E4F14C00    11/20/26\n") == 5
    assert [s.kind for s in split_and_classify("# sar -q 5 1\nrunq-sz %runocc\n1.0 100\n")] == [None]
    linux = ("# sar -P ALL 1 1\nLinux 5.14.0-362.el9.ppc64le (lnx1)  11/20/2026  _ppc64le_  (8 CPU)\n\n"
             "10:00:01 AM     CPU     %user     %nice   %system   %iowait    %steal     %idle\n"
             "10:00:02 AM     all      2.00      0.00      1.00      0.00      0.00     97.00\n")
    (seg,) = split_and_classify(linux)
    assert seg.kind is None and "Linux sysstat" in seg.reason


def test_the_partition_rows_are_the_host_series_and_feed_the_cpu_rules(tmp_path):
    shutil.copy(FIX / "aix73_P_ALL_shared_uncapped.txt", tmp_path / "sar_P_ALL.txt")
    shutil.copy(FIX / "aix72_u_shared_midnight.txt", tmp_path / "sar_u.txt")
    a = analyze([str(tmp_path)])
    assert {(i.kind, i.host, i.status) for i in a.estate.inputs} == {("sar", "aixweb3", "parsed"), ("sar", "aixbat2", "parsed")}
    web = a.estate.hosts["aixweb3"]
    assert web.cpu.origin == "sar" and web.cpu.values("physc") == [0.93, 0.85, 0.99]
    assert web.cpu.values("%user") == [55.0, 51.0, 58.0] and web.cpu.values("elapsed_s") == [0.0, 10.0, 20.0]
    assert [e.line for e in web.cpu.evidence] == [15, 24, 33]
    assert web.partition.entitled_capacity == 0.5 and web.partition.uncapped and web.partition.source == "sar header"
    (f,) = [f for f in a.findings if f.rule.id == "CPU-UNCAPPED-ABOVE-EC"]
    assert f.host == "aixweb3" and "185%" in f.message and f.values["suggested"] == "EC 0.95"
    assert not [f for f in a.findings if f.rule.id == "CPU-SMT-NOT-DEFAULT"]  # sar says nothing of SMT


def test_one_series_per_host(tmp_path):
    web = (FIX / "aix73_P_ALL_shared_uncapped.txt").read_text()
    (tmp_path / "a.txt").write_text("# sar -P ALL 10 3\n" + web)
    (tmp_path / "b.txt").write_text("# sar -u 10 3\n" + web)  # the same run, read again: not twice
    a = analyze([str(tmp_path)])
    assert len(a.estate.hosts["aixweb3"].cpu.samples) == 3
    (b,) = [i for i in a.estate.inputs if i.path.endswith("b.txt")]
    assert b.status == "partly" and "not added twice" in b.warnings[-1][1]
    lparstat = ("# lparstat 10 2\n\nSystem configuration: type=Shared mode=Uncapped smt=8 lcpu=8 mem=8192MB psize=8 ent=0.50\n\n"
                "%user  %sys  %wait  %idle physc %entc  lbusy  vcsw phint\n----- ----- ------ ------ ----- ----- ------ ----- -----\n"
                " 40.0  10.0    0.0   50.0  0.60 120.0   30.0   400     0\n 42.0  10.0    0.0   48.0  0.62 124.0   31.0   410     0\n")
    (tmp_path / "c.txt").write_text(lparstat.replace("# lparstat", "root@aixweb3:/ # lparstat"))
    a = analyze([str(tmp_path)])
    assert a.estate.hosts["aixweb3"].cpu.values("physc") == [0.60, 0.62]  # lparstat's own series wins
