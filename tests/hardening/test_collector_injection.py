"""The HMC collector under ksh with stub commands: nothing from a name reaches a shell as code.

Managed-system names holding $(...), backquotes, quotes, ; and | are sent single-quoted (the
stub ssh evaluates the remote command as the HMC's shell would: a wrong quote runs the
payload, which creates a marker file); an output folder with a space keeps the ssh options
whole; HMC / HMCUSER are validated by the script; system directories come first in PATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from lparscope.collect.generate import Options, render

from ..collect.stubs import key, make_stubs

KSH = shutil.which("ksh")
pytestmark = pytest.mark.skipif(KSH is None, reason="ksh not installed")


def _payloads(marker: Path) -> list[str]:
    m = str(marker)
    return [f"x$(touch {m}1)", f"y`touch {m}2`", f"it's;touch {m}3", f'q"uo|touch {m}4', f"z'$(touch {m}5)'"]


def _run(tmp_path: Path, args: list[str], env_extra: dict[str, str] | None = None, outdir: str = "out",
         names: list[str] | None = None, stub_system: bool = True) -> tuple[subprocess.CompletedProcess[str], Path]:
    bin_dir = make_stubs(tmp_path, "hmc1")
    if names is not None:
        data = tmp_path / "stubdata"
        (data / f"{key('hmc lssyscfg -r sys -F name')}.out").write_text("\n".join(names) + "\n")
    script = tmp_path / "collect-hmc.ksh"
    script.write_text(render("hmc", Options(timeout=5)))
    out = tmp_path / outdir
    out.mkdir()
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path), **(env_extra or {})}
    if stub_system:
        env["LPARSCOPE_SYSTEM_PATH"] = str(bin_dir)
    res = subprocess.run([KSH, str(script), *args, str(out)], capture_output=True, text=True, env=env, timeout=300,
                         cwd=tmp_path)
    return res, out


def test_system_names_are_single_quoted_for_the_hmc_shell(tmp_path: Path) -> None:
    marker = tmp_path / "PWNED"
    names = ["P10 Lab", *_payloads(marker)]
    res, out = _run(tmp_path, ["hmc1"], names=names, outdir="out dir")  # a space in the output folder too
    assert res.returncode == 0, res.stdout + res.stderr
    assert not list(tmp_path.glob("PWNED*")), "a payload in a managed-system name was run"
    assert len(list(out.glob("*.tar.gz"))) == 1
    shown = res.stdout
    for name in names:  # each name reached the HMC command whole (the stub has no output: exit 127)
        assert f"lssyscfg -r lpar -m {name}" in shown


@pytest.mark.parametrize("hmc,user", [("-oProxyCommand=touch PWNED", "hscroot"), ("hmc1;touch PWNED", "hscroot"),
                                      ("hmc1", "a;touch PWNED"), ("hmc1", "-l")])
def test_hmc_and_user_are_validated_by_the_script(tmp_path: Path, hmc: str, user: str) -> None:
    res, out = _run(tmp_path, [hmc], env_extra={"HMCUSER": user})
    assert res.returncode == 2 and "invalid HMC" in res.stderr
    assert not list(tmp_path.glob("PWNED*")) and not list(out.iterdir())


def test_system_directories_come_first_in_path(tmp_path: Path) -> None:
    evil = tmp_path / "evil"
    evil.mkdir()
    for prog in ("date", "sed", "grep", "tar"):
        (evil / prog).write_text(f"#!/bin/sh\ntouch {tmp_path}/PWNED_{prog}\nexit 1\n")
        os.chmod(evil / prog, 0o755)
    script = tmp_path / "collect-aix.ksh"
    script.write_text(render("aix", Options(timeout=2)))
    res = subprocess.run([KSH, str(script), str(tmp_path)], capture_output=True, text=True, timeout=300,
                         env={"PATH": f"{evil}:/usr/bin:/bin", "HOME": str(tmp_path)}, cwd=tmp_path)
    assert not list(tmp_path.glob("PWNED_*")), res.stdout + res.stderr
    assert "PATH=${LPARSCOPE_SYSTEM_PATH:-/usr/bin:/usr/sbin:/etc:/usr/ios/cli}:$PATH" in script.read_text()


def test_ssh_options_are_never_split_and_end_with_a_double_dash() -> None:
    text = render("hmc", Options())
    assert "$SSH_OPTS" not in text
    assert '-o "ControlPath=$SSH_CONTROL" "$@"' in text
    assert 'hmc_ssh -- "$HMCUSER@$HMC" "$_remote"' in text and 'hmc_ssh -O exit -- "$HMCUSER@$HMC"' in text
