"""POWER generation of a frame from its machine type, and the VP / EC limits of each generation.

The limits are the catalogue's (rules-catalogue CPU-08, CPU-09, SZ-11): at least 0.10 processing
units per virtual processor up to POWER7 (10 VPs per unit of EC), 0.05 from POWER7+ on (20 per
unit); and at least ceil(EC) VPs to consume the entitlement.

The machine-type table maps the type-model the HMC reports (``lssyscfg -r sys`` ``type_model``,
HMC Scanner "Type-Model") to the processor generation. Source: IBM's product documentation is
organised by machine type under its generation (``ibm.com/docs/en/power9/9009-42A``,
``.../power10/9080-HEX``, ``.../power8/8247-21L``, as cited in rules-catalogue.md), and seed 001
shows a 9179-MHB as a "780 B model" (POWER7). The remaining rows are the announced type-models of
each generation (domain knowledge, catalogue confidence K): a type-model not listed gives no
generation, never a guess.
"""

from __future__ import annotations

import math

#: type-model -> generation (7.5 stands for POWER7+).
MACHINE_GENERATION: dict[str, float] = {
    # POWER7: Power 710/720/730/740/750/770/780/795
    "8231-E2B": 7, "8231-E1C": 7, "8231-E2C": 7, "8202-E4B": 7, "8202-E4C": 7, "8205-E6B": 7,
    "8205-E6C": 7, "8233-E8B": 7, "9117-MMB": 7, "9117-MMC": 7, "9179-MHB": 7, "9179-MHC": 7,
    "9119-FHB": 7,
    # POWER7+: Power 710/720/730/740 D models, 750/760/770/780 D models
    "8231-E1D": 7.5, "8231-E2D": 7.5, "8202-E4D": 7.5, "8205-E6D": 7.5, "8408-E8D": 7.5,
    "9109-RMD": 7.5, "9117-MMD": 7.5, "9179-MHD": 7.5,
    # POWER8: S812L/S822L/S824L, S814/S822/S824, E850, E870, E880, S812LC
    "8247-21L": 8, "8247-22L": 8, "8247-42L": 8, "8286-41A": 8, "8284-22A": 8, "8286-42A": 8,
    "8408-E8E": 8, "9119-MME": 8, "9119-MHE": 8, "8001-12C": 8,
    # POWER9: S914, S922, S924, H922, H924, L922, E950, E980
    "9009-41A": 9, "9009-22A": 9, "9009-42A": 9, "9223-22H": 9, "9223-42H": 9, "9008-22L": 9,
    "9040-MR9": 9, "9080-M9S": 9,
    # POWER10: S1014, S1022, S1022s, S1024, E1050, E1080
    "9105-41B": 10, "9105-22A": 10, "9105-22B": 10, "9105-42A": 10, "9043-MRX": 10, "9080-HEX": 10,
}


def generation_of(type_model: str | None) -> float | None:
    """The POWER generation of a type-model ("9009-42A" -> 9.0), None when not in the table."""
    if not type_model:
        return None
    key = type_model.strip().upper().replace("*", "-")
    return MACHINE_GENERATION.get(key)


def label(gen: float | None) -> str:
    if gen is None:
        return "unknown"
    return f"POWER{int(gen)}+" if gen % 1 else f"POWER{int(gen)}"


def vps_per_unit(gen: float | None) -> float:
    """VPs allowed per processing unit: 10 up to POWER7, 20 from POWER7+ (and when unknown, the
    most permissive documented limit, as the CPU-VP-EC-LIMITS rule does)."""
    return 10.0 if gen is not None and gen < 7.5 else 20.0


def vp_range(ec: float, gen: float | None) -> tuple[int, int]:
    """(fewest, most) virtual processors an entitlement allows."""
    return max(1, math.ceil(ec - 1e-9)), math.floor(ec * vps_per_unit(gen) + 1e-9)
