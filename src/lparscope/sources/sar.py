"""Processor use over intervals: AIX ``sar -u`` and ``sar -P ALL`` (also read back with ``-f``).

Input (``sar -P ALL``: a row per logical processor and interval, ``U`` the unused entitlement of a
shared partition, ``-`` the whole partition; the last block is ``Average``; ``sar -u`` has no
``cpu`` column and one row, the partition's, per interval; ``physc`` and ``%entc`` are printed for a
shared partition)::

    # sar -P ALL 5 2

    AIX aix1 3 7 00F6C1A24C00    11/20/26

    System configuration: lcpu=4 ent=0.50 mode=Uncapped

    10:00:01 cpu    %usr    %sys    %wio   %idle   physc   %entc
    10:00:06  0       61      12       0      27    0.31    62.0
              1        4       3       0      93    0.05    10.0
              U        -       -       0      28    0.14    28.0
              -       42      10       0      48    0.36    72.0
    10:00:11  0       70       9       0      21    0.34    68.0
              ...
    Average   -       44      10       0      46    0.37    74.0

Output: one :class:`SarHeader` for the ``AIX <host> ...`` line, one
:class:`~lparscope.sources.lparstat_stats.LparstatConfig` per ``System configuration`` line (the
pairs lparstat's header has: ``lcpu``, ``ent``, ``mode``; ``type`` is ``Shared`` when ``ent`` is printed,
which sar does for a shared partition only), and one :class:`SarRow` per row::

    SarHeader(host="aix1", release="7.3", machine_id="00F6C1A24C00", date="11/20/26", line=3)
    SarRow(time="10:00:06", cpu="0", values={"%usr": 61.0, ..., "physc": 0.31, "%entc": 62.0},
           elapsed_s=0.0, average=False, line=8)
    SarRow(time="10:00:06", cpu="-", values={...}, elapsed_s=0.0, average=False, line=11)   # .is_partition
    SarRow(time=None, cpu="-", values={...}, elapsed_s=None, average=True, line=17)

A row without a ``cpu`` column (``sar -u``) is the partition's (``cpu`` None). A row's time is the
one printed on it or, for the other rows of an interval, the one above it; ``elapsed_s`` counts from
the first interval (past midnight the day turns). ``-`` values are None. Other ``sar`` reports
(``-d``, ``-q``, ``-r`` ...) and Linux sysstat's ``sar`` are not read. ``Parsed.hostname`` is the host
the AIX line names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import Parsed, command_matches, is_bare_prompt, output_head, preamble, starts_with_prompt, to_float
from .lparstat_stats import _CONFIG_RE, _config

KIND = "sar"
TITLE = "sar -u / sar -P ALL"
# the processor reports only: a flag naming another report (-d disks, -q queues, -r paging ...) is not read here
COMMANDS = [r"^sar\b(?!.*\s-[A-Za-z@]*[abcdkmqrvwyABXx])"]
STARTS = re.compile(r"^\s*AIX\s+\S+\s+\d\s+\d\s+[0-9A-Fa-f]{8,12}\s+\d{1,2}/\d{1,2}/\d{2,4}\s*$")
EMBEDS = ("vmstat",)  # vmstat's "System configuration: lcpu=" start is sar's configuration line too

_TIME = re.compile(r"^(\d{1,2}):(\d{2}):(\d{2})$")
_CPU = re.compile(r"^(?:\*?\d+|-|U|R|all|ALL)$")
_COLUMNS = {"%usr", "%sys", "%wio", "%idle", "physc", "%entc"}


@dataclass
class SarHeader:
    host: str
    release: str  # "7.3" from the version and release fields
    machine_id: str
    date: str
    line: int


@dataclass(slots=True)  # many instances: no per-instance dict
class SarRow:
    time: str | None
    cpu: str | None  # a logical processor's number, "U", "-" (the partition), None (sar -u: the partition)
    values: dict[str, float | None]
    elapsed_s: float | None
    average: bool
    line: int

    @property
    def is_partition(self) -> bool:
        """The row of the whole partition: ``-`` (``all`` elsewhere), or a row of ``sar -u``."""
        return self.cpu in (None, "-", "all", "ALL")


def _header(tokens: list[str]) -> list[str] | None:
    """The column names of a header row (its time dropped), or None."""
    cols = tokens[1:] if tokens and _TIME.match(tokens[0]) else tokens
    return cols if "%usr" in cols and "%idle" in cols and sum(c in _COLUMNS for c in cols) >= 4 else None


def detect(text: str) -> int:
    prompt, body = output_head(text, 60)
    if prompt is not None and prompt.program == "sar":
        return 95 if command_matches(prompt, COMMANDS) else 5
    aix = any(STARTS.match(ln) for ln in body[:5])
    header = any(_header(ln.split()) for ln in body)
    if header:
        return 90 if aix else 70
    return 20 if aix else 0


_SYSSTAT = re.compile(r"^\s*Linux\s+\S+\s+\(\S+\)|\bCPU\s+%user\s+%nice\b")


def unreadable(text: str) -> str | None:
    """Linux sysstat's sar (``Linux 5.14.0 (lnx1) ...``, ``CPU %user %nice``): another format, not read."""
    _, body = output_head(text, 20)
    if any(_SYSSTAT.search(ln) for ln in body) and not any(_header(ln.split()) for ln in body):
        return "Linux sysstat sar output: only AIX sar -u / -P ALL is read"
    return None


def _seconds(time: str) -> int:
    m = _TIME.match(time)
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3)) if m else 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, start = pre.lines, pre.body
    out.hostname = pre.host
    columns: list[str] | None = None
    per_cpu = False
    time: str | None = None
    first: int | None = None  # seconds of the first interval
    days = 0
    last = -1
    average = False
    for idx in range(start, len(lines)):
        lineno, raw = idx + 1, lines[idx]
        s = raw.strip()
        if not s or is_bare_prompt(s):
            continue
        if STARTS.match(s):
            f = s.split()
            out.records.append(SarHeader(f[1], f"{f[3]}.{f[2]}", f[4], f[5], lineno))
            out.hostname = out.hostname or f[1]
            continue
        m = _CONFIG_RE.match(s)
        if m:
            cfg = _config(m.group("body"), lineno)
            if cfg.type is None and cfg.ent is not None:
                cfg.type = "Shared"  # sar prints ent= for a shared (micro-)partition only
            out.records.append(cfg)
            continue
        tokens = s.split()
        cols = _header(tokens)
        if cols is not None:
            per_cpu = cols[0] == "cpu"
            columns = cols[1:] if per_cpu else cols
            continue
        if columns is None:
            if not starts_with_prompt(s):
                out.warn(lineno, f"no column header before: {s[:60]!r}")
            continue
        if tokens[0] == "Average":
            average, time, tokens = True, None, tokens[1:]
        elif _TIME.match(tokens[0]):
            average, time, tokens = False, tokens[0], tokens[1:]
            now = _seconds(time)
            if last >= 0 and now < last:
                days += 1  # past midnight
            last = now
            first = now if first is None else first
        elif not raw[:1].isspace() and not per_cpu:
            out.warn(lineno, f"not a data row: {s[:60]!r}")
            continue
        cpu = None
        if per_cpu:
            if not tokens or not _CPU.match(tokens[0]):
                out.warn(lineno, f"not a processor row: {s[:60]!r}")
                continue
            cpu, tokens = tokens[0], tokens[1:]
        if not tokens or not all(t == "-" or to_float(t) is not None for t in tokens):
            out.warn(lineno, f"not a data row: {s[:60]!r}")
            continue
        if len(tokens) != len(columns):
            out.warn(lineno, f"{len(tokens)} values for {len(columns)} columns")
        values: dict[str, float | None] = {c: None for c in columns}
        values.update({c: (None if t == "-" else to_float(t)) for c, t in zip(columns, tokens)})
        elapsed = None if average or first is None else float(last + days * 86400 - first)
        out.records.append(SarRow(None if average else time, cpu, values, elapsed, average, lineno))
    if not any(isinstance(r, SarRow) for r in out.records) and any(ln.strip() for ln in lines[start:]) and not out.warnings:
        out.warn(start + 1, "no sar processor rows found")
    return out
