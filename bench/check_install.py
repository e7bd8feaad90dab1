"""Manual check: the README's install builds the native nmon core with cargo, and works without it.

Each case is a fresh virtual environment in a temporary folder, installed with pip from this
source tree, then asked which nmon path it uses and made to read a small nmon recording:

- ``editable, cargo``: ``pip install -e .`` (the README's first command) with cargo on PATH ->
  the native core is built and used, and the sources are compiled to bytecode (setup.py's hook);
- ``normal, cargo``: ``pip install .`` with cargo on PATH -> the native core is built and used;
- ``normal, no cargo``: ``pip install .`` with every folder holding cargo or rustc removed from
  PATH (and CARGO/RUSTC unset) -> the install succeeds, lparscope works on the pure path and says
  so once.

It takes minutes (each install resolves the dependencies and may compile the Rust core), so it
is not part of the test suite::

    python bench/check_install.py [--case editable|normal|nocargo ...]
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


def run_case(name: str, editable: bool, cargo: bool) -> bool:
    env = dict(os.environ)
    env.pop("VIRTUAL_ENV", None)
    if not cargo:
        env["PATH"] = _path_without_rust()
        for var in ("CARGO", "RUSTC", "CARGO_HOME", "RUSTUP_HOME"):
            env.pop(var, None)
    with tempfile.TemporaryDirectory(prefix="lparscope-install-") as tmp:
        venv = Path(tmp) / "venv"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        py = venv / "bin" / "python"
        # a copy of the tree: an install leaves build files (and an editable one the core) in it
        src = Path(tmp) / "src"
        shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", "target", "build", "*.so",
                                                                "*.egg-info", ".git", "__pycache__"))
        cmd = [str(py), "-m", "pip", "install", "-q", *(["-e"] if editable else []), str(src)]
        inst = subprocess.run(cmd, env=env, capture_output=True, text=True)
        took = time.perf_counter() - t0
        if inst.returncode != 0:
            print(f"FAIL {name}: pip exited {inst.returncode} after {took:.0f}s\n{inst.stderr[-2000:]}")
            return False
        nmon = Path(tmp) / "check.nmon"
        nmon.write_text(NMON)
        probe = subprocess.run([str(py), "-c", PROBE, str(nmon)], env=env, capture_output=True, text=True,
                               cwd=tmp)
        exe = venv / "bin" / "lparscope"
        ana = subprocess.run([str(exe), "analyze", str(nmon), "-q"], env=env, capture_output=True, text=True,
                             cwd=tmp)
        said = [line for line in ana.stderr.splitlines() if "nmon recordings read with" in line]
        native = probe.stdout.split(" ")[0] == "True"
        values_ok = probe.stdout.strip().endswith("[10.0, 20.0]")
        compiled = not editable or any((src / "src" / "lparscope" / "__pycache__").glob("*.pyc"))
        ok = (probe.returncode == 0 and values_ok and native == cargo and ana.returncode == 0 and len(said) == 1
              and compiled)
        print(f"{'ok  ' if ok else 'FAIL'} {name}: install {took:.0f}s, native core {'built' if native else 'absent'}, "
              f"read {'ok' if values_ok else 'WRONG'}, analyze exit {ana.returncode}"
              f"{'' if compiled else ', sources NOT compiled to bytecode'}; says: {said[0] if said else '-'}")
        if not ok:
            print(probe.stdout, probe.stderr[-1500:], ana.stderr[-1500:])
        return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", action="append", choices=["editable", "normal", "nocargo"])
    args = ap.parse_args(argv)
    cases = args.case or ["editable", "normal", "nocargo"]
    results = []
    for c in cases:
        if c == "editable":
            results.append(run_case("pip install -e . (cargo on PATH)", True, True))
        elif c == "normal":
            results.append(run_case("pip install . (cargo on PATH)", False, True))
        else:
            results.append(run_case("pip install . (no cargo on PATH)", False, False))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
