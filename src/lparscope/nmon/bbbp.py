"""The command outputs nmon embeds in its BBBP lines, as clean text per command.

topas_nmon / nmon run configuration commands at start (and some again at the end, as
``ending <command>``) and store each output line as a quoted CSV field::

    BBBP,113,lparstat -i
    BBBP,114,lparstat -i,"Node Name                                  : aixlpar"
    BBBP,119,lparstat -i,"Entitled Capacity                          : 1.30"
    BBBP,283,vmo -F -L
    BBBP,286,vmo -F -L,"n-------------------------------------------------------------------------------"

:func:`bbbp_outputs` gives ``[("lparstat -i", 314, "Node Name  : aixlpar\\n...")]``: the command,
the file line of its first output line, and the output with nmon's quoting removed, one output
line per text line (so output line k sits at file line ``first + k - 1``). nmon writes a
leading ``-`` or ``=`` (a formula in a spreadsheet) as ``n`` / ``e``: those are restored.
"""

from __future__ import annotations

import re

_SEPARATOR_FIX = re.compile(r"^(?:n(-{5,})|e(={5,}))(\s*)$")


def _clean(text: str) -> str:
    t = text.rstrip("\r")
    if len(t) >= 2 and t[0] == '"' and t[-1] == '"':
        t = t[1:-1]
    elif t.startswith('"'):
        t = t[1:]
    m = _SEPARATOR_FIX.match(t)
    if m:
        t = ("-" + m.group(1)) if m.group(1) else ("=" + m.group(2))
        t += m.group(3)
    return t


def bbbp_outputs(lines: list[tuple[int, str]]) -> list[tuple[str, int, str]]:
    """(command, first output line, output text) per command, from (line number, BBBP line) pairs."""
    out: list[tuple[str, int, str]] = []
    command: str | None = None
    first = 0
    body: list[str] = []

    def flush() -> None:
        if command is not None:
            out.append((command, first, "\n".join(body)))

    for line_no, raw in lines:
        parts = raw.split(",", 3)
        if len(parts) < 3 or parts[0] != "BBBP":
            continue
        cmd = parts[2].strip()
        if len(parts) == 3:  # "BBBP,113,lparstat -i": a new command starts
            flush()
            command, first, body = cmd, line_no + 1, []
            continue
        if cmd != command:  # output without its opening line
            flush()
            command, first, body = cmd, line_no, []
        body.append(_clean(parts[3]))
    flush()
    return out
