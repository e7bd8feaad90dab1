"""NET-UDP-SOCKBUF-OVERFLOW: UDP datagrams dropped on full socket buffers (netstat -s)."""

import shutil
from pathlib import Path

from lparscope.model.estate import Setting, Sourced
from lparscope.pipeline import analyze
from lparscope.rules.config import Config
from lparscope.rules.network import udp_buffers
from lparscope.sources.netstat_s import NetstatSummary

from .conftest import ev, host, run_rule

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "netstat-s"


def _host(overflows, received=1_000_000, **tunables):
    h = host()
    s = NetstatSummary(line=2, udp_socket_buffer_overflows=overflows, udp_datagrams_received=received,
                       lines={"udp_socket_buffer_overflows": 9, "udp_datagrams_received": 3})
    h.protocol_stats = Sourced(s, "netstat_s.txt", 10)
    for k, v in tunables.items():
        h.tunables[k] = Setting(str(v), ev(20, "no_a.txt"))
    return h


def test_overflows_raise_udp_recvspace_and_sb_max_with_rollback():
    (f,) = run_rule(udp_buffers.udp_sockbuf_overflow, _host(500, udp_recvspace=42080, sb_max=1048576))
    assert f.severity is None and "500 UDP datagrams dropped" in f.message and "0.050%" in f.message
    assert f.fix.root[0] == "no -p -o udp_recvspace=655360" and "no -p -o sb_max=1310720" in f.fix.root
    assert "no -p -o udp_recvspace=42080" in f.rollback.root and "no -p -o sb_max=1048576" in f.rollback.root
    assert [(e.path, e.line) for e in f.evidence][:2] == [("netstat_s.txt", 19), ("netstat_s.txt", 13)]
    assert {c.attribute for c in f.changes} == {"udp_recvspace", "sb_max"}


def test_already_large_buffer_proposes_no_tunable_and_small_share_is_info():
    (f,) = run_rule(udp_buffers.udp_sockbuf_overflow, _host(500, udp_recvspace=655360, sb_max=4194304))
    assert not f.changes and not any(c.startswith("no -p") for c in f.fix.root)
    assert "already 655360" in " ".join(f.fix.root)
    (g,) = run_rule(udp_buffers.udp_sockbuf_overflow, _host(50, udp_recvspace=42080))  # 0.005 %
    assert g.severity == "info"


def test_share_below_the_floor_is_quiet_and_the_floor_is_configurable():
    # 574 overflows out of 1,225,766,753 datagrams (0.00005 %): no finding, no plan change
    assert run_rule(udp_buffers.udp_sockbuf_overflow, _host(574, 1_225_766_753, udp_recvspace=42080)) == []
    assert run_rule(udp_buffers.udp_sockbuf_overflow, _host(9, udp_recvspace=42080)) == []  # 0.0009 %
    (f,) = run_rule(udp_buffers.udp_sockbuf_overflow, _host(10, udp_recvspace=42080))  # 0.001 %: at the floor
    assert f.severity == "info" and f.changes
    cfg = Config(thresholds={udp_buffers.OVERFLOW_FLOOR: 0.0})
    (g,) = run_rule(udp_buffers.udp_sockbuf_overflow, _host(574, 1_225_766_753, udp_recvspace=42080), cfg)
    assert g.severity == "info" and "574 UDP datagrams" in g.message
    (h,) = run_rule(udp_buffers.udp_sockbuf_overflow, _host(574, None, udp_recvspace=42080))
    assert h.severity is None  # without the datagram count there is no share to weigh: reported


def test_quiet_without_overflows_or_without_netstat_s():
    assert run_rule(udp_buffers.udp_sockbuf_overflow, _host(0)) == []
    assert run_rule(udp_buffers.udp_sockbuf_overflow, host()) == []


def test_from_netstat_s_output(tmp_path):
    shutil.copy(FIX / "aix72_netstat_s_udp_overflows.txt", tmp_path / "aixdb1_netstat_s.txt")
    a = analyze([str(tmp_path)])
    (f,) = [f for f in a.findings if f.rule.id == "NET-UDP-SOCKBUF-OVERFLOW"]
    assert f.host == "aixdb1" and "4187 UDP datagrams" in f.message and "ip counts 4187" in f.message
    assert f.evidence[0].line == 116
    shutil.copy(FIX / "aix71_netstat_s_p_udp_clean.txt", tmp_path / "aixdb1_netstat_s.txt")
    assert not [f for f in analyze([str(tmp_path)]).findings if f.rule.id == "NET-UDP-SOCKBUF-OVERFLOW"]
