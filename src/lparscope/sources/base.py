"""Shared types for the parsers in :mod:`lparscope.sources`.

Every parser module in this package follows one contract:

* ``KIND``: a short, stable name for the input kind (``"lsattr"``, ``"entstat"`` ...).
* ``TITLE``: the command(s) whose output it reads, for status lines.
* ``COMMANDS``: regular expressions matched against a shell command line
  (``lsattr -El hdisk0``); used by the splitter when a prompt names the command.
* ``STARTS``: regular expression matching a line that opens this kind's output
  when no prompt line is present (the splitter cuts pasted outputs there).
* ``EMBEDS`` (optional): kinds whose ``STARTS`` lines are part of this kind's output.
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
    # why an output that gave no record was still read whole ("the HMC found nothing to list"): the
    # command answered that there is nothing, which is data, not an unreadable output
    empty: str = ""

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


# Shell prompts and the other lines that name a command (prompt_line.py), as parsers import them from here.
from .prompt_line import (  # noqa: E402,F401
    HOST_NAME_RE, KNOWN_COMMANDS, MAX_PROMPT_LINE, SNAP_RULE, Prompt, _SIGILS, is_bare_prompt, is_snap_rule, leading_prompt, parse_prompt, snap_header)


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
