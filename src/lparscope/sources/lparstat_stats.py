"""Partition CPU utilisation over intervals: AIX ``lparstat [-c] [interval [count]]``.

Input (columns depend on the AIX level, the partition type and the flags; ``-c`` adds
the AME columns ``%xcpu xphysc dxm`` and the header adds ``mmode``/``tmem``)::

    # lparstat -c 2 2

    System configuration: type=Shared mode=Uncapped mmode=Ded-E smt=4 lcpu=16 mem=12288MB tmem=8192MB psize=8 ent=1.50

    %user  %sys  %wait  %idle physc %entc  lbusy   app  vcsw phint  %xcpu xphysc    dxm
    ----- ----- ------ ------ ----- ----- ------ ----- ----- ----- ------ ------ ------
     41.2  10.3    2.1   46.4  1.02  68.0   22.4  5.81  4120   310    2.2 0.0224      0
     44.0  11.5    1.7   42.8  1.21  80.7   24.9  5.60  4388   295    2.6 0.0315      0

Output: one :class:`LparstatConfig` per "System configuration" line, then one
:class:`LparstatSample` per data row, with values keyed by the printed column name::

    LparstatConfig(values={"type": "Shared", "mode": "Uncapped", "mmode": "Ded-E", ...},
                   type="Shared", mode="Uncapped", smt="4", lcpu=16, mem_mb=12288,
                   tmem_mb=8192, psize=8.0, ent=1.5, mmode="Ded-E", line=3)
    LparstatSample(values={"%user": 41.2, ..., "physc": 1.02, "%entc": 68.0, "dxm": 0.0},
                   line=7)

A ``-`` value is ``None``. ``column_stats(samples, "%entc")`` gives count/mean/min/max.
The ``-H`` hypervisor-call report (lparstat_hcalls), ``-m`` (lparstat_mem), ``-E`` (lparstat_spurr)
and ``-i`` (lparstat_info) are read by their own modules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from .base import preamble, Parsed, leading_prompt, split_lines, starts_with_prompt, to_float, to_int

KIND = "lparstat"
TITLE = "lparstat [interval [count]] / lparstat -c"
COMMANDS = [r"^lparstat\b(?!.*\s-[A-Za-z]*[iHhEWXlm])"]
STARTS = re.compile(r"^\s*System configuration:\s*type=|^\s*System Configuration\s*$")  # AIX; powerpc-utils (Linux)

_CONFIG_RE = re.compile(r"^\s*System configuration:\s*(?P<body>.*)$")
# powerpc-utils' lparstat on a Linux partition: the title alone, the pairs on the next line ("mem=7759616 kB")
_LINUX_TITLE_RE = re.compile(r"^\s*System Configuration\s*$")
_LINUX_KB_RE = re.compile(r"\bmem=(\d{1,20})\s*kB\b")  # (a count no system prints is left as it is, unread)
_PAIR_RE = re.compile(r"(?<![A-Za-z_])(?P<k>[A-Za-z_]+)=(?P<v>\S+(?:\s+kB)?)")
_DASHES_RE = re.compile(r"^\s*-{2,}(?:\s+-{2,})*\s*$")
_HEADER_START = re.compile(r"^\s*%user\s+%sys\b")
_NOT_OURS = re.compile(r"Hypervisor Call|Detailed information on Hypervisor|%busy|Frequency|-Actual-|^\s*physb\s+hpi\b|Normalised|Normalized")


@dataclass
class LparstatConfig:
    values: dict[str, str]
    type: str | None
    mode: str | None
    smt: str | None  # "4", "On", "Off" as printed
    lcpu: int | None
    mem_mb: int | None  # expanded memory size when AME is on
    tmem_mb: int | None  # true memory (AME, -c)
    psize: float | None
    ent: float | None
    mmode: str | None  # "Ded", "Ded-E" (AME), "Shr", "Shr-E"
    line: int
    platform: str = "aix"  # "linux": powerpc-utils' lparstat (a Linux partition), told by its header


@dataclass(slots=True)  # many instances: no per-instance dict
class LparstatSample:
    values: dict[str, float | None]
    line: int


@dataclass
class ColumnStats:
    column: str
    count: int
    mean: float | None
    min: float | None
    max: float | None


def column_stats(samples: Iterable[LparstatSample], column: str) -> ColumnStats:
    """Count, mean, min and max of one column over the samples (``None`` values skipped)."""
    vals = [s.values[column] for s in samples if s.values.get(column) is not None]
    if not vals:
        return ColumnStats(column, 0, None, None, None)
    return ColumnStats(column, len(vals), sum(vals) / len(vals), min(vals), max(vals))


def summary(samples: Iterable[LparstatSample]) -> dict[str, ColumnStats]:
    """``column_stats`` for every column seen in the samples."""
    samples = list(samples)
    cols: list[str] = []
    for s in samples:
        cols.extend(c for c in s.values if c not in cols)
    return {c: column_stats(samples, c) for c in cols}


def _mb(value: str | None) -> int | None:
    if value is None:
        return None
    m = re.match(r"^(\d+(?:[.,]\d+)?)\s*(MB|GB|kB|KB)?$", value.strip())
    if not m:
        return None
    num = to_float(m.group(1))
    unit = (m.group(2) or "MB").upper()
    return None if num is None else int(round(num * {"MB": 1, "GB": 1024, "KB": 1 / 1024}[unit]))


def _config(body: str, lineno: int, platform: str = "aix") -> LparstatConfig:
    if platform == "linux":  # "mem=7759616 kB" -> MB, as AIX prints it
        body = _LINUX_KB_RE.sub(lambda m: f"mem={int(m.group(1)) // 1024}MB", body)
    values = {m.group("k"): m.group("v") for m in _PAIR_RE.finditer(body)}
    return LparstatConfig(
        values=values, type=values.get("type"), mode=values.get("mode"), smt=values.get("smt"),
        lcpu=to_int(values.get("lcpu")), mem_mb=_mb(values.get("mem")), tmem_mb=_mb(values.get("tmem")),
        psize=to_float(values.get("psize")), ent=to_float(values.get("ent")), mmode=values.get("mmode"),
        line=lineno, platform=platform,
    )


def detect(text: str) -> int:
    lines = [ln for ln in split_lines(text)[:60] if ln.strip()]
    if not lines:
        return 0
    if any(_NOT_OURS.search(ln) for ln in lines):
        return 5
    prompt, start = leading_prompt(lines)
    if prompt and prompt.program == "lparstat":
        return 95 if any(re.search(p, prompt.command) for p in COMMANDS) else 5
    body = lines[start:]
    has_config = any(_CONFIG_RE.match(ln) and "type=" in ln for ln in body) or (
        any(_LINUX_TITLE_RE.match(ln) for ln in body) and any(ln.lstrip().startswith("type=") for ln in body))
    header = next((ln for ln in body if _HEADER_START.match(ln)), None)
    if header is None:
        # the configuration line alone (a paste that stops before the samples) still tells the
        # partition's type, mode, SMT and entitlement
        alone = has_config and all(_CONFIG_RE.match(ln) for ln in body) and any("ent=" in ln for ln in body)
        return 60 if alone else 20 if has_config else 0
    score = 85 if has_config else 60
    if "%hypv" in header:  # lparstat -h: not read here
        score = 30
    return score


def _value(token: str) -> float | None:
    if token in ("-", "--", "N/A"):
        return None
    return to_float(token)


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.host:
        out.hostname = prompt.host
    columns: list[str] | None = None
    linux_title = False  # the line before was powerpc-utils' "System Configuration"
    for idx in range(start, len(lines)):
        lineno = idx + 1
        line = lines[idx].rstrip()
        if not line.strip() or _DASHES_RE.match(line):
            continue
        m = _CONFIG_RE.match(line)
        if m:
            out.records.append(_config(m.group("body"), lineno))
            continue
        if _LINUX_TITLE_RE.match(line):
            linux_title = True
            continue
        if linux_title and line.lstrip().startswith("type="):
            out.records.append(_config(line, lineno, "linux"))
            linux_title = False
            continue
        if _HEADER_START.match(line):
            columns = line.split()
            continue
        tokens = line.split()
        if columns is None:
            if starts_with_prompt(line) or line.strip() in ("#", "$"):
                continue  # shell prompt after or before the output
            out.warn(lineno, f"no column header before: {line.strip()[:60]!r}")
            continue
        if not all(t in ("-", "--", "N/A") or to_float(t) is not None for t in tokens):
            if starts_with_prompt(line):
                continue
            out.warn(lineno, f"not a data row: {line.strip()[:60]!r}")
            continue
        if len(tokens) != len(columns):
            out.warn(lineno, f"{len(tokens)} values for {len(columns)} columns")
        values: dict[str, float | None] = {c: None for c in columns}
        values.update({c: _value(t) for c, t in zip(columns, tokens)})
        out.records.append(LparstatSample(values, lineno))
    return out
