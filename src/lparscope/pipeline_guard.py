"""Small helpers that keep one failure (a bug met on one input or in one report) from ending a run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def describe(exc: BaseException) -> str:
    """One line naming an exception, short enough for a status line."""
    try:
        text = str(exc)
    except Exception:  # an exception whose message itself fails
        text = ""
    first = text.splitlines()[0] if text else ""
    name = type(exc).__name__
    if name == "error":  # zlib.error, binascii.error ...: say which
        name = f"{type(exc).__module__}.error"
    return f"{name}: {first[:300]}" if first else name


def guarded_charts(make: Callable[[Any], Any], estate: Any, internal: list[str]) -> Any:
    """The charts of the HTML report, or none when drawing them fails (the report is still written)."""
    try:
        return make(estate)
    except Exception as exc:
        internal.append(f"charts: internal error while drawing them: {describe(exc)}; HTML written without charts")
        return None
