import numpy as np

from lparscope.nmon.model import NmonRecording, NmonTable
from lparscope.rules.measured import series as measured_series

from .conftest import host, run_rule


def _table(name, columns, rows):
    n = len(rows)
    times = np.datetime64("2026-11-02T08:00:00") + np.arange(n) * np.timedelta64(60, "s")
    return NmonTable(name=name, title=name, columns=columns, snapshots=np.arange(1, n + 1), times=times,
                     values=np.asarray(rows, dtype=float), first_line=10, lines=np.arange(100, 100 + n))


def _host(role="aix", **tables):
    h = host("aix9", role)
    h.nmon = NmonRecording(host="aix9", tables=tables)
    h.nmon_path = "aix9.nmon"
    return h


def test_run_queue_per_logical_cpu():
    lpar = _table("LPAR", ["logicalCPUs"], [[8]] * 60)
    busy = _host(LPAR=lpar, PROC=_table("PROC", ["Runnable"], [[20]] * 60))
    (f,) = run_rule(measured_series.runq, busy)
    assert "8 lcpu" in f.message and f.evidence[0].path == "aix9.nmon" and f.evidence[0].line >= 100
    assert run_rule(measured_series.runq, _host(LPAR=lpar, PROC=_table("PROC", ["Runnable"], [[3]] * 60))) == []


def test_paging_space_series():
    (f,) = run_rule(measured_series.paging_series, _host(PAGE=_table("PAGE", ["pgsin", "pgsout"], [[5, 7]] * 60)))
    assert "60 of 60" in f.message and "chhwres" in f.fix.hmc[0]
    assert run_rule(measured_series.paging_series, _host(PAGE=_table("PAGE", ["pgsin", "pgsout"], [[0, 0]] * 60))) == []


def test_network_errors_series():
    bad = _host(NETERROR=_table("NETERROR", ["en0-ierrs", "en0-oerrs", "en1-ierrs"], [[3, 0, 0]] * 30))
    (f,) = run_rule(measured_series.net_errors, bad)
    assert f.subject == "en0" and "entstat -d ent0" in f.fix.root[0]
    clean = _host(NETERROR=_table("NETERROR", ["en0-ierrs", "en0-oerrs"], [[0, 0]] * 30))
    assert run_rule(measured_series.net_errors, clean) == []


def test_sea_traffic_on_a_vios_only():
    sea = _table("SEA", ["ent8-read-KB/s", "ent8-write-KB/s"], [[60000, 60000]] * 30)  # ~0.98 Gbit/s
    (f,) = run_rule(measured_series.sea_traffic, _host("vios", SEA=sea))
    assert "ent8" in f.message and "Gbit/s" in f.message
    assert run_rule(measured_series.sea_traffic, _host("aix", SEA=sea)) == []


def test_run_queue_at_the_maximum_vps_proposes_no_dlpar_add():
    lpar = _table("LPAR", ["logicalCPUs"], [[8]] * 60)
    busy = _host(LPAR=lpar, PROC=_table("PROC", ["Runnable"], [[20]] * 60))
    busy.partition.online_vps = busy.partition.max_vps = 2
    (f,) = run_rule(measured_series.runq, busy)
    assert not any(c.startswith("chhwres") for c in f.fix.hmc) and "maximum of 2 virtual processors" in f.fix.hmc[0]
