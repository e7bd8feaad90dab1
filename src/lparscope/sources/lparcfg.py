"""Partition configuration of a Linux on Power partition: ``/proc/ppc64/lparcfg`` (``cat`` of it).

Input (the kernel's ``lparcfg`` driver: a version line, then ``key=value`` lines; which keys
appear depends on the kernel and on the partition being shared or dedicated)::

    # cat /proc/ppc64/lparcfg
    lparcfg 1.9
    serial_number=IBM,02784C1D0
    system_type=IBM,9009-42A
    partition_id=7
    DesEntCap=150
    partition_entitled_capacity=150
    pool=0
    pool_capacity=1600
    capacity_weight=128
    capped=0
    partition_active_processors=4
    partition_potential_processors=8
    shared_processor_mode=1

Output: one :class:`Lparcfg` (every pair as printed, with its line), one
:class:`~lparscope.sources.lparstat_info.LparInfo` holding the same settings under the names
``lparstat -i`` gives them (so the partition is modelled as an AIX one is), and one
:class:`~lparscope.sources.prtconf.SystemConfig` with the frame's model and serial and the
partition's id and name (the frame join)::

    Lparcfg(version="1.9", values={"serial_number": "IBM,02784C1D0", ...}, lines={...}, line=2)
    LparInfo(partition_number=7, type="Shared", mode="Uncapped", entitled_capacity=1.5,
             online_virtual_cpus=4, maximum_virtual_cpus=8, variable_capacity_weight=128,
             shared_pool_id=0, active_cpus_in_pool=16, ..., lines={"entitled_capacity": 7, ...})
    SystemConfig(model="IBM,9009-42A", serial="IBM,02784C1D0", lpar_number=7, ...)

Units, as the kernel prints them (``arch/powerpc/platforms/pseries/lparcfg.c``, and powerpc-utils'
``lparstat``, which divides the same keys by 100): the capacities ``partition_entitled_capacity``,
``DesEntCap``, ``MinEntCap``, ``partition_max_entitled_capacity``, ``CapInc``, ``pool_capacity``,
``unallocated_capacity`` are hundredths of a processor (150 = 1.50; ``pool_capacity`` is the
pool's active processors x 100); ``max_proc_capacity_available`` and
``entitled_proc_capacity_available`` too (kept in hundredths, as ``lparstat -i`` prints its
pool capacities); ``MinMem`` / ``DesMem`` are MB, ``MaxMem`` bytes. ``shared_processor_mode``
and ``capped`` are 0/1; a dedicated partition's mode is ``Donating`` when ``DedDonMode`` is 1.
The file names no host: the host comes from the prompt, else the file or folder name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import Parsed, command_matches, is_bare_prompt, output_head, preamble, to_int
from .lparstat_info import LparInfo
from .prtconf import SystemConfig

KIND = "lparcfg"
TITLE = "/proc/ppc64/lparcfg"
COMMANDS = [r"^(?:cat|more|less|pg)\s+(?:\S*/)?proc/(?:ppc64|powerpc)/lparcfg\b"]
STARTS = re.compile(r"^\s*lparcfg\s+\d+\.\d+\s*$")

_PAIR = re.compile(r"^\s*(?P<key>[A-Za-z_][A-Za-z0-9_]*)=(?P<value>.*)$")  # the value is stripped after (no lazy scan)
# keys only the lparcfg driver prints (detection without the version line)
_OWN_KEYS = {"serial_number", "system_type", "partition_id", "partition_entitled_capacity", "system_active_processors",
             "pool_capacity", "unallocated_capacity_weight", "capacity_weight", "partition_active_processors",
             "partition_potential_processors", "shared_processor_mode", "DisWheRotPer", "DesEntCap", "MinEntCap",
             "partition_max_entitled_capacity", "system_potential_processors", "pool_idle_time", "pool_num_procs",
             "physical_procs_allocated_to_virtualization", "cmo_enabled", "purr", "tbr", "slb_size"}

# LparInfo field: (lparcfg key(s), conversion). "c": hundredths of a processor -> processors,
# "h": hundredths kept, "i": a count, "mb": MB, "b": bytes -> MB
_MAP: dict[str, tuple[tuple[str, ...], str]] = {
    "partition_name": (("partition_name",), "s"),
    "partition_number": (("partition_id",), "i"),
    "entitled_capacity": (("partition_entitled_capacity",), "c"),
    "desired_capacity": (("DesEntCap",), "c"),
    "minimum_capacity": (("MinEntCap",), "c"),
    "maximum_capacity": (("partition_max_entitled_capacity",), "c"),
    "capacity_increment": (("CapInc",), "c"),
    "unallocated_capacity": (("unallocated_capacity",), "c"),
    "partition_group_id": (("group",), "i"),
    "shared_pool_id": (("pool",), "i"),
    "online_virtual_cpus": (("partition_active_processors",), "i"),
    "maximum_virtual_cpus": (("partition_potential_processors",), "i"),
    "minimum_virtual_cpus": (("MinProcs",), "i"),
    "desired_virtual_cpus": (("DesProcs",), "i"),
    "variable_capacity_weight": (("capacity_weight",), "i"),
    "desired_variable_capacity_weight": (("DesVarCapWt",), "i"),
    "unallocated_weight": (("unallocated_capacity_weight",), "i"),
    "active_physical_cpus_in_system": (("system_active_processors",), "i"),
    "maximum_physical_cpus_in_system": (("system_potential_processors",), "i"),
    "shared_physical_cpus_in_system": (("physical_procs_allocated_to_virtualization",), "i"),
    "active_cpus_in_pool": (("pool_capacity",), "c"),
    "maximum_capacity_of_pool": (("max_proc_capacity_available", "max_proc_entitled_capacity"), "h"),
    "entitled_capacity_of_pool": (("entitled_proc_capacity_available",), "h"),
    "minimum_memory_mb": (("MinMem",), "mb"),
    "desired_memory_mb": (("DesMem",), "mb"),
    "maximum_memory_mb": (("MaxMem",), "b"),
    "variable_memory_capacity_weight": (("entitled_memory_weight",), "i"),
    "memory_pool_id": (("entitled_memory_pool_number",), "i"),
}
_NO_POOL = 65535  # entitled_memory_pool_number of a partition in no shared memory pool (powerpc-utils)


@dataclass
class Lparcfg:
    version: str | None
    values: dict[str, str] = field(default_factory=dict)  # key -> value as printed
    lines: dict[str, int] = field(default_factory=dict)  # key -> line
    line: int = 0


def detect(text: str) -> int:
    prompt, body = output_head(text, 60)
    if command_matches(prompt, COMMANDS):
        return 95
    if not body:
        return 0
    if STARTS.match(body[0]):
        return 95
    pairs = [m.group("key") for m in map(_PAIR.match, body) if m]
    own = len(set(pairs) & _OWN_KEYS)
    if own >= 4 and len(pairs) >= 0.8 * len(body):
        return 85
    return 0


def _number(kind: str, value: str) -> int | float | str | None:
    if kind == "s":
        return value or None
    n = to_int(value.split()[0]) if value.split() else None  # "entitled_memory_pool_size=... bytes"
    if n is None:
        return None
    if kind == "c":
        return n / 100
    if kind == "b":
        return n // 1048576
    return n


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, start = pre.lines, pre.body
    out.hostname = pre.host
    cfg = Lparcfg(version=None)
    for idx in range(start, len(lines)):
        lineno, s = idx + 1, lines[idx].strip()
        if not s or is_bare_prompt(s):
            continue
        m = STARTS.match(s)
        if m:
            if cfg.version is not None or cfg.values:
                out.warn(lineno, "a second lparcfg listing: read up to here")
                break
            cfg.version, cfg.line = s.split()[1], lineno
            continue
        m = _PAIR.match(s)
        if not m:
            out.warn(lineno, f"not a 'key=value' line: {s[:60]!r}")
            continue
        key, value = m.group("key"), m.group("value").strip()
        if key in cfg.values:
            out.warn(lineno, f"repeated key {key!r}: later value kept")
        cfg.values[key], cfg.lines[key] = value, lineno
        cfg.line = cfg.line or lineno
    if not cfg.values:
        if any(ln.strip() for ln in lines[start:]):
            out.warn(start + 1, "no lparcfg keys found")
        return out
    out.records.append(cfg)
    info = _partition(cfg, out)
    if info is not None:
        out.records.append(info)
    system = _system(cfg, info)
    if system is not None:
        out.records.append(system)
    return out


def _partition(cfg: Lparcfg, out: Parsed) -> LparInfo | None:
    info = LparInfo(line=cfg.line)
    for name, (keys, kind) in _MAP.items():
        key = next((k for k in keys if k in cfg.values), None)
        if key is None:
            continue
        value = _number(kind, cfg.values[key])
        if value is None:
            if cfg.values[key].strip():
                out.warn(cfg.lines[key], f"{key}: cannot read value {cfg.values[key]!r}")
            continue
        if isinstance(value, (int, float)) and value < 0:
            out.warn(cfg.lines[key], f"{key}: negative value {cfg.values[key]!r} not read")
            continue
        setattr(info, name, value)
        info.lines[name] = cfg.lines[key]
        info.raw[key] = cfg.values[key]
    if isinstance(info.active_cpus_in_pool, float):  # pool_capacity / 100: whole processors
        info.active_cpus_in_pool = round(info.active_cpus_in_pool)
    shared = to_int(cfg.values.get("shared_processor_mode"))
    if shared in (0, 1):
        info.type, info.shared = ("Shared" if shared else "Dedicated"), bool(shared)
        info.lines["type"] = cfg.lines["shared_processor_mode"]
        capped, donating = to_int(cfg.values.get("capped")), to_int(cfg.values.get("DedDonMode"))
        if shared and capped in (0, 1):
            info.mode, info.capped = ("Capped", True) if capped else ("Uncapped", False)
            info.lines["mode"] = cfg.lines["capped"]
        elif not shared:
            info.mode = "Donating" if donating == 1 else "Capped"
            info.capped = None if donating == 1 else True
            info.lines["mode"] = cfg.lines.get("DedDonMode", cfg.lines["shared_processor_mode"])
    elif "shared_processor_mode" in cfg.values:
        out.warn(cfg.lines["shared_processor_mode"], f"shared_processor_mode: not 0 or 1: {cfg.values['shared_processor_mode']!r}")
    cmo = to_int(cfg.values.get("cmo_enabled"))
    if cmo in (0, 1) or info.memory_pool_id is not None:
        shared_memory = cmo == 1 if cmo in (0, 1) else info.memory_pool_id != _NO_POOL
        info.memory_mode = "Shared" if shared_memory else "Dedicated"
        info.lines["memory_mode"] = cfg.lines.get("cmo_enabled") or cfg.lines["entitled_memory_pool_number"]
        info.ame_enabled = False  # Active Memory Expansion is AIX's only
    if info.memory_pool_id == _NO_POOL:
        info.memory_pool_id = None
    if len(info.lines) == 0:
        return None
    return info


def _system(cfg: Lparcfg, info: LparInfo | None) -> SystemConfig | None:
    serial, model = cfg.values.get("serial_number") or None, cfg.values.get("system_type") or None
    if serial is None and model is None:
        return None
    number, name = (info.partition_number, info.partition_name) if info else (None, None)
    lines = {k: cfg.lines[key] for k, key, v in (("serial", "serial_number", serial), ("model", "system_type", model),
                                                  ("lpar_number", "partition_id", number), ("lpar_name", "partition_name", name))
             if v is not None}
    return SystemConfig(model=model, serial=serial, lpar_number=number, lpar_name=name,
                        values={k: cfg.values[k] for k in ("serial_number", "system_type") if k in cfg.values},
                        line=cfg.line, lines=lines)
