"""Numbers read from inputs: finite and within what a Power system can report.

Every number an input gives goes through these helpers before the model or a rule does
arithmetic with it: ``inf``, ``nan``, ``1e308`` or a 300-digit count are refused (None, and a
reason the parser turns into a line-numbered warning) rather than overflowing later in an
``int()`` or a sum. This module imports nothing from lparscope: any layer may use it.
"""

from __future__ import annotations

import math
import re
from typing import Any

# The largest value a 64-bit counter holds (HMC cycle counters reach 1e17): anything larger is
# damage, not a measurement, and every product of two accepted values stays a finite float.
LIMIT = float(2**64)
_MAX_DIGITS = 40  # longer digit strings are refused before any conversion

_DECIMAL_RE = re.compile(r"[-+]?\d+(?:[.,]\d+)?")
_FLOAT_RE = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


def check(value: Any, limit: float = LIMIT) -> tuple[float | None, str | None]:
    """(the number, None), or (None, why it is refused); (None, None) when ``value`` is no number.

    Accepts ints, floats and text: decimal with a point or one comma, exponent form, 0x-hex.
    """
    if value is None or isinstance(value, bool):
        return None, None
    if isinstance(value, (int, float)):
        x = value
    else:
        t = str(value).strip().rstrip("%")
        if not t:
            return None, None
        if len(t) > _MAX_DIGITS + 8:
            digits = sum(c.isdigit() for c in t)
            return (None, f"number of {digits} digits refused") if digits > _MAX_DIGITS else (None, None)
        low = t.lower().lstrip("+-")
        if low in ("inf", "infinity", "nan"):
            return None, f"non-finite number {t!r} refused"
        try:
            if low.startswith("0x"):
                x = int(t, 16)
            elif _DECIMAL_RE.fullmatch(t):
                x = float(t.replace(",", "."))
            elif _FLOAT_RE.fullmatch(t):
                x = float(t)
            else:
                return None, None
        except (ValueError, OverflowError):
            return None, None
    if isinstance(x, float) and not math.isfinite(x):
        return None, f"non-finite number {value!r} refused"
    if abs(x) > limit:
        return None, f"number {str(value)[:30]} out of range (above {limit:g}) refused"
    return float(x), None


def finite_float(value: Any, limit: float = LIMIT) -> float | None:
    """A finite float within ``limit``, else None."""
    return check(value, limit)[0]


def finite_int(value: Any, limit: float = LIMIT) -> int | None:
    """A whole number within ``limit`` (a float is rounded), else None."""
    x = check(value, limit)[0]
    return None if x is None else int(round(x))


def json_number(value: Any, limit: float = LIMIT) -> float | None:
    """A number as a JSON document gives it (an int or a float, never a bool or a string), finite and
    within ``limit``, else None."""
    return check(value, limit)[0] if isinstance(value, (int, float)) else None


_WHOLE_RE = re.compile(r"[-+]?\d{1,%d}" % _MAX_DIGITS)


def whole(text: str | None) -> int | None:
    """An exact whole number from a digit string of at most 40 digits (a 64-bit counter has 20),
    else None: a longer run is damage, and ``int()`` refuses more than 4,300 digits anyway."""
    if text is None:
        return None
    t = text.strip()
    return int(t) if _WHOLE_RE.fullmatch(t) else None


def safe_int(x: float | int | None) -> int | None:
    """``int(round(x))`` for a computed value, None instead of OverflowError / ValueError."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return None
    return int(round(x))


def fmt_number(x: float | int | None, places: int = 2) -> str:
    """A figure for a message: ``places`` decimals (trailing zeros cut) while it is of a size a system
    reports, in exponent form past a billion (a damaged input's 1e300 never prints 300 digits);
    "n/a" for None, "inf" or "nan" as such."""
    if x is None or isinstance(x, bool):
        return "n/a"
    if not math.isfinite(x):
        return str(float(x))
    if abs(x) >= 1e9:
        return f"{x:.3g}"
    text = f"{x:.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


# a figure of 16 or more digits before its point, or of 40 digits (no identifier is that long):
# what ``f"{x:.2f}"`` prints of a value no system reports
_ABSURD = re.compile(r"(?<![\w.])(?:\d{16,}\.\d+|\d{40,})(?![\w.])")


def tame_figures(text: str) -> str:
    """``text`` with each absurdly long figure in exponent form (``7.94e+299`` for 300 digits)."""
    if len(text) < 16:
        return text
    return _ABSURD.sub(lambda m: f"{float(m.group()):.3g}", text)
