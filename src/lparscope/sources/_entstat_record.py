"""The record of one ``ETHERNET STATISTICS (entN)`` section of entstat / netstat -v output
(``lparscope.sources.entstat`` reads it; its SEA and EtherChannel parts live beside it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ._entstat_etherchannel import EtherChannelStats, LacpPortState
from ._entstat_sections import SeaStats


@dataclass
class EthernetAdapterStats:
    """One ``ETHERNET STATISTICS (entN)`` section."""

    name: str | None
    line: int
    device_type: str | None = None
    hardware_address: str | None = None
    elapsed_seconds: int | None = None
    adapter_class: str = "unknown"  # physical | virtual | trunk | sea | etherchannel | vlan | unknown
    parent: str | None = None  # SEA or EtherChannel this section was listed under
    role: str | None = None  # real | virtual | control (SEA member), member (EtherChannel member)
    counters: dict[str, int] = field(default_factory=dict)
    adapter_data_rate: int | None = None  # Mbit/s
    driver_flags: list[str] = field(default_factory=list)
    link_status: str | None = None
    media_speed_selected: str | None = None
    media_speed_running: str | None = None
    flow_control: str | None = None  # "Transmit and Receive Flow Control Status"
    jumbo_frames: str | None = None
    specific: dict[str, str] = field(default_factory=dict)  # other "Key: value" lines, nested as "A / B"
    lacp_port: dict[str, str] = field(default_factory=dict)  # IEEE 802.3ad Port Statistics, raw
    lacp: LacpPortState | None = None  # the same, typed: actor / partner system, key, port, state
    trunk_adapter: bool | None = None
    priority: int | None = None
    active: bool | None = None
    port_vlan_id: int | None = None
    vlan_tag_ids: list[int] | None = None
    switch_id: str | None = None
    hypervisor_send_failures: int | None = None
    hypervisor_receive_failures: int | None = None
    receiver_failures: int | None = None
    send_errors: int | None = None
    invalid_vlan_id_packets: int | None = None
    receive_buffers: dict[str, dict[str, int]] = field(default_factory=dict)  # "tiny" -> {"min_buffers": ..}
    sea: SeaStats | None = None
    etherchannel: EtherChannelStats | None = None
    lines: dict[str, int] = field(default_factory=dict)
