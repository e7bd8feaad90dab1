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

STAR_RE = re.compile(r"^\*(?P<kw>[A-Z0-9]{2,5})(?:\s(?P<value>.*?))?\s*$")
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
    "LL": "code_level", "AX": "device_id", "DC": "device_class", "Z0": "z0", "CD": "card_id",
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


# --- the dotted form (lscfg -v) ------------------------------------------------------------

# "Part Number.................03N5297", "Product Specific.(HE).......0001", "ROM Level.(alterable).......DV0210"
DOTTED_RE = re.compile(r"^(?P<key>\S.*?)\.{2,}(?P<value>.*?)\s*$")


def dotted_field(line: str) -> tuple[str, str] | None:
    """(name, value) of a ``Name.......value`` line, or None."""
    m = DOTTED_RE.match(line.strip())
    if not m or m.group("key").endswith((" ", ".")):
        return None
    return m.group("key").strip(), m.group("value").strip()


def dotted_key(name: str) -> str:
    """``Machine/Cabinet Serial No`` -> ``machine_cabinet_serial_no``; ``Product Specific.(HE)`` -> ``product_specific_he``."""
    return slug(name)
