"""Vital product data in keyword form: AIX ``lsvpd``.

Input (``*XX value`` keywords; ``*FC ????????`` separates blocks, ``*DS`` names each one,
``*AX`` names the AIX device a block describes)::

    # lsvpd
    *VC 5.0
    *TM IBM,8233-E8B
    *SE IBM,0210086CP
    *FC ????????
    *DS System VPD
    *YL U8233.E8B.10086CP
    *SE 10086CP
    *TM 8233-E8B
    *FC ????????
    *DS Memory DIMM
    *SZ 4096
    *FC ????????
    *DS System Firmware
    *CL Phyp_1 12392010102980A00701
    *MI AL710_099 AL710_065 AL710_099
    *FC ????????
    *DS Virtual SCSI Disk Drive
    *AX hdisk0

Output: one :class:`~lparscope.sources._vpd.VpdBlock` per block (fields named as in
``_vpd.KEYWORDS``: ``type_model``, ``machine_serial``, ``size``, ``code_level``,
``microcode_image``, ``device_name`` ...; an unknown keyword keeps its name in lower case)
and one :class:`~lparscope.sources._vpd.PlatformSummary`::

    VpdBlock(description="System VPD", fields={"description": "System VPD", "location": "U8233.E8B.10086CP",
             "machine_serial": "10086CP", "type_model": "8233-E8B"}, lines={...}, line=6)
    PlatformSummary(type_model="8233-E8B", machine_serial="10086CP", firmware_current="AL710_099",
                    firmware_permanent="AL710_065", firmware_temporary="AL710_099",
                    code_levels=["Phyp_1 12392010102980A00701"], memory_dimms=1, memory_dimm_mb=4096, ...)
"""

from __future__ import annotations

import re

from . import _vpd
from .base import Parsed, command_matches, is_bare_prompt, output_head, preamble

KIND = "lsvpd"
TITLE = "lsvpd"
COMMANDS = [r"^lsvpd\b"]
STARTS = None

VpdBlock = _vpd.VpdBlock
PlatformSummary = _vpd.PlatformSummary


def detect(text: str) -> int:
    prompt, body = output_head(text, 60)
    if command_matches(prompt, COMMANDS):
        return 95
    if not body:
        return 0
    star = [ln for ln in body if _vpd.STAR_RE.match(ln.strip())]
    separators = sum(1 for ln in star if re.match(r"^\*FC \?+\s*$", ln.strip()))
    if len(star) >= 0.9 * len(body) and separators and any(ln.strip().startswith("*DS ") for ln in star):
        return 90
    return 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    out.hostname = pre.host
    body = pre.lines[pre.body:]
    blocks, other = _vpd.star_blocks(body, first_line=pre.body + 1)
    for lineno, s in other:
        if not is_bare_prompt(s):
            out.warn(lineno, f"not a VPD keyword line: {s[:60]!r}")
    out.records.extend(blocks)
    summary = _vpd.summarise([(b.description or "", b.fields, b.lines, b.line) for b in blocks])
    if summary is not None:
        out.records.append(summary)
    return out
