from lparscope.model.build import apply
from lparscope.rules.config import Config
from lparscope.rules.measured import network_tests as measured_network_tests
from lparscope.sources import netif, nettest

from .conftest import device, host, run_rule

IPERF = """root@lpar7:/ # iperf -c lpar8
------------------------------------------------------------
Client connecting to lpar8, TCP port 5001
TCP window size:  256 KByte (default)
------------------------------------------------------------
[  3] local 10.1.1.7 port 51020 connected with 10.1.1.8 port 5001
[ ID] Interval       Transfer     Bandwidth
[  3]  0.0-10.0 sec  1.13 GBytes   {rate}
"""

FTP = """root@lpar7:/ # ftp lpar8
Connected to lpar8.
8589934592 bytes sent in {secs} seconds (9.9e+04 Kbytes/s)
"""

NETLAT = """root@lpar7:/usr/local/bin # ./netlatency.sh -i en0 -d lpar8 -c 2

Latency Packet 1 : 0.0641 ms
Latency Packet 2 : 0.0442 ms

Average latency (RTT): 0.05415 ms
"""


def _host(mtu_bypass="off", text=IPERF.format(rate="971 Mbits/sec")):
    h = host("lpar7")
    device(h, "en0", "interface", mtu_bypass=mtu_bypass, netaddr="10.1.1.7")
    device(h, "en1", "interface", mtu_bypass="off", netaddr="10.9.9.7")
    apply(h, "nettest", nettest.parse(text), "iperf.txt", 0)
    return h


def test_iperf_below_share_without_largesend():
    (f,) = run_rule(measured_network_tests.throughput_without_largesend, _host())
    assert f.subject == "en0"  # the test's local address picks en0, not en1
    assert "0.97 Gb/s per stream" in f.message and "below 1.90 Gb/s" in f.message
    assert f.fix.root[0] == "chdev -l en0 -a mtu_bypass=on" and f.rollback.root == ["chdev -l en0 -a mtu_bypass=off"]
    assert {str(e) for e in f.evidence} == {"t.txt:7", "iperf.txt:8"}


def test_ftp_dd_single_stream_and_threshold():
    h = _host(text=FTP.format(secs="69.40"))  # 0.99 Gb/s: 001's "1 Gb/s without largesend"
    found = run_rule(measured_network_tests.throughput_without_largesend, h)
    # no local address in an ftp summary: every en interface without largesend is reported
    assert [x.subject for x in found] == ["en0", "en1"]
    assert "ftp to lpar8: 0.99 Gb/s" in found[0].message and found[0].values["suggested"].startswith("mtu_bypass=on")
    assert run_rule(measured_network_tests.throughput_without_largesend, h, Config(thresholds={"meas_throughput_min_share": 0.2})) == []


def test_quiet_with_largesend_fast_result_or_receiver_side():
    assert run_rule(measured_network_tests.throughput_without_largesend, _host(mtu_bypass="on")) == []
    assert run_rule(measured_network_tests.throughput_without_largesend, _host(text=IPERF.format(rate="3.81 Gbits/sec"))) == []
    server = IPERF.replace("root@lpar7:/ # iperf -c lpar8\n", "root@lpar7:/ # iperf -s\n").replace(
        "Client connecting to lpar8, TCP port 5001", "Server listening on TCP port 5001")
    assert run_rule(measured_network_tests.throughput_without_largesend, _host(text=server)) == []


def test_largesend_flag_from_ifconfig_when_no_attribute():
    h = host("lpar7")
    apply(h, "netif", netif.parse("root@lpar7:/ # ifconfig -a\n"
                                  "en0: flags=1e084863,480<UP,BROADCAST,NOTRAILERS,RUNNING,SIMPLEX,MULTICAST,GROUPRT,64BIT,CHECKSUM_OFFLOAD(ACTIVE),CHAIN>\n"
                                  "\tinet 10.1.1.7 netmask 0xffffff00 broadcast 10.1.1.255\n"), "ifconfig.txt", 0)
    device(h, "en0", "interface")
    h.devices["en0"].attrs.clear()
    apply(h, "nettest", nettest.parse(IPERF.format(rate="971 Mbits/sec")), "iperf.txt", 0)
    (f,) = run_rule(measured_network_tests.throughput_without_largesend, h)
    assert "ifconfig.txt:2" in {str(e) for e in f.evidence}


def test_latency_is_context():
    h = host("lpar7")
    apply(h, "nettest", nettest.parse(NETLAT), "lat.txt", 0)
    (f,) = run_rule(measured_network_tests.measured_latency, h)
    assert f.level == "info" and "average RTT 0.05415 ms" in f.message and "via en0" in f.message
    assert f.fix.root[-1] == "./netlatency.sh -i en0 -d lpar8 -c 20"
    assert [str(e) for e in f.evidence] == ["lat.txt:6"]
    empty = host("lpar9")
    apply(empty, "nettest", nettest.parse("root@lpar9:/ # ./netlatency.sh -i en0 -d x -c 2\nAverage latency (RTT): nan ms\n"), "l.txt", 0)
    assert run_rule(measured_network_tests.measured_latency, empty) == []


def test_ping_loss_reported_in_context():
    h = host("lpar7")
    apply(h, "nettest", nettest.parse("root@lpar7:/ # ping -c 5 lpar8\n----lpar8 PING Statistics----\n"
                                      "5 packets transmitted, 4 packets received, 20% packet loss\n"
                                      "round-trip min/avg/max = 0/0/1 ms\n"), "ping.txt", 0)
    (f,) = run_rule(measured_network_tests.measured_latency, h)
    assert "20% packet loss" in f.message and "4/5 replies" in f.message


def test_sizing_from_use_pinned_at_a_cap_proposes_nothing():
    # capped at EC 1.0 with 2 VPs and pinned there: the series measures the cap, not the demand, so
    # CPU-SIZING-MEASURED stays quiet (CPU-CAPPED-PINNED says what to do); it used to cut 2 VP to 1
    import numpy as np
    from lparscope.rules.measured import sizing as measured_sizing
    from lparscope.sizing.cpu import size_partition
    times = np.arange(np.datetime64("2026-11-19T08:00"), np.datetime64("2026-11-19T16:00"), np.timedelta64(5, "m"))
    pinned = np.full(times.size, 0.99)
    h = host("capped1", entitled_capacity=1.0, online_vps=2, mode="Capped")
    h.sizing = size_partition(times, pinned, ec=1.0, vp=2, pool_cores=12, capped=True)
    assert (h.sizing.recommended_ec, h.sizing.recommended_vp, h.sizing.recommended_uncapped) == (1.0, 2, True)
    assert run_rule(measured_sizing.sizing_measured, h) == []
    # the same use uncapped is measured demand: sized, it proposes what it measured
    h.sizing = size_partition(times, pinned, ec=2.0, vp=4, pool_cores=12, capped=False)
    (f,) = run_rule(measured_sizing.sizing_measured, h)
    assert "recommended EC 1.00, 1 VP" in f.message
