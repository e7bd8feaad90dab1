"""Stub AIX and HMC commands for running the generated scripts under ksh: they keep device
attributes, tunables and HMC values in files of a state folder and log every call."""

from __future__ import annotations

import os
import stat
from pathlib import Path

STUBS = {
    "hostname": 'cat "$STATE/hostname"\n',
    "lsattr": '''# lsattr -El DEV -a ATTR -F value
dev=$2; attr=$4
echo "lsattr $*" >> "$STATE/calls"
f="$STATE/dev.$dev.$attr"
[ -f "$f" ] || { echo "lsattr: no $dev $attr" >&2; exit 1; }
cat "$f"
''',
    "chdev": '''# chdev -l DEV -a ATTR=VALUE [-P]
echo "chdev $*" >> "$STATE/changes"
[ -f "$STATE/fail-chdev" ] && exit 1
dev=$2; kv=$4
case $kv in state=*) printf '%s\\n' "${kv#state=}" > "$STATE/dev.$dev.state"; exit 0 ;; esac
printf '%s\\n' "${kv#*=}" > "$STATE/dev.$dev.${kv%%=*}"
''',
    "schedo": '''echo "schedo $*" >> "$STATE/calls"
if [ "$1" = -p ]; then echo "schedo $*" >> "$STATE/changes"; kv=$3; printf '%s\\n' "${kv#*=}" > "$STATE/tun.schedo.${kv%%=*}"; exit 0; fi
printf '%s = %s\\n' "$2" "$(cat "$STATE/tun.schedo.$2")"
''',
    "ifconfig": 'cat "$STATE/ifconfig"\n',
    "netstat": 'cat "$STATE/netstat"\n',
    "ssh": '''# ssh -o BatchMode=yes -- HOST COMMAND: the command runs in a sub-shell like the HMC's
shift 3
echo "$2" >> "$STATE/ssh"
PATH="$STATE/hmcbin:$PATH" sh -c "$2"
''',
}

HMC_STUBS = {
    "lshwres": '''# lshwres -r RES -m FRAME --level lpar --filter lpar_names=L -F FIELD
cat "$STATE/hmc.$4.${8#lpar_names=}.${10}"
''',
    "lssyscfg": '''# lssyscfg -r prof -m FRAME --filter lpar_names=L,profile_names=P -F ATTR
f=${6#lpar_names=}; l=${f%%,*}
cat "$STATE/prof.$4.$l.$8"
''',
    "chhwres": '''# chhwres -m F -r RES -o a|r|s -p L FLAG VALUE
echo "chhwres $*" >> "$STATE/changes"
f=$2; res=$4; op=$6; l=$8; flag=$9; v=${10}
case $flag in
  --procunits) field=curr_proc_units ;; --procs) field=curr_procs ;; -q) field=curr_mem ;;
  -a) field=curr_${v%%=*}; printf '%s\\n' "${v#*=}" > "$STATE/hmc.$f.$l.$field"; exit 0 ;;
esac
old=$(cat "$STATE/hmc.$f.$l.$field")
awk -v o="$old" -v d="$v" -v op="$op" 'BEGIN { n = (op == "a") ? o + d : o - d; print n }' > "$STATE/hmc.$f.$l.$field"
''',
    "chsyscfg": '''# chsyscfg -r prof -m F -i name=P,lpar_name=L,ATTR=V
echo "chsyscfg $*" >> "$STATE/changes"
f=$4; spec=$6
rest=${spec#*lpar_name=}; l=${rest%%,*}
for kv in $(printf '%s' "${rest#*,}" | tr ',' ' '); do
  printf '%s\\n' "${kv#*=}" > "$STATE/prof.$f.$l.${kv%%=*}"
done
''',
}


def install(tmp: Path, host: str) -> tuple[Path, dict[str, str]]:
    """A bin folder of stubs and a state folder; returns (state, environment for subprocess)."""
    bin_dir, state = tmp / "bin", tmp / "state"
    hmc_bin = state / "hmcbin"
    for d in (bin_dir, state, hmc_bin):
        d.mkdir(parents=True, exist_ok=True)
    for folder, stubs in ((bin_dir, STUBS), (hmc_bin, HMC_STUBS)):
        for name, body in stubs.items():
            p = folder / name
            p.write_text("#!/bin/sh\n" + body)
            p.chmod(p.stat().st_mode | stat.S_IXUSR)
    (state / "hostname").write_text(host + "\n")
    (state / "ifconfig").write_text("lo0: flags=e08084b\n\tinet 127.0.0.1 netmask 0xff000000\n")
    (state / "netstat").write_text("Routing tables\nDestination Gateway Flags Refs Use If Exp Groups\n")
    for f in ("calls", "changes", "ssh"):
        (state / f).write_text("")
    env = {"PATH": f"{bin_dir}:{os.environ['PATH']}", "STATE": str(state), "HOME": str(tmp), "LANG": "C"}
    return state, env


def set_attr(state: Path, dev: str, attr: str, value: str) -> None:
    (state / f"dev.{dev}.{attr}").write_text(value + "\n")


def get_attr(state: Path, dev: str, attr: str) -> str:
    return (state / f"dev.{dev}.{attr}").read_text().strip()


def changes(state: Path) -> list[str]:
    return [line for line in (state / "changes").read_text().splitlines() if line]
