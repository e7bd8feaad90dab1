"""The speed of an Ethernet link: what the port can do and what it runs at (entstat, lsattr).
"""

from __future__ import annotations

import re

from ...model.estate import Device, Evidence, Host

_GB_RE = re.compile(r"(?<![\w.])(\d+(?:/\d+)*)\s?G(?:bE|b/s|bps|b|igabit)(?![a-z])", re.I)


def port_capability_mbps(dev: Device) -> int | None:
    """The port speed the adapter's description names (10GbE -> 10000); None when absent or mixed."""
    texts = [dev.description or "", getattr(dev.stats, "device_type", None) or ""]
    speeds: set[int] = set()
    for text in texts:
        for m in _GB_RE.finditer(text):
            speeds.update(int(x) * 1000 for x in m.group(1).split("/"))
        rest = _GB_RE.sub(" ", text)
        if re.search(r"10/100/1000\b", rest) or "gigabit" in rest.lower():
            speeds.add(1000)
    if len(speeds) != 1:  # none named, or a mixed card (10Gb + 1GbE ports, 100/25GbE): cannot tell the port
        return None
    return speeds.pop()


def running_mbps(dev: Device) -> tuple[int | None, list[Evidence]]:
    """The speed the port runs at: Media Speed Running / Physical Port Speed, else Adapter Data Rate / 2.

    AIX prints Adapter Data Rate as the sum of both directions on a full-duplex link
    (10 Gbps Full Duplex shows 20000; 1000 Mbps Full Duplex shows 2000).
    """
    s = dev.stats
    if s is None:
        return None, []
    m = re.search(r"(?<!\d)(\d+(?:\.\d+)?)\s*([GM])\s*bps", getattr(s, "media_speed_running", None) or "", re.I)
    if m:
        mbps = float(m.group(1)) * (1000 if m.group(2).upper() == "G" else 1)
        return int(mbps), dev.stat_ev("media_speed_running")
    rate = getattr(s, "adapter_data_rate", None)
    if isinstance(rate, int) and rate > 0:
        return rate // 2, dev.stat_ev("adapter_data_rate")
    return None, []


def link_mbps(host: Host, dev: Device) -> tuple[int | None, list[Evidence]]:
    """Best link speed for an adapter of any class (an SEA takes its real adapter's)."""
    if dev.cls == "sea":
        real = dev.attr("real_adapter")
        if real and real in host.devices and real != dev.name:
            return link_mbps(host, host.devices[real])
    speed, ev = running_mbps(dev)
    if speed:
        return speed, ev
    if dev.cls == "physical":
        cap = port_capability_mbps(dev)
        if cap:
            return cap, [dev.evidence] if dev.evidence else []
    return None, []
