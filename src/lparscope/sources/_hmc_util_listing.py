"""``lslparutil`` listings read column-wise: what the HMC prints (plain ``a=1,b=2`` lines) read
into one :class:`~lparscope.sources._hmc_util_table.UtilTable` per command output.

The native core (``native/src/attrs.rs``) reads the usual listing; what it refuses, and every
listing when the core is absent, is read here line by line with one pattern per set of names.
Both give the same table (``tests/sources/test_hmc_util_native.py``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..numbers import LIMIT
from ._hmc_util_table import TEXT_KEYS, UtilTable, table, table_from_columns, table_from_native

_KEY = re.compile(r"[A-Za-z_][\w.]*")
# a value as the attribute reader leaves it: no comma, quote or line end, no blank at either end
_VALUE = r'((?:[^\s,"\x00](?:[^,"\r\n\x00]*[^\s,"\x00])?)?)'


@lru_cache(maxsize=256)
def _row_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(",".join(re.escape(n) + "=" + _VALUE for n in names))


def _names(line: str) -> tuple[str, ...] | None:
    """The attribute names of a plain ``a=1,b=2`` line (distinct, each a valid name), else None."""
    names = tuple(f.partition("=")[0] for f in line.split(","))
    if len(set(names)) != len(names) or not all(_KEY.fullmatch(n) for n in names):
        return None
    return names


def read_plain(lines: list[str], start: int, end: int, resource: str | None, system: str | None
               ) -> UtilTable | None:
    """The table of lines ``start:end`` when every non-blank line is a plain attribute line (no quote,
    no blank around a field or value, no repeated name): what the HMC prints. None when any line is
    not (the caller reads the output line by line then)."""
    native = _read_native(lines, start, end, resource, system)
    return native if native is not None else _read_plain(lines, start, end, resource, system)


_CODED = frozenset(TEXT_KEYS | {"lpar_id"})  # columns the table needs as texts (Coded, or ids)


def _read_native(lines: list[str], start: int, end: int, resource: str | None, system: str | None
                 ) -> UtilTable | None:
    """The table of lines ``start:end`` as the native core reads it, or None (no core, or a listing
    it leaves to Python)."""
    from ..native_core import core, enabled, guarded

    if end <= start or not enabled():
        return None
    text = "\n".join(lines[start:end])
    if not text.isascii():
        return None
    found = guarded(core.attr_listing, text, start + 1, _CODED, LIMIT)
    if found is None:
        return None
    row_lines, names, columns = found
    return table_from_native(row_lines, names, columns, resource, system)


def _read_plain(lines: list[str], start: int, end: int, resource: str | None, system: str | None
                ) -> UtilTable | None:
    shapes: dict[tuple[str, ...], list[int]] = {}  # names -> rows with them
    row_lines: list[int] = []
    values: list[tuple[str, ...]] = []
    pattern: re.Pattern[str] | None = None
    rows: list[int] | None = None
    for i in range(start, end):
        ln = lines[i]
        m = pattern.fullmatch(ln) if pattern is not None else None
        if m is None:
            if not ln.strip():
                continue
            names = _names(ln) if '"' not in ln else None
            if names is None:
                return None
            pattern = _row_pattern(names)
            m = pattern.fullmatch(ln)
            if m is None:
                return None
            rows = shapes.setdefault(names, [])
        rows.append(len(values))  # type: ignore[union-attr]
        row_lines.append(i + 1)
        values.append(m.groups())
    if not values:
        return None
    if len(shapes) == 1:
        return table_from_columns(row_lines, list(next(iter(shapes))), values, resource, system)
    named: list[Any] = [None] * len(values)
    for names, idx in shapes.items():
        for r in idx:
            named[r] = (row_lines[r], dict(zip(names, values[r])), None)
    return table(named, resource, system)
