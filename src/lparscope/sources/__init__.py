"""Parsers, one module per input kind, and the registry that finds them.

See docs/parsers.md for the contract every module follows.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

_PRIVATE = {"base", "detect", "registry", "filenames"}


def parsers() -> dict[str, ModuleType]:
    """Every parser module in this package, keyed by its KIND."""
    found: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_") or info.name in _PRIVATE:
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(mod, "KIND") and hasattr(mod, "parse"):
            found[mod.KIND] = mod
    return found
