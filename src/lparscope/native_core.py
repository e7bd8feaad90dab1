"""The optional native core (Rust, ``native/``), loaded once, and only when it is the one these sources expect.

An editable install (``pip install -e .``) keeps the core it built at install time; after a ``git
pull`` that changed ``native/``, that core may be older than the Python code calling it. The core
says which interface it offers (``API``); a core that says another number (or none) is not used:
the readers take their pure-Python paths, and :func:`status` says why, so a run never fails on a
mismatched signature.

``LPARSCOPE_NATIVE=0`` in the environment turns the whole core off (both the nmon reader and
the HMC attribute listings); ``LPARSCOPE_NMON_NATIVE=0`` only the nmon reader's use of it.

A panic in the core (a bug in it) reaches Python as ``pyo3_runtime.PanicException``, which is not
an ``Exception``: :func:`guarded` turns it into :class:`NativeCoreError`, so that it is reported
for the input at hand like any other internal error and the run goes on.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

API = 3  # native/src/lib.rs: const API

try:
    from . import _nmon_native as _loaded
except ImportError:  # built only when a Rust toolchain was there at install time
    _loaded = None

STALE = _loaded is not None and getattr(_loaded, "API", None) != API
core: Any = None if STALE else _loaded


def off(variable: str = "LPARSCOPE_NATIVE") -> bool:
    """True when ``variable`` turns the core off (0, no, off, false)."""
    return os.environ.get(variable, "1").strip().lower() in ("0", "no", "off", "false")


def enabled() -> bool:
    """True when the core is installed, current and not turned off."""
    return core is not None and not off()


def status() -> str:
    """Why the core is not used ("" when it is)."""
    if STALE:
        return "native core out of date (pip install -e .)"
    if _loaded is None:
        return "cargo was absent at install"
    return "LPARSCOPE_NATIVE=0" if off() else ""


class NativeCoreError(RuntimeError):
    """The native core failed (it panicked): an internal error of the input being read."""


def guarded(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)``, a panic of the core raised as :class:`NativeCoreError`."""
    try:
        return call(*args)
    except BaseException as exc:
        if type(exc).__name__ != "PanicException":
            raise
        raise NativeCoreError(f"native core failed: {exc}") from None
