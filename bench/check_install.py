"""Manual check: the README's install builds the native nmon core with cargo, and works without it.

Each case is a fresh virtual environment in a temporary folder, installed with pip from this
source tree, then asked which nmon path it uses and made to read a small nmon recording:

- ``editable, cargo``: ``pip install -e .`` (the README's first command) with cargo on PATH ->
  the native core is built and used, and the sources are compiled to bytecode (setup.py's hook);
- ``normal, cargo``: ``pip install .`` with cargo on PATH -> the native core is built and used;
- ``normal, no cargo``: ``pip install .`` with every folder holding cargo or rustc removed from
  PATH (and CARGO/RUSTC unset) -> the install succeeds, lparscope works on the pure path and says
  so once;
- ``wheel``: ``pip wheel . -w wheelhouse`` with cargo on PATH -> one lparscope wheel for every
  CPython from 3.10 on (tag ``cp310-abi3``, the core as ``_nmon_native.abi3.so``) and the
  dependencies' wheels; then, without cargo on PATH, ``pip install --no-index --find-links
  wheelhouse lparscope`` into a new environment of the same Python (the air-gapped install of
  the README), and for each other ``python3.1x`` found on PATH the same wheel with that Python's
  dependencies fetched by the README's ``pip download`` line, installed offline too -> the native
  core is used in each.

It takes minutes (each install resolves the dependencies and may compile the Rust core), so it
is not part of the test suite::

    python bench/check_install.py [--case editable|normal|nocargo|wheel ...] [--python PATH ...]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NMON = """AAA,progname,topas_nmon
AAA,host,checkhost
BBBP,001,lparstat -i
CPU_ALL,CPU Total checkhost,User%,Sys%,Wait%,Idle%,Busy,PhysicalCPUs
ZZZZ,T0001,10:00:00,01-JAN-2024
CPU_ALL,T0001,10.0,5.0,0.0,85.0,,4
ZZZZ,T0002,10:01:00,01-JAN-2024
CPU_ALL,T0002,20.0,5.0,0.0,75.0,,4
"""
PROBE = ("import sys; from lparscope.nmon import native, read_nmon; "
         "rec = read_nmon(sys.argv[1]); "
         "print(native.available(), rec.tables['CPU_ALL'].column('User%').tolist())")


def _path_without_rust() -> str:
    keep = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not any((Path(d) / tool).exists() for tool in ("cargo", "rustc"))]
    return os.pathsep.join(keep)


def _env(cargo: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("VIRTUAL_ENV", None)
    if not cargo:
        env["PATH"] = _path_without_rust()
        for var in ("CARGO", "RUSTC", "CARGO_HOME", "RUSTUP_HOME"):
            env.pop(var, None)
    return env


def _copy_tree(tmp: str) -> Path:
    """A copy of the tree: an install leaves build files (and an editable one the core) in it."""
    src = Path(tmp) / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", "target", "build", "*.so",
                                                            "*.egg-info", ".git", "__pycache__"))
    return src


def _check(name: str, venv: Path, tmp: str, env: dict[str, str], native_expected: bool, took: float,
           compiled: bool = True) -> bool:
    """Read the small recording in ``venv`` (library and command line) and say how it went."""
    py = venv / "bin" / "python"
    nmon = Path(tmp) / "check.nmon"
    nmon.write_text(NMON)
    probe = subprocess.run([str(py), "-c", PROBE, str(nmon)], env=env, capture_output=True, text=True, cwd=tmp)
    exe = venv / "bin" / "lparscope"
    ana = subprocess.run([str(exe), "analyze", str(nmon), "-q"], env=env, capture_output=True, text=True, cwd=tmp)
    said = [line for line in ana.stderr.splitlines() if line.startswith("nmon read with")]
    native = probe.stdout.split(" ")[0] == "True"
    values_ok = probe.stdout.strip().endswith("[10.0, 20.0]")
    ok = (probe.returncode == 0 and values_ok and native == native_expected and ana.returncode == 0
          and len(said) == 1 and compiled)
    print(f"{'ok  ' if ok else 'FAIL'} {name}: install {took:.0f}s, native core {'used' if native else 'absent'}, "
          f"read {'ok' if values_ok else 'WRONG'}, analyze exit {ana.returncode}"
          f"{'' if compiled else ', sources NOT compiled to bytecode'}; says: {said[0] if said else '-'}")
    if not ok:
        print(probe.stdout, probe.stderr[-1500:], ana.stderr[-1500:])
    return ok


def run_case(name: str, editable: bool, cargo: bool) -> bool:
    env = _env(cargo)
    with tempfile.TemporaryDirectory(prefix="lparscope-install-") as tmp:
        venv = Path(tmp) / "venv"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        src = _copy_tree(tmp)
        cmd = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *(["-e"] if editable else []), str(src)]
        inst = subprocess.run(cmd, env=env, capture_output=True, text=True)
        took = time.perf_counter() - t0
        if inst.returncode != 0:
            print(f"FAIL {name}: pip exited {inst.returncode} after {took:.0f}s\n{inst.stderr[-2000:]}")
            return False
        compiled = not editable or any((src / "src" / "lparscope" / "__pycache__").glob("*.pyc"))
        return _check(name, venv, tmp, env, cargo, took, compiled)


def _other_pythons() -> list[str]:
    """``python3.1x`` commands on PATH (3.10 on) that are not this Python's version."""
    mine = f"python{sys.version_info.major}.{sys.version_info.minor}"
    found = []
    for minor in range(10, 20):
        name = f"python3.{minor}"
        if name != mine and shutil.which(name):
            ok = subprocess.run([name, "-c", "import venv"], capture_output=True).returncode == 0
            if ok:
                found.append(name)
    return found


def _platforms() -> list[str]:
    """pip download's --platform options for wheels this machine installs (Linux: manylinux2014 and
    plain, as the README gives them)."""
    import sysconfig

    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")  # linux_x86_64, macosx_14_0_arm64 ...
    if plat.startswith("linux_"):
        return ["--platform", f"manylinux2014_{plat[len('linux_'):]}", "--platform", plat]
    return ["--platform", plat]


def run_wheel_case(pythons: list[str] | None = None) -> bool:
    """The wheelhouse an air-gapped shop carries: built where cargo is, installed where it is not.
    ``pythons``: the other interpreters to install the wheel for (None: the ``python3.1x`` on PATH)."""
    with tempfile.TemporaryDirectory(prefix="lparscope-wheel-") as tmp:
        src = _copy_tree(tmp)
        house = Path(tmp) / "wheelhouse"
        t0 = time.perf_counter()
        built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", str(src), "-w", str(house)],
                               env=_env(True), capture_output=True, text=True)
        took = time.perf_counter() - t0
        ours = sorted(house.glob("lparscope-*.whl"))
        if built.returncode != 0 or len(ours) != 1:
            print(f"FAIL wheel: pip wheel exited {built.returncode} after {took:.0f}s, {len(ours)} lparscope wheel(s)\n"
                  f"{built.stderr[-2000:]}")
            return False
        import zipfile

        names = zipfile.ZipFile(ours[0]).namelist()
        abi3 = "-abi3-" in ours[0].name and "lparscope/_nmon_native.abi3.so" in names
        print(f"{'ok  ' if abi3 else 'FAIL'} wheel: built in {took:.0f}s: {ours[0].name}, "
              f"{len(list(house.glob('*.whl')))} wheels in the wheelhouse, "
              f"core {'as _nmon_native.abi3.so' if abi3 else 'NOT as an abi3 module'}")
        results = [abi3]
        env = _env(False)
        others = _other_pythons() if pythons is None else pythons
        if not others:
            print("note wheel: no other python3.1x on PATH (--python PATH names one): the wheel was tried on this Python only")
        for python in [sys.executable, *others]:
            venv = Path(tmp) / f"venv-{Path(python).name}"
            t0 = time.perf_counter()
            subprocess.run([python, "-m", "venv", str(venv)], check=True)
            pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
            version = subprocess.run([str(venv / "bin" / "python"), "-c", "import sys; print(sys.version.split()[0])"],
                                     capture_output=True, text=True).stdout.strip()
            folder = house
            if python != sys.executable:  # the README's pip download: that Python's dependencies beside the one wheel
                folder = Path(tmp) / f"wheelhouse-{version}"
                folder.mkdir()
                shutil.copy(ours[0], folder)
                fetched = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "-d", str(folder),
                                          "--only-binary=:all:", "--python-version", ".".join(version.split(".")[:2]),
                                          *_platforms(), str(folder / ours[0].name), "tomli"],
                                         capture_output=True, text=True)
                if fetched.returncode != 0:
                    print(f"FAIL pip download for Python {version}: exit {fetched.returncode}\n{fetched.stderr[-2000:]}")
                    results.append(False)
                    continue
            inst = subprocess.run([*pip, "--no-index", "--find-links", str(folder), "lparscope"], env=env,
                                  capture_output=True, text=True)
            took = time.perf_counter() - t0
            how = "wheelhouse of pip wheel" if folder == house else "the one wheel + pip download of its dependencies"
            name = f"wheel on Python {version} (offline: {how}; no cargo on PATH)"
            if inst.returncode != 0:
                print(f"FAIL {name}: pip exited {inst.returncode}\n{inst.stderr[-2000:]}")
                results.append(False)
                continue
            results.append(_check(name, venv, tmp, env, True, took))
        return all(results)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", action="append", choices=["editable", "normal", "nocargo", "wheel"])
    ap.add_argument("--python", action="append", metavar="PATH",
                    help="wheel case: another interpreter to install the wheel for (repeat; default: python3.1x on PATH)")
    args = ap.parse_args(argv)
    cases = args.case or ["editable", "normal", "nocargo", "wheel"]
    results = []
    for c in cases:
        if c == "editable":
            results.append(run_case("pip install -e . (cargo on PATH)", True, True))
        elif c == "normal":
            results.append(run_case("pip install . (cargo on PATH)", False, True))
        elif c == "nocargo":
            results.append(run_case("pip install . (no cargo on PATH)", False, False))
        else:
            results.append(run_wheel_case(args.python))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
