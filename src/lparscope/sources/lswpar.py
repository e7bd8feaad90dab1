"""Workload partitions: AIX ``lswpar``, ``lswpar -L``, ``lswpar -G`` and ``lswpar -D``.

Input (``lswpar``, one row per WPAR; State and Type are one-letter codes)::

    # lswpar
    Name     State  Type  Hostname  Directory       RootVG WPAR
    -------------------------------------------------------------
    appwp1   A      S     appwp1    /wpars/appwp1   no

Output: one :class:`Wpar` per row::

    Wpar(name="appwp1", state="A", type="S", hostname="appwp1", directory="/wpars/appwp1",
         rootvg=False, os_version=None, versioned=None, general={}, line=4, lines={...})

Input (``lswpar -L``; ``-G`` prints the same stanzas with only the GENERAL fields)::

    =================================================================
    appwp1 - Active
    =================================================================
    GENERAL
    Type:                    S
    RootVG WPAR:             no
    Hostname:                appwp1
    Directory:               /wpars/appwp1
    OStype:                  0
    ...
    DEVICE EXPORTS
    Name               Type     Virtual Device     RootVG   Status
    -----------------------------------------------------------------
    /dev/null          pseudo                               EXPORTED

Output: a :class:`Wpar` with ``general`` holding every GENERAL ``key: value`` (raw text),
``sections`` the other ``key: value`` sections (RESOURCE CONTROLS, OPERATION, SECURITY
SETTINGS; wrapped values are joined), ``tables`` the token rows of tabular sections
(NETWORK, FILE SYSTEMS ...), plus one :class:`WparDevice` per DEVICE EXPORTS row.

Input (``lswpar -D``)::

    Name      Device Name   Type     Virtual Device  RootVG  Status
    ------------------------------------------------------------------
    appwp1    hdisk3        disk     hdisk1          no      EXPORTED

Output::

    WparDevice(wpar="appwp1", device="hdisk3", type="disk", virtual_device="hdisk1",
               rootvg=False, status="EXPORTED", line=3)

``os_version`` is the raw GENERAL value of ``OStype`` (or an ``OS Version`` / ``Version``
key) when shown; ``versioned`` is True when that names an older AIX runtime (a versioned
WPAR, e.g. AIX 5.2 / 5.3), False for ``0`` / native, else None. Rows whose padding was
collapsed (several ``-D`` rows run together on one line) are read too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head, parse_prompt

KIND = "lswpar"
TITLE = "lswpar / lswpar -L / -G / -D"
COMMANDS = [r"^lswpar\b(?!.*-[cd]\b)"]
STARTS = re.compile(
    r"^\s*Name\s+State\s+Type\s+Hostname\s+Directory\b|^\s*Name\s+Device\s+Name\s+Type\s+Virtual\s+Device\b"
)


_LIST_HDR = re.compile(r"\bName\s+State\s+Type\s+Hostname\s+Directory\b")
_DEV_HDR = re.compile(r"\bName\s+Device\s+Name\s+Type\s+Virtual\s+Device\s+RootVG\s+Status\b")
_RULE = re.compile(r"^\s*(=+|-+)\s*$")
_TITLE = re.compile(r"^(?P<name>[A-Za-z0-9_][\w.-]*)\s+-\s+(?P<state>[A-Za-z]+)\s*$")
_SECTION = re.compile(r"^[A-Z][A-Z0-9 /\-]*[A-Z]$")
_KV = re.compile(r"^(?P<key>[A-Za-z][^:]*?):\s*(?P<value>(?:.*\S)?)\s*$")
_STATUS = re.compile(r"^[A-Z][A-Z_]{3,}$")
_VERSION_KEYS = re.compile(r"^(?:os\s*type|os\s*version|version|versioned)$", re.I)
_GENERAL_FIELDS = {"Type": "type", "Hostname": "hostname", "Directory": "directory"}


@dataclass
class Wpar:
    name: str
    state: str | None
    type: str | None = None
    hostname: str | None = None
    directory: str | None = None
    rootvg: bool | None = None
    os_version: str | None = None
    versioned: bool | None = None
    general: dict[str, str] = field(default_factory=dict)
    sections: dict[str, dict[str, str]] = field(default_factory=dict)
    tables: dict[str, list[list[str]]] = field(default_factory=dict)
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class WparDevice:
    wpar: str | None
    device: str
    type: str | None
    virtual_device: str | None
    rootvg: bool | None
    status: str | None
    line: int


def _yes_no(value: str | None) -> bool | None:
    v = (value or "").strip().lower()
    return True if v == "yes" else False if v == "no" else None


def _versioned(value: str) -> bool | None:
    v = value.strip().lower()
    if v in ("0", "native", "no", "none"):
        return False
    if re.match(r"^(1|2|yes|5\.[23].*|aix\s*5.*)$", v):
        return True
    return None


def detect(text: str) -> int:
    prompt, body = output_head(text, 80)
    if prompt is None and not body:
        return 0
    if command_matches(prompt, COMMANDS):
        return 95
    if any(_LIST_HDR.search(ln) or _DEV_HDR.search(ln) for ln in body[:5]):
        return 90
    for i in range(len(body) - 2):
        if _RULE.match(body[i]) and body[i].strip()[0] == "=" and _TITLE.match(body[i + 1].strip()):
            return 90 if any(ln.strip() in ("GENERAL", "RESOURCE CONTROLS") or "RootVG WPAR:" in ln for ln in body) else 60
    return 0


def _device_rows(tokens: list[str], wpar: str | None, lineno: int, out: Parsed) -> None:
    """Rows are cut after each status word, so collapsed rows on one line still split."""
    tokens = [t for t in tokens if re.search(r"\w", t)]  # drop "----", "<<<<<<" markers
    chunk: list[str] = []
    for tok in tokens:
        chunk.append(tok)
        if _STATUS.match(tok):
            _device_from_chunk(chunk, wpar, lineno, out)
            chunk = []
    if chunk:
        out.warn(lineno, f"incomplete device row: {' '.join(chunk)[:60]!r}")


def _device_from_chunk(chunk: list[str], wpar: str | None, lineno: int, out: Parsed) -> None:
    head = chunk[:-1]
    if wpar is None:  # lswpar -D: the first column is the WPAR name
        if len(head) < 2:
            out.warn(lineno, f"device row too short: {' '.join(chunk)!r}")
            return
        wpar, head = head[0], head[1:]
    if not head:
        out.warn(lineno, f"device row without a device: {' '.join(chunk)!r}")
        return
    device, rest = head[0], head[1:]
    dtype = rest.pop(0) if rest else None
    rootvg = None
    if rest and rest[-1].lower() in ("yes", "no"):
        rootvg = _yes_no(rest.pop())
    vdev = rest.pop(0) if rest else None
    if rest:
        out.warn(lineno, f"extra columns in device row: {' '.join(rest)!r}")
    out.records.append(WparDevice(wpar, device, dtype, vdev, rootvg, chunk[-1], lineno))


def _list_row(line: str, lineno: int, out: Parsed) -> None:
    t = line.split()
    if len(t) >= 6:
        name, state, wtype, host, directory, rootvg = t[:6]
    elif len(t) == 5 and t[3].startswith("/"):
        (name, state, wtype, directory, rootvg), host = t, None
    else:
        out.warn(lineno, f"not an lswpar row: {line.strip()[:60]!r}")
        return
    out.records.append(Wpar(name, state, wtype, host, directory, _yes_no(rootvg), line=lineno,
                            lines={"name": lineno, "state": lineno}))


def _general(w: Wpar, key: str, value: str, lineno: int) -> None:
    w.general[key] = value
    w.lines[key] = lineno
    if key in _GENERAL_FIELDS:
        setattr(w, _GENERAL_FIELDS[key], value or None)
    elif key == "RootVG WPAR":
        w.rootvg = _yes_no(value)
    elif _VERSION_KEYS.match(key) and value:
        w.os_version = value
        w.versioned = _versioned(value)


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    mode = None  # "list", "dev", "stanza"
    if prompt:
        if prompt.user:
            out.hostname = prompt.host
        if re.search(r"\s-\w*D", prompt.command):
            mode = "dev"
        if _DEV_HDR.search(prompt.command):  # header pasted onto the command line
            mode = "dev"
    w: Wpar | None = None
    section: str | None = None
    table = False
    last_key: str | None = None
    for idx in range(start, len(lines)):
        lineno = idx + 1
        raw = lines[idx].rstrip()
        line = raw.strip()
        if not line:
            last_key = None
            continue
        if _DEV_HDR.search(line) and mode != "stanza":
            mode = "dev"
            continue
        if _LIST_HDR.search(line):
            mode = "list"
            continue
        nxt = lines[idx + 1].strip() if idx + 1 < len(lines) else ""
        if line.startswith("=") and _RULE.match(line):
            continue
        m = _TITLE.match(line)
        if m and (idx > 0 and lines[idx - 1].strip().startswith("=")):
            w = Wpar(m.group("name"), m.group("state"), line=lineno, lines={"name": lineno, "state": lineno})
            out.records.append(w)
            mode, section, table, last_key = "stanza", None, False, None
            continue
        if is_bare_prompt(line):
            continue
        p = parse_prompt(raw)
        if p:
            if p.user and p.host:
                out.hostname = p.host
            mode = "dev" if re.search(r"\s-\w*D", p.command) else None
            continue
        if mode == "list":
            if not _RULE.match(line):
                _list_row(line, lineno, out)
            continue
        if mode == "dev":
            _device_rows(line.split(), None, lineno, out)
            continue
        if mode != "stanza" or w is None:
            out.warn(lineno, f"unrecognised lswpar line: {line[:60]!r}")
            continue
        if _SECTION.match(line) and ":" not in line:
            section, table, last_key = line, False, None
            continue
        if _RULE.match(line):
            continue
        if _RULE.match(nxt) and nxt.startswith("-") and ":" not in line:
            table = True  # a column header: rows follow the rule
            w.tables.setdefault(section or "", [])
            continue
        if table:
            if section == "DEVICE EXPORTS":
                _device_rows(line.split(), w.name, lineno, out)
            w.tables.setdefault(section or "", []).append(line.split())
            continue
        kv = _KV.match(line)
        if kv:
            key, value = kv.group("key").strip(), kv.group("value")
            if section in (None, "GENERAL"):
                _general(w, key, value, lineno)
            else:
                w.sections.setdefault(section, {})[key] = value
                w.lines[f"{section}/{key}"] = lineno
            last_key = key
            continue
        if last_key and raw[:1].isspace() and section not in (None, "GENERAL"):
            sec = w.sections[section]  # type: ignore[index]
            sec[last_key] = sec[last_key] + line
            continue
        out.warn(lineno, f"unrecognised lswpar line: {line[:60]!r}")
    return out
