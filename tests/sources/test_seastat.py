from pathlib import Path

from lparscope.sources import seastat

FIX = Path(__file__).parent.parent / "fixtures" / "seastat"


def test_vios_seastat_per_client_blocks():
    text = (FIX / "vios_seastat_d_ent7.txt").read_text()
    assert seastat.detect(text) >= 90
    r = seastat.parse(text)
    assert r.warnings == [] and r.hostname == "vios2"
    assert [c.mac for c in r.records] == ["7A:41:0C:55:20:02", "7A:41:0C:55:20:03", "7A:41:0C:55:20:04"]
    a, b, c = r.records
    assert {x.sea for x in r.records} == {"ent7"}
    assert (a.line, a.vlan, a.vlan_priority, a.hostname, a.ip_addresses) == (6, None, None, "appsrv1.example.net", ["10.20.1.15"])
    assert (a.tx_packets, a.tx_bytes, a.rx_packets, a.rx_bytes) == (1180, 98100, 2240, 310020)
    assert a.lines["rx_packets"] == 15 and a.lines["hostname"] == 10
    assert (b.hostname, b.ip_addresses, b.tx_packets, b.rx_bytes) == (None, [], 36, 700311)
    assert (c.vlan, c.vlan_priority, c.ip_addresses) == (20, 0, ["10.20.2.31", "10.20.2.32"])
    assert (c.tx_bytes, c.rx_bytes) == (123456789012, 98765432109)


def test_seed001_slide_copy_one_value_per_line():
    # seeds/001_56ba1d0866fd4e65.txt, slide "SEA Throughput": $ seastat –d ent5
    r = seastat.parse((FIX / "seed001_seastat_d_ent5_slide.txt").read_text())
    assert r.warnings == []
    assert len(r.records) == 3 and {x.sea for x in r.records} == {"ent5"}
    a, b, c = r.records
    assert (a.mac, a.hostname, a.ip_addresses) == ("32:43:23:7A:A3:02", "mob76.dfw.ibm.com", ["9.19.51.76"])
    assert (a.tx_packets, a.rx_packets, a.tx_bytes, a.rx_bytes) == (9253924, 11275899, 10899446310, 6451956041)
    assert a.vlan is None and a.lines["vlan"] == 7  # "-----VLAN: None": rule glued to the field
    assert (b.hostname, b.tx_packets, b.rx_packets, b.tx_bytes, b.rx_bytes) == (None, 36787, 3492188, 2175234, 272207726)
    assert (c.mac, c.hostname, c.tx_packets, c.rx_bytes) == ("32:43:2B:33:8A:02", "sharesvc1.dfw.ibm.com", 10, 484764292)
    assert c.lines["rx_bytes"] == 38


def test_collapsed_two_column_counters():
    r = seastat.parse("Device Name: ent3\nMAC: 0A:00:00:00:00:01\nVLAN: 99\nTransmit Statistics: Receive Statistics:\n"
                      "Packets: 7 Packets: 8\nBytes: 70 Bytes: 80\n")
    (a,) = r.records
    assert (a.sea, a.vlan, a.tx_packets, a.rx_packets, a.tx_bytes, a.rx_bytes) == ("ent3", 99, 7, 8, 70, 80)


def test_bad_input_gives_warnings_not_exceptions():
    r = seastat.parse("MAC: 0A:00:00:00:00:02\nPackets: 1 Packets: 2\n\x00 junk\nFrames: 4\n")
    assert r.records[0].rx_packets == 2
    assert [w.line for w in r.warnings] == [3, 4]
    r = seastat.parse("some unrelated text\nmore\n")
    assert r.records == [] and r.warnings[0].line == 1
    assert seastat.parse("").records == []
    assert seastat.detect("ETHERNET STATISTICS (ent0) :\n") == 0
