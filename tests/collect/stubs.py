"""Stub AIX / VIOS / HMC commands for running collector scripts on a Linux test machine.

Each fixture under ``tests/fixtures/collect/HOST/`` is a captured output whose first line is
the prompt and command (``root@aix1:/ # lsattr -El hdisk0``). A stub program prints the body
of the fixture whose command matches how it was called; root prompts answer the plain command,
``padmin@`` prompts answer ``ioscli COMMAND`` and ``hscroot@`` prompts answer ``ssh ... COMMAND``.
A command without a fixture fails like a missing program (exit 127). Tests can make a command
fail (exit code, stderr) or hang.
"""

from __future__ import annotations

import re
import stat
from pathlib import Path

from lparscope.collect.commands import ALLOWED

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "collect"


def key(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "_", text).strip("_")


STUB = r"""#!/bin/sh
DATA='@@DATA@@'
prog=${0##*/}
k=$(printf '%s' "$prog $*" | tr -c 'A-Za-z0-9.' '_' | sed 's/__*/_/g; s/^_//; s/_$//')
if [ -f "$DATA/$k.hang" ]; then exec sleep 30; fi
if [ -f "$DATA/$k.err" ]; then command -p cat "$DATA/$k.err" >&2; fi
if [ -f "$DATA/$k.out" ]; then command -p cat "$DATA/$k.out"; fi
if [ -f "$DATA/$k.rc" ]; then exit $(command -p cat "$DATA/$k.rc"); fi
if [ -f "$DATA/$k.out" ]; then exit 0; fi
echo "ksh: $prog: stub has no output for: $prog $*" >&2
exit 127
"""

SSH = r"""#!/bin/sh
# ssh stub: skip options, take the destination, run the remote command through the stub data.
while [ $# -gt 0 ]; do
    case $1 in
        -O) exit 0 ;;
        -o|-p|-i|-l|-S) shift 2 ;;
        -*) shift ;;
        *) break ;;
    esac
done
shift
eval "set -- $*"
exec '@@BIN@@/hmc' "$@"
"""


def _fixture_entries(host_dir: Path) -> dict[str, str]:
    entries = {}
    for f in sorted(host_dir.iterdir()):
        first, _, body = f.read_text().partition("\n")
        m = re.match(r"^(?P<user>\w+)@[^ ]*\s*[#$>]\s+(?P<cmd>.*)$", first)
        assert m, f"{f}: first line must be a prompt"
        prefix = {"padmin": "ioscli ", "hscroot": "hmc "}.get(m.group("user"), "")
        entries[key(prefix + m.group("cmd"))] = body
    return entries


def make_stubs(tmp: Path, host: str, *, fail: dict[str, tuple[int, str]] | None = None,
               hang: set[str] | None = None, root: bool = True) -> Path:
    """A bin folder of stubs answering from ``tests/fixtures/collect/HOST``; returns it."""
    bin_dir, data = tmp / "bin", tmp / "stubdata"
    bin_dir.mkdir(parents=True)
    data.mkdir()
    for k, body in _fixture_entries(FIXTURES / host).items():
        (data / f"{k}.out").write_text(body)
    for cmd, (rc, err) in (fail or {}).items():
        (data / f"{key(cmd)}.rc").write_text(str(rc))
        (data / f"{key(cmd)}.err").write_text(err + "\n")
    for cmd in hang or set():
        (data / f"{key(cmd)}.hang").write_text("")
    (data / f"{key('hostname')}.out").write_text(host + "\n")
    (data / f"{key('id -u')}.out").write_text("0\n" if root else "100\n")
    (data / f"{key('id -un')}.out").write_text("root\n" if root else "padmin\n")
    programs = {p for runner in ALLOWED.values() for p in runner} | {"hostname", "id", "ioscli", "hmc"}
    for p in programs:
        _write_exec(bin_dir / p, STUB.replace("@@DATA@@", str(data)))
    _write_exec(bin_dir / "ssh", SSH.replace("@@BIN@@", str(bin_dir)))
    return bin_dir


def _write_exec(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
