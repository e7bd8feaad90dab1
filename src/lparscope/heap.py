"""The run's heap and Python's cyclic garbage collector.

An analysis builds its model once and keeps it to the end: for a thousand hosts, millions of
objects. Each full collection re-scans every live object: 12 of them took 2.1 s of a thousand
hosts' 16 s run, and found next to nothing. At points where what exists is known to live on
(every so many inputs read, after each stage) :func:`settle` hands it to ``gc.freeze()``, so later
collections look only at what is new. Reference counting still frees whatever is dropped; only
garbage cycles among settled objects wait, until :func:`long_lived` ends and gives every frozen
object back to the collector (``gc.unfreeze()``, also those a host program froze itself), unless
the process ends with the run (:func:`ends_with_run`: the command line).

A run also makes collections rarer (``gc.set_threshold``, :data:`RUN_THRESHOLDS`): with the
defaults, a thousand hosts' reports set off nine full collections of what was not settled yet
(0.4 s of 12 s) and nearly two thousand young ones, for next to no garbage. The thresholds in
force before the run are put back when it ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_depth = 0  # open long_lived() blocks
_keep = False  # the process ends with the run: no need to give the objects back
_before: tuple[int, ...] | None = None  # the collector's thresholds before the run
# A young collection every 10,000 allocations (not 700), an older one every 20 of those, a full one
# every 50 older ones (and still only when what is new exceeds a quarter of what is old).
RUN_THRESHOLDS = (10_000, 20, 50)


@contextmanager
def long_lived() -> Iterator[None]:
    """A run whose objects may be settled (nested blocks are one run); also a decorator of a command."""
    global _depth, _before
    if not _depth and _before is None:
        _before = gc.get_threshold()
        gc.set_threshold(*RUN_THRESHOLDS)
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if not _depth and not _keep:
            gc.unfreeze()
            if _before is not None:
                gc.set_threshold(*_before)
                _before = None


def settle() -> None:
    """What is alive now lives to the end of the run: the collector stops re-scanning it (only
    inside :func:`long_lived`; elsewhere nothing happens)."""
    if _depth:
        gc.freeze()


def ends_with_run() -> None:
    """The process ends when the run does (the command line): objects are never given back, and
    the last collection at exit skips them too."""
    global _keep
    _keep = True
    gc.set_threshold(*RUN_THRESHOLDS)
