from pathlib import Path

from lparscope.sources import entstat

FIX = Path(__file__).parent.parent / "fixtures" / "entstat"


def parse(name):
    return entstat.parse((FIX / name).read_text())


def by_name(result):
    return {r.name: r for r in result.records}


def test_physical_adapter_counters_and_specific_statistics():
    text = (FIX / "aix72_physical_goent_ent1.txt").read_text()
    assert entstat.detect(text) >= 90
    r = entstat.parse(text)
    assert r.warnings == []
    (a,) = r.records
    assert (a.name, a.line, a.adapter_class) == ("ent1", 3, "physical")
    assert a.device_type == "2-Port 10/100/1000 Base-TX PCI-Express Adapter (14104003)"
    assert a.hardware_address == "00:14:5e:c2:71:3a"
    assert a.elapsed_seconds == 12 * 86400 + 4 * 3600 + 30 * 60 + 10
    c = a.counters
    assert (c["tx_packets"], c["rx_packets"]) == (81234567, 90876543)
    assert (c["no_resource_errors"], c["dma_overrun"], c["crc_errors"]) == (312, 41, 7)
    assert (c["rx_packets_dropped"], c["tx_packets_dropped"]) == (312, 0)
    assert (c["sw_tx_queue_overflow"], c["max_sw_tx_queue_packets"]) == (3, 57)
    assert (c["adapter_reset_count"], c["no_mbuf_errors"]) == (2, 0)
    assert a.lines["no_resource_errors"] == 26 and a.lines["rx_bad_packets"] == 15
    assert a.adapter_data_rate == 1000
    assert a.driver_flags == ["Up", "Broadcast", "Running", "Simplex", "Promiscuous", "AlternateAddress",
                              "64BitSupport", "ChecksumOffload", "PrivateSegment", "LargeSend", "DataRateSet"]
    assert a.link_status == "Up"  # printed "Link Status : Up"
    assert (a.media_speed_selected, a.media_speed_running) == ("Auto negotiation", "1000 Mbps Full Duplex")
    assert a.flow_control == "Enabled" and a.lines["flow_control"] == 58
    assert a.specific["PCI Mode / TLP Size"] == "256"
    assert a.specific["TCP Segmentation Offload / TCP Segmentation Offload Packets Transmitted"] == "90210"
    assert a.specific["Transmit and Receive Flow Control Threshold (High)"] == "45056"
    assert a.trunk_adapter is None and a.receive_buffers == {} and a.parent is None


def test_virtual_client_with_receive_buffers_and_hypervisor_failures():
    r = parse("aix73_virtual_client_buffers_ent0.txt")
    assert r.warnings == [] and r.hostname == "lpardb01"
    (a,) = r.records
    assert a.adapter_class == "virtual" and a.trunk_adapter is False
    assert a.counters["no_resource_errors"] == 5120 and a.counters["rx_packets_dropped"] == 5120
    assert (a.hypervisor_send_failures, a.receiver_failures, a.send_errors) == (77, 77, 0)
    assert a.hypervisor_receive_failures == 5120 and a.lines["hypervisor_receive_failures"] == 58
    assert a.port_vlan_id == 10 and a.vlan_tag_ids == [] and a.switch_id == "ETHERNET0"
    huge, small = a.receive_buffers["huge"], a.receive_buffers["small"]
    assert (huge["max_buffers"], huge["max_allocated"], huge["lowest_registered"]) == (64, 64, 9)
    assert (small["min_buffers"], small["max_buffers"], small["max_allocated"]) == (512, 2048, 910)
    assert set(a.receive_buffers) == {"tiny", "small", "medium", "large", "huge"}
    assert a.lines["receive_buffers.max_allocated"] == 92
    assert a.specific["Filters / Enabled"] == "1" and a.specific["LAN State"] == "Operational"
    assert a.specific["Receive Information / Buffer Mode"] == "Max Min"


def test_trunk_adapter_priority_active_and_wrapped_vlan_tags():
    r = parse("vios_trunk_ent6.txt")
    assert r.warnings == [] and r.hostname is None
    (a,) = r.records
    assert a.adapter_class == "trunk" and a.trunk_adapter is True
    assert (a.priority, a.active) == (2, False)
    assert a.port_vlan_id == 4000
    assert a.vlan_tag_ids == [110, 120, 130, 140, 150, 160, 170, 180, 190, 210, 220]
    assert a.lines["vlan_tag_ids"] == 65 and a.lines["trunk_adapter"] == 46
    assert a.switch_id == "vswitch_prod"
    assert (a.counters["tx_errors"], a.counters["tx_packets_dropped"], a.hypervisor_send_failures) == (15, 15, 15)


def test_sea_threaded_with_failover_and_member_sections():
    r = parse("vios_sea_threaded_ent8.txt")
    assert r.warnings == []
    recs = by_name(r)
    assert [x.name for x in r.records] == ["ent8", "ent0", "ent6", "ent7"]
    sea_rec = recs["ent8"]
    assert sea_rec.adapter_class == "sea" and sea_rec.parent is None
    s = sea_rec.sea
    assert s.name == "ent8" and s.number_of_adapters == 3 and s.lines["number_of_adapters"] == 47
    assert s.flags_raw == "00000009" and s.flags == ["THREAD", "LARGESEND"] and s.threaded is True
    assert s.vlan_ids["ent6"][-1] == 4000 and s.vlan_ids["ent7"] == [4095]
    assert s.members == {"ent6": "virtual", "ent7": "control", "ent0": "real"}
    assert s.real_side["packets_consumed"] == 13 and s.virtual_side["packets_bridged"] == 3340001
    assert s.thread_queue_overflow_packets == 42 and s.lines["thread_queue_overflow_packets"] == 75
    assert (s.state, s.ha_mode, s.priority, s.control_channel_pvid) == ("BACKUP", "Auto", 2, 4095)
    assert (s.times_became_backup, s.times_became_primary, s.bridge_mode) == (3, 2, "None")
    assert s.lines["ha.State"] == 90
    assert s.ha["Keep-Alive Packets"] == "88001"
    real, trunk, ctl = recs["ent0"], recs["ent6"], recs["ent7"]
    assert (real.parent, real.role, real.adapter_class) == ("ent8", "real", "physical")
    assert real.counters["no_resource_errors"] == 61 and real.flow_control == "Disabled"
    assert (trunk.parent, trunk.role, trunk.adapter_class, trunk.priority) == ("ent8", "virtual", "trunk", 2)
    assert (ctl.parent, ctl.role, ctl.adapter_class, ctl.port_vlan_id) == ("ent8", "control", "virtual", 4095)


def test_seed002_sea_not_threaded_as_printed():
    # seeds/002_17cd08c97e154efa.txt, "The indirect method": $ entstat -all ent5 (collapsed spacing)
    r = parse("seed002_sea_ent5_not_threaded.txt")
    assert r.warnings == []
    (a,) = r.records
    assert (a.name, a.adapter_class, a.device_type) == ("ent5", "sea", "Shared Ethernet Adapter")
    assert a.counters["tx_packets"] == 11180525 and a.counters["rx_interrupts"] == 1653132
    assert a.counters["max_sw_tx_queue_packets"] == 122 and a.counters["deferred"] == 1706
    assert a.driver_flags == ["Up", "Broadcast", "Running", "Simplex", "64BitSupport"]
    s = a.sea
    assert s.flags_raw == "00000000" and s.flags == [] and s.threaded is False
    assert s.number_of_adapters == 2 and s.vlan_ids == {"ent4": [0, 1]} and s.lines["vlan_ids.ent4"] == 43
    assert s.real_side["packets_received"] == 2079245 and s.real_side["packets_transmitted"] == 9101280
    assert s.virtual_side["packets_received"] == 9101280  # later repeated labels do not overwrite
    assert s.other["icmp_error_packets_sent"] == 0
    assert s.thread_queue_overflow_packets == 0 and s.lines["thread_queue_overflow_packets"] == 65


def test_seed002_variant_with_thread_flag():
    r = parse("seed002_sea_ent5_threaded_variant.txt")
    s = r.records[0].sea
    assert r.warnings == []
    assert s.flags_raw == "00000001" and s.flags == ["THREAD"] and s.threaded is True
    assert s.lines["sea_flags"] == 40
    assert s.thread_queue_overflow_packets == 37


def test_etherchannel_8023ad_with_members():
    r = parse("aix_etherchannel_8023ad_ent10.txt")
    assert r.warnings == []
    recs = by_name(r)
    ec_rec = recs["ent10"]
    assert ec_rec.adapter_class == "etherchannel" and ec_rec.device_type == "IEEE 802.3ad Link Aggregation"
    ec = ec_rec.etherchannel
    assert ec.number_of_adapters == 2 and ec.lines["number_of_adapters"] == 50
    assert ec.mode == "Standard mode (IEEE 802.3ad)" and ec.aggregation_status == "Aggregated"
    assert ec.hash_mode == "Source and destination TCP/UDP ports" and ec.lines["hash_mode"] == 59
    assert ec.lacp["Received LACPDUs"] == "10240" and ec.members == ["ent2", "ent3"]
    for name in ("ent2", "ent3"):
        m = recs[name]
        assert (m.parent, m.role, m.adapter_class) == ("ent10", "member", "physical")
        assert m.adapter_data_rate == 2000 and m.flow_control == "Enabled"
    assert recs["ent2"].lacp_port["Actor State / Synchronization"] == "IN_SYNC"
    assert recs["ent3"].lacp_port["Partner State / Synchronization"] == "OUT_OF_SYNC"
    assert recs["ent3"].lines["lacp_port.Partner State / Synchronization"] == 222
    assert recs["ent3"].lacp_port["Partner Operational Key"] == "0x0017"
    assert recs["ent2"].counters["rx_packets"] == 500000 and recs["ent3"].counters["rx_packets"] == 400000


def test_netstat_v_lists_several_adapters():
    text = (FIX / "aix71_netstat_v_three_adapters.txt").read_text()
    assert entstat.detect(text) >= 90
    r = entstat.parse(text)
    assert r.warnings == [] and r.hostname == "aixapp2"
    assert [(x.name, x.adapter_class) for x in r.records] == [("ent0", "virtual"), ("ent1", "physical"), ("ent3", "vlan")]
    ent1, ent3 = r.records[1], r.records[2]
    assert ent1.line == 105 and ent1.counters["crc_errors"] == 2 and ent1.adapter_data_rate == 10000
    assert ent1.flow_control == "Enabled" and ent1.jumbo_frames == "Enabled"  # lower-case variant of the label
    assert ent3.device_type == "" and ent3.elapsed_seconds == 3 * 3600 + 10 * 60  # first Elapsed Time wins
    assert ent3.counters["tx_packets"] == 500 and all(x.parent is None for x in r.records)


def test_seed000_example_3_32_collapsed_and_padded_agree():
    # seeds/000_31a80e54567cd02b.txt §3.7.11, Example 3-32 "The netstat -v output demonstrating dropped packets"
    for name, nrl in (("seed000_example_3_32_collapsed.txt", 25), ("seed000_example_3_32_padded.txt", 26)):
        r = parse(name)
        assert r.warnings == [] and r.hostname == "aix1"
        (a,) = r.records
        assert (a.name, a.adapter_class, a.trunk_adapter) == ("ent0", "virtual", False)
        assert a.counters["no_resource_errors"] == 8184 and a.lines["no_resource_errors"] == nrl
        assert a.counters["rx_packets_dropped"] == 8184 and a.counters["tx_packets_dropped"] == 0
        assert (a.counters["tx_packets"], a.counters["rx_packets"]) == (76773314, 39046671)
        assert a.counters["tx_bytes"] == 4693582873534 and a.counters["rx_bad_packets"] == 0
        assert (a.hypervisor_send_failures, a.hypervisor_receive_failures, a.receiver_failures) == (2090, 8184, 2090)
        assert a.adapter_data_rate == 20000 and a.port_vlan_id == 1 and a.vlan_tag_ids == []
        assert a.elapsed_seconds == 35 * 60 + 48
        assert a.receive_buffers["huge"]["max_buffers"] == 64 and a.receive_buffers["huge"]["max_allocated"] == 64
        med = a.receive_buffers["medium"]
        assert (med["min_buffers"], med["max_buffers"], med["max_allocated"]) == (128, 256, 165)
        assert a.driver_flags == ["Up", "Broadcast", "Running", "Simplex", "64BitSupport", "ChecksumOffload", "DataRateSet"]
    a, b = parse("seed000_example_3_32_collapsed.txt").records[0], parse("seed000_example_3_32_padded.txt").records[0]
    assert a.counters == b.counters and a.receive_buffers == b.receive_buffers


def test_lone_counters_keep_their_column_when_padding_is_lost():
    text = "ETHERNET STATISTICS (ent2) :\nDevice Type: EtherChannel\nTransmit Statistics: Receive Statistics:\n" \
           "Packets Dropped: 4\nBad Packets: 9\nNo Resource Errors: 3\nS/W Transmit Queue Overflow: 5\n" \
           "                                              Packets Dropped: 7\n"
    r = entstat.parse(text)
    c = r.records[0].counters
    assert (c["tx_packets_dropped"], c["rx_bad_packets"], c["no_resource_errors"]) == (4, 9, 3)
    assert (c["sw_tx_queue_overflow"], c["rx_packets_dropped"]) == (5, 7)
    assert r.records[0].adapter_class == "etherchannel"


def test_script_fragment_without_banner_takes_name_from_label_or_command():
    body = ("Device Type: Virtual I/O Ethernet Adapter (l-lan)\nHardware Address: 0a:00:00:00:00:01\n\n"
            "Transmit Statistics:                          Receive Statistics:\n"
            "Packets: 5                                    Packets: 6\n")
    r = entstat.parse("$ entstat -all ent9\n" + body)
    assert [(x.name, x.line, x.counters["rx_packets"]) for x in r.records] == [("ent9", 2, 6)]
    r = entstat.parse("Virtual Adapter: ent4\n\n" + body)
    assert r.records[0].name == "ent4" and r.records[0].role == "virtual"


def test_bad_input_gives_warnings_not_exceptions():
    r = entstat.parse("ETHERNET STATISTICS (ent0) :\nDevice Type: x\nTransmit Statistics:\n"
                      "Packets: 1 Packets: 2\n\x00\x01 junk here\nGeneral Statistics:\n%%%%\n")
    assert r.records[0].counters == {"tx_packets": 1, "rx_packets": 2}
    assert [w.line for w in r.warnings] == [5, 7]
    for text in ("", "hello world\n", "\x00\xff" * 50, "ETHERNET STATISTICS (ent0) :\n" + "Packets: x\n" * 3):
        out = entstat.parse(text)
        assert out.kind == "entstat"
    assert entstat.parse("hello\n").warnings[0].line == 1
    assert entstat.detect("hello world") == 0
    assert entstat.detect((FIX / "seed002_sea_ent5_not_threaded.txt").read_text()) >= 90
    assert entstat.STARTS.match("ETHERNET STATISTICS (ent3) :")


def test_8023ad_members_lacp_state_typed_and_partner_of_zeroes_kept_as_printed():
    r = parse("vios_8023ad_partner_missing_ent16.txt")
    assert r.warnings == [] and r.hostname is None
    recs = by_name(r)
    ec = recs["ent16"].etherchannel
    assert ec.number_of_adapters == 4 and ec.members == ["ent0", "ent1", "ent4", "ent5"]
    assert recs["ent16"].counters["rx_errors"] == 48213 and recs["ent16"].counters["dma_overrun"] == 47990
    assert recs["ent16"].lacp is None  # the aggregate itself has no port statistics
    ok, lost = recs["ent0"].lacp, recs["ent1"].lacp
    assert (ok.actor.system, ok.actor.key, ok.actor.port) == ("B8-E9-24-E2-A0-A4", "0xBEEF", "0x0001")
    assert (ok.partner.system, ok.partner.key, ok.partner.port) == ("74-A2-E6-8C-1D-C0", "0x0007", "0x0007")
    assert (ok.actor.synchronization, ok.actor.collecting, ok.actor.distributing) == ("IN_SYNC", "Enabled", "Enabled")
    assert ok.counters["Received LACPDUs"] == "118780"
    assert (lost.partner.system, lost.partner.key, lost.partner.synchronization) == ("00-00-00-00-00-00", "0x0000", "OUT_OF_SYNC")
    assert lost.actor.distributing == "Disabled" and lost.partner.defaulted == "True"
    assert lost.partner.lines["system"] == 221 and lost.actor.lines["synchronization"] == 214
    # ent4 and ent5 print no adapter-specific block: the port statistics follow General Statistics directly
    assert recs["ent4"].flow_control is None and recs["ent4"].lacp.partner.port == "0x0009"
    assert "tx_actor_system_priority" not in recs["ent5"].counters and recs["ent5"].lacp.partner.synchronization == "OUT_OF_SYNC"
    assert all(recs[m].parent == "ent16" and recs[m].role == "member" for m in ("ent0", "ent1", "ent4", "ent5"))


def test_etherchannel_summary_variants_backup_line_and_count_with_words():
    text = ("ETHERNET STATISTICS (ent6) :\nDevice Type: EtherChannel\n\n"
            "Statistics for every adapter in the EtherChannel:\n---------------------------------\n\n"
            "Number of adapters: 2 (including the backup adapter)\nActive channel: primary channel\n"
            "Operating mode: Standard mode\nHash mode: Default (destination IP address)\nBackup adapter - ent3:\n")
    r = entstat.parse(text)
    ec = r.records[0].etherchannel
    assert r.warnings == [] and ec.number_of_adapters == 2 and ec.backup_adapter == "ent3"
    assert ec.active_channel == "primary channel" and ec.lines["backup_adapter"] == 11
