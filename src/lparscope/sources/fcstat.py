"""Fibre Channel adapter statistics: AIX / VIOS ``fcstat fcsN``.

Input (AIX 7.x, physical adapter; older levels print ``Node WWN:`` / ``Port WWN:``
and ``Frames: 1  Frames: 2`` instead)::

    # fcstat fcs0
    FIBRE CHANNEL STATISTICS REPORT: fcs0

    Device Type: FC Adapter (adapter/pciex/df1000f114108a0)
    World Wide Port Name: 0x10000090FA1B2C3D
    Port Speed (supported): 16 GBIT
    Port Speed (running):   8 GBIT
    Seconds Since Last Reset: 86400

            Transmit Statistics     Receive Statistics
            -------------------     ------------------
    Frames: 1200                    3400
    Error Frames:  0
    Invalid CRC Count: 2

    FC SCSI Adapter Driver Information
      No DMA Resource Count: 12
      No Adapter Elements Count: 7
      No Command Resource Count: 3

Output: one :class:`FcAdapterStats` per report::

    FcAdapterStats(name="fcs0", device_type="FC Adapter (adapter/pciex/df1000f114108a0)",
                   port_speed_supported="16 GBIT", port_speed_running="8 GBIT",
                   wwpn="10000090fa1b2c3d", ...,
                   counters={"seconds_since_last_reset": 86400, "tx_frames": 1200,
                             "rx_frames": 3400, "error_frames": 0, "invalid_crc_count": 2,
                             "no_dma_resource_count": 12, "no_adapter_elements_count": 7,
                             "no_command_resource_count": 3},
                   line=2, lines={"device_type": 4, ...})

Counter keys are the snake_cased labels (``Primitive Seq Protocol Err Count`` is read as
``primitive_seq_protocol_error_count``). The "FC SCSI" sections give the bare keys
(``no_dma_resource_count``, ``input_requests``, ``input_bytes`` ...); the same labels
under "IP over FC" get an ``ip_`` prefix and under "FC NVMe" an ``nvme_`` prefix, so
the SCSI figures are never overwritten. Frames and Words become ``tx_frames``,
``rx_frames``, ``tx_words``, ``rx_words``. A virtual (NPIV client) adapter may print -1
for counters it cannot read: -1 is kept as is. Speeds stay raw strings (``UNKNOWN``).
``wwpn`` / ``wwnn`` are lower-case hex without ``0x``. A log of several runs (``###
command: fcstat fcs0 ###`` separators) gives one record per report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..numbers import whole
from .base import preamble, Parsed, is_bare_prompt, leading_prompt, parse_prompt, split_lines, to_int

KIND = "fcstat"
TITLE = "fcstat fcsN"
COMMANDS = [r"^fcstat\b"]
STARTS = re.compile(r"^\s*FIBRE CHANNEL STATISTICS REPORT:")


_REPORT_RE = re.compile(r"^\s*FIBRE CHANNEL STATISTICS REPORT:\s*(?P<name>\S+)?")
_KV_RE = re.compile(r"^\s*(?P<key>[A-Za-z](?:[^:]*[^:\s])?)\s*:\s*(?P<value>(?:.*\S)?)\s*$")
_TXRX_RE = re.compile(r"^\s*(?P<key>Frames|Words)\s*:\s*(?P<tx>-?\d+)\s+(?:(?:Frames|Words)\s*:\s*)?(?P<rx>-?\d+)\s*$")
_TITLE_RE = re.compile(r"^[A-Za-z][A-Za-z0-9 ()/\-]*$")
_INT_RE = re.compile(r"^-?\d+$|^0x[0-9A-Fa-f]+$")

# key (snake_case of the label) -> record field
_FIELDS = {
    "device_type": "device_type",
    "serial_number": "serial_number",
    "port_speed_supported": "port_speed_supported",
    "port_speed_running": "port_speed_running",
    "world_wide_port_name": "wwpn",
    "port_wwn": "wwpn",
    "world_wide_node_name": "wwnn",
    "node_wwn": "wwnn",
    "port_type": "port_type",
    "port_fc_id": "port_fc_id",
}
# labels whose value is text or an identifier, never a counter
_TEXT_KEYS = {
    "option_rom_version", "za", "firmware_version", "class_of_service", "attention_type",
    "topology", "adapter_effective_max_transfer_value", "fc4_supported", "fc4_active",
    "supported_ulps", "active_ulps", "fc_4_types", "fc4_types", "fc_4_types_ulp_mappings",
}


@dataclass
class FcAdapterStats:
    name: str | None
    device_type: str | None = None
    serial_number: str | None = None
    port_speed_supported: str | None = None
    port_speed_running: str | None = None
    wwpn: str | None = None
    wwnn: str | None = None
    port_type: str | None = None
    port_fc_id: str | None = None
    attributes: dict[str, str] = field(default_factory=dict)  # other text values, raw
    counters: dict[str, int] = field(default_factory=dict)
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


def _snake(label: str) -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "_", label).strip("_").lower()
    return re.sub(r"(^|_)err(_|$)", r"\1error\2", s)


def _section_prefix(title: str) -> str:
    t = title.lower()
    if "ip over fc" in t:
        return "ip_"
    if "nvme" in t:
        return "nvme_"
    return ""


def detect(text: str) -> int:
    lines = [ln for ln in split_lines(text)[:80] if ln.strip()]
    if not lines:
        return 0
    prompt, start = leading_prompt(lines)
    if prompt and any(re.search(p, prompt.command) for p in COMMANDS):
        return 95
    if any(STARTS.match(ln) for ln in lines[start:]):
        return 95
    body = "\n".join(lines[start:])
    hits = sum(k in body for k in ("World Wide Port Name", "Port WWN", "No DMA Resource Count",
                                   "Invalid CRC Count", "Port Speed (running)", "Link Failure Count"))
    return min(80, 20 * hits) if hits >= 2 else 0


def _set(rec: FcAdapterStats, key: str, value: str, lineno: int, prefix: str) -> None:
    if key in _FIELDS and not prefix:
        attr = _FIELDS[key]
        if attr in ("wwpn", "wwnn"):
            value = re.sub(r"^0x", "", value.replace(":", ""), flags=re.I).lower()
        setattr(rec, attr, value)
        rec.lines[attr] = lineno
        return
    if key not in _TEXT_KEYS and _INT_RE.match(value):
        full = prefix + key
        rec.counters[full] = to_int(value)  # type: ignore[assignment]
    else:
        full = key
        rec.attributes[full] = value
    rec.lines[full] = lineno


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt:
        out.hostname = prompt.host if prompt.user else None
    rec: FcAdapterStats | None = None
    prefix = ""
    fc4 = ""  # "fc4_" while reading the FC-4 TYPES block
    for idx in range(start, len(lines)):
        lineno = idx + 1
        line = lines[idx].rstrip()
        if not line.strip():
            continue
        m = _REPORT_RE.match(line)
        if m:
            rec = FcAdapterStats(name=m.group("name"), line=lineno)
            out.records.append(rec)
            prefix, fc4 = "", ""
            if not m.group("name"):
                out.warn(lineno, "report header without an adapter name")
            continue
        if line.lstrip().startswith("###") or set(line.strip()) <= set("-\t "):
            continue  # log separators ("### command: fcstat fcs0 ###") and rules
        if is_bare_prompt(line):
            continue
        p = parse_prompt(line)
        if p:
            if p.user and p.host:
                out.hostname = p.host
            continue
        if rec is None:
            out.warn(lineno, f"text before any FIBRE CHANNEL STATISTICS REPORT: {line.strip()[:60]!r}")
            continue
        t = _TXRX_RE.match(line)
        if t:
            key = t.group("key").lower()
            tx, rx = whole(t.group("tx")), whole(t.group("rx"))
            if tx is None or rx is None:
                out.warn(lineno, f"{key} counters are not numbers of at most 40 digits: not read")
                continue
            rec.counters[f"tx_{key}"] = tx
            rec.counters[f"rx_{key}"] = rx
            rec.lines[f"tx_{key}"] = rec.lines[f"rx_{key}"] = lineno
            continue
        kv = _KV_RE.match(line)
        if kv:
            key = _snake(kv.group("key"))
            value = kv.group("value")
            if key in ("fc_4_types", "fc4_types", "fc_4_types_ulp_mappings"):
                fc4 = "fc4_" if key != "fc_4_types_ulp_mappings" else "ulp_"
                continue
            if fc4 == "ulp_" and key in ("supported_ulps", "active_ulps"):
                continue  # the ULP names follow on indented lines
            if fc4 and key in ("supported", "active"):
                _set(rec, fc4 + key, value, lineno, "")
                continue
            fc4 = ""
            if not value and key not in _FIELDS:
                continue
            _set(rec, key, value, lineno, prefix)
            continue
        stripped = line.strip()
        if fc4 == "ulp_" and line[:1].isspace():
            continue  # an indented ULP name
        if stripped.startswith("Transmit Statistics"):
            continue
        if _TITLE_RE.match(stripped):
            if stripped.replace("-", "").replace(" ", "").lower() in ("fc4types",):
                fc4 = "fc4_"
                continue
            fc4 = ""
            prefix = _section_prefix(stripped)
            continue
        out.warn(lineno, f"unrecognised fcstat line: {stripped[:60]!r}")
    for r in out.records:
        if not r.counters and r.device_type is None:
            out.warn(r.line, f"report for {r.name} has no statistics")
    return out
