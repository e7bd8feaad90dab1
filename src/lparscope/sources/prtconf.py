"""System configuration summary: AIX ``prtconf`` (and ``lsconf``, which prints the same).

Input (the head of the output, then network, paging, volume groups and the device list)::

    # prtconf
    System Model: IBM,9009-42A
    Machine Serial Number: 7812C4X
    Processor Type: PowerPC_POWER9
    Number Of Processors: 4
    Processor Clock Speed: 3450 MHz
    LPAR Info: 5 aixapp3
    Memory Size: 32768 MB
    Platform Firmware level: VL950_099
    Firmware Version: IBM,FW950.40 (VL950_099)

    Network Information
            Host Name: aixapp3
    ...
    INSTALLED RESOURCE LIST
    ...
    + ent0             U9009.42A.7812C4X-V5-C2-T1      Virtual I/O Ethernet Adapter (l-lan)

Output: one :class:`SystemConfig` with every ``Key: Value`` in ``values`` and the
common ones typed; one :class:`VolumeGroupDisk` per PV row (and a :class:`VolumeGroupEntry`
per group); one
:class:`InstalledResource` per device-list line::

    SystemConfig(model="IBM,9009-42A", serial="7812C4X", processor_type="PowerPC_POWER9",
                 processors=4, clock_mhz=3450, lpar_number=5, lpar_name="aixapp3",
                 memory_mb=32768, platform_firmware="VL950_099",
                 firmware_version="IBM,FW950.40 (VL950_099)", hostname="aixapp3", ...,
                 values={...}, line=2, lines={"model": 2, ...})
    InstalledResource(name="ent0", location="U9009.42A.7812C4X-V5-C2-T1",
                      description="Virtual I/O Ethernet Adapter (l-lan)", marker="+", line=...)

Fragments read too: ``prtconf | grep Processor`` (its ``Key: Value`` lines, and resource lines
``+ proc0  Processor`` / ``* name location description`` wherever they stand, quietly), and text
without prompt or resource list heading, told by several of prtconf's own labels (``Processor
Implementation Mode``, ``Good Memory Size``, ``Platform Firmware level`` ...). The volume group
section gives one :class:`VolumeGroupEntry` per group named, the inactive ones too (listed by
name alone under ``Inactive VGs``)::

    Inactive VGs
    ==========
    arcvg                  ->  VolumeGroupEntry(name="arcvg", active=False, line=...)

``Parsed.hostname`` is the ``Host Name`` the output prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..numbers import whole
from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head, to_float, to_int

KIND = "prtconf"
EMBEDS = ("lsvg-p",)  # its "Volume Groups Information" section is lsvg -p's table: not cut there
TITLE = "prtconf / lsconf"
COMMANDS = [r"^(?:prtconf|lsconf)\b(?!.*\s-[A-Za-z]*[cmsLkv])"]
STARTS = re.compile(r"^System Model:\s*\S")

_KV = re.compile(r"^(?P<key>[A-Z][A-Za-z0-9 ./()-]*?):\s*(?P<value>(?:.*\S)?)\s*$")
# nmon's BBBP copy prints "+" as "p" and "*" as "m".
_RESOURCE = re.compile(r"^(?P<mark>[+*-]|[pm](?=\s))\s+(?P<name>[A-Za-z][\w.-]*)\s+(?P<rest>(?:.*\S)?)\s*$")
# location codes: physical and virtual (U...), planar (P1-...), old AIX (00-08), and a virtio
# device's PCI address on KVM guests ("qemu_virtio-scsi-pci:0000:00:02.0-LW_0")
_LOCATION = re.compile(r"^(?:U[\w.,-]+|P\d[\w-]*|\d\d-\d\d[\w-]*|[A-Z]\d-\S*"
                       r"|[\w.-]+:[0-9A-Fa-f]{4}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7]\S*)$")
_INTERFACE = re.compile(r"^(?:en|et|ib|ml)\d{1,4}$")
_PV_ROW = re.compile(r"^(?P<pv>hdisk\w+|\S+)\s+(?P<state>active|missing|removed|\S+)\s+(?P<total>\d+)\s+(?P<free>\d+)\s+(?P<dist>[\d.]+)\s*$")
_RULE = re.compile(r"^=+$")
# Labels only prtconf's head prints (detect() of a fragment wants several of them).
_DISTINCTIVE = {"System Model", "Machine Serial Number", "Processor Type", "Processor Implementation Mode",
                "Processor Version", "Number Of Processors", "Processor Clock Speed", "CPU Type", "Kernel Type",
                "LPAR Info", "Memory Size", "Good Memory Size", "Platform Firmware level", "Firmware Version",
                "Console Login", "Auto Restart", "Full Core", "Model Implementation", "NX Crypto Acceleration",
                "In-Core Crypto Acceleration"}
_SECTIONS = {"Network Information", "Paging Space Information", "Volume Groups Information",
             "INSTALLED RESOURCE LIST", "Active VGs", "Inactive VGs"}
_TYPED = {
    # printed key: (field, converter)
    "System Model": ("model", str), "Machine Serial Number": ("serial", str),
    "Processor Type": ("processor_type", str), "Processor Implementation Mode": ("implementation_mode", str),
    "Processor Version": ("processor_version", str), "Number Of Processors": ("processors", to_int),
    "Processor Clock Speed": ("clock_mhz", lambda v: to_int(v.split()[0]) if v.split() else None),
    "CPU Type": ("cpu_type", str), "Kernel Type": ("kernel_type", str),
    "Memory Size": ("memory_mb", lambda v: to_int(v.split()[0]) if v.split() else None),
    "Good Memory Size": ("good_memory_mb", lambda v: to_int(v.split()[0]) if v.split() else None),
    "Platform Firmware level": ("platform_firmware", str), "Firmware Version": ("firmware_version", str),
    "Host Name": ("hostname", str), "IP Address": ("ip_address", str),
    "Total Paging Space": ("paging_mb", lambda v: to_int(re.sub(r"MB$", "", v))),
    "Percent Used": ("paging_used_pct", to_float),
}


@dataclass
class SystemConfig:
    model: str | None = None
    serial: str | None = None
    processor_type: str | None = None
    implementation_mode: str | None = None
    processor_version: str | None = None
    processors: int | None = None
    clock_mhz: int | None = None
    cpu_type: str | None = None
    kernel_type: str | None = None
    lpar_number: int | None = None
    lpar_name: str | None = None
    memory_mb: int | None = None
    good_memory_mb: int | None = None
    platform_firmware: str | None = None
    firmware_version: str | None = None
    hostname: str | None = None
    ip_address: str | None = None
    paging_mb: int | None = None
    paging_used_pct: float | None = None
    values: dict[str, str] = field(default_factory=dict)
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class VolumeGroupDisk:
    volume_group: str
    physical_volume: str
    state: str
    total_pps: int
    free_pps: int
    active_vg: bool
    line: int


@dataclass
class VolumeGroupEntry:
    """A volume group the "Volume Groups Information" section names (inactive ones: the name alone)."""

    name: str
    active: bool  # listed under "Active VGs"
    line: int


@dataclass
class InstalledResource:
    name: str
    location: str
    description: str
    marker: str  # "+" diagnostics available, "*" not, "-" removed
    line: int


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if command_matches(prompt, COMMANDS):
        return 95
    keys = {m.group("key") for ln in body[:30] if (m := _KV.match(ln.strip()))}
    hits = len(keys & {"System Model", "Machine Serial Number", "Processor Type", "LPAR Info", "Memory Size"})
    if hits >= 3:
        return 90
    # a fragment (prtconf | grep ..., its head alone): several of prtconf's own labels, and little else
    ours = sum(1 for ln in body if _KV.match(ln.strip()) or _RESOURCE.match(ln.strip()) or ln.strip() in _SECTIONS)
    if len(keys & _DISTINCTIVE) >= 3 and ours >= 0.8 * len(body) and len(keys & _DISTINCTIVE) >= 0.5 * len(keys):
        return 70
    return 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    cfg = SystemConfig()
    section = ""
    vg_active, vg = True, ""
    for idx in range(start, len(lines)):
        lineno = idx + 1
        s = lines[idx].strip()
        if not s or _RULE.match(s) or is_bare_prompt(s):
            continue
        if s in _SECTIONS:
            if s in ("Active VGs", "Inactive VGs"):
                vg_active = s == "Active VGs"
            else:
                section = s
            continue
        rm = _RESOURCE.match(s)
        if rm and (section == "INSTALLED RESOURCE LIST" or rm.group("mark") in "+*-"):  # grep'd lines: anywhere
            parts = re.split(r"\s{2,}", rm.group("rest"), maxsplit=1)
            loc, desc = (parts[0], parts[1]) if len(parts) == 2 and _LOCATION.match(parts[0]) else ("", rm.group("rest"))
            mark = {"p": "+", "m": "*"}.get(rm.group("mark"), rm.group("mark"))
            out.records.append(InstalledResource(rm.group("name"), loc, desc, mark, lineno))
            continue
        if section == "INSTALLED RESOURCE LIST":
            if s.startswith(("The following resources", "+/- =", "*   =", "* =", "p/- =", "m   =")):
                continue
        if section == "Volume Groups Information":
            if s.startswith("PV_NAME"):
                continue
            if s.endswith(":") and " " not in s:
                vg = s[:-1]
                out.records.append(VolumeGroupEntry(vg, vg_active, lineno))
                continue
            pm = _PV_ROW.match(s)
            if pm:
                total, free = whole(pm.group("total")), whole(pm.group("free"))
                if total is None or free is None:
                    out.warn(lineno, "physical volume row with a number of over 40 digits: not read")
                    continue
                out.records.append(VolumeGroupDisk(vg, pm.group("pv"), pm.group("state"), total, free, vg_active, lineno))
                continue
            if " " not in s:  # an inactive VG listed by name only
                vg = s
                out.records.append(VolumeGroupEntry(vg, vg_active, lineno))
                continue
        if _INTERFACE.match(s):  # the interface "Network Information" is of, printed alone above it
            cfg.values["Network Interface"] = s
            continue
        kv = _KV.match(s)
        if kv:
            key, value = kv.group("key"), kv.group("value")
            cfg.values[key] = value
            cfg.line = cfg.line or lineno
            if key in _TYPED:
                name, conv = _TYPED[key]
                typed = conv(value) if value else None
                setattr(cfg, name, typed)
                cfg.lines[name] = lineno
                if value and typed is None:
                    out.warn(lineno, f"{key}: not a number: {value[:40]!r}")
            elif key == "LPAR Info":
                num, _, lpar = value.partition(" ")
                cfg.lpar_number, cfg.lpar_name = to_int(num), (lpar.strip() or None)
                cfg.lines["lpar_number"] = cfg.lines["lpar_name"] = lineno
            continue
        out.warn(lineno, f"not a prtconf line: {s[:60]!r}")
    if cfg.line:
        out.records.insert(0, cfg)
        out.hostname = cfg.hostname or (prompt.host if prompt and prompt.user else None)
    elif prompt and prompt.user:
        out.hostname = prompt.host
    return out
