"""The registry of appliers: for each output kind, the function that folds its parsed records
into a host (``lparscope.model.build.apply`` calls them). ``build`` and ``build_system`` both
register here, so neither imports the other's registry.
"""

from __future__ import annotations

from collections.abc import Callable

from ..sources.base import Parsed
from .estate import Host

# An applier may return the records it could not attach: (line in the segment, why).
Applier = Callable[[Host, Parsed, str, int], "list[tuple[int, str]] | None"]
APPLIERS: dict[str, Applier] = {}


def applies(kind: str) -> Callable[[Applier], Applier]:
    """Register the decorated function as the applier of output kind ``kind``."""
    def wrap(fn: Applier) -> Applier:
        APPLIERS[kind] = fn
        return fn
    return wrap
