"""Every prompt line of an output in one pass over its text (:func:`prompt_lines`).

:func:`lparscope.sources.base.parse_prompt` reads one line; the cutter and the entstat reader need
the prompts among all the lines of a file, where nearly no line is one. Looking at each line in
Python costs a call per line; here only the candidate lines are, found by C-speed searches.
"""

from __future__ import annotations

import re

from .prompt_line import _SIGILS, KNOWN_COMMANDS, Prompt, parse_prompt

# A line parse_prompt can accept holds a sigil, or starts (after blanks) with a banner character
# or a known command's name as a whole word. Sigils are found by str.find, line starts by a
# pattern anchored on the line end before them (a literal first character, which the regular
# expression engine looks for quickly; a pattern tried at every character reads 50 MB/s);
# the lookahead keeps the command names from being tried on lines that cannot start one. A snap
# section header starts with five dots (base.snap_header).
_LINE_START_CANDIDATE_RE = re.compile(
    r"\n(?:\.{5}|[^\S\n]*(?:[=*~\[-]|\./|(?=[a-z_])(?:" + "|".join(sorted(KNOWN_COMMANDS, key=len, reverse=True))
    + r")(?![a-z_])))")


def prompt_lines(lines: list[str]) -> list[tuple[int, Prompt]]:
    """(index, prompt) of every line of ``lines`` that :func:`parse_prompt` reads as a prompt, in order.

    The same answer as calling parse_prompt on each line, but only the few candidate lines are
    looked at one by one (an output of 100,000 lines has a handful)."""
    text = "\n" + "\n".join(lines)  # a line starts after each "\n" (its position is that line's start - 1)
    starts = [m.start() for m in _LINE_START_CANDIDATE_RE.finditer(text)]
    for sigil in (*_SIGILS, ":["):  # ":[": a prompt ending with its bracketed path (base._BRACKET_PATH_RE)
        at = text.find(sigil)
        while at >= 0:
            starts.append(at)
            at = text.find(sigil, at + 1)
    found: list[tuple[int, Prompt]] = []
    index, at, last = -1, 0, -1  # line index of the position ``at`` ("\n" before line 0: -1)
    for pos in sorted(starts):
        index += text.count("\n", at, pos + 1) if pos >= at else 0
        at = pos + 1
        if index != last:
            last = index
            p = parse_prompt(lines[index])
            if p is not None:
                found.append((index, p))
    return found


_COMMENT = re.compile(r"^\s*#")


def without_notes_above(lines: list[str], prompts: list[int]) -> list[str]:
    """The lines with the comments written right above a prompt line (``prompts``: their indexes)
    emptied: ``# show the disk's size`` over ``bootinfo -s hdisk2`` in an administrator's notes tells
    what the next command does and belongs to no output, least of all to the one above it. Emptied,
    not removed: line numbers stay the file's. A comment that is itself a prompt is never emptied."""
    out = lines
    cuts = set(prompts)
    for i in prompts:
        j = i - 1
        while j >= 0 and j not in cuts and _COMMENT.match(lines[j]):
            if out is lines:
                out = list(lines)
            out[j] = ""
            j -= 1
    return out
