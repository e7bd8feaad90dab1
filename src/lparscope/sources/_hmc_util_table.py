"""``lslparutil`` events kept column-wise: one :class:`UtilTable` per command output.

A day of five-minute samples of a frame is thousands of lines that repeat the same attribute
names in the same order. ``_hmc_util_listing`` reads such a listing column-wise (natively, or
with one pattern per set of names); here its values become one column per attribute, and an
attribute whose every value is a plain number becomes one float array. A row of the table is
what one :class:`UtilSample` was (``UtilTable.sample(i)`` still gives it), for a tenth of the memory.

Typed exactly as before: numbers as floats (``to_float``), the text attributes (times, event and
resource types, partition names) and values that are not numbers as text; a row keeps the line
of each attribute (all on its own line, unless the record spans lines: ``field_lines``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from . import _hmc_values as hv
from ._hmc_util_times import hmc_time, time_reader
from .base import to_float
from ..numbers import LIMIT

TEXT_KEYS = frozenset({"time", "sys_time", "event_type", "resource_type", "lpar_name", "state"})


def parse_time(text: str | None) -> datetime | None:
    """A time in a form the HMC prints (a listing in another form: ``_hmc_util_times``)."""
    return hmc_time((text or "").strip())


def shared_value(value: str) -> str:
    """One string object per short text value kept in many records (states, modes, pool names, times)."""
    return sys.intern(value) if len(value) <= 40 else value


@dataclass
class UtilSample:
    """One ``lslparutil`` event (a sample, a state or configuration change)."""

    time: datetime | str  # str when the time cannot be read
    resource: str  # "lpar", "pool", "procpool", "sys", "mempool" ...
    lpar_name: str | None
    lpar_id: int | None
    attrs: dict[str, float | str]  # numbers as float, the rest as text
    line: int
    system: str | None = None
    event_type: str | None = None
    lines: dict[str, int] = field(default_factory=dict)

    def num(self, key: str) -> float | None:
        v = self.attrs.get(key)
        return v if isinstance(v, float) else None


class Coded(Sequence[Any]):
    """A column whose values repeat (times, event and resource types, partition names and ids): each
    distinct value once, and a small integer code per row. A day of a frame's samples is ~1,700 rows
    of a dozen such columns; as lists they held a pointer per row and column (8 bytes), as codes 2."""

    __slots__ = ("codes", "values")

    def __init__(self, codes: Any, values: list[Any]) -> None:
        self.codes, self.values = codes, values  # numpy unsigned ints; values[code]

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self.values[c] for c in self.codes[i].tolist()]
        return self.values[self.codes[i]]

    def __iter__(self) -> Iterator[Any]:
        return map(self.values.__getitem__, self.codes.tolist())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (list, tuple, Coded)) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # a column, compared by its values

    def __repr__(self) -> str:
        return f"Coded({list(self)!r})"


@dataclass
class UtilTable:
    """The ``lslparutil`` events of one command output, a column per attribute (row ``i``: event ``i``)."""

    line: Any  # numpy int64 array: 1-based line of each event
    columns: dict[str, Any]  # attribute -> float array (every value a plain number), else Coded: texts (TEXT_KEYS), or each value as a float, its text or None (not given)
    time: Sequence[datetime | str]  # Coded
    resource: Sequence[str]  # Coded
    lpar_id: Sequence[int | None]  # Coded
    system: str | None = None
    field_lines: dict[int, dict[str, int]] = field(default_factory=dict)  # rows whose attributes span lines
    time_form: str | None = None  # the times' form when not the HMC's ("DD/MM/YYYY"; "ambiguous: ...": not read)

    def __len__(self) -> int:
        return len(self.time)

    @property
    def resources(self) -> set[str]:
        return set(self.resource)

    def value(self, key: str, row: int) -> float | str | None:
        col = self.columns.get(key)
        if col is None:
            return None
        v = col[row]
        return v if isinstance(col, (list, Coded)) else float(v)

    def text(self, key: str, row: int) -> str | None:
        v = self.value(key, row)
        return v if isinstance(v, str) else None

    def num(self, key: str, row: int) -> float | None:
        v = self.value(key, row)
        return v if isinstance(v, float) else None

    def numbers(self, key: str) -> Any:
        """The attribute's values as a float array, NaN where a row has no number."""
        import numpy as np

        col = self.columns.get(key)
        if col is None:
            return np.full(len(self), np.nan)
        if not isinstance(col, (list, Coded)):
            return col
        return np.array([v if isinstance(v, float) else np.nan for v in col], dtype=np.float64)

    def line_of(self, row: int, key: str) -> int | None:
        """The line of one attribute of a row (None: the row does not give it)."""
        own = self.field_lines.get(row)
        if own is not None:
            return own.get(key)
        return int(self.line[row]) if self.value(key, row) is not None else None

    def sample(self, row: int) -> UtilSample:
        attrs: dict[str, float | str] = {}
        for k, col in self.columns.items():
            v = col[row]
            if v is not None:
                attrs[k] = v if isinstance(col, (list, Coded)) else float(v)
        line = int(self.line[row])
        lines = self.field_lines.get(row, dict.fromkeys(attrs, line))
        event = attrs.get("event_type")
        name = attrs.get("lpar_name")
        return UtilSample(self.time[row], self.resource[row], name if isinstance(name, str) else None,
                          self.lpar_id[row], attrs, line, self.system, event if isinstance(event, str) else None,
                          lines)

    def samples(self) -> list[UtilSample]:
        return [self.sample(i) for i in range(len(self))]


def samples_of(records: Iterable[object]) -> list[object]:
    """Records with every table spelled out as its :class:`UtilSample` rows (tests, debugging)."""
    out: list[object] = []
    for r in records:
        out.extend(r.samples() if isinstance(r, UtilTable) else [r])
    return out


# --- building tables ----------------------------------------------------------------------------

_PLAIN_NUMBERS = re.compile(r"(?:[-+]?[0-9]+(?:\.[0-9]+)?\n)*[-+]?[0-9]+(?:\.[0-9]+)?")  # what plain_numbers tells


def table(rows: list[tuple[int, dict[str, str], dict[str, int] | None]], resource: str | None,
          system: str | None) -> UtilTable:
    """A table from (1-based line, attribute text by name, line per attribute or None when all on the
    row's line) of each event, in order; ``resource`` is the command's ``-r`` (for rows without
    ``resource_type``)."""
    import numpy as np

    names: dict[str, None] = {}
    for _, attrs, _ in rows:
        if attrs.keys() != names.keys():
            names.update(dict.fromkeys(attrs))
    raw = {k: _Texts([a.get(k) for _, a, _ in rows]) for k in names}
    lines = [ln for ln, _, _ in rows]
    field_lines = {}
    for i, (ln, attrs, own) in enumerate(rows):
        if own is not None and own != dict.fromkeys(attrs, ln):
            field_lines[i] = own
    return _typed(np.array(lines, dtype=np.int64), raw, len(rows), resource, system, field_lines)


def table_from_columns(lines: list[int], names: list[str], values: list[tuple[str, ...]], resource: str | None,
                       system: str | None) -> UtilTable:
    """A table from rows that all give the same attributes on one line each (the usual listing)."""
    import numpy as np

    raw = {k: _Texts(list(col)) for k, col in zip(names, zip(*values))}
    return _typed(np.array(lines, dtype=np.int64), raw, len(lines), resource, system, {})


def table_from_native(lines: Any, names: list[str], columns: list[tuple[Any, Any, list[str] | None]],
                      resource: str | None, system: str | None) -> UtilTable:
    """A table from the native core's read of a listing (``attr_listing``: row lines, names, and per
    name its float64 values and/or a code per row into its distinct texts)."""
    raw = {k: _NativeColumn(*col) for k, col in zip(names, columns)}
    return _typed(lines, raw, len(lines), resource, system, {})


class _Texts:
    """A column as read: the text of each row (None: the row does not give it)."""

    def __init__(self, values: list[str | None]) -> None:
        self.values = values

    def coded(self, conv: Any) -> Coded:
        return _coded(self.values, conv)

    def numbers(self) -> Any:
        """A float array when every value is a plain number in range, else None."""
        import numpy as np

        col = self.values
        if col and None not in col and max(map(len, col)) <= 48:  # type: ignore[arg-type]
            arr = plain_numbers(col)  # type: ignore[arg-type]
            if arr is not None and not (np.abs(arr) > LIMIT).any():
                return arr
        return None


class _NativeColumn:
    """A column as the native core read it (``attr_listing``): float64 values when all are plain
    numbers in range, and/or a code per row into the distinct texts."""

    def __init__(self, floats: Any, codes: Any, distinct: list[str] | None) -> None:
        self.floats, self.codes, self.distinct = floats, codes, distinct

    def coded(self, conv: Any) -> Coded:
        return Coded(self.codes.astype(_code_type(len(self.distinct))), [conv(v) for v in self.distinct])  # type: ignore[arg-type]

    def numbers(self) -> Any:
        return self.floats


def _typed(line: Any, raw: dict[str, Any], n: int, resource: str | None, system: str | None,
           field_lines: dict[int, dict[str, int]]) -> UtilTable:
    """The table of typed columns from ``raw`` (name -> :class:`_Texts` or :class:`_NativeColumn`)."""
    columns = {k: (col.coded(_text_value) if k in TEXT_KEYS else _number_column(col)) for k, col in raw.items()}
    none = _Texts([None] * n)
    texts = raw.get("time", none).coded(lambda v: v)
    read, form = time_reader(texts.values)  # the HMC's form, or the one other form of the whole listing
    times = Coded(texts.codes, [(read(v.strip()) if v else None) or (shared_value(v) if v else "") for v in texts.values])
    res = raw.get("resource_type", none).coded(lambda v: shared_value(v) if v else (resource or "unknown"))
    ids = raw.get("lpar_id", none).coded(lambda v: hv.as_int({"lpar_id": v}, "lpar_id") if v is not None else None)
    return UtilTable(line, columns, times, res, ids, system, field_lines, form)


def _code_type(distinct: int) -> Any:
    import numpy as np

    return np.uint8 if distinct <= 256 else np.uint16 if distinct <= 65536 else np.uint32


def _coded(col: list[str | None], conv: Any) -> Coded:
    """``conv`` of each value as a :class:`Coded` column (``conv`` once per distinct value)."""
    import numpy as np

    distinct = list(dict.fromkeys(col))
    code = {v: i for i, v in enumerate(distinct)}
    return Coded(np.fromiter(map(code.__getitem__, col), _code_type(len(distinct)), len(col)), [conv(v) for v in distinct])


def _text_value(v: str | None) -> str | None:
    return shared_value(v) if v is not None else None


def _number_column(col: Any) -> Any:
    """A float array when every value is a plain number in range, else a :class:`Coded` column of each
    value as ``to_float`` reads it (or its text when it is not a number): modes, pool names, "12%"."""
    arr = col.numbers()
    return arr if arr is not None else col.coded(_typed_value)


def plain_numbers(col: list[str]) -> Any:
    """The values as a float array when each is a plain number, ``[-+]digits[.digits]`` (what
    _PLAIN_NUMBERS matches), else None. Told without a regular expression stepping through every
    character: the column may hold only digits, points and signs, a point must sit between digits
    (substring tests), and float() refuses what is left ("1.2.3", "5-", "")."""
    import numpy as np

    joined = "\n".join(col)
    if not joined.isascii() or joined[:1] == "." or joined[-1:] == "." or any(
            s in joined for s in (".\n", "\n.", "-.", "+.")):
        return None
    if joined.encode("ascii").translate(None, b"0123456789.-+\n"):  # a byte no plain number has
        return None
    try:
        return np.fromiter(map(float, col), np.float64, len(col))
    except ValueError:
        return None


def _typed_value(v: str | None) -> float | str | None:
    if v is None:
        return None
    f = to_float(v)
    return f if f is not None else shared_value(v)
