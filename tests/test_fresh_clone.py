"""The newcomer path: the README's test command passes in a fresh clone with no ../shared beside it.

Slow (a new virtual environment, the package and its test dependencies installed, the whole suite
run inside): it runs in CI (``CI`` set, as CI services do, or ``LPARSCOPE_SLOW_TESTS=1``, which
.ci/run sets) and is skipped otherwise. pip uses its cache; the only network it needs is PyPI.
The inner run sets ``LPARSCOPE_FRESH_CLONE_INNER`` so that it does not start this test again.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INNER = "LPARSCOPE_FRESH_CLONE_INNER"

pytestmark = [
    pytest.mark.skipif(bool(os.environ.get(INNER)), reason="inside the fresh-clone run itself"),
    pytest.mark.skipif(not (os.environ.get("CI") or os.environ.get("LPARSCOPE_SLOW_TESTS")),
                       reason="slow (minutes): runs in CI, or with LPARSCOPE_SLOW_TESTS=1"),
    pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                       reason="needs git and a git checkout of lparscope"),
]


def readme_test_command() -> str:
    """The second command of the README's quick start (the one that runs the tests)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)\n```", quick, re.S)
    (command,) = [b.strip() for b in blocks if "pytest" in b]
    return command


def test_readme_test_command_passes_in_a_fresh_clone(tmp_path: Path) -> None:
    command = readme_test_command()
    assert command.endswith("python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command in ci.splitlines(), ".ci/run must run exactly the README's test command"
    clone = tmp_path / "lparscope"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, timeout=300)
    assert not (tmp_path / "shared").exists()
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env[INNER] = "1"
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not os.environ.get("VIRTUAL_ENV") or not p.startswith(os.environ["VIRTUAL_ENV"]))
    env.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    env.setdefault("CARGO_NET_OFFLINE", "true")  # the optional native build uses cached crates or is skipped
    res = subprocess.run(["bash", "-c", command + " -p no:cacheprovider"], cwd=clone, env=env,
                         capture_output=True, text=True, timeout=3600)
    tail = "\n".join((res.stdout + res.stderr).splitlines()[-40:])
    assert res.returncode == 0, tail
    summary = res.stdout.strip().splitlines()[-1]  # "N passed, M skipped in S s"
    assert "passed" in summary and "failed" not in summary and "error" not in summary, tail
