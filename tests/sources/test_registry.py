"""sources.Registry: the parsers imported once, when first needed or beside a native nmon read."""

from __future__ import annotations

import threading

import pytest

import lparscope.sources as sources
from lparscope.sources import Registry, parsers


def test_get_is_the_parsers_once() -> None:
    reg = Registry()
    found = reg.get()
    assert set(found) == set(parsers()) and "lsattr" in found
    assert reg.get() is found


def test_alongside_imports_in_a_thread_that_has_ended_with_the_block(monkeypatch: pytest.MonkeyPatch) -> None:
    real, names = sources.parsers, []

    def traced() -> dict:
        names.append(threading.current_thread().name)
        return real()

    monkeypatch.setattr(sources, "parsers", traced)
    reg = Registry()
    with reg.alongside():
        pass
    assert names == ["lparscope-parsers"]
    assert not any(t.name == "lparscope-parsers" for t in threading.enumerate())
    assert set(reg.get()) == set(real()) and names == ["lparscope-parsers"]  # not imported again
    with reg.alongside():  # already there: no second thread
        pass
    assert names == ["lparscope-parsers"]


def test_an_import_error_in_the_thread_is_raised_by_get(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def broken() -> dict:
        calls.append(threading.current_thread().name)
        raise ImportError("a parser module is broken")

    monkeypatch.setattr(sources, "parsers", broken)
    reg = Registry()
    with reg.alongside():
        pass
    with pytest.raises(ImportError, match="broken"):
        reg.get()
    assert calls == ["lparscope-parsers", "MainThread"]


def test_alongside_also_runs_the_callers_imports_in_the_same_thread_and_a_failure_there_is_left(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def later() -> None:
        seen.append(threading.current_thread().name)
        raise ImportError("a later stage is broken")  # met again by the code that imports it

    reg = Registry()
    with reg.alongside(also=later):
        pass
    assert seen == ["lparscope-parsers"]
    assert "lsattr" in reg.get()  # the parsers were imported all the same
    with reg.alongside(also=later):  # already there: nothing runs again
        pass
    assert seen == ["lparscope-parsers"]
