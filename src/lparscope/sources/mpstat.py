"""Per logical processor statistics: AIX ``mpstat``, ``mpstat -d`` (dispatch affinity) and ``mpstat -a`` (all).

Input (``mpstat -d``; ``S0rd``..``S5rd`` are the shares of thread redispatches at affinity
levels 0 (the same logical processor) to 5 (the farthest), ``S3hrd``..``S5hrd`` the
hypervisor's local, near and far dispatches)::

    # mpstat -d
    System configuration: lcpu=8 ent=1.5 mode=Uncapped

    cpu     cs    ics  bound     rq   push S3pull  S3grd  S0rd  S1rd  S2rd  S3rd  S4rd  S5rd   ilcs   vlcs S3hrd S4hrd S5hrd
      0 1284310 402118      1      2     14      0      0  93.1   2.4   0.0   4.5   0.0   0.0 120441 901223  99.4   0.0   0.6
      1  210554  61502      0      0      0      0      0  88.0   9.7   0.0   2.3   0.0   0.0  51220 301876  99.9   0.0   0.1
    ALL 1494864 463620      1      2     14      0      0  92.4   3.4   0.0   4.2   0.0   0.0 171661 1203099  99.5   0.0   0.5

Output: one :class:`MpstatConfig` for the ``System configuration`` line and one
:class:`CpuRow` per logical processor row, the ``U`` row (unused entitlement) and the
``ALL`` row; ``sample`` counts the reports of an interval run (``mpstat -d 2 3``)::

    MpstatConfig(values={"lcpu": "8", "ent": "1.5", "mode": "Uncapped"}, line=2)
    CpuRow(cpu="0", sample=1, values={"cs": 1284310.0, ..., "S0rd": 93.1, ..., "S5hrd": 0.6}, line=5)
    CpuRow(cpu="ALL", sample=1, values={...}, line=7)       # .is_total is True

Also read: the default report (``min maj mpc int cs ics rq mig lpa sysc us sy wa id pc %ec lcs``),
``-a`` (every column), ``-h``/``-i``/``-w`` tables: any table whose header starts with ``cpu``;
``-`` is a value that is not there (None). A header printed twice keeps the last one (nmon's
copy of ``mpstat -d`` does that). ``mpstat -s`` (the SMT grid) is another format and is not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import Parsed, command_matches, is_bare_prompt, output_head, preamble, to_float

KIND = "mpstat"
TITLE = "mpstat / mpstat -d / mpstat -a"
COMMANDS = [r"^mpstat\b(?!.*\s-\w*s)"]
STARTS = re.compile(r"^cpu\s+(?:min|cs|mpcs|pc|ilcs|int|maj|ics)\s")

# Columns AIX mpstat prints in its reports (the default, -a, -d, -h, -i, -w).
_COLUMNS = frozenset("""min maj mpc mpcs mpcr int dev soft dec ph cs ics bound rq push S3pull S3grd S0rd S1rd
    S2rd S3rd S4rd S5rd mig lpa sysc us sy wa id pc %ec lcs ilcs vlcs S3hrd S4hrd S5hrd %nsp""".split())
_CONFIG = re.compile(r"^System configuration:\s*(?P<rest>.*)$")
_ROW_CPU = re.compile(r"^(?:\d+|ALL|U)$")
_RULE = re.compile(r"^-{5,}$")


@dataclass
class MpstatConfig:
    """The ``System configuration:`` line: ``lcpu``, ``ent``, ``mode``, ``smt`` ... as printed."""

    values: dict[str, str]
    line: int
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class CpuRow:
    """One row of a report: a logical processor (``cpu`` is its number), ``U`` or ``ALL``."""

    cpu: str
    sample: int  # 1 for the first report of an interval run, 2 for the next ...
    values: dict[str, float | None]  # by column name as printed ("S0rd", "%ec"); None for "-"
    line: int

    @property
    def is_total(self) -> bool:
        return self.cpu == "ALL"

    @property
    def number(self) -> int | None:
        return int(self.cpu) if self.cpu.isdigit() else None


def _header(line: str) -> list[str] | None:
    cols = line.split()
    if len(cols) >= 3 and cols[0] == "cpu" and sum(c in _COLUMNS for c in cols[1:]) >= 2:
        return cols
    return None


def detect(text: str) -> int:
    prompt, body = output_head(text, 60)
    if command_matches(prompt, COMMANDS):
        return 95
    heads = [i for i, ln in enumerate(body) if _header(ln)]
    if not heads:
        return 0
    rows = [ln for ln in body[heads[0] + 1:] if _ROW_CPU.match((ln.split() or [""])[0])]
    return 90 if rows else 40


def _config(text: str, lineno: int) -> MpstatConfig:
    values: dict[str, str] = {}
    for m in re.finditer(r"(?<!\w)(\w+)=(\S+)", text):  # from a word start only: linear on a long word
        values[m.group(1)] = m.group(2)
    return MpstatConfig(values, lineno, {k: lineno for k in values})


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines = pre.lines
    out.hostname = pre.host
    columns: list[str] | None = None
    sample = 0
    rows_since_header = 0
    for idx in range(pre.body, len(lines)):
        lineno = idx + 1
        s = lines[idx].strip()
        if not s or is_bare_prompt(s) or _RULE.match(s):
            continue
        m = _CONFIG.match(s)
        if m:
            out.records.append(_config(m.group("rest"), lineno))
            continue
        head = _header(s)
        if head is not None:
            if columns is None or rows_since_header:
                sample += 1  # a header after rows opens the next report; one right after another replaces it
            columns, rows_since_header = head, 0
            continue
        parts = s.split()
        if columns is None or not _ROW_CPU.match(parts[0]):
            out.warn(lineno, f"not an mpstat row: {s[:60]!r}")
            continue
        if len(parts) != len(columns):
            out.warn(lineno, f"cpu {parts[0]}: {len(parts)} values for {len(columns)} columns; row not read")
            continue
        values: dict[str, float | None] = {}
        bad = []
        for name, raw in zip(columns[1:], parts[1:]):
            v = None if raw == "-" else to_float(raw)
            if v is None and raw != "-":
                bad.append(f"{name}={raw}")
            values[name] = v
        if bad:
            out.warn(lineno, f"cpu {parts[0]}: not a number: {', '.join(bad)[:80]}")
        out.records.append(CpuRow(parts[0], sample, values, lineno))
        rows_since_header += 1
    return out
