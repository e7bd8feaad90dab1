"""Global memory use: AIX ``svmon -G`` (and ``svmon -G -O unit=MB,...``).

Input (the default unit is the 4 KB page; ``-O unit=MB`` prints a ``Unit: MB`` line and MB)::

    # svmon -G
                   size       inuse        free         pin     virtual   mmode
    memory      2097152      884743     1212409      381480      454093     Ded
    pg space     131072        2737

                   work        pers        clnt       other
    pin          245356           0        2108      134016
    in use       454093           0      430650

    PageSize   PoolSize       inuse        pgsp         pin     virtual
    s    4 KB         -      638055        2737      198376      207405
    m   64 KB         -       15418           0       11444       15418
    L   16 MB        40           0           0          40           0

Output: one :class:`SvmonGlobal`::

    SvmonGlobal(unit="page", memory={"size": 2097152.0, "inuse": 884743.0, ..., "virtual": 454093.0},
                mmode="Ded", paging_space={"size": 131072.0, "inuse": 2737.0},
                pinned={"work": 245356.0, ...}, in_use={"work": 454093.0, ...},
                page_sizes=[SvmonPageSize(label="s", page_kb=4, pool_size=None, inuse=638055.0, ...), ...,
                            SvmonPageSize(label="L", page_kb=16384, pool_size=40.0, inuse=0.0, ...)],
                line=3, lines={"memory": 3, "pg_space": 4, "pin": 7, "in_use": 8, "L": 13, ...})

``unit`` is "page" (4 KB pages) or the ``-O unit=`` one (KB, MB, GB). In page units a PageSize row
counts pages of its own size (the ``m`` row's inuse is 64 KB pages: 638055 + 15418 x 16 is the
memory inuse above). A ``-`` (no pool for that size) is None. When the header line was cut off
(``| tail -7``), the memory row is read in the default column order (size inuse free pin virtual
[available] mmode).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import Parsed, command_matches, output_head, preamble, to_float

KIND = "svmon-G"
TITLE = "svmon -G [-O unit=...]"
COMMANDS = [r"^svmon\b(?=.*\s-G)(?!.*\s-[PUSWCe@])"]
STARTS = re.compile(r"^\s*size\s+inuse\s+free\s+pin\s+virtual\b|^Unit:\s*(?:page|KB|MB|GB|auto)\s*$")

_UNIT_RE = re.compile(r"^\s*Unit:\s*(\S+)\s*$")
_HEADER_RE = re.compile(r"^\s*size\s+inuse\s+free\s+pin\s+virtual\b")
_SEGMENTS_RE = re.compile(r"^\s*work\s+pers\s+clnt\b")
_PAGESIZE_HEADER_RE = re.compile(r"^\s*PageSize\s+PoolSize\s+inuse\b")
_PAGESIZE_RE = re.compile(r"^\s*(?P<label>[smLS])\s+(?P<n>\d{1,5})\s*(?P<u>KB|MB|GB)\s+(?P<rest>.*)$")
_ROW_RE = re.compile(r"^\s*(?P<name>memory|pg space|pin|in use)\s+(?P<rest>\S.*)$")
_DASHES_RE = re.compile(r"^\s*-{5,}\s*$")
_DEFAULT_MEMORY = ["size", "inuse", "free", "pin", "virtual", "available"]
_KB = {"KB": 1, "MB": 1024, "GB": 1024 * 1024}


@dataclass
class SvmonPageSize:
    label: str  # s (4 KB), m (64 KB), L (16 MB), S (16 GB)
    page_kb: int
    pool_size: float | None  # pages of this size reserved in a pool (large pages); None: no pool ("-")
    inuse: float | None
    pgsp: float | None
    pin: float | None
    virtual: float | None
    line: int


@dataclass
class SvmonGlobal:
    unit: str  # "page" (4 KB pages), the -O unit (KB, MB, GB), or "unknown" (not whole pages, unit not shown)
    memory: dict[str, float | None]
    mmode: str | None  # Ded, Ded-E (AME), Shar (AMS) ...
    paging_space: dict[str, float | None]
    pinned: dict[str, float | None]
    in_use: dict[str, float | None]
    page_sizes: list[SvmonPageSize]
    line: int
    lines: dict[str, int] = field(default_factory=dict)

    def page_size(self, label: str) -> SvmonPageSize | None:
        return next((p for p in self.page_sizes if p.label == label), None)

    def mb(self, value: float | None, page_kb: int = 4) -> float | None:
        """``value`` in MB: pages of ``page_kb`` KB in page units, else the printed unit."""
        if value is None:
            return None
        kb = page_kb if self.unit == "page" else _KB.get(self.unit, 0)
        return value * kb / 1024 if kb else None


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if prompt is not None and prompt.program == "svmon":
        return 95 if command_matches(prompt, COMMANDS) else 5
    memory = any(_ROW_RE.match(ln) and ln.split()[0] == "memory" for ln in body)
    pg_space = any(ln.strip().startswith("pg space") for ln in body)
    if memory and pg_space:
        return 85 if any(_HEADER_RE.match(ln) for ln in body) else 70
    return 0


def _numbers(tokens: list[str]) -> list[float | None]:
    return [None if t == "-" else to_float(t) for t in tokens]


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    if pre.prompt and pre.prompt.host:
        out.hostname = pre.prompt.host
    command = pre.prompt.command if pre.prompt else ""
    m = re.search(r"unit=(KB|MB|GB|page|auto)", command, re.I)
    unit = m.group(1).upper() if m and m.group(1).lower() not in ("page", "auto") else "page"
    memory_cols, segment_cols = list(_DEFAULT_MEMORY), ["work", "pers", "clnt", "other"]
    rec: SvmonGlobal | None = None
    in_page_sizes = False
    for idx in range(pre.body, len(pre.lines)):
        lineno, line = idx + 1, pre.lines[idx]
        if not line.strip() or _DASHES_RE.match(line):
            continue
        if (u := _UNIT_RE.match(line)) is not None:
            unit = u.group(1).upper() if u.group(1).lower() != "page" else "page"
            continue
        if _HEADER_RE.match(line):
            memory_cols = [c for c in line.split() if c != "mmode"]
            continue
        if _SEGMENTS_RE.match(line):
            segment_cols = line.split()
            continue
        if _PAGESIZE_HEADER_RE.match(line):
            in_page_sizes = True
            continue
        row = _ROW_RE.match(line)
        if row is not None:
            tokens = row.group("rest").split()
            if rec is None:
                rec = SvmonGlobal(unit, {}, None, {}, {}, {}, [], lineno)
            name = row.group("name")
            if name == "memory":
                mode = tokens.pop() if tokens and to_float(tokens[-1]) is None and tokens[-1] != "-" else None
                rec.memory, rec.mmode = dict(zip(memory_cols, _numbers(tokens))), mode
            elif name == "pg space":
                rec.paging_space = dict(zip(["size", "inuse"], _numbers(tokens)))
            else:
                setattr(rec, "pinned" if name == "pin" else "in_use", dict(zip(segment_cols, _numbers(tokens))))
            rec.lines[name.replace(" ", "_")] = lineno
            continue
        ps = _PAGESIZE_RE.match(line) if in_page_sizes else None
        if ps is not None and rec is not None:
            values = _numbers(ps.group("rest").split())
            if len(values) == 5:
                rec.page_sizes.append(SvmonPageSize(ps.group("label"), int(ps.group("n")) * _KB[ps.group("u")],
                                                    *values, line=lineno))
                rec.lines[ps.group("label")] = lineno
                continue
        out.warn(lineno, f"not read: {line.strip()[:60]!r}")
    if rec is not None:
        told = m is not None or any(_UNIT_RE.match(ln) for ln in pre.lines)
        values = [v for v in (*rec.memory.values(), *rec.paging_space.values()) if v is not None]
        if rec.unit == "page" and not told and any(v != int(v) for v in values):
            rec.unit = "unknown"  # whole pages have no fraction: -O unit= was given, but its line was cut
            out.warn(rec.line, "sizes are not whole 4 KB pages and the output does not say its unit "
                               "(svmon -O unit=...): sizes not read")
        out.records.append(rec)
    return out
