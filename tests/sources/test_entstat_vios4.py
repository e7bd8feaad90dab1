"""entstat -all / -d as VIOS 4.x prints it: the NEW_POOL_POLICY receive buffer table, the trailer of
transmit / receive settings, the newer 802.3ad summary, SEA thread blocks, ports whose link is down."""

from pathlib import Path

from lparscope.sources import entstat

FIX = Path(__file__).parent.parent / "fixtures" / "entstat"


def parse(name):
    return entstat.parse((FIX / name).read_text())


def by_name(result):
    return {r.name: r for r in result.records}


def test_new_pool_policy_table_keeps_every_row_per_pool():
    r = parse("vios4_trunk_pool_policy_ent31.txt")
    (a,) = r.records
    assert a.adapter_class == "trunk"
    assert list(a.receive_buffers) == ["tiny", "control", "small", "medium", "large", "huge"]
    small, huge = a.receive_buffers["small"], a.receive_buffers["huge"]
    assert (small["min_buffers"], small["max_buffers"], small["max_allocated"], small["lowest_registered"]) \
        == (2048, 4096, 2690, 1877)
    assert (huge["buffer_size"], huge["allocated"], huge["registered"], huge["max_allocated"]) == (65536, 96, 95, 128)
    assert a.receive_buffers["control"]["low_threshold_drops"] == 0
    assert "mapped" not in small  # 8 values for 6 pools: not a per-pool row, left out quietly
    assert a.lines["receive_buffers.max_allocated"] == 62 and a.lines["receive_buffers.min_buffers"] == 56
    assert a.specific["Receive Information / Receive Buffer Pools Policy"] == "NEW_POOL_POLICY"


def test_trailer_settings_are_read_without_warnings():
    r = parse("vios4_trunk_pool_policy_ent31.txt")
    assert r.warnings == []
    (a,) = r.records
    assert a.specific["Receive pool manager operation mode"] == "ALL_PMG"
    assert a.specific["Receive pool manager algorithm"] == "LEGACY_POOLMGR"
    assert a.specific["Receive operation mode"] == "PROCESS_INLINE"
    assert a.specific["Platform Large Send Offload"] == "Enabled" and a.lines["specific.Receive operation mode"] == 97
    assert a.counters["rx_packets"] == 902311  # the two-column area is still counters


def test_a_settings_line_in_the_main_counter_area_is_still_warned():
    text = ("ETHERNET STATISTICS (ent0) :\nDevice Type: Virtual I/O Ethernet Adapter (l-lan)\n"
            "Transmit Statistics:                          Receive Statistics:\n"
            "Packets: 5                                    Packets: 6\nReceive operation mode: PROCESS_INLINE\n")
    r = entstat.parse(text)
    assert [w.line for w in r.warnings] == [5] and "not a transmit/receive counter line" in r.warnings[0].message


def test_primary_aggregation_status_and_primary_adapters_banner():
    r = parse("vios4_sea_limbo_lacp_ent40.txt")
    assert r.warnings == []
    recs = by_name(r)
    ec = recs["ent30"].etherchannel
    assert ec.aggregation_status == "Negotiating" and ec.lines["aggregation_status"] == 105
    assert ec.lacp["Transmitted LACPDUs"] == "388" and ec.number_of_adapters == 2
    assert ec.members == ["ent2", "ent3"]
    assert (recs["ent2"].parent, recs["ent2"].role) == ("ent30", "member")


def test_sea_thread_blocks_are_kept_per_thread():
    sea = by_name(parse("vios4_sea_limbo_lacp_ent40.txt"))["ent40"].sea
    assert sorted(sea.threads) == [0, 1, 2]
    assert sea.threads[1]["queue_full_dropped_packets"] == 4 and sea.threads[1]["queue_max_packets_queued"] == 250
    assert sea.threads[0]["queue_packets_count"] == 5120 and sea.threads[2]["queue_packets_count"] == 4410
    assert sea.lines["threads.1.queue_full_dropped_packets"] == 50
    assert not any(k.startswith("Queue") for k in sea.extra)
    assert sea.thread_queue_overflow_packets == 7
    assert (sea.state, sea.ha_mode, sea.priority) == ("LIMBO", "Sharing", 2)


def test_link_down_leaves_no_running_speed():
    recs = by_name(parse("vios4_sea_limbo_lacp_ent40.txt"))
    for name, raw in (("ent2", "Unknown"), ("ent3", "Auto-negotiation")):
        port = recs[name]
        assert port.link_status == "Down" and port.media_speed_running is None
        assert "media_speed_running" not in port.lines and port.specific["Physical Port Speed"] == raw


def test_running_speed_only_from_a_speed_value():
    head = "ETHERNET STATISTICS (ent5) :\nDevice Type: PCIe3 4-Port 10GbE SR Adapter\n" \
           "Transmit Statistics:                          Receive Statistics:\n" \
           "Packets: 1                                    Packets: 2\n\nGeneral Statistics:\n-------------------\n" \
           "Adapter Data Rate: 10000\n\nDevice Statistics:\n------------------\n"
    up = entstat.parse(head + "Physical Port Link Status: Up\nPhysical Port Speed: 10 Gbps Full Duplex\n").records[0]
    assert up.media_speed_running == "10 Gbps Full Duplex" and up.lines["media_speed_running"] == 13
    odd = entstat.parse(head + "Link Status: Up\nMedia Speed Running: Unknown\n").records[0]
    assert odd.media_speed_running is None and odd.specific["Media Speed Running"] == "Unknown"
    later = entstat.parse(head + "Physical Port Speed: 25 Gbps Full Duplex\nPhysical Port Link Status: Down\n").records[0]
    assert later.media_speed_running is None  # the link status printed after the speed still counts


def test_enabled_vlan_ids_read_from_indented_continuation_lines():
    recs = by_name(parse("vios4_sea_limbo_lacp_ent40.txt"))
    assert recs["ent2"].specific["Enabled VLAN IDs"] == "0211 0212 0213"
    assert recs["ent3"].specific["Enabled VLAN IDs"] == "None"
    assert recs["ent2"].specific["Maximum DMA Page Size"] == "65536"


def test_transmit_queue_counters_are_the_queues_together():
    (a,) = parse("vios4_trunk_pool_policy_ent31.txt").records
    c = a.counters
    # queue 0 then queue 1: drops on the second queue are not hidden by the first's
    assert (c["tx_packets_enqueued"], c["tx_transmit_software_queue_full_packets_drops"]) == (1514, 6)
    assert c["tx_maximum_length_of_transmit_software_queue"] == 9  # the longest, not a sum
    assert "tx_transmit_queue_statistics" not in c  # a queue's number, not a counter
    assert c["tx_transmit_descriptors_used"] == 884120  # after the queues: read as before
