from pathlib import Path

from lparscope.sources import netstat_s
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "netstat-s"


def parse(name):
    return netstat_s.parse((FIX / name).read_text())


def test_full_netstat_s_sections_counters_and_summary():
    text = (FIX / "aix72_netstat_s_udp_overflows.txt").read_text()
    assert netstat_s.detect(text) >= 90
    r = netstat_s.parse(text)
    assert r.warnings == [] and r.hostname == "aixdb1"
    *sections, summary = r.records
    assert [s.protocol for s in sections] == ["icmp", "igmp", "tcp", "udp", "ip", "ipv6", "icmpv6"]
    tcp = {s.protocol: s for s in sections}["tcp"]
    c = tcp.counters
    assert (c["packets_sent"], c["data_packets"], c["data_packets_bytes"]) == (30788155, 20613843, 1993421537)
    assert (c["data_packets_retransmitted"], c["data_packets_retransmitted_bytes"]) == (8151, 7903124)
    assert (c["connections_closed"], c["connections_closed_drops"]) == (34120, 1407)
    assert c["acks_bytes"] == 1993397420 and c["ack_only_packets_delayed"] == 4011432
    # the same description under two parents: the second is keyed under its parent
    assert c["window_update_packets"] == 3790531 and c["packets_received.window_update_packets"] == 113451
    assert tcp.lines["data_packets_retransmitted"] == 30
    assert tcp.descriptions["data_packets_retransmitted"] == "data packets (7903124 bytes) retransmitted"
    icmp = sections[0].counters
    assert icmp["output_histogram.echo_reply"] == 1436 and icmp["input_histogram.echo_reply"] == 4
    assert summary.tcp_retransmitted_packets == 8151 and summary.tcp_retransmit_timeouts == 1320
    assert summary.udp_socket_buffer_overflows == 4187 and summary.lines["udp_socket_buffer_overflows"] == 116
    assert summary.udp_datagrams_received == 8732910 and summary.udp_bad_checksums == 0
    assert summary.ip_fragments_dropped == 0 and summary.ip_fragments_timed_out == 6
    assert summary.ip_full_socket_buffer_drops == 4187 and summary.lines["ip_full_socket_buffer_drops"] == 156
    assert summary.tcp_bad_checksums == 0 and summary.ip_bad_header_checksums == 0


def test_one_protocol_output_and_spaces_instead_of_tabs():
    r = parse("aix71_netstat_s_p_udp_clean.txt")
    assert r.warnings == [] and r.hostname is None
    udp, summary = r.records
    assert udp.protocol == "udp" and udp.counters["broadcast_multicast_datagrams_dropped_due_to_no_socket"] == 5108
    assert summary.udp_socket_buffer_overflows == 0 and summary.tcp_packets_sent is None


def test_classified_without_a_prompt_and_not_taken_for_other_netstat_outputs():
    text = (FIX / "aix72_netstat_s_udp_overflows.txt").read_text().split("\n", 1)[1]
    (seg,) = split_and_classify(text)
    assert seg.kind == "netstat-s"
    (seg,) = split_and_classify("# netstat -s -p tcp\ntcp:\n\t12 packets sent\n")
    assert seg.kind == "netstat-s"
    assert netstat_s.detect("Name  Mtu   Network     Address            Ipkts Ierrs    Opkts Oerrs  Coll\n"
                            "en0   1500  link#2      fa.16.3e.1.2.3   1234     0     5678     0     0\n") == 0


def test_bad_lines_are_warned_with_their_line_and_reading_goes_on():
    r = netstat_s.parse("tcp:\n\t12 packets sent\n\tgarbage here\nudp:\n\t5 socket buffer overflows\n")
    assert [(w.line, "not a netstat -s counter line" in w.message) for w in r.warnings] == [(3, True)]
    assert r.records[-1].udp_socket_buffer_overflows == 5 and r.records[-1].tcp_packets_sent == 12
    empty = netstat_s.parse("nothing to see\n")
    assert empty.records == [] and empty.warnings[-1].message.startswith("no protocol section")
