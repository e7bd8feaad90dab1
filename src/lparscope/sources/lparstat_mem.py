"""Partition memory and I/O entitlement: AIX ``lparstat -m [-e] [interval [count]]``.

Input (dedicated or shared memory; with Active Memory Sharing the header says ``mmode=Shared``
and adds ``mpsz`` / ``iome`` / ``iomp``)::

    # lparstat -m 2 2

    System configuration: lcpu=16 mem=16384MB mpsz=32.00GB iome=512.00MB iomp=11 ent=1.50

    physb   hpi  hpit  pmem  iomin   iomu   iomf  iohwm iomaf %entc  vcsw
    ----- ----- ----- ----- ------ ------ ------ ------ ----- ----- -----
     1.42    12     4 14.20  334.0   22.8  311.2   24.1     0  18.3  2210
     1.10     0     0 14.20  334.0   22.9  311.1   24.1     0  14.0  1980

Output: the configuration line as ``lparstat.LparstatConfig`` (``values`` keeps ``mpsz``,
``iome``, ``iomp``) and one :class:`MemorySample` per row, keyed by the printed column::

    MemorySample(values={"physb": 1.42, "hpi": 12.0, "hpit": 4.0, "pmem": 14.2, "iomin": 334.0, ...,
                         "%entc": 18.3, "vcsw": 2210.0}, line=7)

``hpi``/``hpit`` are hypervisor page-ins and the time spent on them (AMS); ``iomaf`` counts
I/O memory entitlement allocation failures. A ``-`` is ``None``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head, to_float
from .lparstat_stats import _CONFIG_RE, _config

KIND = "lparstat-m"
TITLE = "lparstat -m"
COMMANDS = [r"^lparstat\b.*\s-[A-Za-z]*m"]
STARTS = re.compile(r"^\s*physb\s+hpi\s+hpit\b")

_HEADER = STARTS
_DASHES = re.compile(r"^\s*-{2,}(?:\s+-{2,})*\s*$")


@dataclass
class MemorySample:
    values: dict[str, float | None]
    line: int


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if command_matches(prompt, COMMANDS):
        return 95
    return 90 if any(_HEADER.match(ln) for ln in body[:6]) else 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.user:
        out.hostname = prompt.host
    columns: list[str] | None = None
    for idx in range(start, len(lines)):
        lineno = idx + 1
        s = lines[idx].strip()
        if not s or _DASHES.match(s) or is_bare_prompt(s):
            continue
        cm = _CONFIG_RE.match(s)
        if cm:
            out.records.append(_config(cm.group("body"), lineno))
            continue
        if _HEADER.match(s):
            columns = s.split()
            continue
        tokens = s.split()
        if columns is None or not all(t in ("-", "--") or to_float(t) is not None for t in tokens):
            out.warn(lineno, f"not a memory statistics row: {s[:60]!r}")
            continue
        if len(tokens) != len(columns):
            out.warn(lineno, f"{len(tokens)} values for {len(columns)} columns")
        out.records.append(MemorySample({c: (None if t in ("-", "--") else to_float(t)) for c, t in zip(columns, tokens)}, lineno))
    return out
