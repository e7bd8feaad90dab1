"""Hypervisor paging of a shared-memory partition: AIX ``vmstat -h [interval [count]]``.

Input (Active Memory Sharing adds the ``hypv-page`` columns; the header says ``mmode=shared``
and the pool size ``mpsz``)::

    # vmstat -h 2 2

    System configuration: lcpu=8 mem=16384MB ent=1.00 mmode=shared mpsz=32.00GB

    kthr    memory              page              faults              cpu             hypv-page
    ----- ----------- ------------------------ ------------ ----------------------- -------------------------
     r  b   avm   fre  re  pi  po  fr   sr  cy  in   sy  cs us sy id wa    pc    ec   hpi  hpit   pmem   loan
     1  0 2103551 1602345   0   0   0   0    0   0  12  380 210  1  1 98  0  0.02   2.1    14    22   9.20   1.30
     2  0 2103560 1602290   0   0   0   0    0   0  15  402 230  2  1 97  0  0.03   2.9     0     0   9.20   1.30

Output: the configuration line as ``lparstat_stats.LparstatConfig`` (``mmode``, ``mpsz`` in
``values``) and one :class:`HypervisorPagingSample` per row, keyed by the printed column::

    HypervisorPagingSample(values={"r": 1.0, ..., "sy": 380.0, "cs": 210.0, "us": 1.0, "cpu_sy": 1.0, ...,
                                   "hpi": 14.0, "hpit": 22.0, "pmem": 9.2, "loan": 1.3}, line=8)

(a column name printed twice, ``sy`` of the faults and of the cpu group, is ``cpu_sy`` the second time).

``hpi`` counts hypervisor page-ins in the interval and ``hpit`` the milliseconds spent waiting
for them; ``pmem`` is the physical memory backing the partition and ``loan`` the memory it has
loaned to the hypervisor (both GB). A ``-`` is ``None``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import Parsed, command_matches, is_bare_prompt, output_head, preamble, to_float
from .lparstat_stats import _CONFIG_RE, _config

KIND = "vmstat-h"
TITLE = "vmstat -h"
COMMANDS = [r"^vmstat\b.*\s-[A-Za-z]*h"]
STARTS = re.compile(r"^\s*kthr\s+memory\s+page\s+faults\s+cpu\s+hypv-page\b")

_HEADER = re.compile(r"^\s*r\s+b\s+avm\s+fre\b.*\bhpi\s+hpit\b")
_GROUPS = re.compile(r"^\s*kthr\s+memory\b")
_DASHES = re.compile(r"^\s*-{2,}(?:\s+-{2,})*\s*$")


@dataclass
class HypervisorPagingSample:
    values: dict[str, float | None]
    line: int


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    header = any(_HEADER.match(ln) for ln in body[:12])
    if command_matches(prompt, COMMANDS) and header:
        return 95
    return 90 if header else 0


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
        if not s or _DASHES.match(s) or _GROUPS.match(s) or is_bare_prompt(s):
            continue
        cm = _CONFIG_RE.match(s)
        if cm:
            out.records.append(_config(cm.group("body"), lineno))
            continue
        if _HEADER.match(s):
            columns = []
            for c in s.split():  # "sy" is both a fault (system calls) and a cpu column
                columns.append(f"cpu_{c}" if c in columns else c)
            continue
        tokens = s.split()
        if columns is None or not all(t in ("-", "--") or to_float(t) is not None for t in tokens):
            out.warn(lineno, f"not a vmstat -h row: {s[:60]!r}")
            continue
        if len(tokens) != len(columns):
            out.warn(lineno, f"{len(tokens)} values for {len(columns)} columns")
            continue
        out.records.append(HypervisorPagingSample({c: (None if t in ("-", "--") else to_float(t))
                                                   for c, t in zip(columns, tokens)}, lineno))
    return out
