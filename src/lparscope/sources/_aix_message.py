"""AIX numbered error messages a command prints instead of its output (shared by parsers).

AIX commands report failures as ``NNNN-NNN`` messages, sometimes with the command's name before
or after the number, and often wrapped over two lines::

    0516-1396 lspv: The physical volume hdisk1, was not found in the
    system database.
    lsvg: 0516-010 : Volume group must be varied on; use varyonvg command.

:func:`messages` finds them in the lines of an output and gives one ``(line, text)`` per message
(its wrapped lines joined), with the indexes of every line it took, so a parser warns once per
message and does not read its lines as rows.
"""

from __future__ import annotations

import re

# "0516-1396 : text", "0516-1396 lspv: text", "lspv: 0516-1396 text" (message numbers: 4 digits, 3 or 4)
_MESSAGE = re.compile(r"^\s*(?:[a-z][\w.-]{0,30}:\s*)?(?P<id>\d{4}-\d{3,4})(?:\s+[a-z][\w.-]{0,30})?\s*:?\s*(?P<text>.*?)\s*$")
_MAX_WRAPPED = 3  # continuation lines joined to one message at most


def is_message(line: str) -> bool:
    """Whether ``line`` opens an AIX numbered message (``0516-1396 ...``)."""
    return _MESSAGE.match(line) is not None


def messages(lines: list[str], start: int = 0) -> tuple[list[tuple[int, str]], set[int]]:
    """The numbered messages in ``lines[start:]``: ``[(1-based line, "0516-1396 The physical volume
    hdisk1, was not found in the system database.")]`` and the 0-based indexes of the lines they
    span. A message's text continues on the next lines until one ends with a full stop, a blank
    line or another message (at most three lines more)."""
    found: list[tuple[int, str]] = []
    taken: set[int] = set()
    idx = start
    while idx < len(lines):
        m = _MESSAGE.match(lines[idx])
        if m is None:
            idx += 1
            continue
        text, first = m.group("text"), idx
        taken.add(idx)
        idx += 1
        wrapped = 0
        while (idx < len(lines) and wrapped < _MAX_WRAPPED and lines[idx].strip() and not text.endswith(".")
               and not _MESSAGE.match(lines[idx]) and not lines[idx].strip().endswith(("#", "$", ">"))):
            text = f"{text} {lines[idx].strip()}".strip()
            taken.add(idx)
            idx += 1
            wrapped += 1
        found.append((first + 1, f"{m.group('id')} {text}".strip()))
    return found, taken
