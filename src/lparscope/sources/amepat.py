"""Active Memory Expansion planning report: AIX ``amepat``.

Input (abridged; pasted reports often have their padding collapsed to single spaces)::

    Command Invoked                : amepat 10
    Total Samples Collected        : 10

    System Configuration:
    ---------------------
    True Memory                    : 16.00 GB
    Active Memory Expansion        : Disabled

    System Resource Statistics:               Average              Min              Max
    ---------------------------            -----------      -----------      -----------
    CPU Util (Phys. Processors)              0.82 [ 41%]      0.40 [ 20%]      1.30 [ 65%]
    True Memory In-Use (MB)                 11620 [ 71%]     11402 [ 70%]     11901 [ 73%]

    Active Memory Expansion Modeled Statistics  :
    Expansion    Modeled True      Modeled              CPU Usage
    Factor       Memory Size       Memory Gain          Estimate
    ---------    -------------     ------------------   -----------
         1.00        16.00 GB         0.00 KB [  0%]   0.00 [  0%]   << CURRENT CONFIG
         1.33        12.00 GB         4.00 GB [ 33%]   0.21 [ 10%]

    Active Memory Expansion Recommendation:
    The recommended AME configuration for this workload is to configure the LPAR
    with a memory size of 12.00 GB and to configure a memory expansion factor
    of 1.33.  This will result in a memory gain of 33%. ...

Output: one :class:`AmepatReport` with typed fields, the statistics as
:class:`AmepatStat` (keyed ``cpu_util``, ``virtual_memory_size``, ``true_memory_in_use``,
``pinned_memory``, ``file_cache_size``, ``available_memory``, ``ame_cpu_usage``,
``compressed_memory``, ``compression_ratio``, ``deficit_memory_size``), the modeled table
as :class:`AmepatModeledRow` and ``WARNING:`` paragraphs as text::

    AmepatReport(command_invoked="amepat 10", true_memory_mb=16384.0, ame_enabled=False,
                 resource_stats={"cpu_util": AmepatStat(average=0.82, average_pct=41.0, ...)},
                 modeled=[AmepatModeledRow(expansion_factor=1.0, current=True, ...), ...],
                 recommended_true_memory_mb=12288.0, recommended_expansion_factor=1.33, ...)

Sizes are MB (floats). ``lines`` maps each field to its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..numbers import whole
from .base import preamble, Parsed, leading_prompt, split_lines, to_float, to_int

KIND = "amepat"
TITLE = "amepat"
COMMANDS = [r"^amepat\b(?!.*\s-R\b)"]
STARTS = re.compile(r"^\s*Command Invoked\s*:\s*amepat\b")

_KEY_RE = re.compile(r"[A-Za-z][A-Za-z0-9 ./()'/-]*")


class _KV:
    """``Key : value`` of a stripped line, split at its first colon (no backtracking pattern)."""

    def __init__(self, key: str, value: str) -> None:
        self.parts = {"key": key, "value": value}

    def group(self, name: str) -> str:
        return self.parts[name]

    @staticmethod
    def match(line: str) -> "_KV | None":
        colon = line.find(":")
        key, value = line[:colon].strip(), line[colon + 1:].strip()
        if colon < 0 or not value or not _KEY_RE.fullmatch(key):
            return None
        return _KV(key, value)


_KV_RE = _KV
# A statistics row: a name, then values ("1.50", "2.00 [ 25% ]", "N/A"). Each value ends at a blank, a
# bracket or the line's end, so no run of digits can be split two ways (the former pattern,
# ``(?:[\d.,]+\s*...)+``, was exponential in the length of a run of digits).
_VALUE = r"(?:[\d.,]+(?:\s*\[\s*[\d.,]+\s*%\s*\]\s*|\s+|$)|N/A(?:\s+|$))"
_STAT_RE = re.compile(rf"^\s*(?P<name>[A-Za-z][^\[\]]*?)\s+(?P<vals>{_VALUE}+)$")
# A statistics row is a name then its values; the name may hold digits and spaces, so the row is
# found by trying each split point: lines longer than any real row are not tried (linear time).
_STAT_LINE_MAX = 400
_PAIR_RE = re.compile(r"([\d.,]+)\s*(?:\[\s*([\d.,]+)\s*%\s*\])?")
_SIZE = r"([\d.,]+)\s*([KMGT]B)"
_MODEL_RE = re.compile(
    rf"^\s*(?P<f>\d+[.,]\d+)\s+{_SIZE}\s+{_SIZE}\s*\[\s*(?P<gp>[\d.,]+)\s*%\s*\]"
    r"\s+(?P<cpu>[\d.,]+)\s*\[\s*(?P<cp>[\d.,]+)\s*%\s*\](?P<rest>.*)$"
)
_SECTIONS = {
    "system configuration": "config",
    "system resource statistics": "resource",
    "ame statistics": "ame",
    "active memory expansion modeled statistics": "modeled",
    "active memory expansion recommendation": "recommendation",
}
_SCALAR_FIELDS = {  # snake key -> (field, converter)
    "command_invoked": ("command_invoked", "str"), "date_time_of_invocation": ("invoked_at", "str"),
    "total_monitored_time": ("monitored_time", "str"), "total_samples_collected": ("samples_collected", "int"),
    "partition_name": ("partition_name", "str"),
    "processor_implementation_mode": ("processor_implementation_mode", "str"),
    "number_of_logical_cpus": ("logical_cpus", "int"),
    "processor_entitled_capacity": ("entitled_capacity", "float"),
    "processor_max_capacity": ("max_capacity", "float"), "true_memory": ("true_memory_mb", "mb"),
    "smt_threads": ("smt_threads", "int"), "shared_processor_mode": ("shared_processor_mode", "str"),
    "active_memory_sharing": ("active_memory_sharing", "str"),
    "active_memory_expansion": ("active_memory_expansion", "str"),
    "target_expanded_memory_size": ("target_expanded_memory_mb", "mb"),
    "target_memory_expansion_factor": ("target_expansion_factor", "float"),
    "modeled_implementation": ("modeled_implementation", "str"),
    "modeled_expanded_memory_size": ("modeled_expanded_memory_mb", "mb"),
    "achievable_compression_ratio": ("achievable_compression_ratio", "float"),
}


@dataclass
class AmepatStat:
    name: str  # snake key, e.g. "true_memory_in_use"
    label: str  # as printed, e.g. "True Memory In-Use (MB)"
    unit: str | None  # "MB", "Phys. Processors", ... from the label
    average: float | None
    average_pct: float | None
    min: float | None
    min_pct: float | None
    max: float | None
    max_pct: float | None
    line: int


@dataclass
class AmepatModeledRow:
    expansion_factor: float
    true_memory_mb: float
    memory_gain_mb: float
    memory_gain_pct: float | None
    cpu_usage: float | None  # physical processors
    cpu_usage_pct: float | None
    current: bool  # "<< CURRENT CONFIG"
    line: int


@dataclass
class AmepatReport:
    command_invoked: str | None = None
    invoked_at: str | None = None
    monitored_time: str | None = None
    monitored_seconds: int | None = None
    samples_collected: int | None = None
    partition_name: str | None = None
    processor_implementation_mode: str | None = None
    logical_cpus: int | None = None
    entitled_capacity: float | None = None
    max_capacity: float | None = None
    true_memory_mb: float | None = None
    smt_threads: int | None = None
    shared_processor_mode: str | None = None
    active_memory_sharing: str | None = None
    active_memory_expansion: str | None = None
    ame_enabled: bool | None = None
    target_expanded_memory_mb: float | None = None
    target_expansion_factor: float | None = None
    resource_stats: dict[str, AmepatStat] = field(default_factory=dict)
    ame_stats: dict[str, AmepatStat] = field(default_factory=dict)
    compression_ratio: float | None = None  # AME Statistics "Compression Ratio" (None for N/A)
    modeled_implementation: str | None = None
    modeled_expanded_memory_mb: float | None = None
    achievable_compression_ratio: float | None = None
    modeled: list[AmepatModeledRow] = field(default_factory=list)
    recommendation: str | None = None  # the paragraph, joined
    recommended_true_memory_mb: float | None = None
    recommended_expansion_factor: float | None = None
    recommended_memory_gain_pct: float | None = None
    recommended_ame_cpu: float | None = None  # physical processors for AME
    recommended_peak_cpu: float | None = None  # overall peak physical processors
    warnings: list[str] = field(default_factory=list)  # WARNING paragraphs, joined
    deficit_memory_mb: float | None = None  # from "memory deficit of N MB"
    lines: dict[str, int] = field(default_factory=dict)
    line: int = 0



def _ends_with_value(text: str) -> bool:
    """Whether ``text`` ends with ``: value`` (a colon, then one word): ``Mem size: 4 GB`` does not."""
    s = text.rstrip()
    if not s:
        return False
    last = s.rsplit(None, 1)[-1]
    return ":" in last[:-1] or s[: len(s) - len(last)].rstrip().endswith(":")

def _snake(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _mb(value: str | None, unit: str | None = None) -> float | None:
    if value is None:
        return None
    if unit is None:
        m = re.match(rf"^\s*{_SIZE}\s*$", value, re.I)
        if not m:
            return to_float(value)
        value, unit = m.group(1), m.group(2)
    num = to_float(value)
    mult = {"KB": 1 / 1024, "MB": 1, "GB": 1024, "TB": 1048576}.get(unit.upper())
    return None if num is None or mult is None else num * mult


def _seconds(text: str) -> int | None:
    total, found = 0, False
    for num, unit in re.findall(r"(?<!\d)(\d+)\s*(hr|hour|min|sec)", text, re.I):
        n = whole(num)
        if n is None:
            continue
        total += n * {"hr": 3600, "hour": 3600, "min": 60, "sec": 1}[unit.lower()]
        found = True
    return total if found else None


def detect(text: str) -> int:
    lines = [ln for ln in split_lines(text)[:200] if ln.strip()]
    if not lines:
        return 0
    prompt, start = leading_prompt(lines)
    if prompt and prompt.program == "amepat":
        return 95 if any(re.search(p, prompt.command) for p in COMMANDS) else 10
    joined = "\n".join(lines[start:])
    marks = sum(bool(re.search(p, joined)) for p in (
        r"Command Invoked\s*:\s*amepat", r"Active Memory Expansion Modeled Statistics",
        r"Active Memory Expansion Recommendation", r"Expansion\s+Modeled True", r"AME Statistics",
        r"Target Memory Expansion factor", r"recommended AME configuration"))
    return 95 if marks >= 3 else 80 if marks == 2 else 50 if marks == 1 else 0


def _stat(name: str, vals: str, lineno: int) -> AmepatStat:
    pairs = [(to_float(a), to_float(b) if b else None) for a, b in _PAIR_RE.findall(vals)]
    pairs += [(None, None)] * (3 - len(pairs))
    unit_m = re.search(r"\(([^)]*)\)\s*$", name)
    key = _snake(re.sub(r"\([^)]*\)", "", name))
    (a, ap), (mi, mip), (ma, map_) = pairs[:3]
    return AmepatStat(key, name.strip(), unit_m.group(1) if unit_m else None, a, ap, mi, mip, ma, map_, lineno)


def _recommendation(rep: AmepatReport, text: str) -> None:
    rep.recommendation = text
    m = re.search(rf"memory size of\s+{_SIZE}", text)
    if m:
        rep.recommended_true_memory_mb = _mb(m.group(1), m.group(2))
    for attr, pat in (
        ("recommended_expansion_factor", r"expansion factor\s+of\s+(\d+(?:[.,]\d+)?)"),
        ("recommended_memory_gain_pct", r"memory gain of\s+(\d+(?:[.,]\d+)?)\s*%"),
        ("recommended_ame_cpu", r"due to AME is approximately\s+(\d+(?:[.,]\d+)?)"),
        ("recommended_peak_cpu", r"required for\s+the LPAR is\s+(\d+(?:[.,]\d+)?)"),
    ):
        m = re.search(pat, text)
        if m:
            setattr(rep, attr, to_float(m.group(1)))


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.host:
        out.hostname = prompt.host
    rep = AmepatReport()
    section: str | None = None
    para: tuple[str, int, list[str]] | None = None  # ("recommendation"|"warning", first line, text)

    def close_para() -> None:
        nonlocal para
        if para:
            kind, first, parts = para
            joined = " ".join(parts)
            if kind == "warning":
                rep.warnings.append(joined)
                rep.lines.setdefault("warnings", first)
                m = re.search(rf"memory deficit of\s+{_SIZE}", joined)
                if m:
                    rep.deficit_memory_mb = _mb(m.group(1), m.group(2))
                    rep.lines["deficit_memory_mb"] = first
            elif rep.recommendation is None:
                _recommendation(rep, joined)
                rep.lines["recommendation"] = first
        para = None

    for idx in range(start, len(lines)):
        lineno = idx + 1
        line = lines[idx].strip()
        if not line:
            close_para()
            continue
        if re.match(r"^[-\s]+$", line):
            continue
        head = re.match(r"^(?P<title>[A-Za-z](?:[A-Za-z ]*[A-Za-z])?)\s*:", line)
        title = _snake(head.group("title")).replace("_", " ") if head else ""
        if title in _SECTIONS and not _ends_with_value(line.split("Average")[0]):
            close_para()
            section = _SECTIONS[title]
            rep.lines.setdefault(f"{section}_section", lineno)
            continue
        if line.startswith("WARNING"):
            close_para()
            para = ("warning", lineno, [line.split(":", 1)[-1].strip()])
            continue
        if line.startswith("NOTE:") or line.startswith("Note:"):
            close_para()
            section = "note"
            continue
        if line.startswith("The recommended AME configuration"):
            close_para()
            para = ("recommendation", lineno, [line])
            continue
        if para:
            para[2].append(line)
            continue
        mrow = _MODEL_RE.match(line)
        if mrow:
            rep.modeled.append(AmepatModeledRow(
                to_float(mrow.group("f")) or 0.0, _mb(mrow.group(2), mrow.group(3)) or 0.0,
                _mb(mrow.group(4), mrow.group(5)) or 0.0, to_float(mrow.group("gp")),
                to_float(mrow.group("cpu")), to_float(mrow.group("cp")),
                "CURRENT" in mrow.group("rest").upper(), lineno))
            rep.lines.setdefault("modeled", lineno)
            continue
        kv = _KV_RE.match(line)
        if kv and _snake(kv.group("key")) in _SCALAR_FIELDS:
            attr, conv = _SCALAR_FIELDS[_snake(kv.group("key"))]
            value = kv.group("value")
            conv_value = {"str": lambda v: v, "int": to_int, "float": to_float, "mb": _mb}[conv](value)
            if conv_value is None:
                out.warn(lineno, f"{kv.group('key')}: cannot read {value!r}")
            setattr(rep, attr, conv_value)
            rep.lines[attr] = lineno
            if attr == "monitored_time":
                rep.monitored_seconds = _seconds(value)
            continue
        if section in ("resource", "ame"):
            st = _STAT_RE.match(line) if len(line) <= _STAT_LINE_MAX else None
            if st:
                stat = _stat(st.group("name"), st.group("vals"), lineno)
                (rep.resource_stats if section == "resource" else rep.ame_stats)[stat.name] = stat
                if stat.name == "compression_ratio":
                    rep.compression_ratio = stat.average
                rep.lines[stat.name] = lineno
                continue
            if re.match(r"^Compression Ratio\s+N/A$", line):
                continue
            out.warn(lineno, f"not a statistics row: {line[:60]!r}")
            continue
        if section == "modeled" and re.match(r"^\d", line):
            out.warn(lineno, f"not a modeled-statistics row: {line[:60]!r}")
    close_para()
    if not any(not k.endswith("_section") for k in rep.lines):
        if any(ln.strip() for ln in lines[start:]):
            out.warn(start + 1, "no amepat report content found")
        return out
    if rep.active_memory_expansion:
        rep.ame_enabled = rep.active_memory_expansion.strip().lower().startswith("enabled")
    rep.line = min(rep.lines.values())
    out.records.append(rep)
    return out
