from pathlib import Path

from lparscope.sources import entstat, vnicstat
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "vnicstat"


def test_two_servers_active_and_standby_backing_devices():
    text = (FIX / "vios1_vnicstat_b_active_and_standby.txt").read_text()
    segs = split_and_classify(text)
    assert [(s.kind, s.start) for s in segs] == [("vnicstat", 1), ("vnicstat", 41)]
    r = vnicstat.parse(text)  # both runs pasted together also read in one go
    assert r.warnings == []
    a, b = r.records
    assert (a.name, a.line, a.state, a.backing_device) == ("vnicserver0", 3, "active", "ent8")
    assert (a.failover_state, a.failover_readiness, a.failover_priority) == ("active", "operational", 50)
    assert (a.client_partition_id, a.client_partition_name, a.client_os, a.client_device) == (12, "aixapp3", "AIX", "ent0")
    assert a.client_location == "U9009.42A.7854321-V12-C5-T1" and a.lines["failover_readiness"] == 11
    c = a.counters
    assert (c["tx_packets"], c["rx_packets"], c["rx_errors"], c["rx_dropped_packets"]) == (9137705, 11420936, 0, 0)
    assert (c["main_crq.commands_received"], c["main_crq.reboots"], c["main_crq.max_vf_descriptors_queued"]) == (28, 0, 211)
    assert (c["sub_crq_0.tx_packets"], c["sub_crq_0.rx_buffer_size"]) == (9137705, 9216)
    assert a.lines["sub_crq_0.rx_buffer_size"] == 39
    assert (b.name, b.failover_state, b.failover_priority, b.client_partition_id) == ("vnicserver1", "inactive", 60, 14)


def test_backing_device_not_operational_with_errors_and_host_from_prompt():
    text = (FIX / "vios2_vnicstat_b_backing_not_operational.txt").read_text()
    assert vnicstat.detect(text) >= 90
    r = vnicstat.parse(text)
    assert r.warnings == [] and r.hostname == "vios2"
    (s,) = r.records
    assert (s.failover_state, s.failover_readiness) == ("inactive", "not operational")
    assert (s.counters["rx_errors"], s.counters["sub_crq_0.rx_errors"], s.counters["main_crq.reboots"]) == (1532, 1532, 3)
    assert s.lines["rx_errors"] == 24


def test_detected_without_prompt_above_entstat_and_a_fragment_takes_the_command_name():
    body = (FIX / "vios1_vnicstat_b_active_and_standby.txt").read_text().split("\n")[1:40]
    text = "\n".join(body)
    assert vnicstat.detect(text) > entstat.detect(text)
    (seg,) = split_and_classify(text)
    assert seg.kind == "vnicstat"
    frag = "# vnicstat vnicserver7\nState: active\nBacking Device Name: ent3\nFailover Readiness: operational\n"
    (rec,) = vnicstat.parse(frag).records
    assert (rec.name, rec.backing_device) == ("vnicserver7", "ent3")


def test_bad_input_is_warned_by_line():
    r = vnicstat.parse("VNIC Server Statistics: vnicserver0\nState: active\n%%% garbage %%%\n")
    assert [w.line for w in r.warnings] == [3] and r.records[0].state == "active"
    assert vnicstat.parse("hello\n").warnings[-1].message == "no VNIC Server Statistics block found"
