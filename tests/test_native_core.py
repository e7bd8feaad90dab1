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
    assert ul._read_native(lines, 0, 1, "lpar", "f1") is None  # Python reads it
    assert ul.read_plain(lines, 0, 1, "lpar", None).num("capped_cycles", 0) == 5.0


def test_the_current_core_is_used_when_built(core_saying):
    fake = core_saying(native_core.API)
    assert not native_core.STALE and native_core.core is fake and native_core.status() == ""


def test_native_off_turns_both_readers_to_their_pure_paths(core_saying, monkeypatch):
    core_saying(native_core.API)
    monkeypatch.setenv("LPARSCOPE_NATIVE", "0")
    assert not native_core.enabled() and not nmon_native.enabled()
    assert ul._read_native(["a=1"], 0, 1, "lpar", "f1") is None
    assert "LPARSCOPE_NATIVE=0" in nmon_native.describe()


class PanicException(BaseException):
    """What a panic in the core raises (pyo3_runtime.PanicException is not an Exception)."""


def _panics(*args, **kwargs):
    raise PanicException("index out of bounds")


def test_a_panic_in_the_core_is_an_internal_error_of_that_input_and_the_run_goes_on(core_saying, tmp_path):
    from pathlib import Path

    from lparscope.inputs import collect
    from lparscope.pipeline import read_estate

    fake = core_saying(native_core.API)
    fake.attr_listing = _panics
    fake.Scanner = _panics
    with pytest.raises(native_core.NativeCoreError, match="native core failed: index out of bounds"):
        native_core.guarded(_panics)
    with pytest.raises(KeyboardInterrupt):  # anything else passes through
        native_core.guarded(lambda: (_ for _ in ()).throw(KeyboardInterrupt()))
    (tmp_path / "hmc1").mkdir()
    (tmp_path / "hmc1" / "util.txt").write_text(
        "hscroot@hmc1:~> lslparutil -r lpar -m f1\ntime=03/14/2024 10:00:00,lpar_name=a,lpar_id=1,capped_cycles=5\n")
    fixtures = Path(__file__).parent / "fixtures" / "nmon"
    nmon = sorted(fixtures.glob("*.nmon"))[0]
    (tmp_path / "aix1").mkdir()
    (tmp_path / "aix1" / nmon.name).write_bytes(nmon.read_bytes())
    estate, _ = read_estate(collect([str(tmp_path)]), workers=1)
    why = {s.path.split("/")[-1]: s.reason for s in estate.inputs}
    assert "internal error" in why["util.txt"] and "native core failed" in why["util.txt"]
    assert "internal error" in why[nmon.name] and "native core failed" in why[nmon.name]


def test_the_wheel_stable_abi_floor_matches_the_core_and_the_supported_pythons():
    """A wheel is tagged for CPython's stable ABI from one version on (setup.py); the core must be
    built for that ABI no later than that version (PyO3's abi3-pyXY feature, native/Cargo.toml),
    and the version is the oldest Python lparscope supports (pyproject's requires-python): a wheel
    tagged later would refuse Pythons the project supports, earlier would install where it is not
    tested."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    wheel = re.search(r'"py_limited_api":\s*"cp3(\d+)"', (root / "setup.py").read_text(encoding="utf-8"))
    core = re.search(r'"abi3-py3(\d+)"', (root / "native" / "Cargo.toml").read_text(encoding="utf-8"))
    floor = re.search(r'requires-python\s*=\s*">=3\.(\d+)"', (root / "pyproject.toml").read_text(encoding="utf-8"))
    assert wheel and core and floor
    assert int(core.group(1)) <= int(wheel.group(1)) == int(floor.group(1))
