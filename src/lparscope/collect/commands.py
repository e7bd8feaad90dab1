"""What the collectors run: each target's command list as data, the allow-list, and the audit.

This module is the one place that decides what a collector script may run.

* ``ALLOWED`` maps each runner (``run``: a local AIX / VIOS command, ``runio``: a VIOS
  padmin command through ``ioscli``, ``hmc``: an HMC command over ssh) to the programs it
  may start and, for each program, the exact argument forms allowed (regular expressions
  matched against the whole argument string).
* ``FRAMEWORK`` lists the few helper programs the script itself uses (``date``, ``tar``,
  ``gzip`` ...), ``BUILTINS`` the shell built-ins.
* ``FORBIDDEN`` lists what changes a system (``chdev``, ``rmdev``, ``cfgmgr``, ``chhwres``,
  tunable commands with ``-p`` / ``-o x=y`` ...). Nothing in a generated script may match it.
* :func:`audit_script` checks a rendered script against all of the above; the renderers
  refuse to return a script that fails it, and the tests run it on every generated script.

The Linux target (Linux on Power partitions) runs its few commands through ``run`` too.

A :class:`Step` is one command of a collector: its argument vector (``{dev}`` stands for a
device name, ``{sys}`` for an HMC managed system, ``{interval}`` / ``{count}`` /
``{minutes}`` / ``{hours}`` for options), which devices it loops over, and when it runs.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

# --- one collector command -----------------------------------------------------------


@dataclass(frozen=True)
class Step:
    argv: tuple[str, ...]
    each: str | None = None  # device selector: "adapters", "ent", "fcs", "sea" ... (see generate.SELECTORS)
    when: str | None = None  # condition: "ame", "no_ame", "wpars", "amepat", "nmon"
    runner: str = "run"  # "run" (local), "runio" (VIOS ioscli), "hmc" (ssh to the HMC)
    limit: str = "cmd"  # "cmd": the per-command limit; "sample": interval*count + limit; "amepat"
    padmin: tuple[str, ...] | None = None  # VIOS: the ioscli form used when not root
    root_only: bool = False  # VIOS: skipped (and recorded) when not root and no padmin form


def _s(cmd: str, **kw: object) -> Step:
    return Step(tuple(cmd.split()), **kw)  # type: ignore[arg-type]


TUNABLE_CMDS = ("schedo", "vmo", "ioo", "no", "nfso")

# Commands common to AIX and VIOS (run as root on a VIOS, after oem_setup_env).
_BASE: list[Step] = [
    _s("lparstat -i", padmin=("lparstat", "-i")),
    _s("lparstat {interval} {count}", when="no_ame", limit="sample", padmin=("lparstat", "{interval}", "{count}")),
    _s("lparstat -c {interval} {count}", when="ame", limit="sample"),
    _s("oslevel -s"),
    _s("lsdev -C", padmin=("lsdev",)),
    _s("lsattr -El sys0", padmin=("lsdev", "-dev", "sys0", "-attr")),
    _s("lsattr -El mem0", padmin=("lsdev", "-dev", "mem0", "-attr")),
    _s("lsattr -El {dev}", each="devices", padmin=("lsdev", "-dev", "{dev}", "-attr")),
    _s("entstat -d {dev}", each="ent", root_only=True),
    _s("fcstat {dev}", each="fcs", padmin=("fcstat", "{dev}")),
    _s("netstat -v", root_only=True),
    _s("netstat -in", root_only=True),
    _s("netstat -s", root_only=True),
    _s("ifconfig -a", root_only=True),
    _s("vmstat -v", padmin=("vmstat", "-v")),
    _s("vmstat -s", padmin=("vmstat", "-s")),
    _s("vmstat -vc", when="ame"),
    _s("vmstat -sc", when="ame"),
    _s("vmstat -t {interval} {count}", limit="sample", root_only=True),
    _s("svmon -G", root_only=True),
    _s("iostat -D {interval} {count}", limit="sample", root_only=True),
    *[_s(f"{t} -a", root_only=True) for t in TUNABLE_CMDS],
    *[_s(f"{t} -L", root_only=True) for t in TUNABLE_CMDS],
    _s("lspv", padmin=("lspv",)),
    _s("lspath", padmin=("lspath",)),
    _s("lsmpio -ar", root_only=True),  # paths per FC adapter and target port (AIX 7.1 TL3 and later)
    _s("mount", root_only=True),
]

AIX_STEPS: list[Step] = [
    *_BASE,
    _s("lswpar"),
    _s("lswpar -L", when="wpars"),
    _s("lswpar -G", when="wpars"),
    _s("lswpar -D", when="wpars"),
    _s("amepat {minutes}", when="amepat", limit="amepat"),
    _s("nmon -f -T -s {nmon_interval} -c {nmon_count} -m {outdir}", when="nmon"),
]

VIOS_STEPS: list[Step] = [
    _s("ioslevel", runner="runio"),
    *_BASE,
    _s("odmget -q attribute=ha_mode PdAt", root_only=True),
    _s("lsattr -El vioslpm0", padmin=("lsdev", "-dev", "vioslpm0", "-attr")),  # LPM pseudo-device (LPM-05)
    _s("lsdev -virtual", runner="runio"),
    _s("lsmap -all", runner="runio"),
    _s("lsmap -all -npiv", runner="runio"),
    _s("lsmap -all -net", runner="runio"),
    _s("lsnports", runner="runio"),
    _s("lsvg -l rootvg", padmin=("lsvg", "-lv", "rootvg")),  # logical volumes of rootvg backing clients (VIOS-08)
    _s("entstat -all {dev}", each="sea", runner="runio"),
    _s("seastat -d {dev}", each="sea", runner="runio"),
    _s("vnicstat -b {dev}", each="vnicserver", root_only=True),
    _s("nmon -f -T -s {nmon_interval} -c {nmon_count} -m {outdir}", when="nmon", root_only=True),
]

# Linux on Power (RHEL, SLES, Ubuntu on PowerVM): powerpc-utils' lparstat and the kernel's lparcfg
# give the partition as lparstat -i does on AIX; the interval lparstat its physc and %entc.
LINUX_STEPS: list[Step] = [
    _s("uname -a"),  # the host name (and the kernel)
    _s("lparstat -i"),
    _s("lparstat {interval} {count}", limit="sample"),
    _s("cat /proc/ppc64/lparcfg"),  # the frame serial, partition id and the settings in hundredths
    _s("ifconfig -a"),
    _s("nmon -f -T -s {nmon_interval} -c {nmon_count} -m {outdir}", when="nmon"),
]

HMC_STEPS: list[Step] = [
    _s("lshmc -V", runner="hmc"),
    _s("lssyscfg -r sys", runner="hmc"),
    _s("lssyscfg -r sys -F name", runner="hmc"),
    *[_s(c, each="systems", runner="hmc", limit="cmd") for c in (
        "lssyscfg -r lpar -m {sys}",
        "lssyscfg -r prof -m {sys}",
        "lshwres -r proc -m {sys} --level sys",
        "lshwres -r proc -m {sys} --level lpar",
        "lshwres -r procpool -m {sys}",
        "lshwres -r mem -m {sys} --level sys",
        "lshwres -r mem -m {sys} --level lpar",
        "lshwres -r virtualio --rsubtype eth --level lpar -m {sys}",
        "lshwres -r virtualio --rsubtype scsi -m {sys}",
        "lshwres -r virtualio --rsubtype fc --level lpar -m {sys}",
        "lshwres -r virtualio --rsubtype vnic --level lpar -m {sys}",  # vNIC backing devices (NET-16); a message where none
        "lshwres -r io --rsubtype slot -m {sys}",
        "lshwres -r mempool -m {sys}",  # Active Memory Sharing (000 §3.3); an HMC message when the frame has none
        "lshwres -r mempool -m {sys} --rsubtype pgdev",
        "lshwres -r rspool -m {sys} --rsubtype rsdev",  # suspend/resume reserved storage (000 §3.10)
        "lslparutil -r config -m {sys}",
        "lslparutil -r sys -m {sys} -h {hours}",
        "lslparutil -r pool -m {sys} -h {hours}",
        "lslparutil -r lpar -m {sys} -h {hours}",
    )],
]

# --- the allow-list ------------------------------------------------------------------
# Arguments as they appear in the rendered script after shell word splitting:
# "$d" (a device), "$ms" (a managed system), "$OUTDIR", and plain numbers.

_N = r"\d+"
_DEV = r"\$d"
_SYS = r"\$ms"

ALLOWED: dict[str, dict[str, list[str]]] = {
    "run": {
        "lparstat": [r"-i", rf"(?:-c )?{_N} {_N}"],
        "oslevel": [r"-s"],
        "lsdev": [r"-C"],
        "lsattr": [r"-El (?:sys0|mem0|vioslpm0|\$d)"],
        "entstat": [rf"-d {_DEV}"],
        "fcstat": [_DEV],
        "netstat": [r"-v", r"-in", r"-s"],
        "vnicstat": [rf"-b {_DEV}"],
        "ifconfig": [r"-a"],
        "vmstat": [r"-v", r"-s", r"-vc", r"-sc", rf"-t {_N} {_N}"],
        "svmon": [r"-G"],
        "iostat": [rf"-D {_N} {_N}"],
        **{t: [r"-a", r"-L"] for t in TUNABLE_CMDS},
        "lspv": [r""],
        "lspath": [r""],
        "lsmpio": [r"-ar"],
        "mount": [r""],
        "lswpar": [r"", r"-L", r"-G", r"-D"],
        "amepat": [_N],
        "odmget": [r"-q attribute=ha_mode PdAt"],
        "lsvg": [r"-l rootvg"],
        "nmon": [rf"-f -T -s {_N} -c {_N} -m \$OUTDIR"],
        "uname": [r"-a"],
        "cat": [r"/proc/ppc64/lparcfg"],
    },
    "runio": {
        "ioslevel": [r""],
        "lparstat": [r"-i", rf"{_N} {_N}"],
        "lsdev": [r"", r"-virtual", rf"-dev (?:sys0|mem0|vioslpm0|{_DEV}) -attr"],
        "fcstat": [_DEV],
        "vmstat": [r"-v", r"-s"],
        "lspv": [r""],
        "lspath": [r""],
        "lsmap": [r"-all", r"-all -npiv", r"-all -net"],
        "lsnports": [r""],
        "lsvg": [r"-lv rootvg"],
        "entstat": [rf"-all {_DEV}"],
        "seastat": [rf"-d {_DEV}"],
    },
    "hmc": {
        "lshmc": [r"-V"],
        "lssyscfg": [r"-r sys", r"-r sys -F name", rf"-r (?:lpar|prof) -m {_SYS}"],
        "lshwres": [
            rf"-r (?:proc|mem) -m {_SYS} --level (?:sys|lpar)",
            rf"-r procpool -m {_SYS}",
            rf"-r virtualio --rsubtype (?:eth|fc|vnic) --level lpar -m {_SYS}",
            rf"-r virtualio --rsubtype scsi -m {_SYS}",
            rf"-r io --rsubtype slot -m {_SYS}",
            rf"-r mempool -m {_SYS}(?: --rsubtype pgdev)?",
            rf"-r rspool -m {_SYS} --rsubtype rsdev",
        ],
        "lslparutil": [rf"-r config -m {_SYS}", rf"-r (?:sys|pool|lpar) -m {_SYS} -h {_N}"],
    },
}
# runroot: a local command that needs root (VIOS); same allow-list as run.
ALLOWED["runroot"] = ALLOWED["run"]

RUNNERS = frozenset(ALLOWED)

# Helper programs the script itself runs (never on the collected system's configuration).
FRAMEWORK = frozenset(
    "awk cat date grep gzip hostname id mkdir pwd rm rmdir sed sleep ssh tar uname".split()
)
BUILTINS = frozenset(
    """[ : . break cd continue echo exit export kill printf read return set shift test trap true
    false umask unset wait typeset""".split()
)
_KEYWORDS = frozenset("if then else elif fi do done while until ! { } in".split())

# What changes a system. Matched against every line of a script, comments included.
FORBIDDEN: list[tuple[str, str]] = [
    (r"\b(?:chdev|rmdev|mkdev|cfgmgr|chhwres|chsyscfg|mksyscfg|rmsyscfg|chsysstate|chlparutil|chhmc)\b",
     "changes device or partition configuration"),
    (r"\b(?:odmadd|odmdelete|odmchange|odmcreate|odmdrop|savebase|bosboot|bootlist)\b", "changes the ODM or boot"),
    (r"\b(?:mkvdev|rmvdev|mkbdsp|rmbdsp|mkpath|rmpath|chpath|mktcpip|chtcpip|viosecure|optimizenet|updateios)\b",
     "changes VIOS configuration"),
    (r"\b(?:shutdown|reboot|halt|installp|emgr|chsec|chuser|mkuser|rmuser|passwd)\b", "changes the system"),
    (r"\b(?:mkfs|crfs|chfs|rmfs|mklv|chlv|rmlv|mkvg|chvg|extendvg|reducevg|varyonvg|varyoffvg|importvg|exportvg)\b",
     "changes storage"),
    (r"\b(?:mkwpar|chwpar|rmwpar|startwpar|stopwpar|startsrc|stopsrc|refresh|mkps|chps|swapoff|swapon)\b",
     "changes the system"),
    (r"\b(?:tunrestore|tundefault|tunsave|tunchange|raso|asoo)\b", "changes tunables"),
    (r"\b(?:schedo|vmo|ioo|no|nfso)\b[^\n|;]*\s-(?:[pdDrRy]\b|o\s*\S+=)", "changes a tunable"),
    (r"\bentstat\b[^\n]*\s-r\b|\bfcstat\b[^\n]*\s-[zZ]\b|\bseastat\b[^\n]*\s-c\b|\bnetstat\b[^\n]*\s-Z", "resets statistics"),
    (r"(?:^|[;&|(]\s*|\bthen\s+|\bdo\s+)(?:eval|exec|sudo|su|mv|cp|ln|chmod|chown|chgrp|dd|tee|crontab)\b",
     "not needed by a read-only collector"),
]
_FORBIDDEN_RE = [(re.compile(p), why) for p, why in FORBIDDEN]

# Where the script may write: only its own work folder / output folder (and discard to /dev/null).
_WRITE_OK = re.compile(r'^(?:"?\$(?:WORK|OUTDIR|ARCHIVE)\b|/dev/null$|&[12]$)')


def _strip_quotes(line: str) -> str:
    line = line.replace('"$@"', " __ARGS__ ")
    line = re.sub(r"\$\(\([^)]*\)\)", "V", line)  # $(( arithmetic ))
    line = re.sub(r"\$\{[^}]*\}", "V", line)
    line = re.sub(r'"(?:[^"\\]|\\.)*"', "Q", line)
    line = re.sub(r"'[^']*'", "Q", line)
    line = re.sub(r"(^|\s)#.*$", "", line)
    return re.sub(r"\d*(?:>>?|<)&?\s*[^\s;|&()]+", " ", line)  # redirections (checked apart)


def _redirect_targets(line: str) -> list[str]:
    """Targets of output redirections (``>``, ``>>``) outside quotes and comments."""
    targets: list[str] = []
    quote = ""
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            break
        elif c == ">":
            j = i + 1
            while j < n and line[j] in ">&| ":
                j += 1
            k = j
            q = ""
            while k < n and (q or not line[k].isspace()) and (q or line[k] not in ";)|&"):
                if q and line[k] == q:
                    q = ""
                elif not q and line[k] in "\"'":
                    q = line[k]
                k += 1
            target = line[j:k]
            if line[i + 1 : j].rstrip().endswith("&"):
                target = "&" + target
            targets.append(target)
            i = k
            continue
        i += 1
    return targets


def check_step(runner: str, argv: list[str]) -> str | None:
    """Why ``argv`` run through ``runner`` is not allowed, or None when it is."""
    if runner not in ALLOWED:
        return f"unknown runner {runner!r}"
    if not argv:
        return f"{runner}: no command"
    prog, args = argv[0], " ".join(argv[1:])
    forms = ALLOWED[runner].get(prog)
    if forms is None:
        return f"{runner}: program {prog!r} is not on the allow-list"
    if not any(re.fullmatch(f, args) for f in forms):
        return f"{runner}: '{prog} {args}' is not an allowed form of {prog}"
    return None


def _check_runner_line(raw: str) -> str | None:
    try:
        argv = shlex.split(raw, comments=True)
    except ValueError as exc:
        return f"cannot split: {exc}"
    if not argv or argv[0] not in RUNNERS:
        return "a runner call must stand on a line of its own"
    if len(argv) < 4:
        return f"{argv[0]}: expected FILE LIMIT COMMAND [ARG...]"
    return check_step(argv[0], argv[3:])


def audit_script(text: str) -> list[str]:
    """Every problem that keeps ``text`` from being provably read-only (empty list: it passes).

    Each line is checked for forbidden commands (comments included); each command word must
    be a runner whose command is on the allow-list, a script helper in ``FRAMEWORK``, a shell
    built-in or a function the script defines; output redirections must point into the
    output folder (``$WORK`` / ``$OUTDIR``) or ``/dev/null``.
    """
    problems: list[str] = []
    functions = set(re.findall(r"^\s*([A-Za-z_]\w*)\(\)", text, re.M))
    for no, raw in enumerate(text.splitlines(), 1):
        for rx, why in _FORBIDDEN_RE:
            if rx.search(raw):
                problems.append(f"line {no}: {why}: {raw.strip()}")
        for target in _redirect_targets(raw):
            if not _WRITE_OK.match(target):
                problems.append(f"line {no}: writes outside the output folder: {target}")
        if re.search(r'"[^"]*(?:\$\(|`)[^"]*"', raw):
            problems.append(f"line {no}: command substitution inside quotes (write it unquoted so it is audited)")
        line = _strip_quotes(raw)
        if re.match(r"^\s*[A-Za-z_]\w*\(\)", line):
            continue  # a function definition
        for part in re.split(r"\$\(|;|&&|\|\||\||&|\(|\)|`", line):
            words = part.split()
            while words and (words[0] in _KEYWORDS or re.match(r"^[A-Za-z_]\w*=", words[0])):
                words = words[1:]
            if not words or words[0] == "for":
                continue
            word = words[0]
            if word in RUNNERS:
                why = _check_runner_line(raw)
                if why:
                    problems.append(f"line {no}: {why}")
                continue
            if word == "__ARGS__":
                continue  # the runner executing a command line audited where it is called
            if word == "rm":
                if any(a.startswith("-") and "r" in a for a in words[1:]):
                    problems.append(f"line {no}: recursive rm")
                if not all(_WRITE_OK.match(a) for a in raw.split()[raw.split().index("rm") + 1:] if not a.startswith("-")):
                    problems.append(f"line {no}: rm outside the output folder")
                continue
            if word in FRAMEWORK or word in BUILTINS or word in functions:
                continue
            problems.append(f"line {no}: command {word!r} is neither on the allow-list nor a script helper")
    return problems


class UnsafeScript(ValueError):
    """A generated script failed :func:`audit_script` (a bug in the collector)."""
