"""Shell prompts, banners and snap section headers: the lines that name the command whose output
follows (:func:`parse_prompt`), read by the splitter (``detect.py``) and by every parser's preamble
(``base.preamble``). ``base`` re-exports what parsers import from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# --- shell prompts ------------------------------------------------------------------
# People paste outputs together with the prompt and command that produced them:
#   "# lsattr -El hdisk4", "$ lsdev -type disk", "root@aix1:/ # netstat -v ent0",
#   "[root@gibopvc1]/ # lsdev -Cc disk", "padmin@vios1:/home/padmin$ ioslevel".
# The prompt tells the command (and sometimes the host); the splitter keeps the
# command line as the first line of the segment so parsers can read it too.

KNOWN_COMMANDS = frozenset(
    """
    lsattr lsdev entstat netstat lparstat vmstat iostat schedo vmo ioo no nfso lsmap
    ioslevel oslevel odmget kdb lswpar ifconfig fcstat amepat seastat uname hostname
    lslpp chdev oem_setup_env cat echo lspv lsvg lscfg prtconf lsconf svmon lsps
    lssyscfg lshwres lsnports lspath mpstat topas nmon errpt instfix emgr lssrad lsmcode
    bootinfo lsmpio lsvpd lsps df mount exit iperf iperf3 ping ftp nfsstat
    lslparutil lshmc lssysconn lssvcevents lsfs vnicstat ioscli raso
    lssp lsrep lsvopt lstcpip lsfware errlog viosbr cluster lscluster lu pv tier failgrp
    ppc64_cpu lscpu lsslot bootlist sysdumpdev chfs emgr
    mkvg mklv extendlv rmlv chvg extendvg reducevg mirrorvg mkvdev rmvdev loadopt unloadopt
    mkvopt rmvopt mkrep cfgdev cfgmgr rmdev mkdev chps mkps chsp mkbdsp rmbdsp vfcmap
    chtcpip mktcpip updateios backupios lsvgl lssw lsgcl viosvrcmd sar datapath pcmpath manage_disk_drivers
    """.split()
)
# Commands typed through another program, read as the command itself: "ioscli lsmap -all", "sudo lparstat 1 5"
_IOSCLI = ("ioscli ", "/usr/ios/cli/ioscli ", "sudo ")

# Commands people also paste bare, without any option, on a line of their own.
_BARE_OK = frozenset("ioslevel oslevel lspv lswpar prtconf lsconf lsmcode lssrad lsvpd errpt df lsfs".split())
# Prompt lines are recognised in two steps, so no regular expression below has two
# quantifiers that can match the same characters (such patterns took minutes on one long
# line): the prompt sigil is the first ``#``, ``$`` or ``>`` of the line, and what stands in
# front of it is matched by small anchored patterns. Lines longer than a prompt can be are
# never prompts.
MAX_PROMPT_LINE = 4096
_SIGILS = "#$>"
_USER_HOST_RE = re.compile(r"(?P<user>[A-Za-z_][\w-]*)@(?P<host>[A-Za-z0-9][\w.-]*)")  # user@host:/path
# [user@host]/path, [user@host:~] (a path inside the brackets: the host holds no ":")
# and "[root@aix1 ~]", "[root@aix1 logs]" (bash's default: the working directory after a blank)
_BRACKET_RE = re.compile(r"\[(?P<user>[A-Za-z_][\w-]*)@(?P<host>[A-Za-z0-9][\w.-]*)(?::[^\]\s]*|[ \t]+[^\]\s]+)?\]")
_HOST_PATH_RE = re.compile(r"(?P<host>[A-Za-z0-9][\w.-]*):")  # host:/path
# "root on vios1:/>", a PS1 some sites set (user, the word "on", host:path)
_USER_ON_HOST_RE = re.compile(r"(?P<user>[A-Za-z_][\w-]*) on (?P<host>[A-Za-z0-9][\w.-]*):\S*$")
# The shell's own prompt ("bash-4.2#", "ksh$"): no host in it
_SHELL_RE = re.compile(r"(?:ba|k|z|c|tc)?sh(?:-[\d.]+)?$")
_WORD_HOST_RE = re.compile(r"[A-Za-z0-9][\w.-]*$")  # "aix1#", "powerha1#": the host alone
# "padmin@vios1:[/home/padmin]lsmap -all": a PS1 that ends with the bracketed path, no sigil
_BRACKET_PATH_RE = re.compile(r"[ \t]*(?P<user>[A-Za-z_][\w-]*)@(?P<host>[A-Za-z0-9][\w.-]*):\[[^\]\s]*\][ \t]*(?P<cmd>\S.*)")
# A monitoring agent's section line ("<<<aix_paging>>>", "<<<lparstat_aix:sep(58)>>>"): a new output follows
_AGENT_SECTION_RE = re.compile(r"<<<[\w:().= -]{1,80}>>>\s*$")
_EMPTY_USER_HOST_RE = re.compile(r"\[?[\w.-]+@[\w.-]")
_EMPTY_HOST_PATH_RE = re.compile(r"[\w.-]+:[/~]")
_PROGRAM_RE = re.compile(r"\s*([a-z_]+)")  # the first word of a line, after its leading blanks
# A prompt that is a path alone ("/#", "/home/padmin$": PS1 set to the working directory) or a
# bracketed word ("[console-expect]#", "[root@:/tmp]#", a test harness's or an empty host's)
_PATH_ALONE_RE = re.compile(r"[/~][\w./~-]{0,255}$")
_BRACKET_WORD_RE = re.compile(r"\[[^\]\s]{1,128}\]$")
# ssh options that take a value (OpenSSH): the destination is the first word after them
_SSH_VALUE_OPTIONS = frozenset("bcDEeFIiJLlmOopQRSWw")
# A password or passphrase request right after the command line (ssh, su, sudo)
_PASSWORD_RE = re.compile(r"[ \t]*(?:\S{1,128}'s |\[sudo\] )?(?:[Pp]assword(?: for \S{1,64})?|Enter passphrase for key '[^']{0,256}'):[ \t]*$")


@dataclass(frozen=True)
class Prompt:
    command: str  # the full command line, e.g. "lsattr -El hdisk4"
    host: str | None = None
    user: str | None = None

    @property
    def program(self) -> str:
        return self.command.split()[0].rsplit("/", 1)[-1] if self.command.split() else ""


def _has_space(text: str) -> bool:
    return len(text.split(None, 1)) > 1 or (bool(text) and text[0].isspace())


_SIGIL_RE = re.compile("[" + re.escape(_SIGILS) + "]")
_SIGIL_1, _SIGIL_2, _SIGIL_3 = _SIGILS  # each tested on its own where every line of a file passes


def _first_sigil(text: str) -> int:
    m = _SIGIL_RE.search(text)
    return m.start() if m is not None else -1


def is_bare_prompt(line: str) -> bool:
    """A prompt with nothing typed after it ("root@aix1:/ #", "$", "hscroot@hmc1:~>")."""
    if len(line) > MAX_PROMPT_LINE:
        return False
    s = line.strip()
    if not s or s[-1] not in _SIGILS:
        return False
    before = s[:-1].rstrip()
    if not before:
        return True
    if _has_space(before):
        return False
    return bool(_EMPTY_USER_HOST_RE.match(before) or _EMPTY_HOST_PATH_RE.match(before))


def _bare_command(line: str) -> Prompt | None:
    """A known command typed without its prompt ("lsattr -El hdisk2" on a line of its own; "./lparstat -E"
    run from the folder it was built in)."""
    if line.lstrip().startswith("./"):
        return _bare_command(line.lstrip()[2:])
    m = _PROGRAM_RE.match(line)  # ruled out before the line is copied: nearly every line of a file
    if not m or m.group(1) not in KNOWN_COMMANDS:
        return None
    s = line.strip()
    if "| |" in s:
        return None
    if m.group(1) == "ioscli":
        inner = _without_ioscli(s)
        return _bare_command(inner) if inner != s else None
    prog = m.group(1)
    rest = s[len(prog):]
    if not rest:
        return Prompt(command=prog) if prog in _BARE_OK else None
    options = rest.lstrip()
    if not rest[0].isspace() or len(options) < 2 or options[0] != "-" or options[1].isspace():
        return None
    return Prompt(command=s)


# Banner lines collection scripts print in front of each command's output:
#   "==== lsattr -El sys0 ====", "##### vmstat -v", "--- lsdev -Cc adapter ---", "*** mpstat -d ***",
#   ">>> lscfg -vp", "[lparstat -i]", "=== Command: lsattr -El ent0 ===", "##### Running: vmstat -s #####".
_BANNER_CHARS = "=#*>-~"
_BANNER_LABEL_RE = re.compile(r"(?i)(?:command|cmd|running|executing|output of|exec)\s*:?\s+")


def _banner_command(line: str) -> Prompt | None:
    """The command a banner line names, or None (checked without overlapping quantifiers)."""
    s = line.strip()
    if len(s) < 4:
        return None
    if s[0] == "[" and s[-1] == "]":
        inner = s[1:-1].strip()
    elif s[0] in _BANNER_CHARS and s[1] == s[0]:
        mark = s[0]
        inner = s.lstrip(mark).rstrip(mark + "<").strip()
    else:
        return None
    label = _BANNER_LABEL_RE.match(inner)
    if label:
        inner = inner[label.end():]
    words = inner.split(None, 1)
    if not words:
        return None
    if words[0].startswith("/"):
        inner = " ".join([words[0].rsplit("/", 1)[-1]] + words[1:])
    if inner.strip() in KNOWN_COMMANDS:
        return Prompt(command=inner.strip())  # a banner names even a command run without options
    return _bare_command(inner)


# A host's own name as a command prints it (hostname, uname, lsattr -El inet0's hostname attribute):
# letters, digits, dots, hyphens and underscores, at most 253 characters; letters of any script, as
# prompts take them (a Latin-1 box's s\xe9rveur1).
HOST_NAME_RE = re.compile(r"^[^\W_][\w.-]{0,252}$")


# The header AIX ``snap`` writes above each command it runs (general.snap, kernel.snap,
# tcpip.snap ...): five dots, blanks, the command line; a line of dots alone above and below it.
SNAP_RULE = "....."
_SNAP_HEADER_RE = re.compile(r"\.{5}[ \t]+([A-Za-z_/][\w./+-]*(?:[ \t].*)?)$")


def snap_header(line: str) -> Prompt | None:
    """The command of a snap section header (``.....    lsattr -El sys0``), whatever the command:
    the header says it is one, so an unknown command still ends the output above it."""
    m = _SNAP_HEADER_RE.match(line.rstrip())
    return Prompt(command=m.group(1).strip()) if m else None


def is_snap_rule(line: str) -> bool:
    """A line of dots alone, framing a snap section header (not part of any output)."""
    return line.startswith(SNAP_RULE) and not line.strip(". \t")


def parse_prompt(line: str) -> Prompt | None:
    """A shell prompt line with a command, or None.

    A bare ``#`` or ``$`` prompt counts only when the command is a known AIX / VIOS / HMC
    command, so comment lines (``# Thread queue ...``) are not mistaken for prompts.
    """
    if len(line) > MAX_PROMPT_LINE or not line or line.isspace():
        return None
    if line.startswith(SNAP_RULE):
        return snap_header(line)
    # No prompt sigil (the _SIGILS as substring tests: a character-class search steps through the
    # line) and no banner: only a command typed alone can be here.
    if _SIGIL_1 not in line and _SIGIL_2 not in line and _SIGIL_3 not in line and line.lstrip()[:1] not in "=*-~[":
        if ":[" in line and (m := _BRACKET_PATH_RE.match(line)) is not None:
            cmd = _without_ioscli(m.group("cmd").strip())
            if cmd.split()[0].rsplit("/", 1)[-1] in KNOWN_COMMANDS:
                return Prompt(command=cmd, host=m.group("host"), user=m.group("user"))
        return _bare_command(line)
    if is_bare_prompt(line) or _AGENT_SECTION_RE.match(line):
        return Prompt(command="")  # a prompt with nothing typed (or an agent's section line): ends the previous output
    s = line.lstrip()
    if s[:1] in "=#*>-~[" and s[:2] not in ("# ", "#\t", "> ", "$ "):
        banner = _banner_command(s)
        if banner is not None:
            return banner
    at = _first_sigil(s)
    after = s[at + 1:] if at >= 0 else ""
    cmd = _without_ioscli(after.strip())
    if at < 0 or not cmd:
        return _bare_command(line)
    # "aix1:/#lspv": no blank after the sigil, taken behind a user@host or host:path, or alone
    # when what follows reads as a known command typed alone
    tight = not after[:1].isspace()
    before = s[:at].rstrip()
    user = host = None
    named = False  # the text before the sigil names the user and host (user@host, user on host)
    if before:
        m = _USER_HOST_RE.match(before)
        b = _BRACKET_RE.match(before) if m is None else None
        if (m and not _has_space(before)) or (b and not _has_space(before[b.end():])):
            m = m or b
            user, host, named = m.group("user"), m.group("host"), True
        elif (m := _USER_ON_HOST_RE.match(before)) is not None:
            user, host, named = m.group("user"), m.group("host"), True
        elif _has_space(before):
            return _bare_command(line)
        elif (h := _HOST_PATH_RE.match(before)) is not None:
            host = h.group("host")
        elif _PATH_ALONE_RE.match(before) or _BRACKET_WORD_RE.match(before):
            pass  # "/# ioo -a", "[console-expect]#lshmc -V": no host in it
        elif tight:
            return _bare_command(line)
        elif _SHELL_RE.match(before):
            pass  # "bash-4.2# lspv"
        elif _WORD_HOST_RE.match(before):
            host = before  # "aix1# lspv"
        else:
            return _bare_command(line)
    elif tight:  # "#lsps -a": a known command written as it is typed alone, right after the sigil
        return _bare_command(cmd)
    remote = _remote_command(cmd)
    if remote is not None:  # "ssh hscroot@hmc1 lssyscfg -r sys": the output is the remote host's
        cmd, host, user = remote
        named = False
    first = cmd.split()[0].rsplit("/", 1)[-1]
    if first not in KNOWN_COMMANDS and not (named and not tight):
        return None
    return Prompt(command=cmd, host=host, user=user)


def _unquoted(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1].strip()
    return text


def _remote_command(cmd: str) -> tuple[str, str | None, str | None] | None:
    """The command a remote shell runs, with the host it runs on: ``ssh [options] [user@]host CMD``
    (``rsh``, ``remsh`` alike) or the HMC's ``viosvrcmd ... -c "CMD"`` (the VIOS is named by its
    partition, not its host name: no host). None when ``cmd`` runs nothing remotely."""
    words = cmd.split()
    if not words:
        return None
    prog = words[0].rsplit("/", 1)[-1]
    if prog == "viosvrcmd":
        for i, w in enumerate(words[:-1]):
            if w == "-c":
                inner = _unquoted(" ".join(words[i + 1:]))
                return (inner, None, None) if inner else None
        return None
    if prog not in ("ssh", "rsh", "remsh"):
        return None
    i = 1
    user = None
    while i < len(words) and words[i].startswith("-"):
        opt = words[i]
        if opt == "-l" and i + 1 < len(words):
            user = words[i + 1]
        if len(opt) == 2 and opt[1] in _SSH_VALUE_OPTIONS:
            i += 1  # "-p 22": the value is the next word
        i += 1
    if i + 1 >= len(words):
        return None  # a login, not a command
    dest = words[i]
    if "@" in dest:
        user, dest = dest.split("@", 1)
    inner = _unquoted(" ".join(words[i + 1:]))
    if not inner or not _WORD_HOST_RE.match(dest):
        return None
    return _without_ioscli(inner), dest, user


def _without_ioscli(cmd: str) -> str:
    """A command line without the VIOS ioscli program in front of it."""
    for lead in _IOSCLI:
        if cmd.startswith(lead):
            return cmd[len(lead):].lstrip()
    return cmd


def leading_prompt(lines: list[str]) -> tuple[Prompt | None, int]:
    """The prompt on the first non-blank line, and the index of the first output line."""
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        p = parse_prompt(line)
        if p is None:
            return None, i
        body = i + 1
        while body < len(lines) and _PASSWORD_RE.match(lines[body]):
            body += 1  # what ssh or su asked on the way ("Password:"): not output
        return p, body
    return None, len(lines)
