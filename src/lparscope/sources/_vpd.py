"""Vital product data in its two printed forms, shared by ``lshmc -v``, ``lsvpd`` and ``lscfg -v``.

The keyword form (``lshmc -v``, ``lsvpd``): one ``*XX value`` per line, blocks separated by
``*FC ????????``, each block naming what it describes with ``*DS``::

    *FC ????????
    *DS Hardware Management Console
    *TM 7063-CR2
    *SE 21DB4E0

The dotted form (``lscfg -v``): ``Name.........value`` under a title line::

    System VPD:
      Machine/Cabinet Serial No...10086CP
      Machine Type and Model......8233-E8B

Keywords are read into stable field names (``TM`` -> ``type_model``); an unknown keyword keeps
its own name in lower case, so nothing is dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..numbers import whole

STAR_RE = re.compile(r"^\*(?P<kw>[A-Z0-9]{2,5})(?:\s(?P<value>(?:.*\S)?))?\s*$")
BLOCK_SEPARATOR = re.compile(r"^\?+$")  # the value of "*FC ????????" between blocks

# Keyword -> field name (the VPD keywords IBM prints in lsvpd / lshmc -v).
KEYWORDS = {
    "DS": "description", "TM": "type_model", "SE": "machine_serial", "SN": "serial_number",
    "MN": "manufacturer", "PN": "part_number", "FN": "fru_number", "EC": "ec_level",
    "CC": "ccin", "CE": "ccin_extender", "FC": "feature_code", "YL": "location", "RT": "record_name",
    "FG": "flag_field", "BR": "brand", "SU": "system_unique_id", "WN": "world_wide_port_name",
    "VK": "version", "VC": "vpd_version", "N2": "vpd_date", "OS": "os", "NA": "network_address",
    "RM": "firmware_release", "RL": "rom_level", "SZ": "size", "PI": "processor_id",
    "CI": "controlling_cec", "RK": "rack_serial", "PR": "power", "UVMID": "uvm_id", "MF": "manufacturer_id",
    "CL": "code_level", "MI": "microcode_image", "AX": "device_name"
}


@dataclass
class VpdBlock:
    """One block of keyword VPD: the fields (by name) and the line of each."""

    description: str | None
    fields: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    line: int = 0  # 1-based line of the block's first keyword


def field_name(keyword: str) -> str:
    return KEYWORDS.get(keyword, keyword.lower())


def star_blocks(lines: list[str], first_line: int = 1) -> tuple[list[VpdBlock], list[tuple[int, str]]]:
    """Blocks of ``*XX value`` lines and the lines that were not keywords: (1-based line, text).

    ``first_line`` is the line number of ``lines[0]``. A repeated keyword inside one block
    (two ``*FC`` lines) keeps both: the second as ``name_2``.
    """
    blocks: list[VpdBlock] = []
    other: list[tuple[int, str]] = []
    current: VpdBlock | None = None
    for n, raw in enumerate(lines):
        lineno = first_line + n
        s = raw.strip()
        if not s:
            continue
        m = STAR_RE.match(s)
        if not m:
            other.append((lineno, s))
            continue
        kw, value = m.group("kw"), (m.group("value") or "").strip()
        if kw == "FC" and BLOCK_SEPARATOR.match(value):
            current = VpdBlock(None, line=lineno)
            blocks.append(current)
            continue
        if current is None or (kw == "DS" and current.description is not None):
            current = VpdBlock(None, line=lineno)
            blocks.append(current)
        if kw == "DS":
            current.description = value
        name = field_name(kw)
        key, k = name, 2
        while key in current.fields:
            key, k = f"{name}_{k}", k + 1
        current.fields[key] = value
        current.lines[key] = lineno
    return [b for b in blocks if b.fields], other


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def flatten(blocks: list[VpdBlock]) -> tuple[dict[str, str], dict[str, int]]:
    """One dict from several blocks: a field seen in an earlier block is kept under
    ``<block description>_<field>`` (``platform_firmware_description``), so every value stays."""
    attrs: dict[str, str] = {}
    lines: dict[str, int] = {}
    for b in blocks:
        prefix = slug(b.description or "") or f"block{blocks.index(b) + 1}"
        for key, value in b.fields.items():
            name = key if key not in attrs else f"{prefix}_{key}"
            k = 2
            while name in attrs:
                name, k = f"{prefix}_{key}_{k}", k + 1
            attrs[name] = value
            lines[name] = b.lines[key]
    return attrs, lines


@dataclass
class PlatformSummary:
    """What the platform VPD says about the machine, from either form (``lscfg -vp``, ``lsvpd``)."""

    type_model: str | None = None  # "8233-E8B"
    machine_serial: str | None = None  # "10086CP"
    firmware_current: str | None = None  # Microcode Image: the level running, then permanent, temporary
    firmware_permanent: str | None = None
    firmware_temporary: str | None = None
    code_levels: list[str] = field(default_factory=list)  # "Phyp_1 12392010102980A00701", ...
    memory_dimms: int = 0
    memory_dimm_mb: int | None = None  # the sum of the DIMM sizes, when every DIMM prints one
    processor_cards: int = 0
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


def summarise(blocks: list[tuple[str, dict[str, str], dict[str, int], int]]) -> PlatformSummary | None:
    """A :class:`PlatformSummary` from (title, fields, lines, first line) blocks whose fields are
    named as in this module (``type_model``, ``machine_serial``, ``microcode_image``, ``code_level``, ``size``)."""
    out = PlatformSummary()
    sizes: list[int | None] = []
    for title, fields, lines, first in blocks:
        t = (title or "").strip().lower()
        if t == "system vpd" and fields.get("type_model"):
            out.type_model, out.machine_serial = fields.get("type_model"), fields.get("machine_serial")
            out.lines.update({k: lines[src] for k, src in (("type_model", "type_model"),
                                                            ("machine_serial", "machine_serial")) if src in lines})
            out.line = out.line or first
        elif t == "system firmware":
            image = fields.get("microcode_image", "").split()
            for n, key in enumerate(("firmware_current", "firmware_permanent", "firmware_temporary")):
                if n < len(image):
                    setattr(out, key, image[n])
                    out.lines[key] = lines.get("microcode_image", first)
            out.code_levels = [v for k, v in fields.items() if k.startswith("code_level") and v]
            out.line = out.line or first
        elif t.startswith("memory dimm"):
            out.memory_dimms += 1
            raw = fields.get("size", "")
            sizes.append(whole(raw))
        elif re.search(r"\bproc\b|processor", t):
            out.processor_cards += 1
    if sizes and all(s is not None for s in sizes):
        out.memory_dimm_mb = sum(s for s in sizes if s is not None)
    if not (out.type_model or out.firmware_current or out.memory_dimms or out.processor_cards):
        return None
    return out


# --- the dotted form (lscfg -v) ------------------------------------------------------------

# "Part Number.................03N5297", "Product Specific.(HE).......0001", "ROM Level.(alterable).......DV0210"
DOTTED_RE = re.compile(r"^(?P<key>\S.*?)\.{2,}(?P<value>(?:.*\S)?)\s*$")


def dotted_field(line: str) -> tuple[str, str] | None:
    """(name, value) of a ``Name.......value`` line, or None."""
    m = DOTTED_RE.match(line.strip())
    if not m or m.group("key").endswith((" ", ".")):
        return None
    return m.group("key").strip(), m.group("value").strip()


# Printed names of the dotted form that have a keyword name above.
DOTTED_NAMES = {
    "Machine Type and Model": "type_model", "Machine/Cabinet Serial No": "machine_serial",
    "Serial Number": "serial_number", "Part Number": "part_number", "FRU Number": "fru_number",
    "EC Level": "ec_level", "Customer Card ID Number": "ccin", "CCIN Extender": "ccin_extender",
    "Feature Code/Marketing ID": "feature_code", "Hardware Location Code": "location",
    "Record Name": "record_name", "Flag Field": "flag_field", "Brand": "brand",
    "System Unique ID (SUID)": "system_unique_id", "World Wide Port Name": "world_wide_port_name",
    "Version": "version", "Microcode Image": "microcode_image", "Code Level, LID Keyword": "code_level",
    "Size": "size", "Manufacturer": "manufacturer", "Network Address": "network_address",
    "Controlling CEC ID": "controlling_cec", "Rack Serial Number": "rack_serial", "Power": "power",
}


def dotted_key(name: str) -> str:
    """``Machine Type and Model`` -> ``type_model``; others in lower case: ``Product Specific.(HE)`` -> ``product_specific_he``."""
    return DOTTED_NAMES.get(name) or slug(name)


def add_field(fields: dict[str, str], lines: dict[str, int], key: str, value: str, lineno: int) -> str:
    """Store a field; a repeated name (``Code Level, LID Keyword``) is kept as ``name_2``, ``name_3`` ..."""
    name, k = key, 2
    while name in fields:
        name, k = f"{key}_{k}", k + 1
    fields[name] = value
    lines[name] = lineno
    return name
