"""Partition configuration: AIX ``lparstat -i``.

Input ("Key : value" lines; padding varies, may be collapsed to ``Key : value``,
some locales print comma decimals such as ``4,00``)::

    # lparstat -i
    Node Name                                  : aix1
    Partition Name                             : 750_2_AIX1
    Type                                       : Shared-SMT-4
    Mode                                       : Uncapped
    Entitled Capacity                          : 2.00
    Online Memory                              : 8192 MB
    Memory Mode                                : Dedicated-Expanded
    Target Memory Expansion Factor             : 1.25

Output: one :class:`LparInfo`::

    LparInfo(node_name="aix1", partition_name="750_2_AIX1", type="Shared-SMT-4",
             mode="Uncapped", entitled_capacity=2.0, online_memory_mb=8192,
             memory_mode="Dedicated-Expanded", target_memory_expansion_factor=1.25,
             shared=True, smt_threads=4, capped=False, ame_enabled=True,
             raw={"Node Name": "aix1", ...}, lines={"node_name": 2, ...}, line=2)

``-`` values become ``None``. Memory values ("8192 MB", "8 GB") are integer MB.
``Parsed.hostname`` is the Node Name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..numbers import json_number, whole
from .base import HOST_NAME_RE, preamble, Parsed, is_prompt_left_over, leading_prompt, split_lines, to_float, to_int

KIND = "lparstat-i"
TITLE = "lparstat -i"
COMMANDS = [r"^lparstat\b.*\s-[A-Za-z]*i"]
STARTS = re.compile(r"^Node\s+Name\s*:\s*\S")

_KV_RE = re.compile(r"^\s*(?P<key>[A-Za-z](?:[^:]*[^:\s])?)\s*:\s*(?P<value>(?:.*\S)?)\s*$")

# field name -> value type ("str", "int", "float", "mb")
_FIELDS: dict[str, str] = {
    "node_name": "str", "partition_name": "str", "partition_number": "int", "type": "str",
    "mode": "str", "entitled_capacity": "float", "partition_group_id": "int",
    "shared_pool_id": "int", "online_virtual_cpus": "int", "maximum_virtual_cpus": "int",
    "minimum_virtual_cpus": "int", "online_memory_mb": "mb", "maximum_memory_mb": "mb",
    "minimum_memory_mb": "mb", "variable_capacity_weight": "int", "minimum_capacity": "float",
    "maximum_capacity": "float", "capacity_increment": "float",
    "maximum_physical_cpus_in_system": "int", "active_physical_cpus_in_system": "int",
    "active_cpus_in_pool": "int", "shared_physical_cpus_in_system": "int",
    "maximum_capacity_of_pool": "int", "entitled_capacity_of_pool": "int",
    "unallocated_capacity": "float", "physical_cpu_percentage": "float",
    "unallocated_weight": "int", "memory_mode": "str", "total_io_memory_entitlement": "float",
    "variable_memory_capacity_weight": "int", "memory_pool_id": "int",
    "target_memory_expansion_factor": "float", "target_memory_expansion_size_mb": "mb",
    "desired_virtual_cpus": "int", "desired_memory_mb": "mb",
    "desired_variable_capacity_weight": "int", "desired_capacity": "float",
    "power_saving_mode": "str",
}
# snake_case of the printed key -> field name, where they differ
_ALIASES = {
    "online_memory": "online_memory_mb", "maximum_memory": "maximum_memory_mb",
    "minimum_memory": "minimum_memory_mb", "desired_memory": "desired_memory_mb",
    "target_memory_expansion_size": "target_memory_expansion_size_mb",
}
# labels only lparstat -i prints (a grep of it, "lparstat -i | grep CPU", keeps a few of them)
_KNOWN_KEYS = {"node_name", "partition_name", "partition_number", "entitled_capacity",
               "online_virtual_cpus", "online_memory", "partition_group_id", "shared_pool_id",
               "maximum_virtual_cpus", "minimum_virtual_cpus", "desired_virtual_cpus", "maximum_physical_cpus_in_system",
               "active_physical_cpus_in_system", "active_cpus_in_pool", "shared_physical_cpus_in_system",
               "physical_cpu_percentage", "variable_capacity_weight", "minimum_capacity", "maximum_capacity",
               "capacity_increment", "entitled_capacity_of_pool", "maximum_capacity_of_pool", "unallocated_capacity"}


@dataclass
class LparInfo:
    node_name: str | None = None
    partition_name: str | None = None
    partition_number: int | None = None
    type: str | None = None
    mode: str | None = None
    entitled_capacity: float | None = None
    partition_group_id: int | None = None
    shared_pool_id: int | None = None
    online_virtual_cpus: int | None = None
    maximum_virtual_cpus: int | None = None
    minimum_virtual_cpus: int | None = None
    online_memory_mb: int | None = None
    maximum_memory_mb: int | None = None
    minimum_memory_mb: int | None = None
    variable_capacity_weight: int | None = None
    minimum_capacity: float | None = None
    maximum_capacity: float | None = None
    capacity_increment: float | None = None
    maximum_physical_cpus_in_system: int | None = None
    active_physical_cpus_in_system: int | None = None
    active_cpus_in_pool: int | None = None
    shared_physical_cpus_in_system: int | None = None
    maximum_capacity_of_pool: int | None = None  # hundredths of a core, as printed (1600 = 16 cores)
    entitled_capacity_of_pool: int | None = None  # hundredths of a core
    unallocated_capacity: float | None = None
    physical_cpu_percentage: float | None = None
    unallocated_weight: int | None = None
    memory_mode: str | None = None
    total_io_memory_entitlement: float | None = None  # MB (AMS)
    variable_memory_capacity_weight: int | None = None
    memory_pool_id: int | None = None
    target_memory_expansion_factor: float | None = None
    target_memory_expansion_size_mb: int | None = None
    desired_virtual_cpus: int | None = None
    desired_memory_mb: int | None = None
    desired_variable_capacity_weight: int | None = None
    desired_capacity: float | None = None
    power_saving_mode: str | None = None
    # derived from type / mode / memory_mode
    shared: bool | None = None
    smt_threads: int | None = None  # only when the type names it ("Shared-SMT-4")
    smt_enabled: bool | None = None
    capped: bool | None = None  # None for modes other than Capped/Uncapped (e.g. Donating)
    ame_enabled: bool | None = None
    raw: dict[str, str] = field(default_factory=dict)  # printed key (spaces collapsed) -> value
    lines: dict[str, int] = field(default_factory=dict)  # field / snake key -> line
    line: int = 0


def snake(key: str) -> str:
    """``"Partition Group-ID"`` -> ``"partition_group_id"``; ``"Total I/O Memory"`` -> ``"total_io_memory"``."""
    k = key.lower().replace("i/o", "io").replace("%", " pct ")
    return re.sub(r"[^a-z0-9]+", "_", k).strip("_")


_NUMBER_ONLY = re.compile(r"^[-+]?\d+(?:[.,]\d+)?$")


def _memory_mb(value: str) -> int | None:
    m = re.match(r"^([-+]?\d+(?:[.,]\d+)?)\s*([KMGT]?B)?$", value.strip(), re.I)
    if not m:
        return None
    num = to_float(m.group(1))
    if num is None:
        return None
    unit = (m.group(2) or "MB").upper()
    mb = num * {"KB": 1 / 1024, "B": 1 / 1048576, "MB": 1, "GB": 1024, "TB": 1048576}[unit]
    return int(round(mb))


def _convert(kind: str, value: str) -> object:
    if value in ("", "-"):
        return None
    if kind == "str":
        return value
    if kind == "mb":
        return _memory_mb(value)
    if kind == "float":
        return to_float(re.sub(r"(?<!\s)\s*[KMGT]?B$", "", value))
    return to_int(value)


def detect(text: str) -> int:
    lines = [ln for ln in split_lines(text)[:80] if ln.strip()]
    if not lines:
        return 0
    prompt, start = leading_prompt(lines)
    if prompt and any(re.search(p, prompt.command) for p in COMMANDS):
        return 95
    keys = set()
    for ln in lines[start:]:
        m = _KV_RE.match(ln)
        if m:
            keys.add(snake(m.group("key")))
    hits = len(keys & _KNOWN_KEYS)
    if hits >= 4:
        return 90
    if hits >= 2:
        return 60
    return 0


def _derive(info: LparInfo) -> None:
    if info.type:
        t = info.type.lower()
        info.shared = t.startswith("shared")
        info.smt_enabled = "smt" in t
        m = re.search(r"smt-?(\d+)", t)
        info.smt_threads = whole(m.group(1)) if m else None
    if info.mode:
        md = info.mode.strip().lower()
        info.capped = True if md == "capped" else False if md == "uncapped" else None
    if info.memory_mode:
        info.ame_enabled = "expanded" in info.memory_mode.lower()


@lru_cache(maxsize=1024)  # the same few dozen keys in every output
def _key_and_name(raw: str) -> tuple[str, str]:
    """The key as printed (blanks folded) and its field name."""
    key = re.sub(r"\s+", " ", raw.strip())
    name = snake(key)
    return key, _ALIASES.get(name, name)


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.host:
        out.hostname = prompt.host
    info = LparInfo()
    for idx in range(start, len(lines)):
        lineno = idx + 1
        line = lines[idx].strip()
        if not line:
            continue
        if _is_bare_prompt(line):
            continue
        m = _KV_RE.match(line)
        if not m:
            out.warn(lineno, f"not a 'Key : value' line: {line[:60]!r}")
            continue
        key, name = _key_and_name(m.group("key"))
        value = m.group("value").strip()
        if key in info.raw:
            out.warn(lineno, f"repeated key {key!r}: later value kept")
        info.raw[key] = value
        info.lines[name] = lineno
        if not info.line:
            info.line = lineno
        kind = _FIELDS.get(name)
        if kind is None:
            continue
        converted = _convert(kind, value)
        if kind == "mb" and _NUMBER_ONLY.match(value):
            # lparstat -i prints every memory size with its unit: a bare number is one cut short
            out.warn(lineno, f"{key}: {value!r} has no unit (MB, GB): not read")
            converted = None
        elif converted is None and value not in ("", "-"):
            out.warn(lineno, f"{key}: cannot read value {value!r}")
        elif isinstance(converted, (int, float)) and converted < 0 and (name.endswith("_mb") or "memory" in name
                                                                        or "capacity" in name or "cpus" in name):
            # a size or a count below zero is the command's overflow (powerpc-utils' -l past 2 TB), not a value
            out.warn(lineno, f"{key}: negative value {value!r} not read")
            converted = None
        setattr(info, name, converted)
    if not any(name in _FIELDS for name in info.lines):
        if any(ln.strip() for ln in lines[start:]):
            out.warn(start + 1, "no lparstat -i keys found")
        return out
    _derive(info)
    out.records.append(info)
    if info.node_name and HOST_NAME_RE.match(info.node_name):
        out.hostname = info.node_name
    elif info.node_name:
        out.warn(info.lines.get("node_name", info.line), f"Node Name {info.node_name[:60]!r} is not a host name")
    return out


def _is_bare_prompt(line: str) -> bool:
    """A trailing shell prompt (``root@aix1:/ #``) after the output: ignored, not warned."""
    return bool(is_prompt_left_over(line)) or line in ("#", "$")


def from_njmon(config: dict, ptype: dict, server: dict, line: int) -> Parsed:
    """The partition an njmon snapshot's ``config`` and ``partition_type`` sections give (AIX
    libperfstat's partition configuration, the values lparstat -i prints), as one :class:`LparInfo`
    whose fields all cite the snapshot's ``line``. Capacities in hundredths of a core as perfstat
    counts them (cpucap_min 10 = 0.10); memory in MB."""

    def num(key: str, source: dict | None = None) -> float | None:
        return json_number((config if source is None else source).get(key))

    def count(key: str, source: dict | None = None) -> int | None:
        v = num(key, source)
        return int(v) if v is not None else None

    out = Parsed(kind=KIND)
    shared = count("shared_enabled", ptype)
    smt = count("smtthreads")
    info = LparInfo(node_name=config.get("nodename") or None, partition_name=config.get("partitionname") or None)
    number = str(server.get("lpar_number_name") or "").partition(",")[0].strip()
    info.partition_number = int(number) if number.isdigit() else None
    if shared is not None:
        info.type = ("Shared" if shared else "Dedicated") + (f"-SMT-{smt}" if smt and smt > 1 else "")
        capped, donating = count("capped", ptype), count("donate_enabled", ptype)
        if shared and capped is not None:
            info.mode = "Capped" if capped else "Uncapped"
        elif not shared:
            info.mode = "Donating" if donating else "Capped"
    info.entitled_capacity = num("entitled_proc_capacity")
    info.shared_pool_id = count("processor_poolid")
    info.online_virtual_cpus, info.maximum_virtual_cpus, info.minimum_virtual_cpus = (
        count("vcpus_online"), count("vcpus_max"), count("vcpus_min"))
    info.online_memory_mb, info.maximum_memory_mb, info.minimum_memory_mb = (
        count("mem_online"), count("mem_max"), count("mem_min"))
    info.variable_capacity_weight = count("cpucap_weightage")
    low, high = num("cpucap_min"), num("cpucap_max")
    info.minimum_capacity = low / 100 if low is not None else None
    info.maximum_capacity = high / 100 if high is not None else None
    info.active_physical_cpus_in_system = count("pcpu_online")
    info.maximum_physical_cpus_in_system = count("pcpu_max")
    info.active_cpus_in_pool = count("activecpusinpool")
    info.shared_physical_cpus_in_system = count("sharedpcpu")
    info.maximum_capacity_of_pool, info.entitled_capacity_of_pool = count("maxpoolcap"), count("entpoolcap")
    factor = num("ame_targetmemexpfactor")
    ams = count("ams_enabled", ptype)
    info.memory_mode = "Shared" if ams else "Dedicated-Expanded" if factor else "Dedicated"
    info.target_memory_expansion_factor = factor / 100 if factor else None
    _derive(info)
    info.line = line
    info.lines = {f: line for f, v in vars(info).items() if v is not None and f not in ("raw", "lines", "line")}
    out.records.append(info)
    out.hostname = info.node_name
    return out
