"""Virtual memory and processor activity over intervals: AIX ``vmstat [-t] [-w] [-I] [-c] interval [count]``.

Input (the columns depend on the flags: ``-I`` adds ``p fi fo`` (``p w fi fo`` on some levels), ``-c`` the AME columns, ``-t`` a
time column; a micro-partition adds ``pc ec``)::

    # vmstat -t 5 3

    System configuration: lcpu=48 mem=65536MB ent=5.00

    kthr    memory              page              faults              cpu             time
    ----- ----------- ------------------------ ------------ ----------------------- --------
     r  b   avm   fre  re  pi  po  fr   sr  cy  in   sy  cs us sy id wa    pc    ec hr mi se
     8  0 5145092 23791   0   0   0 3538 3538   0  94 588634 29274 47 17 36  0  5.11 102.2 12:36:18
     7  0 5146175 23694   0  12   4  205  205   0  56 673851 6475 55  5 41  0  4.94  98.8 12:36:23

Output: one :class:`VmstatHeader` per "System configuration" line (or per column header when the
output has none), then one :class:`VmstatInterval` per report line, values keyed by column::

    VmstatHeader(values={"lcpu": "48", "mem": "65536MB", "ent": "5.00"}, lcpu=48, mem_mb=65536,
                 ent=5.0, interval_s=5.0, line=3)
    VmstatInterval(values={"r": 8.0, "b": 0.0, "avm": 5145092.0, ..., "syscalls": 588634.0, ...,
                   "sy": 17.0, "pc": 5.11, "ec": 102.2}, time="12:36:18", elapsed_s=0.0, line=7)

The faults group's ``sy`` (system calls per second) is ``syscalls``; the cpu group's ``sy`` stays
``sy`` (system time, %). ``pi``/``po`` are paging-space pages per second, ``avm``/``fre`` 4 KB pages.
``elapsed_s`` is the time since the output's first report: from the ``-t`` column (past midnight,
the day turns), else from the interval of the command line when the output shows it, else None.
Some AIX levels print the averages since boot as the first report: it is kept like the others.
``vmstat -v/-s/-h`` and the other one-shot reports are read by their own modules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import Parsed, command_matches, output_head, preamble, starts_with_prompt, to_float, to_int
from .lparstat_stats import _CONFIG_RE, _PAIR_RE, _mb  # the same "System configuration" line as lparstat's

KIND = "vmstat"
TITLE = "vmstat [-t] [-w] [-I] [-c] interval [count]"
# flags of the one-shot reports (-v -s -h -f -i -P -p -l alone ...) are other kinds; these keep the interval table
COMMANDS = [r"^vmstat(?:\s+-[twIWcl@]+|\s+-@\s*\S+|\s+hdisk\d+)*\s+\d+(?:\s+\d+)?\s*(?:[|>;&].*)?$"]
STARTS = re.compile(r"^\s*System configuration:\s*lcpu=|^\s*kthr\s+memory\s+page\b")

_HEADER_RE = re.compile(r"^\s*r\s+b\s+(?:p\s+)?(?:w\s+)?avm\s+fre\b")  # -I adds p (and on some levels w)
_GROUPS_RE = re.compile(r"^\s*kthr\s+memory\b")
_DASHES_RE = re.compile(r"^\s*-{2,}(?:\s+-{2,})*\s*$")
_TIME_RE = re.compile(r"^(\d{1,2}):(\d{2}):(\d{2})$")
# a `date` printed before the output (scripts often do): "Mon Mar  4 12:36:13 IST 2024"
_DATE_RE = re.compile(r"^\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s+[A-Z][a-z]{2}\s+\d{1,2}\s+\d{1,2}:\d{2}:\d{2}\s+(?:\S+\s+)?\d{4}\s*$")
_WPAR_RE = re.compile(r"^\s*WPAR configuration:")


@dataclass
class VmstatHeader:
    values: dict[str, str]  # the "System configuration" pairs as printed
    lcpu: int | None
    mem_mb: int | None
    ent: float | None  # entitled capacity (micro-partitions only)
    interval_s: float | None  # seconds between reports, from the command line when the output shows it
    line: int


@dataclass
class VmstatInterval:
    values: dict[str, float | None]
    time: str | None  # HH:MM:SS of the -t column
    elapsed_s: float | None  # seconds since the output's first report (None: not known)
    line: int


def _interval(command: str | None) -> float | None:
    """The interval of ``vmstat [flags] interval [count]``."""
    if not command:
        return None
    words = re.split(r"[|>;&]", command, maxsplit=1)[0].split()  # not what a pipe or redirection adds
    numbers = [w for w in words[1:] if w.isdigit()]
    if not numbers or words[0] != "vmstat":
        return None
    first = words.index(numbers[0])
    seconds = to_float(numbers[0])  # None beyond what a system reports
    return seconds if first >= len(words) - 2 and seconds and seconds <= 86400 else None


def _columns(line: str) -> list[str]:
    """The column names of a header line: the faults ``sy`` is ``syscalls``, ``hr mi se`` is ``time``."""
    names = line.split()
    if names[-3:] == ["hr", "mi", "se"]:
        names = names[:-3] + ["time"]
    for i in range(1, len(names)):
        if names[i] == "sy" and names[i - 1] == "in":
            names[i] = "syscalls"
            break
    return names


def detect(text: str) -> int:
    prompt, body = output_head(text, 60)
    if prompt is not None and prompt.program == "vmstat":
        return 95 if command_matches(prompt, COMMANDS) else 5
    if not any(_HEADER_RE.match(ln) for ln in body):
        return 0
    config = any(_CONFIG_RE.match(ln) and "lcpu=" in ln and "type=" not in ln for ln in body)
    return 85 if config else 75


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines = pre.lines
    if pre.prompt and pre.prompt.host:
        out.hostname = pre.prompt.host
    interval = _interval(pre.prompt.command if pre.prompt else None)
    columns: list[str] | None = None
    header: VmstatHeader | None = None
    first_secs: int | None = None  # time of day of the first report, seconds
    day = 0
    last_secs: int | None = None
    n_reports = 0
    for idx in range(pre.body, len(lines)):
        lineno = idx + 1
        line = lines[idx].rstrip()
        if not line.strip() or _DASHES_RE.match(line) or _GROUPS_RE.match(line) or _DATE_RE.match(line) \
                or _WPAR_RE.match(line):
            continue
        m = _CONFIG_RE.match(line)
        if m:
            values = {p.group("k"): p.group("v") for p in _PAIR_RE.finditer(m.group("body"))}
            header = VmstatHeader(values, to_int(values.get("lcpu")), _mb(values.get("mem")),
                                  to_float(values.get("ent")), interval, lineno)
            out.records.append(header)
            continue
        if _HEADER_RE.match(line):
            if header is None:  # no configuration line: the header still carries the interval
                header = VmstatHeader({}, None, None, None, interval, lineno)
                out.records.append(header)
            columns = _columns(line)
            continue
        tokens = line.split()
        if columns is None:
            if not (starts_with_prompt(line) or line.strip() in ("#", "$")):
                out.warn(lineno, f"no column header before: {line.strip()[:60]!r}")
            continue
        when = tokens[-1] if columns[-1] == "time" and tokens and _TIME_RE.match(tokens[-1]) else None
        numbers = tokens[:-1] if when else tokens
        named = columns[:-1] if columns[-1] == "time" else columns
        if not all(to_float(t) is not None or t == "-" for t in numbers):
            if not starts_with_prompt(line):
                out.warn(lineno, f"not a report line: {line.strip()[:60]!r}")
            continue
        if len(numbers) != len(named):
            out.warn(lineno, f"{len(numbers)} values for {len(named)} columns: not read")
            continue
        elapsed = None
        if when:
            h, mi, se = (int(x) for x in _TIME_RE.match(when).groups())  # type: ignore[union-attr]
            secs = h * 3600 + mi * 60 + se
            if last_secs is not None and secs < last_secs:
                day += 1  # past midnight
            last_secs = secs
            first_secs = secs if first_secs is None else first_secs
            elapsed = float(secs + day * 86400 - first_secs)
        elif interval is not None:
            elapsed = interval * n_reports
        n_reports += 1
        out.records.append(VmstatInterval({c: to_float(t) for c, t in zip(named, numbers)}, when, elapsed, lineno))
    return out
