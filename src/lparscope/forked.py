"""Part of a stage done beside this process, in a forked child that sends back what it made.

Once the inputs are read, a run's later stages work on one core. Where a stage splits into parts
that only read the model (the rules: each reads the estate and changes nothing), :func:`beside`
gives a part to a forked child: the child sees the model as it is (copy-on-write; nothing is sent
to it), does its part while this process does another, and sends back its result pickled.

The result never depends on the child: where fork is not available, or the child fails (killed,
out of memory, an error, a result that cannot be pickled), the part is done here instead, as a
serial run would.

Memory: a child shares this process's pages until one side writes to one. The objects the run
keeps are settled out of the collector's way (:mod:`.heap`), so no collection writes to them, but
reading an object still writes its reference count: while a child lives, the pages either side
reads are copied. On the bench's 1,000 hosts the whole process tree peaks at 371 MiB of PSS, 337
without these children (``bench/tree_memory.py``); a replay of the what-if beside the report
building was dropped for that reason (+50 MiB more for 0.5 s).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


def can_fork() -> bool:
    """Whether parts can go to a forked child here (POSIX: Linux, AIX, macOS)."""
    return hasattr(os, "fork")


class Beside(Generic[T]):
    """A part given to a child (or kept for this process when none could be started)."""

    def __init__(self, work: Callable[[], T], start: bool = True) -> None:
        self._work = work
        self._start = time.monotonic()
        self._pid = 0
        self._fd = -1
        if not start or not can_fork():
            return
        for stream in (sys.stdout, sys.stderr):  # the child never writes the parent's buffered text again
            try:
                stream.flush()
            except Exception:
                pass
        try:
            read_end, write_end = os.pipe()
        except OSError:
            return
        try:
            pid = os.fork()
        except OSError:  # no more processes, or no memory for one: the part is done here
            os.close(read_end)
            os.close(write_end)
            return
        if pid == 0:  # the child: its part, sent back, then gone without running the parent's exit code
            try:
                os.close(read_end)
                value = work()  # nothing is written before the part is done (the parent waits for that)
                with os.fdopen(write_end, "wb") as out:  # pickled as it is written: never all held at once
                    pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
            finally:
                os._exit(0)  # an error: nothing (or a cut pickle) sent, and the parent does the part
        os.close(write_end)
        self._pid, self._fd = pid, read_end

    def result(self) -> T:
        """The child's result (waiting for it), or the part done here when the child gave none.

        A child that has sent nothing long after this process did its own part (:data:`PATIENCE`
        times the time since the start, and at least :data:`MIN_WAIT` seconds) is stopped: one
        that hangs (a lock some library thread held at the fork) never holds up the run."""
        if self._pid:
            pid, fd = self._pid, self._fd
            self._pid, self._fd = 0, -1
            deadline = time.monotonic() + max(MIN_WAIT, PATIENCE * (time.monotonic() - self._start))
            done, value = False, None
            try:
                if select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:  # the part is done
                    with os.fdopen(os.dup(fd), "rb") as got:  # unpickled as it is read: never all held at once
                        value, done = pickle.load(got), True
            except Exception:  # nothing sent (the child failed), or cut short (it was killed)
                done = False
            finally:
                os.close(fd)
                _reap(pid, stop=not done)
            if done:
                return value  # type: ignore[no-any-return]
        return self._work()

    def cancel(self) -> None:
        """The part is no longer wanted: the child (if any) is stopped and reaped."""
        if self._pid:
            pid, fd = self._pid, self._fd
            self._pid, self._fd = 0, -1
            os.close(fd)
            _reap(pid, stop=True)


def _reap(pid: int, stop: bool) -> None:
    """Wait for a child to end (stopped first, when ``stop``): no process is left behind."""
    if stop:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


MIN_WAIT = 30.0  # seconds a child is always given
PATIENCE = 3.0  # times the time since it started, once this process has done its own part


def beside(work: Callable[[], T], start: bool = True) -> Beside[T]:
    """Start ``work`` in a forked child; ``.result()`` gives what it returned. With ``start`` false (a
    part too small to be worth a process), ``.result()`` does the work here."""
    return Beside(work, start)
