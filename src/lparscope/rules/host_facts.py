"""Facts about a host that rules in several areas read the same way: the POWER generation, the HPT
ratio, the AIX level, a kernel tunable's value, the SMT threads.
"""

from __future__ import annotations

import re

from ..model.estate import Evidence, Host, Sourced
from ..model.generation import generation_of
from ..model.hpt import hpt_divisor
from ..model.generation import label as generation_label


_GENERATION = re.compile(r"power\s*_?(\d+)\s*(\+|_?plus)?", re.I)


def generation_from_text(text: str | None) -> float | None:
    """The POWER generation a processor type or mode names, 7.5 standing for POWER7+: 'PowerPC_POWER9',
    'POWER9 Mode', 'Power7 Mode', 'POWER7+', the HMC's compatibility modes 'POWER6_Plus', 'POWER9_Base';
    None for 'default' or no generation."""
    m = _GENERATION.search(text or "")
    if not m:
        return None
    gen = float(m.group(1))
    return gen + 0.5 if m.group(2) else gen


def power_generation(host: Host, use_frame: bool = True) -> tuple[float | None, str, Evidence | None]:
    """(generation, what it was read from, evidence); hardware (lsattr proc type, prtconf Processor Type)
    wins over compat modes, then the frame's type-model (HMC data, ``use_frame``) when the host's own
    outputs do not tell."""
    for name in sorted(host.devices):
        dev = host.devices[name]
        if re.fullmatch(r"proc\d+", name) and dev.attr("type"):
            gen = generation_from_text(dev.attr("type") or "")
            if gen:
                ev = dev.attr_ev("type")
                return gen, f"{name} type {dev.attr('type')}", ev[0] if ev else None
    system = host.system.record if host.system is not None else None
    if system is not None and (gen := generation_from_text(getattr(system, "processor_type", None))):
        # prtconf's Processor Type is the hardware's ("PowerPC_POWER8" beside Implementation Mode: POWER 7)
        return gen, f"prtconf Processor Type {system.processor_type}", host.system.ev("processor_type")
    for s in host.of_kind("amepat", "AmepatReport"):
        mode = getattr(s.record, "processor_implementation_mode", None)
        gen = generation_from_text(mode or "")
        if gen:
            return gen, f"amepat Processor Implementation Mode {mode}", s.ev("processor_implementation_mode")
    proc = getattr(host.nmon, "processor", None)  # an nmon / njmon recording's header (AAA,hardware ...)
    if (gen := generation_from_text(proc)) is not None:
        line = (getattr(host.nmon, "facts_lines", None) or {}).get("processor", 1)
        return gen, f"nmon header processor {proc}", Evidence(host.nmon_path or "", line)
    frame_model = getattr(host, "frame_model", None) if use_frame else None  # the frame's type-model (HMC)
    gen = generation_of(frame_model)
    if gen:
        return gen, f"frame type-model {frame_model} ({generation_label(gen)})", getattr(host, "frame_model_evidence", None)
    return None, "", None


def host_hpt_divisor(host: Host, fallback: float) -> tuple[int, str]:
    """The host's HPT ratio divisor, read the way the frame view reads it (model/hpt.py): the HMC's
    ratio for the partition, the frame's default, the frame's generation; a host seen on no frame
    falls back to the generation its own outputs show, then to ``fallback``."""
    if host.frame_name is not None:
        gen = generation_of(host.frame_model)
    else:
        gen = power_generation(host)[0]
    ams = bool(host.partition and (host.partition.memory_mode or "").lower().startswith("shared"))
    return hpt_divisor(host.hpt_ratio, host.frame_hpt_ratio, gen, "vioserver" if host.is_vios else "aixlinux", fallback,
                       shared_memory=ams)


def aix_level(host: Host) -> tuple[tuple[int, int] | None, Evidence | None]:
    """(AIX release as (7, 2), TL) from oslevel; a VIOS ioslevel maps to its AIX base (2.x 6.1, 3.x 7.2, 4.x 7.3)."""
    for s in reversed(host.of_kind("oslevel")):
        lv = s.record
        if getattr(lv, "listed", False):
            continue
        parts = getattr(lv, "parts", None) or ()
        if lv.command == "oslevel" and parts and parts[0] >= 1000:
            rel = (parts[0] // 1000, parts[0] // 100 % 10)
            return (rel[0] * 10 + rel[1], (parts[1] if len(parts) > 1 else 0)), s.ev()
        m = re.match(r"^(\d)\.(\d)", getattr(lv, "release", None) or "")
        if lv.command == "oslevel" and m:
            return (int(m.group(1)) * 10 + int(m.group(2)), 0), s.ev()
        if lv.command == "ioslevel" and parts:
            base = _vios_base(tuple(parts))
            if base:
                return base, s.ev()
    return None, None


def _vios_base(parts: tuple[int, ...]) -> tuple[int, int] | None:
    """The AIX release and TL a VIOS level is built on (domain knowledge, not in the seeds): 2.2 on 6.1;
    3.1.0 on 7.2 TL3, 3.1.1 on TL4, 3.1.2 and later 3.1 on TL5; 4.1.0 on 7.3 TL1, 4.1.1 and later on TL2."""
    major = parts[0]
    minor = parts[1] if len(parts) > 1 else 0
    fix = parts[2] if len(parts) > 2 else 0
    if major == 2:
        return (61, 0)
    if major == 3:
        return (72, 3 if minor < 1 else min(3 + fix, 5))
    if major == 4:
        return (73, 1 if (minor, fix) < (1, 1) else 2)
    return None


def tunable(host: Host, name: str) -> Sourced | None:
    """The last tunables record read for ``name`` (its .record has current/default/boot/type)."""
    found = [s for s in host.of_kind("tunables", "Tunable") if s.record.name == name]
    return found[-1] if found else None


def tunable_int(host: Host, name: str) -> tuple[int | None, Sourced | None]:
    s = tunable(host, name)
    return (None, None) if s is None else (s.record.current_int, s)


def smt_threads(host: Host) -> tuple[int | None, Evidence | None]:
    """SMT threads per VP: lparstat -i Type, then the lparstat header smt=, then lsattr proc0 (smt_enabled
    false, or smt_threads 0: SMT off, one thread)."""
    p = host.partition
    if p is not None and p.type:
        m = re.search(r"smt-?(\d+)", p.type, re.I)
        if m:
            return int(m.group(1)), p.ev("type")[0] if p.ev("type") else None
        if "smt" not in p.type.lower() and p.source in ("lparstat -i", "lparstat header"):
            # lparstat's "Shared" is SMT off; lparcfg's and sar's type says nothing of SMT
            return 1, p.ev("type")[0] if p.ev("type") else None
    for s in host.of_kind("lparstat", "LparstatConfig"):
        smt = s.record.smt
        if smt and smt.isdigit():
            return int(smt), s.ev()
        if smt and smt.lower() == "off":
            return 1, s.ev()
    dev = host.devices.get("proc0")
    if dev is not None and (dev.attr("smt_enabled") or "").lower() == "false":
        ev = dev.attr_ev("smt_enabled")  # SMT off: one thread per processor (smt_threads then reads 0)
        return 1, ev[0] if ev else None
    if dev is not None and dev.attr("smt_threads") and dev.attr("smt_threads").isdigit():  # type: ignore[union-attr]
        ev = dev.attr_ev("smt_threads")
        return max(1, int(dev.attr("smt_threads"))), ev[0] if ev else None  # type: ignore[arg-type]
    return None, None


def npiv_ports(host: Host) -> dict[str, Sourced]:
    """The VIOS's NPIV-capable FC ports as lsnports lists them (fabric, free virtual ports), by name."""
    return {s.record.name: s for s in host.of_kind("lsnports", "NpivPort")}
