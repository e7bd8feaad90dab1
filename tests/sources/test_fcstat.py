from pathlib import Path

from lparscope.sources import fcstat

FIX = Path(__file__).parent.parent / "fixtures" / "fcstat"


def test_aix72_physical_adapter():
    text = (FIX / "fcs1_aix72_physical.txt").read_text()
    assert fcstat.detect(text) >= 90
    r = fcstat.parse(text)
    assert r.warnings == []
    (a,) = r.records
    assert (a.name, a.line) == ("fcs1", 2)
    assert a.device_type == "FC Adapter (adapter/pciex/df1000e21410f10)"
    assert (a.port_speed_supported, a.port_speed_running) == ("16 GBIT", "8 GBIT")
    assert (a.wwpn, a.wwnn, a.port_type, a.port_fc_id) == ("10000010a3b4c5d6", "20000010a3b4c5d6", "Fabric", "0x3A0C40")
    c = a.counters
    assert (c["no_dma_resource_count"], c["no_adapter_elements_count"], c["no_command_resource_count"]) == (41, 1822, 96011)
    assert (c["ip_no_dma_resource_count"], c["ip_input_requests"]) == (0, 0)  # IP over FC kept apart
    assert (c["error_frames"], c["link_failure_count"], c["invalid_crc_count"], c["loss_of_sync_count"]) == (3, 2, 4, 11)
    assert (c["tx_frames"], c["rx_frames"], c["rx_words"]) == (912004511, 1408822930, 699310112768)
    assert (c["input_requests"], c["output_bytes"], c["seconds_since_last_reset"]) == (58120344, 1210066403328, 604812)
    assert a.lines["no_command_resource_count"] == 54 and a.lines["port_speed_running"] == 23
    assert a.attributes["adapter_effective_max_transfer_value"] == "0x100000"
    assert a.attributes["topology"] == "Point to Point or Fabric" and "fc4_active" in a.attributes


def test_log_of_two_runs_older_layout():
    text = (FIX / "log_two_runs_aix61.txt").read_text()
    assert fcstat.detect(text) >= 90
    r = fcstat.parse(text)
    assert r.warnings == []
    first, second = r.records
    assert (first.line, second.line) == (2, 61)
    assert first.wwpn == "10000000c99a1b2c" and first.port_speed_running == "4 GBIT"
    assert (first.counters["tx_frames"], first.counters["rx_frames"]) == (5100, 6200)
    assert first.counters["primitive_seq_protocol_error_count"] == 0
    assert (first.counters["no_adapter_elements_count"], second.counters["no_adapter_elements_count"]) == (12, 19)
    assert second.counters["seconds_since_last_reset"] == 7500


def test_virtual_adapter_minus_one_kept():
    text = ("FIBRE CHANNEL STATISTICS REPORT: fcs2\nDevice Type: Virtual Fibre Channel Client Adapter (adapter/vdevice/IBM,vfc-client)\n"
            "Port Speed (supported): UNKNOWN\nLink Failure Count: -1\n")
    (a,) = fcstat.parse(text).records
    assert a.port_speed_supported == "UNKNOWN" and a.counters["link_failure_count"] == -1


def test_bad_input_warns():
    r = fcstat.parse("hello\nFIBRE CHANNEL STATISTICS REPORT: fcs0\n\x00\x01\x02 ??\n")
    assert len(r.records) == 1 and [w.line for w in r.warnings] == [1, 3, 2]
    assert fcstat.parse("").records == []
    assert fcstat.detect("nothing") == 0
