from pathlib import Path

import pytest

from lparscope.sources import nettest
from lparscope.sources.detect import split_and_classify
from lparscope.sources.nettest import LatencyTest, ThroughputTest

FIX = Path(__file__).parent.parent / "fixtures" / "nettest"


def _read(name):
    text = (FIX / name).read_text()
    return text, nettest.parse(text)


def test_iperf2_client_parallel_then_single():
    text, r = _read("iperf2_client_parallel.txt")
    assert nettest.detect(text) >= 95 and r.warnings == [] and r.hostname == "lpar7"
    par, single = r.records
    assert (par.tool, par.role, par.peer, par.local_address, par.peer_address, par.streams) == (
        "iperf", "client", "lpar8", "192.168.40.17", "192.168.40.18", 2)
    assert par.total_bps == pytest.approx(430e6) and par.stream_bps == [pytest.approx(210e6), pytest.approx(220e6)]
    assert par.per_stream_bps == pytest.approx(215e6) and par.line == 11
    assert par.command == "iperf -c lpar8 -P 2"
    # interval reports (1.0-2.0) are not the summary; the 0.0-10.0 line is
    assert (single.streams, single.seconds, single.line) == (1, 10.0, 21)
    assert single.total_bps == pytest.approx(240e6) and single.command == "iperf -c lpar8"


def test_iperf2_server_two_runs():
    text, r = _read("iperf2_server.txt")
    assert nettest.detect(text) >= 85 and r.warnings == []
    one, two = r.records
    assert (one.role, one.streams, one.total_bps) == ("server", 1, pytest.approx(5.97e9))
    assert (two.streams, two.total_bps, two.local_address) == (2, pytest.approx(6.97e9), "192.168.40.18")


def test_iperf3_keeps_the_sender_summary():
    _, r = _read("iperf3_client.txt")
    (t,) = r.records
    assert (t.peer, t.streams, t.seconds, t.line) == ("192.168.40.18", 1, 3.0, 10)
    assert t.total_bps == pytest.approx(4.57e9)


def test_ftp_of_dd():
    text, r = _read("ftp_dd.txt")
    assert nettest.detect(text) >= 80
    (t,) = r.records
    assert (t.tool, t.role, t.peer, t.bytes, t.seconds, t.line) == ("ftp", "sender", "lpar8.example.com", 8589934592, 68.72, 14)
    assert t.total_bps == pytest.approx(8589934592 * 8 / 68.72)


def test_ping_aix_and_linux():
    _, r = _read("ping_aix.txt")
    (p,) = r.records
    assert (p.tool, p.target, p.sent, p.received, p.loss_pct, p.avg_ms, p.max_ms) == ("ping", "lpar8", 5, 4, 20.0, 0.0, 1.0)
    assert (p.lines["counts"], p.lines["rtt"]) == (9, 10)
    text, r = _read("ping_linux.txt")
    assert nettest.detect(text) >= 80
    (p,) = r.records
    assert (p.target, p.sent, p.received, p.loss_pct, p.avg_ms) == ("lpar8", 2, 2, 0.0, 0.064)


def test_netlatency_example_3_28_format():
    text, r = _read("netlatency.txt")
    assert nettest.detect(text) >= 95 and r.warnings == []
    (t,) = r.records
    assert isinstance(t, LatencyTest)
    assert (t.tool, t.target, t.interface, t.avg_ms, t.sent, t.line) == ("netlatency", "lpar8", "en1", 0.0900031, 4, 8)
    assert t.min_ms == pytest.approx(0.0460148) and len(t.samples) == 4


def test_segments_are_classified_as_nettest():
    for name in ("iperf2_client_parallel.txt", "netlatency.txt", "iperf2_server.txt", "ftp_dd.txt"):
        kinds = {s.kind for s in split_and_classify((FIX / name).read_text())}
        assert kinds == {"nettest"}, (name, kinds)


def test_bad_input():
    _, r = _read("bad.txt")
    assert [w.line for w in r.warnings] == [3]
    assert not [x for x in r.records if isinstance(x, ThroughputTest)]
    r = nettest.parse("just some words\n")
    assert r.records == [] and [w.line for w in r.warnings] == [1]
    assert nettest.detect("just some words") == 0
