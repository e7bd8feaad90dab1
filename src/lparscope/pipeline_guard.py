"""Small helpers that keep one failure (a bug met on one input or in one report) from ending a run."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: Seconds one text input may take to be cut and parsed, or one nmon recording to be read
#: (``LPARSCOPE_FILE_SECONDS`` overrides; 0: none).
FILE_SECONDS = 120.0


class TimeBudgetExceeded(BaseException):
    """One input took longer than its time budget: it is reported, the run goes on. A BaseException,
    so that a parser's own ``except Exception`` cannot swallow it."""


def file_seconds() -> float:
    env = os.environ.get("LPARSCOPE_FILE_SECONDS", "").strip()
    try:
        return max(float(env), 0.0) if env else FILE_SECONDS
    except ValueError:
        return FILE_SECONDS


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Raise :class:`TimeBudgetExceeded` in the block once ``seconds`` have passed (a real-time
    alarm; the regular expression engine and Python loops both notice it). Where no alarm can be
    set (not the main thread, no SIGALRM on the platform) or ``seconds`` is 0, no budget applies."""
    usable = seconds > 0 and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def _expired(_signum: int, _frame: Any) -> None:
        raise TimeBudgetExceeded(f"took longer than {seconds:g} s")

    outer, _interval = signal.getitimer(signal.ITIMER_REAL)
    if outer and outer <= seconds:  # an alarm already set fires first: leave it alone
        yield
        return
    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, _expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:  # put back the alarm that was set before, less the time spent here
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - start), 0.001))


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
