from pathlib import Path
from types import SimpleNamespace

from lparscope.model.estate import Estate, Setting, Sourced
from lparscope.pipeline import analyze
from lparscope.rules.network import tcpip as network_tcpip
from lparscope.sources.netif import Interface

from .conftest import device, ev, host, run_rule, stats


def _no(h, **values):
    for i, (k, v) in enumerate(values.items()):
        h.tunables[k] = Setting(str(v), ev(20 + i, "no.txt"))


def _ifconfig(h, name, **isno):
    rec = Interface(name=name, flags=["UP"], mtu=None, isno=dict(isno), line=1,
                    lines={k: 3 for k in isno})
    h.records.setdefault("netif", []).append(Sourced(rec, "ifconfig.txt", 10))
    h.interfaces.append(rec)


def _virtual_en(h, n=0, **en_attrs):
    device(h, f"ent{n}", "virtual", "Virtual I/O Ethernet Adapter (l-lan)",
           stats=stats(adapter_data_rate=20000, lines={"adapter_data_rate": 30}))
    device(h, f"en{n}", "interface", **en_attrs)


def test_isno_disabled_lists_ignored_interface_values():
    h = host()
    _no(h, use_isno=0)
    _ifconfig(h, "en0", tcp_sendspace=262144, tcp_recvspace=262144, rfc1323=1)
    (f,) = run_rule(network_tcpip.isno_disabled, h)
    assert f.fix.root[0] == "no -p -o use_isno=1" and f.rollback.root == ["no -p -o use_isno=0"]
    assert "en0: tcp_sendspace 262144" in f.message
    assert f.evidence[0].path == "no.txt" and f.evidence[1].path == "ifconfig.txt" and f.evidence[1].line == 13
    _no(h, use_isno=1)
    assert run_rule(network_tcpip.isno_disabled, h) == []


def test_isno_below_global_no():
    h = host()
    _no(h, use_isno=1, tcp_sendspace=524288, tcp_recvspace=16384, rfc1323=1)
    device(h, "en1", "interface", tcp_sendspace=131072, tcp_recvspace=65536, rfc1323=0)
    (f,) = run_rule(network_tcpip.isno_below_no, h)
    assert f.fix.root == ["chdev -l en1 -a tcp_sendspace=524288 -a rfc1323=1"]
    assert f.rollback.root == ["chdev -l en1 -a tcp_sendspace=131072 -a rfc1323=0"]


def test_isno_above_global_is_right():
    """The example's aix4: no defaults globally, ISNO 262144 / rfc1323 1 on en0."""
    h = host("aix4")
    _no(h, use_isno=1, tcp_sendspace=16384, tcp_recvspace=16384, rfc1323=0, sb_max=1048576, tcp_nodelayack=0)
    _ifconfig(h, "en0", tcp_sendspace=262144, tcp_recvspace=262144, rfc1323=1)
    device(h, "en0", "interface", tcp_sendspace=262144, tcp_recvspace=262144, rfc1323=1)
    for fn in (network_tcpip.isno_below_no, network_tcpip.isno_disabled, network_tcpip.sb_max_small, network_tcpip.nodelayack_global, network_tcpip.tcp_10g_window):
        assert run_rule(fn, h) == [], fn.__name__
    _virtual_en(h)  # now the link speed is known: still right
    h.devices["en0"].attrs.update({k: Setting(str(v), ev(7)) for k, v in
                                   dict(tcp_sendspace=262144, tcp_recvspace=262144, rfc1323=1).items()})
    assert run_rule(network_tcpip.tcp_10g_window, h) == []


def test_10g_window_falls_back_to_global_values():
    h = host()
    _no(h, use_isno=1, tcp_sendspace=16384, tcp_recvspace=16384, rfc1323=0)
    _virtual_en(h, tcp_sendspace="", tcp_recvspace="", rfc1323="")  # no ISNO set on the interface
    (f,) = run_rule(network_tcpip.tcp_10g_window, h)
    assert f.level == "warning" and "10000 Mbit/s" in f.message
    assert f.fix.root[0] == "chdev -l en0 -a rfc1323=1 -a tcp_sendspace=262144 -a tcp_recvspace=262144"
    assert f.rollback.root == ["chdev -l en0 -a rfc1323=0 -a tcp_sendspace=16384 -a tcp_recvspace=16384"]


def test_10g_window_buffers_only_is_info_and_isno_off_uses_no():
    h = host()
    _no(h, use_isno=0, tcp_sendspace=65536, tcp_recvspace=65536, rfc1323=1)
    _virtual_en(h, tcp_sendspace=262144, tcp_recvspace=262144, rfc1323=1)  # ignored: use_isno=0
    (f,) = run_rule(network_tcpip.tcp_10g_window, h)
    assert f.level == "info"
    assert f.fix.root[0] == "no -p -o tcp_sendspace=262144 -o tcp_recvspace=262144"
    # a 1 Gb physical port is not in scope
    g = host()
    _no(g, rfc1323=0)
    device(g, "ent0", "physical", "Gigabit Ethernet PCIe Adapter (e4145716e4142004)",
           stats=stats(media_speed_running="1000 Mbps Full Duplex"))
    device(g, "en0", "interface")
    assert run_rule(network_tcpip.tcp_10g_window, g) == []


def test_sb_max():
    h = host()
    _no(h, sb_max=1048576, tcp_sendspace=16384)
    _ifconfig(h, "en0", tcp_sendspace=1048576, tcp_recvspace=1048576, rfc1323=1)
    (f,) = run_rule(network_tcpip.sb_max_small, h)
    assert f.values == {"current": "1048576", "suggested": "2097152"}
    assert f.fix.root == ["no -p -o sb_max=2097152"] and f.rollback.root == ["no -p -o sb_max=1048576"]
    _no(h, sb_max=4194304)
    assert run_rule(network_tcpip.sb_max_small, h) == []


def test_nodelayack_global():
    h = host()
    _no(h, tcp_nodelayack=1)
    (f,) = run_rule(network_tcpip.nodelayack_global, h)
    assert f.level == "info" and f.fix.root[0] == "no -p -o tcp_nodelayack=0"
    assert f.rollback.root == ["no -p -o tcp_nodelayack=1"]
    _no(h, tcp_nodelayack=0)
    assert run_rule(network_tcpip.nodelayack_global, h) == []


def _estate(pvid, bridged=(10, 20), mtu=65390):
    e = Estate()
    v = e.hosts.setdefault("vios1", host("vios1", "vios"))
    device(v, "ent8", "sea", "Shared Ethernet Adapter",
           stats=stats(sea=SimpleNamespace(vlan_ids={"ent5": list(bridged)})))
    c = e.hosts.setdefault("aix1", host("aix1"))
    device(c, "ent0", "virtual", "Virtual I/O Ethernet Adapter (l-lan)", stats=stats(port_vlan_id=pvid))
    device(c, "en0", "interface", mtu=mtu, mtu_bypass="off")
    return e


def test_client_mtu_bridged_vlan_goes_back_to_1500_with_mtu_bypass():
    (f,) = run_rule(network_tcpip.client_mtu_raised, _estate(pvid=10, mtu=9000))
    assert "bridged by an SEA" in f.message and "001" in f.message
    assert f.fix.root == ["chdev -l en0 -a mtu=1500", "chdev -l en0 -a mtu_bypass=on"]
    assert f.rollback.root == ["chdev -l en0 -a mtu=9000", "chdev -l en0 -a mtu_bypass=off"]


def test_client_mtu_internal_vlan_is_the_redbook_case():
    (f,) = run_rule(network_tcpip.client_mtu_raised, _estate(pvid=100))
    assert "internal" in f.message and "65390" in f.message and f.values["suggested"].startswith("mtu=65390")


def test_client_mtu_quiet_at_1500_and_on_physical():
    assert run_rule(network_tcpip.client_mtu_raised, _estate(pvid=10, mtu=1500)) == []
    e = _estate(pvid=10, mtu=9000)
    e.hosts["aix1"].devices["ent0"].cls = "physical"  # jumbo frames on a physical port: not this rule
    assert run_rule(network_tcpip.client_mtu_raised, e) == []


# --- through the parsers: real-format text written for this test ------------------------------

NO_A = """\
root@aix9:/ # no -a | egrep 'space|rfc1323|sb_max|nodelayack|use_isno'
            tcp_recvspace = 16384
            tcp_sendspace = 16384
                  rfc1323 = 0
                   sb_max = 1048576
           tcp_nodelayack = 1
                 use_isno = 0
"""
IFCONFIG = """\
root@aix9:/ # ifconfig -a
en0: flags=1e084863,480<UP,BROADCAST,NOTRAILERS,RUNNING,SIMPLEX,MULTICAST,GROUPRT,64BIT,CHECKSUM_OFFLOAD(ACTIVE),CHAIN>
        inet 10.1.2.3 netmask 0xffffff00 broadcast 10.1.2.255
         tcp_sendspace 262144 tcp_recvspace 262144 rfc1323 1
"""


def test_tcp_rules_from_real_format_output(tmp_path: Path):
    d = tmp_path / "aix9"
    d.mkdir()
    (d / "no.txt").write_text(NO_A)
    (d / "ifconfig.txt").write_text(IFCONFIG)
    a = analyze([str(tmp_path)])
    got = {f.rule.id: f for f in a.findings if f.rule.id.startswith("NET-TCP")}
    assert set(got) == {"NET-TCP-ISNO-DISABLED", "NET-TCP-NODELAYACK-GLOBAL"}
    assert got["NET-TCP-ISNO-DISABLED"].evidence[0].line == 7
    assert "en0: tcp_sendspace 262144, tcp_recvspace 262144, rfc1323 1" in got["NET-TCP-ISNO-DISABLED"].message
