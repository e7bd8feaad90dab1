"""NPIV-capable FC ports of a VIOS: ``lsnports`` (padmin).

Input::

    $ lsnports
    name             physloc                        fabric tports aports swwpns  awwpns
    fcs0             U5803.001.9SS99BC-P2-C6-T1          1     64     43   2048    1967
    fcs1             U5803.001.9SS99BC-P2-C6-T2          0     64     64   2048    2048

Output: one :class:`NpivPort` per port::

    NpivPort(name="fcs0", physloc="U5803.001.9SS99BC-P2-C6-T1", fabric=1, tports=64, aports=43,
             swwpns=2048, awwpns=1967, line=3)

``fabric`` is 1 when the switch port the FC port is cabled to supports NPIV (0: it does not, or
nothing answers); ``tports``/``aports`` the virtual ports the physical port supports / has free,
``swwpns``/``awwpns`` the WWPNs it supports / has free. Only ports that can do NPIV are listed.
Newer levels add a ``label`` column (the port's fabric label, or ``not_supported``), kept as
``label``; an upper-case header (a wrapper's) reads the same.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import Parsed, command_matches, output_head, preamble, starts_with_prompt, to_int

KIND = "lsnports"
TITLE = "lsnports"
COMMANDS = [r"^lsnports\b"]
STARTS = re.compile(r"^\s*name\s+physloc\s+fabric\s+tports\s+aports\b", re.I)

_HEADER_RE = STARTS
_ROW_RE = re.compile(r"^\s*(?P<name>fcs\d+)\s+(?P<physloc>\S+)\s+(?P<rest>\S.*)$")
_FIELDS = ("fabric", "tports", "aports", "swwpns", "awwpns")


@dataclass
class NpivPort:
    name: str
    physloc: str
    fabric: int | None  # 1: the switch port supports NPIV
    tports: int | None  # virtual ports the physical port supports
    aports: int | None  # of which free
    swwpns: int | None  # WWPNs it supports
    awwpns: int | None  # of which free
    line: int
    label: str | None = None  # the port label column of newer levels ("not_supported" where none)


def detect(text: str) -> int:
    prompt, body = output_head(text, 20)
    if prompt is not None and prompt.program == "lsnports":
        return 95
    if prompt is not None and command_matches(prompt, COMMANDS):
        return 95
    return 85 if any(_HEADER_RE.match(ln) for ln in body[:3]) else 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    if pre.prompt and pre.prompt.host:
        out.hostname = pre.prompt.host
    header = False
    for idx in range(pre.body, len(pre.lines)):
        lineno, line = idx + 1, pre.lines[idx]
        if not line.strip():
            continue
        if _HEADER_RE.match(line):
            header = True
            continue
        row = _ROW_RE.match(line) if header else None
        if row is None:
            if not (starts_with_prompt(line) or line.strip() in ("$", "#")):
                out.warn(lineno, f"not read: {line.strip()[:60]!r}")
            continue
        values = row.group("rest").split()
        label = values.pop() if len(values) == len(_FIELDS) + 1 and to_int(values[-1]) is None else None
        if len(values) != len(_FIELDS) or any(to_int(v) is None for v in values):
            out.warn(lineno, f"not a port row (name physloc fabric tports aports swwpns awwpns): {line.strip()[:60]!r}")
            continue
        out.records.append(NpivPort(row.group("name"), row.group("physloc"), *(to_int(v) for v in values),
                                    line=lineno, label=label))
    return out
