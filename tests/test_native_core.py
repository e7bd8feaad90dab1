"""A native core built from older sources (an editable install not rebuilt after a pull) is not used:
the readers take their pure paths and the run says why, instead of failing on a changed signature."""

import importlib
import sys
import types

import pytest

import lparscope
import lparscope.native_core as native_core
import lparscope.nmon.native as nmon_native
from lparscope.sources import _hmc_util_listing as ul


@pytest.fixture
def core_saying(monkeypatch):
    def load(api):
        fake = types.ModuleType("lparscope._nmon_native")
        if api is not None:
            fake.API = api
        monkeypatch.setitem(sys.modules, "lparscope._nmon_native", fake)
        monkeypatch.setattr(lparscope, "_nmon_native", fake, raising=False)  # ``from . import`` looks here first
        importlib.reload(native_core)
        importlib.reload(nmon_native)
        return fake
    yield load
    monkeypatch.undo()
    importlib.reload(native_core)
    importlib.reload(nmon_native)


@pytest.mark.parametrize("api", [None, native_core.API - 1, native_core.API + 1])
def test_a_core_of_another_interface_is_not_used_and_the_run_says_why(core_saying, api):
    core_saying(api)
    assert native_core.STALE and native_core.core is None and not native_core.enabled()
    assert not nmon_native.enabled()
    line = nmon_native.describe()
    assert "out of date" in line and "pip install -e ." in line and len(line) < 80
    lines = ["time=03/14/2024 10:00:00,lpar_name=a,lpar_id=1,capped_cycles=5"]
    assert ul._read_native(lines, 0, 1) is None  # Python reads it
    assert ul.read_plain(lines, 0, 1, "lpar", None).num("capped_cycles", 0) == 5.0


def test_the_current_core_is_used_when_built(core_saying):
    fake = core_saying(native_core.API)
    assert not native_core.STALE and native_core.core is fake and native_core.status() == ""


def test_native_off_turns_both_readers_to_their_pure_paths(core_saying, monkeypatch):
    core_saying(native_core.API)
    monkeypatch.setenv("LPARSCOPE_NATIVE", "0")
    assert not native_core.enabled() and not nmon_native.enabled()
    assert ul._read_native(["a=1"], 0, 1) is None
    assert "LPARSCOPE_NATIVE=0" in nmon_native.describe()
