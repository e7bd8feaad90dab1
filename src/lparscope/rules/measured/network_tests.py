"""Measured network evidence set beside the configuration: iperf / ftp-dd throughput on
interfaces without largesend (001_56ba1d0866fd4e65.txt) and ping / netlatency.sh round
trips as context (000_31a80e54567cd02b.txt §3.7.9).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Device, Evidence, Host, Sourced
from ..changes import device_change, propose
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule

EXPECTED_GBPS = threshold("meas_largesend_expected_gbps", 3.8,
                          "single-stream LPAR-to-LPAR rate with largesend: 001 binary ftp of dd, 3.8 Gb/s "
                          "with largesend against 1 Gb/s without, MTU 1500")
MIN_SHARE = threshold("meas_throughput_min_share", 0.5,
                      "a sending stream below this share of meas_largesend_expected_gbps, on an interface "
                      "without largesend, is flagged (001's 1 Gb/s without largesend is 26% of 3.8)")
LATENCY_REFERENCE_MS = 0.0523448  # 000 §3.7.9 Example 3-28: average RTT between two LPARs, 20 packets


def _gbps(bps: float | None) -> str:
    return "?" if bps is None else f"{bps / 1e9:.2f} Gb/s"


def _interfaces(host: Host, local: str | None) -> list[Device]:
    """The en interface that carried the test (by its address), else every en interface."""
    ens = [d for d in host.by_class("interface") if d.name.startswith("en")]
    if local:
        for d in ens:
            if d.attr("netaddr") == local:
                return [d]
        for itf in host.interfaces:
            if any(addr == local for addr, _m in getattr(itf, "inet", []) or []):
                return [d for d in ens if d.name == itf.name] or [host.device(itf.name)]
    return ens


def _lacks_largesend(host: Host, dev: Device) -> tuple[bool, list[Evidence]]:
    value = dev.attr("mtu_bypass")
    if value is not None:
        return value.lower() in ("off", "no", "0"), dev.attr_ev("mtu_bypass")
    for s in host.of_kind("netif", "Interface"):
        if s.record.name == dev.name:
            return not s.record.largesend, [s.ev()]
    return False, []


@rule(
    id="MEAS-THROUGHPUT-NO-LARGESEND",
    title="Measured throughput far below the largesend rate on an interface without largesend",
    severity="warning",
    category="network",
    source="001_56ba1d0866fd4e65.txt (largesend measurements; binary ftp with dd; iperf client side)",
    rationale="""001 measured one TCP stream between two LPARs of one frame, MTU 1500, with a binary ftp of
    dd output: about 1 Gb/s without largesend and 3.8 Gb/s with it; its iperf run fell from 12.3 to
    1.16 Gb/s over three streams when mtu_bypass was turned off. When a sending test on this host shows a
    per-stream rate below the configured share of the largesend figure and the interface it used has
    mtu_bypass off (no LARGESEND), the measurement confirms the configuration gap. Tests to other frames or
    over slower physical links can be legitimately lower: check the path before acting.""",
)
def throughput_without_largesend(host: Host, cfg: Config) -> Iterator[Finding]:
    limit = cfg.t(EXPECTED_GBPS) * 1e9 * cfg.t(MIN_SHARE)
    low: dict[str, tuple[Device, list[Evidence], list[Sourced]]] = {}
    for s in host.of_kind("nettest", "ThroughputTest"):
        t = s.record
        if t.role not in ("client", "sender") or t.per_stream_bps is None or t.per_stream_bps >= limit:
            continue
        for dev in _interfaces(host, t.local_address):
            lacks, ev = _lacks_largesend(host, dev)
            if lacks:
                low.setdefault(dev.name, (dev, ev, []))[2].append(s)
    for name, (dev, ev, tests) in sorted(low.items()):
        worst = min(tests, key=lambda s: s.record.per_stream_bps)
        w = worst.record
        desc = f"{w.tool} to {w.peer or w.peer_address or '?'}: {_gbps(w.per_stream_bps)} per stream"
        if w.streams > 1:
            desc += f" ({w.streams} streams, {_gbps(w.total_bps)} in total)"
        fix, undo = propose(device_change(host, name, "mtu_bypass", "off", "on", basis="measured"),
                            fix_notes=[f"# then repeat the test: {w.command or 'iperf -c <peer>'}"], form="root")
        yield finding(throughput_without_largesend, host, name,
                      f"{len(tests)} sending test(s) on {host.name} ran below {_gbps(limit)} per stream, the lowest "
                      f"{desc}, while {name} has no largesend (mtu_bypass off). 001 measured 1 Gb/s without and "
                      f"3.8 Gb/s with largesend for one stream between LPARs.",
                      evidence=ev + [s.ev("total") for s in tests],
                      fix=fix, rollback=undo,
                      values={"current": f"{_gbps(w.per_stream_bps)} per stream, mtu_bypass=off",
                              "suggested": f"mtu_bypass=on; at least {_gbps(limit)} per stream "
                                           f"(001: {cfg.t(EXPECTED_GBPS)} Gb/s)"})


@rule(
    id="MEAS-LATENCY",
    title="Measured round-trip latency (context)",
    severity="info",
    category="network",
    source="000_31a80e54567cd02b.txt §3.7.9 (Example 3-27, 3-28)",
    rationale="""The Redbook suggests profiling latency between LPARs of one frame, across the hypervisor and
    to outside hosts, both with background traffic and at peak, with a ping-plus-tcpdump script; its
    example shows an average round trip of about 0.05 ms between two LPARs. lparscope reports each
    measured round trip (and any lost packets) as context for the other findings; it does not judge a
    number, because the right latency depends on the path and the load.""",
)
def measured_latency(host: Host, cfg: Config) -> Iterator[Finding]:
    for s in host.of_kind("nettest", "LatencyTest"):
        t = s.record
        if t.avg_ms is None and not t.loss_pct:
            continue
        parts = []
        if t.avg_ms is not None:
            parts.append(f"average RTT {t.avg_ms:.4g} ms")
        if t.min_ms is not None and t.max_ms is not None:
            parts.append(f"min {t.min_ms:.4g} / max {t.max_ms:.4g} ms")
        if t.sent:
            parts.append(f"{t.received}/{t.sent} replies")
        if t.loss_pct:
            parts.append(f"{t.loss_pct:g}% packet loss")
        via = f" via {t.interface}" if t.interface else ""
        again = (f"./netlatency.sh -i {t.interface or 'en0'} -d {t.target or '<host>'} -c 20"
                 if t.tool == "netlatency" else f"ping -c 20 {t.target or '<host>'}")
        yield finding(measured_latency, host, f"{t.tool}:{t.target or '?'}",
                      f"{t.tool} from {host.name} to {t.target or '?'}{via}: {', '.join(parts)}. "
                      f"Reference: 000 Example 3-28 measured {LATENCY_REFERENCE_MS:.3g} ms between two LPARs of one frame.",
                      evidence=[s.ev("avg") if "avg" in t.lines else s.ev("counts")] + ([s.ev("rtt")] if "rtt" in t.lines else []),
                      fix=Commands(root=["# context only: repeat at peak and with background traffic to compare (000 §3.7.9)", again]),
                      rollback=Commands(root=["# a measurement changes nothing: nothing to roll back"]),
                      values={"current": f"{t.avg_ms:.4g} ms" if t.avg_ms is not None else f"{t.loss_pct:g}% loss",
                              "suggested": "compare with the same path idle and at peak"})
