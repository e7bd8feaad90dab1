"""Installed filesets: AIX ``lslpp -l`` / ``lslpp -L`` / ``lslpp -lc``.

Input (``lslpp -l``; one block per ODM path, long names push the level onto the next line)::

    # lslpp -l devices.sddpcm*
      Fileset                      Level  State      Description
      ----------------------------------------------------------------------------
    Path: /usr/lib/objrepos
      devices.sddpcm.72.rte      2.7.1.1  COMMITTED  IBM SDD PCM for AIX V72

    Path: /etc/objrepos
      devices.sddpcm.72.rte      2.7.1.1  COMMITTED  IBM SDD PCM for AIX V72

Output: one :class:`Fileset` per row::

    Fileset(name="devices.sddpcm.72.rte", level="2.7.1.1", state="COMMITTED",
            description="IBM SDD PCM for AIX V72", path="/usr/lib/objrepos", line=5,
            lines={"name": 5, "level": 5, "state": 5})

A query that matched nothing (``lslpp: 0504-132  Fileset *sddpcm* not installed.``)
gives a :class:`FilesetAbsent` with the pattern as typed. ``lslpp -L`` rows carry a
one- or two-letter state (``C`` committed, ``A`` applied ...) and a type letter; those
are kept as printed. ``lslpp -lc`` colon rows (``path:fileset:level:ptf:state:type:desc:``)
are read too, and ``lslpp -Lc`` rows by the columns its ``#Package Name:Fileset:Level:State:...``
header names. Description lines that wrapped are joined to their row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head

KIND = "lslpp"
TITLE = "lslpp -l / -L / -lc / -Lc"
COMMANDS = [r"^lslpp\b.*\s-[A-Za-z]*[lL]"]
STARTS = re.compile(r"^\s*Fileset\s+Level\s+State\b")

_HEADER = STARTS
_RULE = re.compile(r"^\s*-{8,}\s*$")
_PATH = re.compile(r"^\s*Path:\s*(?P<path>\S+)\s*$")
_LEVEL = r"\d+\.\d+\.\d+\.\d+"
_ROW_L = re.compile(rf"^\s*(?P<name>[A-Za-z][\w.+-]*)\s+(?P<level>{_LEVEL})\s+(?P<state>[A-Z]{{4,}})\b\s*(?P<desc>(?:.*\S)?)\s*$")
_ROW_BIG_L = re.compile(rf"^\s*(?P<name>[A-Za-z][\w.+-]*)\s+(?P<level>{_LEVEL})\s+(?P<state>[A-Z?]{{1,2}})\s+(?P<type>[A-Z])\s+(?P<desc>(?:.*\S)?)\s*$")
_WRAPPED_LEVEL = re.compile(rf"^\s+(?P<level>{_LEVEL})\s+(?P<state>[A-Z]{{4,}}|[A-Z?]{{1,2}}\s+[A-Z])\b\s*(?P<desc>(?:.*\S)?)\s*$")
_NAME_ONLY = re.compile(r"^\s*(?P<name>[a-z][\w.+-]*\.[\w.+-]+)\s*$")
_ABSENT = re.compile(r"^\s*lslpp:\s*0504-132\s+Fileset\s+(?P<pat>\S+)\s+not installed\.?\s*$")
_LEGEND = re.compile(r"^(?:State codes:|Type codes:|[A-Z?]{1,2}\s+--\s)")
_COLON_HEAD = re.compile(r"^#\s*(?:Path|Package Name):Fileset:Level", re.I)
# lslpp -Lc: "#Package Name:Fileset:Level:State:PTF Id:Fix State:Type:Description:...": rows are read
# by the header's own column names (the fields after Description vary between AIX levels)
_L_COLUMNS = {"Fileset": "name", "Level": "level", "State": "state", "Fix State": "fix_state", "Description": "desc"}
_COLON_ROW = re.compile(rf"^(?P<path>/[^:]*):(?P<name>[^:]+):(?P<level>{_LEVEL}):[^:]*:(?P<state>[A-Z]+):[^:]*:(?P<desc>[^:]*)")


@dataclass
class Fileset:
    name: str
    level: str
    state: str
    description: str = ""
    path: str | None = None
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class FilesetAbsent:
    pattern: str
    line: int = 0


def detect(text: str) -> int:
    prompt, body = output_head(text, 80)
    if prompt is None and not body:
        return 0
    if command_matches(prompt, COMMANDS):
        return 95
    if any(_HEADER.match(ln) or _COLON_HEAD.match(ln) for ln in body[:4]):
        return 90
    if any(_ABSENT.match(ln) for ln in body[:5]):
        return 85
    if any(_PATH.match(ln) for ln in body[:6]) and any(_ROW_L.match(ln) for ln in body):
        return 70
    return 0


def _fileset(m: re.Match[str], name: str, path: str | None, lineno: int, name_line: int) -> Fileset:
    return Fileset(name, m.group("level"), m.group("state").split()[0], m.group("desc"), path, lineno,
                   {"name": name_line, "level": lineno, "state": lineno})


def _colon_fileset(row: str, columns: dict[str, int], lineno: int) -> Fileset | None:
    """An ``lslpp -Lc`` row by its header's columns; None when it is not one (its level is no V.R.M.F)."""
    parts = row.split(":")
    get = {k: (parts[i].strip() if i < len(parts) else "") for k, i in columns.items()}  # a short row: ""
    if not re.fullmatch(_LEVEL, get["level"]) or not get["name"]:
        return None
    return Fileset(get["name"], get["level"], get.get("state") or get.get("fix_state", ""), get.get("desc", ""), None, lineno,
                   {"name": lineno, "level": lineno, "state": lineno})


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.user:
        out.hostname = prompt.host
    path: str | None = None
    pending: tuple[str, int] | None = None  # a long fileset name waiting for its level line
    last: Fileset | None = None
    colon: dict[str, int] | None = None  # lslpp -Lc: the header's columns
    for idx in range(start, len(lines)):
        lineno = idx + 1
        raw = lines[idx].rstrip()
        s = raw.strip()
        if not s:
            last = None
            continue
        if _COLON_HEAD.match(s):
            names = [c.strip() for c in s.lstrip("#").split(":")]
            columns = {ours: names.index(theirs) for theirs, ours in _L_COLUMNS.items() if theirs in names}
            colon = columns if names[0].lower().startswith("package") and "name" in columns else None
            continue
        if _HEADER.match(s) or _RULE.match(s) or _LEGEND.match(s) or is_bare_prompt(s):
            continue
        if colon is not None:
            f = _colon_fileset(s, colon, lineno)
            if f is not None:
                out.records.append(f)
                continue
        pm = _PATH.match(s)
        if pm:
            path, last, pending = pm.group("path"), None, None
            continue
        am = _ABSENT.match(s)
        if am:
            out.records.append(FilesetAbsent(am.group("pat"), lineno))
            continue
        cm = _COLON_ROW.match(s)
        if cm:
            out.records.append(Fileset(cm.group("name"), cm.group("level"), cm.group("state"), cm.group("desc"),
                                       cm.group("path"), lineno, {"name": lineno, "level": lineno, "state": lineno}))
            continue
        if pending is not None:
            wm = _WRAPPED_LEVEL.match(raw)
            if wm:
                last = _fileset(wm, pending[0], path, lineno, pending[1])
                out.records.append(last)
                pending = None
                continue
            out.warn(pending[1], f"fileset {pending[0]!r} without a level")
            pending = None
        m = _ROW_L.match(raw) or _ROW_BIG_L.match(raw)
        if m:
            last = _fileset(m, m.group("name"), path, lineno, lineno)
            out.records.append(last)
            continue
        nm = _NAME_ONLY.match(raw)
        if nm and len(raw) - len(raw.lstrip()) < 8:
            pending, last = (nm.group("name"), lineno), None
            continue
        if last is not None and raw[:1].isspace():
            last.description = (last.description + " " + s).strip()
            continue
        out.warn(lineno, f"not an lslpp row: {s[:60]!r}")
    if pending is not None:
        out.warn(pending[1], f"fileset {pending[0]!r} without a level")
    return out
