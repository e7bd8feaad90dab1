from types import SimpleNamespace

from lparscope.rules.network import aggregation as network_aggregation
from lparscope.rules.network import sea as network_sea
from lparscope.rules.network import sea_threads as network_sea_threads
from lparscope.rules.network import virtual_ethernet as network_virtual_ethernet

from .conftest import device, host, run_rule, stats


def _vios(vtds: bool | None):
    h = host("vios2", "vios")
    if vtds is not None:
        h.vscsi_mappings.append(SimpleNamespace(vhost="vhost0", vtd="vtscsi0" if vtds else None))
    return h


def test_sea_thread_without_vscsi():
    h = _vios(False)
    device(h, "ent8", "sea", "Shared Ethernet Adapter", thread=1)
    (f,) = run_rule(network_sea_threads.sea_thread_without_vscsi, h)
    assert f.fix.padmin == ["chdev -dev ent8 -attr thread=0"]
    h2 = _vios(True)
    device(h2, "ent8", "sea", "Shared Ethernet Adapter", thread=1)
    assert run_rule(network_sea_threads.sea_thread_without_vscsi, h2) == []
    h3 = _vios(None)  # no lsmap given: cannot tell, say nothing
    device(h3, "ent8", "sea", "Shared Ethernet Adapter", thread=1)
    assert run_rule(network_sea_threads.sea_thread_without_vscsi, h3) == []


def test_sea_thread_off_with_vscsi_reads_stats_when_no_attribute():
    h = _vios(True)
    device(h, "ent5", "sea", "Shared Ethernet Adapter", stats=stats(sea=SimpleNamespace(threaded=False)))
    (f,) = run_rule(network_sea_threads.sea_unthreaded_with_vscsi, h)
    assert "thread=1" in f.fix.padmin[0]
    h.devices["ent5"].stats.sea.threaded = True
    assert run_rule(network_sea_threads.sea_unthreaded_with_vscsi, h) == []


def test_sea_thread_overflow():
    h = _vios(False)
    device(h, "ent8", "sea", stats=stats(sea=SimpleNamespace(thread_queue_overflow_packets=1784)))
    (f,) = run_rule(network_sea_threads.sea_thread_overflow, h)
    assert "1784" in f.message
    h.devices["ent8"].stats.sea.thread_queue_overflow_packets = 0
    assert run_rule(network_sea_threads.sea_thread_overflow, h) == []


def test_sea_largesend_and_lagg_mode():
    h = _vios(False)
    device(h, "ent8", "sea", largesend=0, large_receive="no", real_adapter="ent7")
    device(h, "ent7", "etherchannel", mode="standard", hash_mode="default")
    (f,) = run_rule(network_sea.sea_offloads, h)
    assert f.fix.padmin == ["chdev -dev ent8 -attr largesend=1 large_receive=yes"]
    (g,) = run_rule(network_aggregation.lagg_mode, h)
    assert "mode=8023ad hash_mode=src_dst_port" in g.fix.padmin[0] and "SEA ent8" in g.message
    ok = _vios(False)
    device(ok, "ent8", "sea", largesend=1, large_receive="yes")
    device(ok, "ent7", "etherchannel", mode="8023ad", hash_mode="src_dst_port")
    assert run_rule(network_sea.sea_offloads, ok) == [] and run_rule(network_aggregation.lagg_mode, ok) == []


EXAMPLE_3_32 = {  # 000 §3.7.11 Example 3-32, receive buffer table
    "tiny": {"min_buffers": 512, "max_buffers": 2048, "allocated": 512, "registered": 511, "max_allocated": 512, "lowest_registered": 511},
    "small": {"min_buffers": 512, "max_buffers": 2048, "allocated": 512, "registered": 512, "max_allocated": 512, "lowest_registered": 510},
    "medium": {"min_buffers": 128, "max_buffers": 256, "allocated": 156, "registered": 127, "max_allocated": 165, "lowest_registered": 123},
    "large": {"min_buffers": 24, "max_buffers": 64, "allocated": 24, "registered": 24, "max_allocated": 24, "lowest_registered": 22},
    "huge": {"min_buffers": 24, "max_buffers": 64, "allocated": 64, "registered": 18, "max_allocated": 64, "lowest_registered": 12},
}


def test_veth_buffers_example_3_32():
    h = host()
    device(h, "ent0", "virtual", stats=stats(receive_buffers=EXAMPLE_3_32))
    (f,) = run_rule(network_virtual_ethernet.veth_buffers, h)
    # medium: max allocated 165 > min 128 -> next multiple of 128 = 256 (max 256 kept)
    # huge: max allocated 64 = max 64 -> max doubled to 128 (the huge limit), min -> next multiple of 8 = 72
    assert "min_buf_medium=256" in f.values["suggested"] and "max_buf_medium=256" in f.values["suggested"]
    assert "min_buf_huge=72" in f.values["suggested"] and "max_buf_huge=128" in f.values["suggested"]
    assert f.level == "warning" and f.disruption == ["interface-down"]
    assert f.fix.root[0] == "chdev -l en0 -a state=down"


def test_veth_buffers_quiet_when_min_covers_peak():
    tuned = {t: dict(r, min_buffers=r["max_buffers"], max_allocated=r["min_buffers"]) for t, r in EXAMPLE_3_32.items()}
    h = host()
    device(h, "ent0", "virtual", stats=stats(receive_buffers=tuned))
    assert run_rule(network_virtual_ethernet.veth_buffers, h) == []


def test_hypervisor_failures():
    h = host()
    device(h, "ent0", "virtual", stats=stats(hypervisor_send_failures=2090, hypervisor_receive_failures=8184,
                                            counters={"no_resource_errors": 8184}))
    (f,) = run_rule(network_virtual_ethernet.veth_hypervisor_failures, h)
    assert f.values == {"hypervisor_send_failures": "2090", "hypervisor_receive_failures": "8184", "no_resource_errors": "8184"}
    device(h, "ent0", "virtual", stats=stats(hypervisor_send_failures=0, hypervisor_receive_failures=0, counters={}))
    assert run_rule(network_virtual_ethernet.veth_hypervisor_failures, h) == []


def test_mtu_bypass_on_client_virtual_interface():
    h = host()
    device(h, "ent0", "virtual", "Virtual I/O Ethernet Adapter (l-lan)")
    device(h, "en0", "interface", mtu_bypass="off")
    device(h, "ent1", "physical", "PCIe2 4-Port Adapter")
    device(h, "en1", "interface", mtu_bypass="off")
    (f,) = run_rule(network_virtual_ethernet.client_mtu_bypass, h)
    assert f.subject == "en0" and f.fix.root == ["chdev -l en0 -a mtu_bypass=on"]
    h.devices["en0"].attrs["mtu_bypass"].value = "on"
    assert run_rule(network_virtual_ethernet.client_mtu_bypass, h) == []


def test_hypervisor_send_failures_that_are_all_the_receivers():
    h = host("vios1", "vios")
    device(h, "ent4", "trunk", stats=stats(hypervisor_send_failures=3504348, receiver_failures=3504348,
                                          hypervisor_receive_failures=0, counters={"no_resource_errors": 0}))
    (f,) = run_rule(network_virtual_ethernet.veth_hypervisor_failures, h)
    assert "the partitions ent4 sends to ran out of receive buffers" in f.message
    assert "the receivers' buffers" in f.fix.root[1]
