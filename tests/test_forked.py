"""Parts of a stage done in a forked child: its result, or the part done here when the child fails."""

from __future__ import annotations

import os
import pickle
import signal
import time

import pytest

from lparscope import forked
from lparscope.rules.engine import all_rules

pytestmark = pytest.mark.skipif(not forked.can_fork(), reason="no fork on this platform")


def test_the_child_does_the_part_and_sends_back_its_result() -> None:
    parent = os.getpid()
    part = forked.beside(lambda: (os.getpid(), [n * n for n in range(1000)]))
    pid, squares = part.result()
    assert pid != parent  # made in the child
    assert squares[999] == 998001


def test_a_child_that_fails_leaves_the_part_to_this_process() -> None:
    parent = os.getpid()

    def work() -> int:
        if os.getpid() != parent:
            raise RuntimeError("the child's bug")
        return os.getpid()

    assert forked.beside(work).result() == parent


def test_a_killed_child_leaves_the_part_to_this_process() -> None:
    parent = os.getpid()

    def work() -> int:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return os.getpid()

    assert forked.beside(work).result() == parent


def test_a_child_that_hangs_is_stopped_and_the_part_done_here(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(forked, "MIN_WAIT", 0.5)
    parent = os.getpid()

    def work() -> int:
        while os.getpid() != parent:
            time.sleep(1)
        return parent

    start = time.monotonic()
    assert forked.beside(work).result() == parent
    assert time.monotonic() - start < 20


def test_a_result_that_cannot_be_pickled_is_made_here() -> None:
    parent = os.getpid()
    made_in = forked.beside(lambda: (lambda: os.getpid())).result()
    assert made_in() == parent  # the lambda came from the part done here


def test_without_fork_the_part_is_done_here(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(forked, "can_fork", lambda: False)
    assert forked.beside(os.getpid).result() == os.getpid()


def test_a_registered_rule_is_pickled_by_its_id() -> None:
    rule = next(iter(all_rules().values()))
    assert pickle.loads(pickle.dumps(rule)) is rule
