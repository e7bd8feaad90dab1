"""A wall-clock guard for tests that must finish: fails the test instead of hanging the suite."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


class TooSlow(Exception):
    pass


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise TooSlow inside the block after ``seconds`` (the regex engine checks for signals)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def _fire(*_: object) -> None:
        raise TooSlow(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, _fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def timed(fn: Callable[[], T], seconds: float = 20.0) -> tuple[T, float]:
    """``fn()`` and its wall time; fails (TooSlow) when it runs longer than ``seconds``."""
    start = time.perf_counter()
    with deadline(seconds):
        result = fn()
    return result, time.perf_counter() - start
