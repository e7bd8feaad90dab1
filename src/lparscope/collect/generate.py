"""Render a collector script (AIX / VIOS: ksh on the system; HMC: sh on a workstation).

The script is built from the fixed text in :mod:`.framework` and the command lists in
:mod:`.commands`; the result is audited (:func:`.commands.audit_script`) before it is
returned, so a script that could change a system is never handed out.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from .. import __version__
from . import framework as fw
from .commands import AIX_STEPS, HMC_STEPS, LINUX_STEPS, VIOS_STEPS, Step, UnsafeScript, audit_script

TARGETS = ("aix", "vios", "hmc", "linux")

# Device selectors: shell expression listing the names, and how the plan describes them.
SELECTORS: dict[str, tuple[str, str]] = {
    "devices": ("$(devices '^(ent|en|hdisk|fcs|fscsi|vscsi)[0-9]+$')", "each ent, en, hdisk, fcs, fscsi, vscsi device"),
    "ent": ("$(devices '^ent[0-9]+$')", "each ent adapter"),
    "fcs": ("$(devices '^fcs[0-9]+$')", "each fcs adapter"),
    "sea": ("$(sea_devices)", "each Shared Ethernet Adapter"),
    "vnicserver": ("$(devices '^vnicserver[0-9]+$')", "each vNIC server"),
}
CONDITIONS: dict[str, tuple[str, str]] = {
    "ame": ("ame_on", "when Active Memory Expansion is on"),
    "no_ame": ("ame_on", "when Active Memory Expansion is off"),  # rendered as the else branch
    "wpars": ("wpars_exist", "when WPARs exist"),
}
# After these commands, remember the file they wrote (the helpers read it).
REMEMBER = {("lsdev", "-C"): "LSDEV", ("lsdev",): "LSDEV", ("lparstat", "-i"): "LPARSTAT_I", ("lswpar",): "LSWPAR"}


@dataclass
class Options:
    """What the user chose on the command line."""

    interval: int = 5  # seconds between samples (lparstat, vmstat, iostat)
    count: int = 12  # number of samples
    timeout: int = 120  # seconds allowed to each command
    amepat_minutes: int = 0  # 0: no amepat
    nmon: bool = False  # start an nmon recording in the output folder
    nmon_interval: int = 60
    nmon_count: int = 1440
    hours: int = 24  # HMC: lslparutil span
    hmc_user: str = "hscroot"
    hmc_host: str = ""


def _values(opt: Options) -> dict[str, str]:
    return {
        "{interval}": str(opt.interval), "{count}": str(opt.count), "{minutes}": str(opt.amepat_minutes),
        "{hours}": str(opt.hours), "{nmon_interval}": str(opt.nmon_interval), "{nmon_count}": str(opt.nmon_count),
        "{dev}": '"$d"', "{sys}": '"$ms"', "{outdir}": '"$OUTDIR"',
    }


def _word(token: str, opt: Options) -> str:
    vals = _values(opt)
    if token in vals:
        return vals[token]
    return shlex.quote(token)


def _file_name(argv: tuple[str, ...], opt: Options) -> str:
    vals = _values(opt)
    parts = []
    for t in argv:
        if t == "{dev}":
            parts.append("${d}")
        elif t == "{sys}":
            parts.append("${msf}")
        elif t == "{outdir}":
            parts.append("outdir")
        else:
            parts.append(re.sub(r"[^A-Za-z0-9.%]", "", vals.get(t, t).lstrip("-")))
    return "_".join(p for p in parts if p)


def _shown(argv: tuple[str, ...], opt: Options) -> str:
    names = {"{dev}": "DEVICE", "{sys}": "SYSTEM", "{outdir}": "OUTDIR"}
    vals = _values(opt)
    return " ".join(names.get(t) or vals.get(t, t) for t in argv)


def _limit(step: Step) -> str:
    return {"cmd": '"$LIMIT"', "sample": '"$SAMPLE_LIMIT"', "amepat": '"$AMEPAT_LIMIT"'}[step.limit]


def _call(runner: str, argv: tuple[str, ...], step: Step, opt: Options) -> str:
    words = " ".join(_word(t, opt) for t in argv)
    return f"{runner} {_file_name(argv, opt)} {_limit(step)} {words}"


def _calls(step: Step, target: str, opt: Options) -> list[str]:
    """The runner line(s) of one step, without loop or condition."""
    if target != "vios" or step.runner != "run":
        return [_call(step.runner, step.argv, step, opt)]
    if step.padmin:
        return ["if [ \"$ROOT\" = yes ]; then",
                "    " + _call("run", step.argv, step, opt),
                "else",
                "    " + _call("runio", step.padmin, step, opt),
                "fi"]
    return [_call("runroot", step.argv, step, opt)]


def _enabled(step: Step, opt: Options) -> bool:
    if step.when == "amepat":
        return opt.amepat_minutes > 0
    if step.when == "nmon":
        return opt.nmon
    return True


def _step_lines(step: Step, target: str, opt: Options) -> list[str]:
    body = _calls(step, target, opt)
    remember = REMEMBER.get(step.argv)
    if remember:
        body.append(f"{remember}=$LAST")
    if step.each:
        if step.each == "systems":
            body = ["    " + ln for ln in body]
        else:
            body = [f"for d in {SELECTORS[step.each][0]}; do"] + ["    " + ln for ln in body] + ["done"]
    if step.when == "no_ame":  # no "if !": ksh88 lacks it
        body = ["if ame_on; then", "    :", "else"] + ["    " + ln for ln in body] + ["fi"]
    elif step.when in CONDITIONS:
        body = [f"if {CONDITIONS[step.when][0]}; then"] + ["    " + ln for ln in body] + ["fi"]
    return body


def _plan(steps: list[Step], target: str, opt: Options) -> list[str]:
    out = []
    for step in steps:
        if not _enabled(step, opt):
            continue
        text = _shown(step.argv, opt)
        notes = []
        if step.each and step.each in SELECTORS:
            notes.append(SELECTORS[step.each][1])
        if step.each == "systems":
            notes.append("each managed system")
        if step.when in CONDITIONS:
            notes.append(CONDITIONS[step.when][1])
        if target == "vios" and step.runner == "run" and step.padmin:
            notes.append("as padmin: " + _shown(step.padmin, opt))
        elif target == "vios" and step.runner == "runio":
            notes.append("through ioscli")
        elif target == "vios":
            notes.append("root only")
        line = text + (f"   ({'; '.join(notes)})" if notes else "")
        out.append(f'echo "    {line}"')
    return out


def _disabled_notes(steps: list[Step], opt: Options) -> list[str]:
    notes = []
    for step in steps:
        if step.when == "amepat" and not _enabled(step, opt):
            notes.append("# amepat is not run (it samples for minutes): generate with --amepat-minutes N to add it.")
        if step.when == "nmon" and not _enabled(step, opt):
            notes.append("# No nmon recording is started: generate with --nmon to add one.")
    return notes


_HOWTO = {
    "aix": ["#   As root (or any user: some commands then fail and are recorded):",
            "#       ksh lparscope-aix.ksh [OUTDIR]        (OUTDIR: default the current folder)"],
    "vios": ["#   padmin's restricted shell cannot run scripts or redirect output, so",
             "#   run it as root:  oem_setup_env  then  ksh /home/padmin/lparscope-vios.ksh [OUTDIR]",
             "#   Padmin commands (lsmap, ioslevel, seastat ...) go through /usr/ios/cli/ioscli.",
             "#   Run by a user other than root, it uses the padmin forms where they exist and",
             "#   records the root-only commands as skipped."],
    "linux": ["#   As root on the partition (lparstat needs powerpc-utils; a command that is",
              "#   missing or refused is recorded and the collection goes on):",
              "#       sh lparscope-linux.sh [OUTDIR]        (OUTDIR: default the current folder)"],
    "hmc": ["#   On your workstation (Linux, macOS, AIX), not on the HMC (its restricted shell",
            "#   runs no scripts). It calls  ssh HMCUSER@HMC \"command\"  for every command:",
            "#       sh lparscope-hmc.sh HMC_HOST [OUTDIR]       (user: HMCUSER=hscroot by default)",
            "#   Password logins work (one ssh connection is reused); ssh keys avoid the prompt."],
}
_TITLES = {"aix": "AIX 6.1 - 7.3", "vios": "VIOS (PowerVM Virtual I/O Server)", "hmc": "the HMC (run from a workstation over ssh)",
           "linux": "Linux on Power (a PowerVM partition)"}


def _settings(target: str, opt: Options) -> str:
    lines = []
    if target in ("aix", "vios"):
        lines.append(f"AMEPAT_LIMIT={opt.amepat_minutes * 60 + opt.timeout}     # seconds allowed to amepat")
    if target == "hmc":
        lines.append(f"HMCUSER=${{HMCUSER:-{opt.hmc_user}}}   # the HMC user")
    return "\n".join(lines)


def render(target: str, opt: Options | None = None) -> str:
    """The collector script for ``target`` ("aix", "vios" or "hmc"), audited read-only."""
    opt = opt or Options()
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r} (choose from {', '.join(TARGETS)})")
    steps = {"aix": AIX_STEPS, "vios": VIOS_STEPS, "hmc": HMC_STEPS, "linux": LINUX_STEPS}[target]
    header = (fw.HEADER.replace("@@SHELL@@", "/bin/sh" if target in ("hmc", "linux") else "/usr/bin/ksh")
              .replace("@@TITLE@@", _TITLES[target]).replace("@@VERSION@@", __version__)
              .replace("@@HOWTO@@", "\n".join(_HOWTO[target]))
              .replace("@@TIMEOUT@@", str(opt.timeout))
              .replace("@@SAMPLE_LIMIT@@", str(opt.interval * opt.count + opt.timeout))
              .replace("@@EXTRA_SETTINGS@@", _settings(target, opt)))
    parts = [header, fw.HELPERS]
    now = fw.NOW_SECONDS if target in ("aix", "vios") else fw.NOW_DATE  # (ksh there; any sh elsewhere)
    if target == "hmc":
        parts.append(fw.HMC_START.replace("@@HMC@@", opt.hmc_host).replace("@@NOW@@", now))
    else:
        parts.append(fw.LOCAL_RUNNERS.replace("@@NOW@@", now))
        parts.append(fw.LOCAL_START)
    parts.append("# --- what it will do -------------------------------------------------------------")
    parts.append("\n".join([
        f'echo "lparscope collector for {_TITLES[target]}"',
        'echo "  host:         $HOST"' if target != "hmc" else 'echo "  HMC:          $HMCUSER@$HMC (over ssh)"',
        'echo "  writes only:  $WORK/ (work folder, removed at the end)"',
        'echo "                $ARCHIVE (the archive)"',
        'echo "  time limit:   $LIMIT s per command, $SAMPLE_LIMIT s per sampling command"',
        'echo "  read-only commands it runs, in this order:"',
        *_plan(steps, target, opt),
        'echo ""',
    ]))
    parts.append(fw.MKWORK.replace("@@TARGET@@", target).replace("@@VERSION@@", __version__))
    parts.append("# --- THE COMMANDS ------------------------------------------------------------------")
    body: list[str] = _disabled_notes(steps, opt)
    in_systems = False
    for step in steps:
        if not _enabled(step, opt):
            continue
        if step.each == "systems" and not in_systems:
            body += ["# Each managed system listed by lssyscfg above:",
                     "if [ -n \"$SYSLIST\" ]; then",
                     "    sed 1d \"$WORK/$SYSLIST\" | grep -v -e '^HSCL' -e '^No results' -e '^ *$' > \"$WORK/.systems\"",
                     "else",
                     "    : > \"$WORK/.systems\"",
                     "fi",
                     "while IFS= read -r ms; do",
                     "    msf=$(echo \"$ms\" | sed 's/[^A-Za-z0-9._-]/_/g')"]
            in_systems = True
        if in_systems and step.each != "systems":
            body += ["done < \"$WORK/.systems\"", "rm -f \"$WORK/.systems\""]
            in_systems = False
        body += _step_lines(step, target, opt)
        if step.argv == ("lssyscfg", "-r", "sys", "-F", "name"):
            body.append("SYSLIST=$LAST")
    if in_systems:
        body += ["done < \"$WORK/.systems\"", "rm -f \"$WORK/.systems\""]
    if target == "hmc":
        body += ["# close the shared ssh connection", "hmc_ssh -O exit -- \"$HMCUSER@$HMC\" > /dev/null 2>&1"]
    parts.append("\n".join(body))
    parts.append(fw.FINISH)
    script = "\n".join(p.rstrip("\n") + "\n" for p in parts)
    problems = audit_script(script)
    if problems:
        raise UnsafeScript("generated script failed the read-only audit:\n" + "\n".join(problems))
    return script
