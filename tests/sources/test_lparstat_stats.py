from pathlib import Path

import pytest

from lparscope.sources import lparstat_stats as ls
from lparscope.sources.lparstat_stats import LparstatConfig, LparstatSample

FIX = Path(__file__).parent.parent / "fixtures" / "lparstat"


def split(r):
    return ([x for x in r.records if isinstance(x, LparstatConfig)],
            [x for x in r.records if isinstance(x, LparstatSample)])


def test_aix71_shared_interval_with_dash_row():
    text = (FIX / "aix71_shared_interval.txt").read_text()
    assert ls.detect(text) >= 90
    r = ls.parse(text)
    assert r.warnings == []
    (cfg,), samples = split(r)
    assert (cfg.type, cfg.mode, cfg.smt, cfg.lcpu, cfg.mem_mb, cfg.psize, cfg.ent) == (
        "Shared", "Uncapped", "4", 16, 32768, 24.0, 2.5)
    assert cfg.line == 3 and cfg.mmode is None
    assert len(samples) == 4
    first = samples[0]
    assert first.line == 7 and first.values["%entc"] == 116.4 and first.values["physc"] == 2.91
    assert first.values["app"] == 18.22 and first.values["vcsw"] == 9921.0
    assert all(v is None for v in samples[3].values.values())
    st = ls.column_stats(samples, "%entc")
    assert st.count == 3 and st.max == 139.2 and st.mean == pytest.approx((116.4 + 139.2 + 94.8) / 3)
    assert ls.summary(samples)["physc"].min == 2.37


def test_aix72_lparstat_c_ame_columns_and_prompt_host():
    r = ls.parse((FIX / "aix72_ame_c.txt").read_text())
    assert r.warnings == [] and r.hostname == "appsrv9"
    (cfg,), samples = split(r)
    assert cfg.mmode == "Ded-E" and cfg.mem_mb == 20480 and cfg.tmem_mb == 12288 and cfg.smt == "8"
    assert [s.values["dxm"] for s in samples] == [0.0, 312.0, 96.0]
    assert samples[1].values["xphysc"] == 0.2212 and samples[1].values["%xcpu"] == 5.6
    assert ls.column_stats(samples, "dxm").max == 312.0


def test_aix72_dedicated_columns_mapped_by_header():
    text = (FIX / "aix72_dedicated_nsp.txt").read_text()
    assert ls.detect(text) >= 80
    r = ls.parse(text)
    (cfg,), samples = split(r)
    assert cfg.type == "Dedicated" and cfg.ent is None and cfg.psize is None
    assert list(samples[0].values) == ["%user", "%sys", "%wait", "%idle", "%nsp", "%utcyc"]
    assert samples[1].values["%nsp"] == 100.0


def test_hypervisor_report_scores_low():
    text = (FIX / "aix71_lparstat_H_excerpt.txt").read_text()
    assert ls.detect(text) <= 10
    assert ls.detect("# lparstat -H 1 1\n\nSystem configuration: type=Shared\n") <= 10
    assert ls.detect("Node Name : aix1\nPartition Name : p\n") == 0


def test_linux_lparstat_E_scores_low_and_does_not_raise():
    text = ("System configuration: type=Shared mode=Uncapped smt=8 lcpu=16 mem=66000000 kB cpus=20 ent=4.00\n\n"
            "---Actual---                 -Normalized-\n%busy  %idle   Frequency     %busy  %idle\n"
            "------ ------  ------------- ------ ------\n 12.00  88.00  3.50GHz[100%]  12.00  88.00\n")
    assert ls.detect(text) <= 10
    ls.parse(text)


def test_commands_regex():
    import re
    ok = [c for c in ("lparstat 1 5", "lparstat -c 2 3", "lparstat", "lparstat -i", "lparstat -H 1 1", "lparstat -h 1 1")
          if any(re.search(p, c) for p in ls.COMMANDS)]
    assert ok == ["lparstat 1 5", "lparstat -c 2 3", "lparstat"]


def test_bad_rows_warn_with_line_numbers():
    text = "%user %sys %wait %idle\n----- ----- ----- -----\n1.0 2.0 3.0 94.0\nabc def\n1.0 2.0\n"
    r = ls.parse(text)
    _, samples = split(r)
    assert len(samples) == 2 and samples[1].values["%idle"] is None
    assert [w.line for w in r.warnings] == [4, 5]
    assert ls.parse("12 34\n").warnings[0].line == 1


def test_the_configuration_line_alone_is_read():
    text = "System configuration: type=Shared mode=Uncapped smt=8 lcpu=16 mem=32768MB psize=24 ent=1.50\n"
    assert ls.detect(text) >= 60
    (cfg,) = ls.parse(text).records
    assert isinstance(cfg, LparstatConfig) and (cfg.type, cfg.mode, cfg.smt, cfg.lcpu) == ("Shared", "Uncapped", "8", 16)
    # a configuration line over some other text is not enough alone
    assert ls.detect(text + "some other line\n") < 50


LINUX_LPARSTAT = """# lparstat 1 2

System Configuration
type=Shared mode=Uncapped smt=Off lcpu=4 mem=7759616 kB cpus=6 ent=1.00

%user  %sys %wait    %idle    physc %entc lbusy   app  vcsw phint
----- ----- -----    -----    ----- ----- ----- ----- ----- -----
 1.02  0.51  0.00    98.47     0.03  3.10  1.53  5.71   512     0
 0.98  0.49  0.00    98.53     0.03  2.95  1.47  5.72   498     0
"""


def test_powerpc_utils_lparstat_on_a_linux_partition():
    r = ls.parse(LINUX_LPARSTAT)
    cfg = next(x for x in r.records if isinstance(x, LparstatConfig))
    assert (cfg.platform, cfg.type, cfg.smt, cfg.lcpu, cfg.mem_mb, cfg.ent) == ("linux", "Shared", "Off", 4, 7577, 1.0)
    assert r.warnings == [] and len([x for x in r.records if isinstance(x, LparstatSample)]) == 2
    assert ls.detect(LINUX_LPARSTAT.replace("# lparstat 1 2\n", "")) >= 60


def test_a_linux_partition_is_not_judged_as_aix(tmp_path):
    from lparscope.pipeline import analyze

    (tmp_path / "lnx4").mkdir()
    (tmp_path / "lnx4" / "lparstat.txt").write_text(LINUX_LPARSTAT)
    a = analyze([str(tmp_path)])
    assert a.estate.hosts["lnx4"].role == "linux"
    assert not [f for f in a.findings if f.rule.id == "CPU-SMT-NOT-DEFAULT"]  # smt=Off: no smtctl advice
