"""Devices and their vital product data: AIX ``lscfg``, ``lscfg -v``, ``lscfg -vp``, ``lscfg -vpl sysplanar0``.

Input (``lscfg -vp``: the device list with each device's VPD, then the platform section)::

    # lscfg -vp
    INSTALLED RESOURCE LIST WITH VPD
    ...
      fcs0             U78AA.001.WZSGDXX-P1-C3-T1  8Gb PCI Express Dual Port FC Adapter (df1000f114108a03)

            Part Number.................10N9824
            Serial Number...............1B13703E31
            Network Address.............10000000C9E4F6DA
            Hardware Location Code......U78AA.001.WZSGDXX-P1-C3-T1

      PLATFORM SPECIFIC

      Name:  IBM,8233-E8B
        Model:  IBM,8233-E8B
          System VPD:
            Machine/Cabinet Serial No...10086CP
            Machine Type and Model......8233-E8B
          Physical Location: U8233.E8B.10086CP

          Memory DIMM:
            Size........................4096
          Physical Location: U78A0.001.DNWHPLG-P1-C13-C2

          System Firmware:
            Code Level, LID Keyword.....Phyp_1 12392010102980A00701
            Microcode Image.............AL710_099 AL710_065 AL710_099

Output: one :class:`VpdDevice` per device, one :class:`PlatformRecord` per block of the
platform section, and one :class:`~lparscope.sources._vpd.PlatformSummary` when the platform
section names the machine or its firmware::

    VpdDevice(name="fcs0", location="U78AA.001.WZSGDXX-P1-C3-T1",
              description="8Gb PCI Express Dual Port FC Adapter (df1000f114108a03)", marker="",
              fields={"part_number": "10N9824", "serial_number": "1B13703E31",
                      "network_address": "10000000C9E4F6DA", "location": "..."}, line=4, lines={...})
    PlatformRecord(title="Memory DIMM", node="IBM,8233-E8B", fields={"size": "4096"},
                   physical_location="U78A0.001.DNWHPLG-P1-C13-C2", line=15, lines={...})
    PlatformSummary(type_model="8233-E8B", machine_serial="10086CP", firmware_current="AL710_099",
                    firmware_permanent="AL710_065", firmware_temporary="AL710_099",
                    code_levels=["Phyp_1 12392010102980A00701"], memory_dimms=1, memory_dimm_mb=4096, ...)

Field names: the printed name in lower case (``Product Specific.(HE)`` -> ``product_specific_he``),
the common ones shortened as in ``lsvpd`` (``type_model``, ``machine_serial``, ``part_number``,
``location``, ``microcode_image``); a repeated name is kept as ``name_2`` ... Also read: plain
``lscfg`` (the ``+``/``*`` marked list) and a value wrapped onto the next lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import _vpd
from .base import Parsed, command_matches, is_bare_prompt, output_head, preamble

KIND = "lscfg"
TITLE = "lscfg / lscfg -v / lscfg -vp"
COMMANDS = [r"^lscfg\b"]
STARTS = re.compile(r"^INSTALLED RESOURCE LIST WITH VPD\s*$")

PlatformSummary = _vpd.PlatformSummary

# A device row: a name ending in a number ("fcs0"), or any name behind a +/*/- mark ("* dvdf04nim").
_DEVICE = re.compile(r"^(?:(?P<mark>[+*-])\s+(?P<any>[A-Za-z][\w.-]*)|(?P<name>[A-Za-z]\w*\d))(?:\s{2,}|\s*$)(?P<rest>(?:.*\S)?)\s*$")
# the same line with its padding collapsed to single blanks (web and mail pastes): told by the location code
_DEVICE_TIGHT = re.compile(r"^(?P<mark>)(?P<any>)(?P<name>[A-Za-z]\w*\d) (?P<rest>U[\w.,]+-[\w.,-]*(?: .*\S)?)\s*$")
_LOCATION = re.compile(r"^(?:U[\w.,-]+|P\d[\w-]*|\d\d-[\w,.-]+)$")
_NODE_ATTR = re.compile(r"^(?P<key>Name|Model|Node|Device Type|Physical Location):\s+(?P<value>(?:.*\S)?)\s*$")
_TITLE = re.compile(r"^(?P<title>[^.:](?:[^:]*[^:\s])?)\s*:\s*$")
_SKIP = re.compile(r"^(?:INSTALLED RESOURCE LIST(?: WITH VPD)?|The following resources are installed on (?:the|your) machine\.?"
                   r"|\+/- = Added or deleted from Resource List\.|\* += Diagnostic support not available\."
                   r"|Model (?:Architecture|Implementation):.*)$")


@dataclass
class VpdDevice:
    """A device of the list, with its VPD fields when ``-v`` printed them."""

    name: str
    location: str | None
    description: str
    marker: str  # "+", "*", "-" of plain lscfg, else ""
    fields: dict[str, str] = field(default_factory=dict)
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)
    title: str | None = None  # the line above the fields ("2-Port 10/100/1000 Base-TX PCI-X Adapter")


@dataclass
class PlatformRecord:
    """One block of the platform section: ``System VPD``, ``CEC``, ``Memory DIMM``, ``System Firmware`` ..."""

    title: str
    node: str | None  # the "Name:" it sits under ("IBM,8233-E8B")
    fields: dict[str, str] = field(default_factory=dict)
    physical_location: str | None = None
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


def detect(text: str) -> int:
    prompt, body = output_head(text, 60)
    if command_matches(prompt, COMMANDS):
        return 95
    if not body:
        return 0
    head = body[0].strip()
    if head.startswith("INSTALLED RESOURCE LIST WITH VPD") or head == "PLATFORM SPECIFIC":
        return 90
    if head == "INSTALLED RESOURCE LIST" and any(re.match(r"^[+*]\s+sys0\b", ln.strip()) for ln in body[:15]):
        return 85
    dotted = sum(1 for ln in body if _vpd.dotted_field(ln) and ln.startswith("    "))
    if _DEVICE.match(head) and dotted >= 3:
        return 85
    if any(ln.strip() == "PLATFORM SPECIFIC" for ln in body) and dotted >= 3:
        return 85
    return 0


def _device(m: re.Match[str], lineno: int) -> VpdDevice:
    rest = m.group("rest") or ""
    first, _, tail = rest.partition(" ")
    loc = first if _LOCATION.match(first) else None
    desc = tail.strip() if loc else rest.strip()
    name = m.group("name") or m.group("any")
    return VpdDevice(name, loc, re.sub(r"\s{2,}", " ", desc), m.group("mark") or "", line=lineno)


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines = pre.lines
    out.hostname = pre.host
    platform = False
    node: str | None = None
    target: VpdDevice | PlatformRecord | None = None
    last_key: str | None = None
    for idx in range(pre.body, len(lines)):
        lineno = idx + 1
        raw = lines[idx].rstrip()
        s = raw.strip()
        if not s or is_bare_prompt(s):
            last_key = None if not s else last_key
            continue
        if s == "PLATFORM SPECIFIC":
            platform, target, last_key = True, None, None
            continue
        if _SKIP.match(s):
            continue
        kv = _vpd.dotted_field(s)
        if kv is not None:
            if target is None:
                out.warn(lineno, f"VPD field outside any device or block: {s[:60]!r}")
                continue
            last_key = _vpd.add_field(target.fields, target.lines, _vpd.dotted_key(kv[0]), kv[1], lineno)
            continue
        if last_key is not None and target is not None and raw.startswith(" " * 20) and " " not in s:
            target.fields[last_key] += s  # a long value wrapped onto the next line
            continue
        last_key = None
        indent = len(raw) - len(raw.lstrip())
        m = _DEVICE.match(s) or _DEVICE_TIGHT.match(s)
        if not platform and m and indent <= 2:
            target = _device(m, lineno)
            out.records.append(target)
            continue
        attr = _NODE_ATTR.match(s)
        if platform and attr:
            key, value = attr.group("key"), attr.group("value")
            if key == "Name":
                node, target = value, None
            elif key == "Physical Location" and isinstance(target, PlatformRecord):
                target.physical_location = value
                target.lines["physical_location"] = lineno
            continue
        t = _TITLE.match(s)
        if t and platform:
            target = PlatformRecord(t.group("title").strip(), node, line=lineno)
            out.records.append(target)
            continue
        if t and isinstance(target, VpdDevice) and not target.fields:
            target.title = t.group("title").strip()
            continue
        out.warn(lineno, f"not an lscfg line: {s[:60]!r}")
    blocks = [(r.title, r.fields, r.lines, r.line) for r in out.records if isinstance(r, PlatformRecord)]
    summary = _vpd.summarise(blocks)
    if summary is not None:
        out.records.append(summary)
    return out
