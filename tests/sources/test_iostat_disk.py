from pathlib import Path

import pytest

from lparscope.sources import iostat_disk as io
from lparscope.sources.iostat_disk import DiskIoSample, IostatConfig

FIX = Path(__file__).parent.parent / "fixtures" / "iostat-D"


def samples(r):
    return [x for x in r.records if isinstance(x, DiskIoSample)]


def test_stanza_form_two_disks_two_intervals_with_suffixes():
    text = (FIX / "aix72_stanza_two_disks.txt").read_text()
    assert io.detect(text) >= 90
    r = io.parse(text)
    assert r.warnings == []
    assert io.disk_config(r) == {"lcpu": 16, "drives": 4, "paths": 8, "vdisks": 0}
    s = samples(r)
    assert [(x.disk, x.interval) for x in s] == [("hdisk2", 0), ("hdisk3", 0), ("hdisk2", 1), ("hdisk3", 1)]
    h2 = s[0]
    assert h2.line == 5 and h2.tm_act == 12.4 and h2.bps == 2.6e6 and h2.bread == 1.1e6
    assert h2.rps == 70.1 and h2.read_avgserv == 2.8 and h2.read_maxserv == 88.4
    assert h2.write_maxserv == 1200.0  # "1.2S" -> ms
    assert h2.sqfull == 3200.0 and h2.maxtime == 210.7
    assert h2.lines["sqfull"] == 12 and h2.lines["wps"] == 10
    busy = s[2]
    assert busy.avgwqsz == 6.0 and busy.avgsqsz == 12.0 and busy.sqfull == 402.0 and busy.avgtime == 14.2
    assert s[1].bwrtn == pytest.approx(16400.0)


def test_long_form_DRTl_with_timestamps():
    text = (FIX / "aix71_long_DRTl.txt").read_text()
    assert io.detect(text) >= 90
    r = io.parse(text)
    assert r.warnings == []
    s = samples(r)
    assert [(x.disk, x.interval, x.timestamp) for x in s] == [
        ("hdisk0", 0, "14:02:10"), ("hdisk4", 0, "14:02:10"), ("hdisk0", 1, "14:02:20"), ("hdisk4", 1, "14:02:20")]
    h4 = s[1]
    assert h4.line == 10 and h4.bps == pytest.approx(96.1e6) and h4.tps == 733.0
    assert h4.read_maxserv == 1300.0 and h4.wps == 45.0 and h4.write_maxserv == 20.2
    assert (h4.avgtime, h4.mintime, h4.maxtime, h4.avgwqsz, h4.avgsqsz, h4.sqfull) == (22.9, 0.0, 310.4, 9.0, 16.0, 251.0)


def test_seed004_collapsed_long_form_several_disks_per_line():
    # Re-typed from seed 004_39e9519fe8a18f63.txt ("# iostat -DTRl 1", first run):
    # whitespace collapsed, four disks per printed line, truncated header remnants ("ac", "act").
    text = (FIX / "seed004_collapsed_DTRl.txt").read_text()
    assert io.detect(text) >= 90
    r = io.parse(text)
    assert r.warnings == []
    assert io.disk_config(r)["drives"] == 4
    h3 = [x for x in samples(r) if x.disk == "hdisk3"]
    assert [x.sqfull for x in h3] == [1072.0, 1175.0, 1147.0]
    assert [x.timestamp for x in h3] == ["03:11:53", "03:11:54", "03:11:55"]
    assert h3[0].bps == pytest.approx(140.5e6) and h3[0].wps == 1072.0 and h3[0].avgwqsz == 152.0
    assert h3[0].tm_act == 100.0 and h3[0].line == 5 and h3[1].line == 8
    assert len(samples(r)) == 12 and {x.interval for x in samples(r)} == {0, 1, 2}


def test_salt_style_dD_with_prompt_host_and_K_suffix():
    text = (
        "root@dbhost4:/ # iostat -dD hdisk6 1 2\n\n"
        "hdisk6          xfer:  %tm_act      bps      tps      bread      bwrtn\n"
        "                         9.6     16.4K     4.0       16.4K       0.0\n"
        "               read:      rps  avgserv  minserv  maxserv   timeouts      fails\n"
        "                         4.0      4.9      0.3      9.9           0          0\n"
    )
    r = io.parse(text)
    (s,) = samples(r)
    assert r.hostname == "dbhost4" and s.bps == pytest.approx(16400.0) and s.read_avgserv == 4.9
    assert s.wps is None and s.sqfull is None


def test_plain_iostat_disks_table_is_read_with_extra_columns():
    text = (FIX / "aix73_plain_iostat.txt").read_text()
    assert 20 <= io.detect(text) < 60
    r = io.parse(text)
    assert r.warnings == []
    s = samples(r)
    assert [x.disk for x in s] == ["hdisk0", "hdisk1"]
    assert s[1].tm_act == 61.0 and s[1].tps == 310.0 and s[1].extra["kbps"] == 20480.0 and s[1].bps is None


def test_number_suffixes():
    assert io.number("4.1K") == pytest.approx(4100.0) and io.number("1.2G") == pytest.approx(1.2e9)
    assert io.number("2.5S", is_time=True) == 2500.0 and io.number("1H", is_time=True) == 3600000.0
    assert io.number("x") is None and io.number("1.0Q") is None


def test_bad_input_warns():
    r = io.parse("hdisk0          xfer:  %tm_act      bps\n     1.0  zz\nrandom text line\n")
    assert [w.line for w in r.warnings] == [2, 3]
    assert io.parse("").records == [] and io.detect("") == 0
    r = io.parse("read: rps avgserv\n")
    assert r.warnings and r.warnings[0].line == 1


def test_physical_and_adapter_rows_are_not_disks(tmp_path):
    from lparscope.pipeline import analyze
    from lparscope.sources import iostat_disk

    text = (FIX / "aix72_Dl_with_physical_and_vscsi.txt").read_text()
    r = io.parse(text)
    scopes = {s.disk: s.scope for s in r.records if hasattr(s, "disk")}
    assert scopes == {"hdisk0": "disk", "hdisk1": "disk", "Physical": "total", "vscsi0": "adapter"}
    (tmp_path / "aix1_iostat.txt").write_text(text.replace("# iostat", "root@aix1:/ # iostat"))
    h = analyze([str(tmp_path)]).estate.hosts["aix1"]
    assert set(h.disk_io) == {"hdisk0", "hdisk1"} and set(h.io_totals) == {"Physical", "vscsi0"}
    assert h.disk_io["hdisk1"].samples[0]["sqfull"] == 12.0


def test_system_and_vadapter_summary_rows_in_their_own_layouts():
    from lparscope.sources.iostat_disk import SUMMARY_COLUMNS

    r = io.parse((FIX / "aix72_Dsal_system_vadapter.txt").read_text())
    assert r.warnings == [] and r.hostname == "lpardb04"
    rows = {s.disk: s for s in r.records if hasattr(s, "disk")}
    assert {d: s.scope for d, s in rows.items()} == {"Physical": "total", "vscsi0": "adapter", "vscsi1": "adapter",
                                                     "hdisk0": "disk", "hdisk1": "disk"}
    v = rows["vscsi0"]  # 19 values: Kbps tps bkread bkwrtn partition-id rps avg min max wps ... sqsz qfull
    assert (v.tps, v.rps, v.read_avgserv, v.wps, v.write_avgserv, v.avgsqsz, v.extra["partition_id"]) == \
        (206.1, 150.2, 31.4, 55.9, 2.1, 1.2, 1.0)
    assert v.tm_act is None and v.bwrtn is None and len(SUMMARY_COLUMNS[19]) == 19
    assert rows["Physical"].tps == 412.6 and rows["Physical"].extra["kb_wrtn"] == 40511388
    assert (rows["hdisk1"].read_avgserv, rows["hdisk1"].rps) == (4.4, 294.3)


def test_a_summary_row_in_an_unknown_layout_is_not_put_in_disk_columns():
    text = ("# iostat -Dl\nDisks: xfers read write queue\n"
            "%tm bps tps bread bwrtn rps avg min max time fail wps avg min max time fail avg min max avg avg serv\n"
            "fcs0  1.0 2.0 3.0 4.0 5.0 6.0 7.0\n")
    r = io.parse(text)
    (fcs,) = [s for s in r.records if hasattr(s, "disk")]
    assert fcs.tm_act is None and fcs.bps is None
    assert [w.message for w in r.warnings] == ["fcs0: summary row of 7 values in a layout not known: not read"]
