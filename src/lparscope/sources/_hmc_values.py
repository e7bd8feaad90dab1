"""HMC records and typed value readers: one ``lssyscfg`` / ``lshwres`` object
(:class:`HmcObject`), an HMC message printed instead of data (:class:`HmcMessage`), and the
readers that turn an attribute's text into an int, float, flag, HPT ratio or list (``none``,
``null``, ``unavailable`` and ``n/a`` read as absent).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field

from .base import to_float, to_int

NONE_VALUES = frozenset({"", "none", "null", "unavailable", "n/a"})


@dataclass(slots=True)  # many instances: no per-instance dict
class HmcObject:
    """One object of ``lssyscfg`` / ``lshwres`` (and other attribute=value HMC listings).

    ``resource`` names what the line describes: "sys", "lpar", "prof", "proc-sys",
    "proc-lpar", "proc-pool", "procpool", "mem-sys", "mem-lpar", "veth", "vscsi", "vfc",
    "vserial", "vslot", "io-slot", ... ``system`` is the managed system (``-m`` on the
    command line, or the object's own name for ``-r sys``).
    """

    resource: str
    attrs: dict[str, str]
    line: int
    system: str | None = None
    lines: dict[str, int] = field(default_factory=dict)

    def get(self, key: str) -> str | None:
        """The value, or None when absent or one of none/null/unavailable."""
        v = self.attrs.get(key)
        return None if v is None or v.strip().lower() in NONE_VALUES else v

    def int(self, key: str) -> int | None:
        return as_int(self.attrs, key)

    def float(self, key: str) -> float | None:
        return as_float(self.attrs, key)

    @property
    def name(self) -> str | None:
        """Partition name (``lpar_name``) or, failing that, the object's ``name``."""
        return self.attrs.get("lpar_name") or self.attrs.get("name")

    @property
    def lpar_id(self) -> int | None:
        return as_int(self.attrs, "lpar_id")


@dataclass
class HmcMessage:
    """An HMC error or information message printed instead of data (``HSCLA4C0 ...``)."""

    code: str
    text: str
    line: int
    command: str | None = None


def as_int(attrs: dict[str, str], key: str) -> int | None:
    v = attrs.get(key)
    return None if v is None or v.strip().lower() in NONE_VALUES else to_int(v)


def as_float(attrs: dict[str, str], key: str) -> float | None:
    v = attrs.get(key)
    return None if v is None or v.strip().lower() in NONE_VALUES else to_float(v)


def as_bool(attrs: dict[str, str], key: str) -> bool | None:
    """1/0, true/false, yes/no, on/off; None when absent or unreadable."""
    v = (attrs.get(key) or "").strip().lower()
    if v in {"1", "true", "yes", "on", "enabled"}:
        return True
    if v in {"0", "false", "no", "off", "disabled"}:
        return False
    return None


def ratio(value: str | None) -> int | None:
    """The divisor of an HPT ratio: "1:64" -> 64; None when not a ratio."""
    m = re.match(r"^\s*1\s*:\s*(\d+)\s*$", value or "")
    return int(m.group(1)) if m else None


def split_list(value: str | None) -> list[str]:
    """Elements of a comma list; an element holding commas is double-quoted (``"2/1/1/3,4,5/0/1"``)."""
    if value is None or value.strip().lower() in NONE_VALUES:
        return []
    try:
        row = next(csv.reader([value.strip()], skipinitialspace=True))
    except (csv.Error, StopIteration):
        row = value.split(",")
    return [e.strip() for e in row if e.strip()]


def int_list(value: str | None) -> list[int]:
    """VLAN ids and the like: "10,11" -> [10, 11] (non-numbers skipped)."""
    out = []
    for e in split_list(value):
        n = to_int(e)
        if n is not None:
            out.append(n)
    return out


def _opt_int(text: str) -> int | None:
    return None if text.strip().lower() in NONE_VALUES | {"any"} else to_int(text)


def _flag(text: str) -> bool | None:
    t = text.strip()
    return True if t == "1" else False if t == "0" else None
