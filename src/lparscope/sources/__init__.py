"""Parsers, one module per input kind, and the registry that finds them.

See docs/parsers.md for the contract every module follows.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType

_PRIVATE = {"base", "detect", "registry", "filenames", "shared_strings", "prompt_scan"}


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


class Registry:
    """:func:`parsers`, imported when first asked for (:meth:`get`), once.

    Importing every parser takes about 0.1 s. :meth:`alongside` imports them in a background
    thread while the caller runs code that leaves the interpreter free (the native nmon reader),
    so a run that starts with a recording does not wait for them afterwards. The thread has
    ended when the block does: no process is forked while it imports.
    """

    def __init__(self) -> None:
        self._found: dict[str, ModuleType] | None = None

    def get(self) -> dict[str, ModuleType]:
        if self._found is None:
            self._found = parsers()
        return self._found

    @contextmanager
    def alongside(self, also: Callable[[], object] | None = None) -> Iterator[None]:
        """The parsers imported in a thread while the block runs; then ``also`` (the caller's
        own later imports), whose failure is left for the code that needs them to meet."""
        if self._found is not None:
            yield
            return
        box: dict[str, dict[str, ModuleType]] = {}

        def load() -> None:
            try:
                box["found"] = parsers()
            except BaseException:  # get() imports them again, and raises the error where it is asked for
                pass
            if also is not None:
                try:
                    also()
                except BaseException:
                    pass

        thread = threading.Thread(target=load, name="lparscope-parsers", daemon=True)
        thread.start()
        try:
            yield
        finally:
            thread.join()
            self._found = box.get("found")
