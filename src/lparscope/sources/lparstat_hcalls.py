"""Hypervisor calls made by the partition: AIX ``lparstat -H [interval [count]]``.

Input (one row per hypervisor call; a second header line wraps the column names)::

    # lparstat -H 5 1

    System configuration: type=Shared mode=Uncapped smt=4 lcpu=16 mem=32768MB psize=12 ent=2.00

               Detailed information on Hypervisor Calls

    Hypervisor                  Number of    %Total Time   %Hypervisor   Avg Call    Max Call
      Call                        Calls         Spent      Time Spent    Time(ns)    Time(ns)

    remove                         41032            0.0           1.1        780        9810
    cede                          990412            4.7          91.2      14830     1250012

Output: the configuration line as a ``lparstat.LparstatConfig`` and one
:class:`HypervisorCall` per row::

    HypervisorCall(name="cede", calls=990412, total_time_pct=4.7, hypervisor_time_pct=91.2,
                   avg_call_ns=14830, max_call_ns=1250012, line=11)

With an interval and a count each report follows the previous one; ``report`` numbers them from 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..numbers import whole
from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head, to_float
from .lparstat_stats import _CONFIG_RE, _config

KIND = "lparstat-H"
TITLE = "lparstat -H"
COMMANDS = [r"^lparstat\b.*\s-[A-Za-z]*H"]
STARTS = re.compile(r"^\s*Detailed information on Hypervisor Calls\s*$")

_TITLE = STARTS
_HEAD1 = re.compile(r"^\s*Hypervisor\s+Number of\s+%Total Time\b")
_HEAD2 = re.compile(r"^\s*Call\s+Calls\s+Spent\b")
_RULE = re.compile(r"^n?-{10,}$")  # nmon's BBBP copy ends the report with "n----..."
_ROW = re.compile(r"^\s*(?P<name>[a-z_][\w-]*)\s+(?P<calls>\d+)\s+(?P<tot>[\d.,]+)\s+(?P<hyp>[\d.,]+)\s+(?P<avg>\d+)\s+(?P<max>\d+)\s*$")


@dataclass
class HypervisorCall:
    name: str
    calls: int
    total_time_pct: float | None  # share of the whole interval spent in this call
    hypervisor_time_pct: float | None  # share of the time spent in the hypervisor
    avg_call_ns: int
    max_call_ns: int
    report: int = 1
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if command_matches(prompt, COMMANDS):
        return 95
    if any(_TITLE.match(ln) or _HEAD1.match(ln) for ln in body[:8]):
        return 90
    return 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.user:
        out.hostname = prompt.host
    report = 0
    for idx in range(start, len(lines)):
        lineno = idx + 1
        s = lines[idx].strip()
        if not s or _HEAD2.match(s) or _RULE.match(s) or is_bare_prompt(s):
            continue
        cm = _CONFIG_RE.match(s)
        if cm:
            out.records.append(_config(cm.group("body"), lineno))
            continue
        if _TITLE.match(s) or _HEAD1.match(s):
            if _TITLE.match(s) or report == 0:
                report += 1
            continue
        rm = _ROW.match(s)
        if rm:
            calls, avg, mx = whole(rm.group("calls")), whole(rm.group("avg")), whole(rm.group("max"))
            if calls is None or avg is None or mx is None:
                out.warn(lineno, f"hypervisor call row {rm.group('name')!r} holds a number of over 40 digits: not read")
                continue
            out.records.append(HypervisorCall(
                rm.group("name"), calls, to_float(rm.group("tot")), to_float(rm.group("hyp")),
                avg, mx, max(report, 1), lineno, {"calls": lineno}))
            continue
        out.warn(lineno, f"not a hypervisor call row: {s[:60]!r}")
    return out
