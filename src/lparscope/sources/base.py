"""Shared types for the parsers in :mod:`lparscope.sources`.

Every parser module in this package follows one contract:

* ``KIND``: a short, stable name for the input kind (``"lsattr"``, ``"entstat"`` ...).
* ``TITLE``: the command(s) whose output it reads, for status lines.
* ``COMMANDS``: regular expressions matched against a shell command line
  (``lsattr -El hdisk0``); used by the splitter when a prompt names the command.
* ``STARTS``: regular expression matching a line that opens this kind's output
  when no prompt line is present (the splitter cuts pasted outputs there).
* ``detect(text) -> int``: a confidence score 0..100 that ``text`` is this kind.
* ``parse(text) -> Parsed``: a pure function from text to typed records.

``parse`` never raises on bad input: malformed lines become :class:`ParseWarning`
entries carrying the 1-based line number inside ``text``. Callers add the offset
of the segment inside its file, so evidence points at the real file line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..numbers import LIMIT, check


@dataclass(frozen=True)
class ParseWarning:
    """A line the parser could not read, or read only in part."""

    line: int  # 1-based, relative to the text given to parse()
    message: str


@dataclass
class Parsed:
    """What a parser returns: typed records plus line-numbered warnings."""

    kind: str
    records: list[Any] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)
    hostname: str | None = None  # only when the content itself names the host

    def warn(self, line: int, message: str) -> None:
        self.warnings.append(ParseWarning(line, message))


# --- small helpers shared by parsers -------------------------------------------------

_NUM_RE = re.compile(r"^[-+]?\d+(?:[.,]\d+)?$")


def to_int(text: str | None) -> int | None:
    """Integer from decimal or 0x-hex text; None when it is not a number, or not a finite one
    within :data:`lparscope.numbers.LIMIT` (``inf``, ``1e308``, 300 digits: see :func:`number_problem`)."""
    if text is None:
        return None
    t = text.strip()
    if len(t) > 48:  # no count or identifier is this long: never handed to int()
        return None
    try:
        if t.lower().startswith("0x"):
            return int(t, 16)  # an address or identifier, not a measure: no range
        n = int(t)
        return n if abs(n) <= LIMIT else None
    except ValueError:
        f = to_float(t)
        return int(f) if f is not None and f.is_integer() else None


def to_float(text: str | None) -> float | None:
    """Float from text, accepting a comma decimal separator (some locales); None when it is not
    a finite number within :data:`lparscope.numbers.LIMIT`."""
    if text is None:
        return None
    t = text.strip().rstrip("%")
    if len(t) > 48 or not _NUM_RE.match(t):
        return None
    x = float(t.replace(",", "."))
    return x if abs(x) <= LIMIT else None


def number_problem(text: str | None) -> str | None:
    """Why a number-looking value was refused (for a line-numbered warning), or None."""
    return check(text)[1] if text is not None else None


def split_lines(text: str) -> list[str]:
    """Lines without their end-of-line characters (CRLF tolerant).

    The text split last is remembered: telling a file's kind asks every parser's ``detect``, and
    most begin by splitting the same text. Each call gets its own list (callers may change it)."""
    global _SPLIT_LAST
    last = _SPLIT_LAST
    if last[0] is not text:
        last = _SPLIT_LAST = (text, text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    return last[1].copy()


_SPLIT_LAST: tuple[str | None, list[str]] = (None, [])


# Terminal control sequences coloured logs carry: CSI (``ESC[1;32m``, ``ESC[m``, ``ESC[2K``), OSC
# titles (``ESC]0;title BEL``), character-set switches (``ESC(B`` of ``tput sgr0``), two-byte
# escapes (``ESC=``), and the shift-in/shift-out bytes some ``tput`` setups add (``ESC[m SI``).
_ANSI_RE = re.compile(r"\x1b\[[0-9;?<=>]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[()*+][0-9A-Za-z]"
                      r"|\x1b[=>78cDEHMNO]|[\x0e\x0f]")


def strip_ansi(text: str) -> str:
    """Remove terminal colour and control escapes (some community scripts add them). Never
    removes a line end, so line numbers stay those of the original file."""
    return _ANSI_RE.sub("", text) if ("\x1b" in text or "\x0e" in text or "\x0f" in text) else text


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
    lslparutil lshmc lssysconn lssvcevents lsfs vnicstat ioscli
    """.split()
)
# A VIOS command typed through the restricted shell's program: "ioscli lsmap -all" is "lsmap -all".
_IOSCLI = ("ioscli ", "/usr/ios/cli/ioscli ")

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
_BRACKET_RE = re.compile(r"\[(?P<user>[A-Za-z_][\w-]*)@(?P<host>[A-Za-z0-9][\w.-]*)(?::[^\]\s]*)?\]")
_HOST_PATH_RE = re.compile(r"(?P<host>[A-Za-z0-9][\w.-]*):")  # host:/path
# "root on vios1:/>", a PS1 some sites set (user, the word "on", host:path)
_USER_ON_HOST_RE = re.compile(r"(?P<user>[A-Za-z_][\w-]*) on (?P<host>[A-Za-z0-9][\w.-]*):\S*$")
# The shell's own prompt ("bash-4.2#", "ksh$"): no host in it
_SHELL_RE = re.compile(r"(?:ba|k|z|c|tc)?sh(?:-[\d.]+)?$")
_WORD_HOST_RE = re.compile(r"[A-Za-z0-9][\w.-]*$")  # "aix1#", "powerha1#": the host alone
# "padmin@vios1:[/home/padmin]lsmap -all": a PS1 that ends with the bracketed path, no sigil
_BRACKET_PATH_RE = re.compile(r"[ \t]*(?P<user>[A-Za-z_][\w-]*)@(?P<host>[A-Za-z0-9][\w.-]*):\[[^\]\s]*\][ \t]*(?P<cmd>\S.*)")
_EMPTY_USER_HOST_RE = re.compile(r"\[?[\w.-]+@[\w.-]")
_EMPTY_HOST_PATH_RE = re.compile(r"[\w.-]+:[/~]")
_PROGRAM_RE = re.compile(r"\s*([a-z_]+)")  # the first word of a line, after its leading blanks


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
    """A known command typed without its prompt ("lsattr -El hdisk2" on a line of its own)."""
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
# letters, digits, dots and hyphens, at most 253 characters.
HOST_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.-]{0,252}$")


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
    if is_bare_prompt(line):
        return Prompt(command="")  # a prompt with nothing typed: ends the previous output
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
    # "aix1:/#lspv": no blank after the sigil, taken only behind a user@host or host:path
    tight = not after[:1].isspace()
    before = s[:at].rstrip()
    user = host = None
    named = False  # the text before the sigil names the user and host (user@host, user on host)
    if before:
        m = _USER_HOST_RE.match(before) or _BRACKET_RE.match(before)
        if m and not _has_space(before):
            user, host, named = m.group("user"), m.group("host"), True
        elif (m := _USER_ON_HOST_RE.match(before)) is not None:
            user, host, named = m.group("user"), m.group("host"), True
        elif _has_space(before):
            return _bare_command(line)
        elif (h := _HOST_PATH_RE.match(before)) is not None:
            host = h.group("host")
        elif tight:
            return _bare_command(line)
        elif _SHELL_RE.match(before):
            pass  # "bash-4.2# lspv"
        elif _WORD_HOST_RE.match(before):
            host = before  # "aix1# lspv"
        else:
            return _bare_command(line)
    elif tight:
        return _bare_command(line)
    first = cmd.split()[0].rsplit("/", 1)[-1]
    if first not in KNOWN_COMMANDS and not (named and not tight):
        return None
    return Prompt(command=cmd, host=host, user=user)


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
        return (p, i + 1) if p else (None, i)
    return None, len(lines)


@dataclass(frozen=True)
class Preamble:
    """What every parser reads first: the lines, the prompt in front of the output, where the output starts."""

    lines: list[str]  # the whole text, ANSI colours removed, without line ends
    prompt: Prompt | None  # the prompt / command line in front of the output, if any
    body: int  # index in ``lines`` of the first output line

    @property
    def host(self) -> str | None:
        """The host the prompt names (``root@aix1:/ #``, ``aix1:/ #``), if any."""
        return self.prompt.host if self.prompt else None

    @property
    def command(self) -> str:
        return self.prompt.command if self.prompt else ""


def preamble(text: str) -> Preamble:
    """The one parse preamble: lines without colours, the leading prompt (host, command) and the body's start.

    Line numbers stay those of ``text`` (colour codes never span lines), so ``body + 1`` is the
    1-based line of the first output line.
    """
    lines = split_lines(strip_ansi(text))
    prompt, body = leading_prompt(lines)
    return Preamble(lines, prompt, body)


def head_text(text: str, lines: int) -> str:
    """The start of ``text`` holding at least its first ``lines`` lines, for a detect() that reads only
    those (a long output is not split whole; text with CR-only line ends is kept whole):
    ``split_lines(head_text(t, n))[:n] == split_lines(t)[:n]``."""
    end = -1
    for _ in range(lines):
        end = text.find("\n", end + 1)
        if end < 0:
            return text
    return text[:end]


def output_head(text: str, limit: int = 80) -> tuple[Prompt | None, list[str]]:
    """For detect(): the leading prompt and the non-blank output lines after it, within ``limit`` lines."""
    lines = [ln for ln in split_lines(strip_ansi(head_text(text, limit)))[:limit] if ln.strip()]
    prompt, start = leading_prompt(lines)
    return prompt, lines[start:]


def command_matches(prompt: Prompt | None, commands: list[str]) -> bool:
    """Whether a prompt's command line matches one of a parser's COMMANDS patterns."""
    return prompt is not None and any(re.search(p, prompt.command) for p in commands)


def is_prompt_left_over(line: str) -> bool:
    """A prompt left after an output (``root@aix1:/ #``, ``aix1:/home$``): one word holding
    ``@`` or ``:``, then the prompt sign, nothing typed. Checked without a pattern whose
    quantifiers overlap (``^\\S*[@:]\\S*\\s*[#$>]\\s*$`` took minutes on a line of colons)."""
    s = line.rstrip()
    if not s or s[-1] not in _SIGILS or line[0].isspace():
        return False
    word = s[:-1].rstrip()
    return bool(word) and len(word.split(None, 1)) == 1 and ("@" in word or ":" in word)


def starts_with_prompt(line: str) -> bool:
    """Whether a line opens with ``word[@:]word`` and a prompt sign (``root@aix1:/ # lparstat 1``)."""
    s = line.strip()
    if not s:
        return False
    word = s.split(None, 1)[0]
    at = min((i for i in (word.find("@"), word.find(":")) if i >= 0), default=-1)
    if at < 0:
        return False
    rest = s[len(word):].lstrip()
    return any(c in _SIGILS for c in word[at + 1:]) or rest[:1] in tuple(_SIGILS)
