from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.rules.config import Config
from lparscope.rules.network import adapters as network_adapters
from lparscope.rules.network import link_speed as network_link_speed
from lparscope.rules.network import virtual_ethernet as network_virtual_ethernet

from .conftest import device, host, run_rule, stats

TEN_G = "PCIe2 2-Port 10GbE Base-T Adapter (e4148e1614109204)"


def _phys(h, name="ent0", description=TEN_G, **kw):
    return device(h, name, "physical", description, **kw)


def test_flow_control_attribute_off_and_switch_disabled():
    h = host("vios1", "vios")
    _phys(h, flow_ctrl="no")
    (f,) = run_rule(network_adapters.phys_flow_control, h)
    assert f.fix.padmin[0] == "chdev -dev ent0 -attr flow_ctrl=yes -perm"
    assert f.fix.root[0] == "chdev -l ent0 -a flow_ctrl=yes -P"
    assert f.rollback.root[0] == "chdev -l ent0 -a flow_ctrl=no -P" and f.disruption == ["reboot"]
    # attribute on, but the switch refused it (001)
    h2 = host("vios1", "vios")
    _phys(h2, flow_ctrl="yes", stats=stats(flow_control="Disabled", lines={"flow_control": 40}))
    (g,) = run_rule(network_adapters.phys_flow_control, h2)
    assert "switch" in g.message and g.values["current"] == "status Disabled"
    assert g.evidence[0].line == 40


def test_flow_control_quiet_when_enabled():
    h = host("vios1", "vios")
    _phys(h, flow_ctrl="yes", stats=stats(flow_control="Enabled"))
    assert run_rule(network_adapters.phys_flow_control, h) == []


def test_offloads_off_by_attribute_name_variants():
    h = host()
    _phys(h, chksum_offload="yes", large_send="no", large_receive="no")
    _phys(h, "ent2", largesend=0)
    f, g = run_rule(network_adapters.phys_offloads, h)
    assert f.subject == "ent0" and f.fix.root[0] == "chdev -l ent0 -a large_send=yes -a large_receive=yes -P"
    assert f.rollback.root[0] == "chdev -l ent0 -a large_send=no -a large_receive=no -P"
    assert g.values == {"current": "largesend=0", "suggested": "largesend=1"}
    ok = host()
    _phys(ok, chksum_offload="yes", large_send="yes", large_receive="yes")
    assert run_rule(network_adapters.phys_offloads, ok) == []


def test_speed_below_port_from_media_speed_and_data_rate():
    h = host()
    _phys(h, media_speed="1000_Full_Duplex",
          stats=stats(media_speed_running="1000 Mbps Full Duplex", adapter_data_rate=2000, device_type=TEN_G))
    (f,) = run_rule(network_adapters.phys_speed, h)
    assert f.values == {"current": "1000 Mbit/s", "suggested": "10000 Mbit/s"}
    assert "chdev -l ent0 -a media_speed=Auto_Negotiation -P" in f.fix.root
    assert f.rollback.root[0] == "chdev -l ent0 -a media_speed=1000_Full_Duplex -P"
    # data rate only: 2000 = 1 Gb full duplex on a 10 Gb port
    h2 = host()
    _phys(h2, stats=stats(adapter_data_rate=2000))
    (g,) = run_rule(network_adapters.phys_speed, h2)
    assert g.values["current"] == "1000 Mbit/s" and g.disruption == []


def test_speed_quiet_at_full_speed_or_unknown_capability():
    h = host()
    _phys(h, stats=stats(media_speed_running="10 Gbps Full Duplex", adapter_data_rate=20000))
    _phys(h, "ent1", stats=stats(adapter_data_rate=20000))
    # a mixed card (10 Gb and 1 Gb ports): the port's speed cannot be told from the description
    _phys(h, "ent2", "PCIe2 4-port (10Gb FCoE & 1GbE) SR&RJ45 Adapter", stats=stats(adapter_data_rate=2000))
    _phys(h, "ent3", "4-Port 10/100/1000 Base-TX PCI-Express Adapter (14106803)",
          stats=stats(media_speed_running="1000 Mbps Full Duplex"))
    assert run_rule(network_adapters.phys_speed, h) == []
    assert network_link_speed.port_capability_mbps(h.devices["ent3"]) == 1000


def test_tx_queue_overflow():
    h = host()
    _phys(h, tx_que_sz=8192, stats=stats(counters={"sw_tx_queue_overflow": 5230, "max_sw_tx_queue_packets": 8192},
                                          lines={"sw_tx_queue_overflow": 12}))
    (f,) = run_rule(network_adapters.phys_tx_queue_overflow, h)
    assert "S/W Transmit Queue Overflow 5230" in f.message and "tx_que_sz=8192" in f.message
    assert f.fix.root[0].startswith("lsattr -Rl ent0 -a tx_que_sz")
    assert f.rollback.root[0] == "chdev -l ent0 -a tx_que_sz=8192 -P"
    h.devices["ent0"].stats.counters["sw_tx_queue_overflow"] = 0
    assert run_rule(network_adapters.phys_tx_queue_overflow, h) == []


def test_rx_errors_severity_follows_share_of_packets():
    h = host()
    _phys(h, rxdesc_que_sz=1024, stats=stats(counters={"rx_packets": 1_000_000, "no_resource_errors": 2000, "crc_errors": 0}))
    (f,) = run_rule(network_adapters.phys_rx_errors, h)
    assert f.level == "critical" and f.values["no_resource_errors"] == "2000"  # 0.2 % >= 0.1 %
    assert "chdev -l ent0 -a rxdesc_que_sz=<largest value lsattr -Rl lists> -P" in f.fix.root
    assert f.rollback.root[0] == "chdev -l ent0 -a rxdesc_que_sz=1024 -P"
    h.devices["ent0"].stats.counters.update(no_resource_errors=0, crc_errors=50)  # 0.005 %: warning
    (g,) = run_rule(network_adapters.phys_rx_errors, h)
    assert g.level == "warning" and any("cable" in c for c in g.fix.root) and g.disruption == []
    h.devices["ent0"].stats.counters.update(crc_errors=3)  # 0.0003 %: info
    assert run_rule(network_adapters.phys_rx_errors, h)[0].level == "info"
    cfg = Config(thresholds={"phys_rx_error_ratio_warning": 0.000001})
    assert run_rule(network_adapters.phys_rx_errors, h, cfg)[0].level == "warning"
    h.devices["ent0"].stats.counters.update(crc_errors=0)
    assert run_rule(network_adapters.phys_rx_errors, h) == []


def test_dcbflush_only_on_large_frames():
    h = host(system_cores=64)
    device(h, "ent0", "virtual", "Virtual I/O Ethernet Adapter (l-lan)", dcbflush_local="no")
    (f,) = run_rule(network_virtual_ethernet.veth_dcbflush, h)
    assert f.level == "info" and "chdev -l ent0 -a dcbflush_local=yes" in f.fix.root
    assert f.fix.root[0] == "chdev -l en0 -a state=down" and f.disruption == ["interface-down"]
    v = host("vios1", "vios", system_cores=64)
    device(v, "ent5", "trunk", "Virtual I/O Ethernet Adapter (l-lan)", dcbflush_local="no")
    (g,) = run_rule(network_virtual_ethernet.veth_dcbflush, v)
    assert g.fix.padmin[0] == "chdev -dev ent5 -attr dcbflush_local=yes -perm"
    small = host(system_cores=20)  # the example frame: 20 cores
    device(small, "ent0", "virtual", dcbflush_local="no")
    assert run_rule(network_virtual_ethernet.veth_dcbflush, small) == []
    h.devices["ent0"].attrs["dcbflush_local"].value = "yes"
    assert run_rule(network_virtual_ethernet.veth_dcbflush, h) == []


def _rows(min_tiny, max_alloc_tiny):
    return {"tiny": {"min_buffers": min_tiny, "max_buffers": 4096, "max_allocated": max_alloc_tiny},
            "small": {"min_buffers": 2048, "max_buffers": 4096, "max_allocated": 1024},
            "huge": {"min_buffers": 128, "max_buffers": 128, "max_allocated": 128}}


def test_trunk_min_max_under_load():
    v = host("vios1", "vios")
    device(v, "ent5", "trunk", stats=stats(receive_buffers=_rows(512, 2100), hypervisor_receive_failures=0))
    (f,) = run_rule(network_virtual_ethernet.trunk_min_max, v)
    assert f.values["suggested"] == "min_buf_tiny=4096 min_buf_small=4096"
    assert f.fix.padmin[0] == "chdev -dev ent5 -attr min_buf_tiny=4096 min_buf_small=4096 -perm"
    assert f.rollback.padmin[0] == "chdev -dev ent5 -attr min_buf_tiny=512 min_buf_small=2048 -perm"
    # hypervisor failures alone are load too
    device(v, "ent5", "trunk", stats=stats(receive_buffers=_rows(512, 300), hypervisor_receive_failures=17))
    assert "hypervisor receive failures 17" in run_rule(network_virtual_ethernet.trunk_min_max, v)[0].message


def test_trunk_min_max_quiet_without_load_or_when_pinned():
    v = host("vios1", "vios")
    device(v, "ent5", "trunk", stats=stats(receive_buffers=_rows(512, 300)))
    assert run_rule(network_virtual_ethernet.trunk_min_max, v) == []
    pinned = {t: dict(r, min_buffers=r["max_buffers"]) for t, r in _rows(4096, 4096).items()}
    device(v, "ent5", "trunk", stats=stats(receive_buffers=pinned, hypervisor_receive_failures=5))
    assert run_rule(network_virtual_ethernet.trunk_min_max, v) == []
    c = host()  # a client adapter is NET-VETH-BUFFERS' business
    device(c, "ent0", "trunk", stats=stats(receive_buffers=_rows(512, 2100)))
    assert run_rule(network_virtual_ethernet.trunk_min_max, c) == []


# --- through the parsers: real-format text written for this test ------------------------------

ENTSTAT = """\
# entstat -d ent2
-------------------------------------------------------------
ETHERNET STATISTICS (ent2) :
Device Type: PCIe2 2-port 10GbE SR Adapter (a21910071410d003)
Hardware Address: 00:90:fa:3e:51:a2
Elapsed Time: 41 days 2 hours 17 minutes 9 seconds

Transmit Statistics:                          Receive Statistics:
--------------------                          -------------------
Packets: 822190311                            Packets: 913002441
Bytes: 701244901322                           Bytes: 822019337120
Interrupts: 0                                 Interrupts: 411902233
Transmit Errors: 0                            Receive Errors: 41207
Packets Dropped: 0                            Packets Dropped: 41207
                                              Bad Packets: 0
Max Packets on S/W Transmit Queue: 1024
S/W Transmit Queue Overflow: 318
Current S/W+H/W Transmit Queue Length: 0

Broadcast Packets: 1201                       Broadcast Packets: 88120
Multicast Packets: 44                         Multicast Packets: 12002
No Carrier Sense: 0                           CRC Errors: 0
DMA Underrun: 0                               DMA Overrun: 0
Lost CTS Errors: 0                            Alignment Errors: 0
Max Collision Errors: 0                       No Resource Errors: 41207
Late Collision Errors: 0                      Receive Collision Errors: 0
Deferred: 0                                   Packet Too Short Errors: 0
SQE Test: 0                                   Packet Too Long Errors: 0
Timeout Errors: 0                             Packets Discarded by Adapter: 0
Single Collision Count: 0                     Receiver Start Count: 0
Multiple Collision Count: 0
Current HW Transmit Queue Length: 0

General Statistics:
-------------------
No mbuf Errors: 0
Adapter Reset Count: 0
Adapter Data Rate: 2000
Driver Flags: Up Broadcast Running
        Simplex 64BitSupport ChecksumOffload
        LargeSend DataRateSet

PCIe2 2-port 10GbE SR Adapter (a21910071410d003) Specific Statistics:
---------------------------------------------------------------------
Link Status: Up
Media Speed Selected: Autonegotiation
Media Speed Running: 1000 Mbps Full Duplex
PCI Mode: PCI-Express X8
Transmit and Receive Flow Control Status: Disabled
"""

LSATTR = """\
# lsattr -El ent2
chksum_offload yes   Enable transmit and receive checksum  True
flow_ctrl      no    Enable Transmit and Receive Flow Control True
jumbo_frames   no    Enable jumbo frames                   True
large_receive  no    Enable receive TCP segment aggregation True
large_send     yes   Enable hardware Transmit TCP segmentation True
rxdesc_que_sz  1024  Receive descriptor queue size         True
tx_que_sz      8192  Software transmit queue size          True
"""


def test_physical_rules_from_real_format_output(tmp_path: Path):
    d = tmp_path / "aix7"
    d.mkdir()
    (d / "entstat.txt").write_text(ENTSTAT)
    (d / "lsattr.txt").write_text(LSATTR)
    a = analyze([str(tmp_path)])
    got = {f.rule.id: f for f in a.findings if f.rule.id.startswith("NET-PHYS")}
    assert set(got) == {"NET-PHYS-FLOW-CONTROL", "NET-PHYS-OFFLOADS", "NET-PHYS-SPEED-BELOW-PORT",
                        "NET-PHYS-TX-QUEUE-OVERFLOW", "NET-PHYS-RX-ERRORS"}
    assert got["NET-PHYS-FLOW-CONTROL"].values["current"] == "flow_ctrl=no"
    assert got["NET-PHYS-OFFLOADS"].values["current"] == "large_receive=no"
    assert got["NET-PHYS-SPEED-BELOW-PORT"].values == {"current": "1000 Mbit/s", "suggested": "10000 Mbit/s"}
    assert "318" in got["NET-PHYS-TX-QUEUE-OVERFLOW"].message
    rx = got["NET-PHYS-RX-ERRORS"]
    assert rx.level == "warning" and rx.values["no_resource_errors"] == "41207"  # 0.0045 % of 913 M packets
    assert all(e.line > 0 for f in got.values() for e in f.evidence)
