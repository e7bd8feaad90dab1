"""The AIX error log: ``errpt`` (one line per entry) and ``errpt -a`` (one stanza per entry).

Input (summary; TIMESTAMP is ``MMDDhhmmYY``, T the type, C the class)::

    # errpt
    IDENTIFIER TIMESTAMP  T C RESOURCE_NAME  DESCRIPTION
    DE3B8540   1102141525 P H hdisk7         PATH HAS FAILED
    A6DF45AA   1101093025 I O RMCdaemon      The daemon is started.

Output: one :class:`ErrorLogEntry` per row::

    ErrorLogEntry(identifier="DE3B8540", timestamp="2025-11-02T14:15", type="PERM", err_class="H",
                  resource="hdisk7", description="PATH HAS FAILED", line=3, ...)

Input (detailed; stanzas separated by a dashed rule)::

    ---------------------------------------------------------------------------
    LABEL:          SC_DISK_PCM_ERR7
    IDENTIFIER:     DE3B8540

    Date/Time:       Sun Nov  2 14:15:02 CET 2025
    Sequence Number: 10442
    Machine Id:      00C8E4A74C00
    Node Id:         aixdb02
    Class:           H
    Type:            PERM
    WPAR:            Global
    Resource Name:   hdisk7
    ...
    Description
    PATH HAS FAILED

Output: the same :class:`ErrorLogEntry`, with ``label``, ``sequence``, ``node``,
``resource_class``/``resource_type``/``location`` and the free-text sections
(``Probable Causes``, ``Recommended Actions``, ``Detail Data`` ...) in ``sections``.
``Parsed.hostname`` is the ``Node Id`` when every stanza names the same node.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..numbers import whole
from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head

KIND = "errpt"
TITLE = "errpt / errpt -a"
COMMANDS = [r"^errpt\b"]
STARTS = re.compile(r"^(?:IDENTIFIER\s+TIMESTAMP\s+T\s+C\s+RESOURCE_NAME\s+DESCRIPTION|LABEL:\s+\S+)\s*$")

_HEADER = re.compile(r"^IDENTIFIER\s+TIMESTAMP\s+T\s+C\s+RESOURCE_NAME\s+DESCRIPTION\s*$")
_ROW = re.compile(r"^(?P<id>[0-9A-F]{8})\s+(?P<ts>\d{10})\s+(?P<t>[PTUI])\s+(?P<c>[HSOU])\s+(?P<res>\S+)\s+(?P<desc>\S(?:.*\S)?)\s*$")
_RULE = re.compile(r"^-{10,}\s*$")
_FIELD = re.compile(r"^(?P<key>[A-Z][A-Za-z /]+?):\s*(?P<value>(?:.*\S)?)\s*$")
_TYPES = {"P": "PERM", "T": "TEMP", "U": "UNKN", "I": "INFO"}
_SECTIONS = ("Description", "Probable Causes", "User Causes", "Install Causes", "Failure Causes",
             "Recommended Actions", "Detail Data", "Duplicates")
_STANZA_FIELDS = {
    "LABEL": "label", "IDENTIFIER": "identifier", "Date/Time": "date", "Sequence Number": "sequence",
    "Machine Id": "machine_id", "Node Id": "node", "Class": "err_class", "Type": "type", "WPAR": "wpar",
    "Resource Name": "resource", "Resource Class": "resource_class", "Resource Type": "resource_type",
    "Location": "location",
}


@dataclass
class ErrorLogEntry:
    identifier: str
    type: str  # PERM, TEMP, PEND, PERF, UNKN, INFO
    err_class: str  # H hardware, S software, O operator (errlogger), U undetermined
    resource: str
    description: str
    timestamp: str | None = None  # ISO "YYYY-MM-DDTHH:MM" from the summary's MMDDhhmmYY
    date: str | None = None  # errpt -a "Date/Time" as printed
    label: str | None = None
    sequence: int | None = None
    node: str | None = None
    machine_id: str | None = None
    wpar: str | None = None
    resource_class: str | None = None
    resource_type: str | None = None
    location: str | None = None
    sections: dict[str, list[str]] = field(default_factory=dict)
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


def iso_timestamp(ts: str) -> str | None:
    """``1102141525`` (MMDDhhmmYY) -> ``2025-11-02T14:15``; None when it is not a valid date."""
    mo, dd, hh, mi, yy = (int(ts[i:i + 2]) for i in range(0, 10, 2))
    if not (1 <= mo <= 12 and 1 <= dd <= 31 and hh < 24 and mi < 60):
        return None
    year = 1900 + yy if yy >= 70 else 2000 + yy
    return f"{year:04d}-{mo:02d}-{dd:02d}T{hh:02d}:{mi:02d}"


def detect(text: str) -> int:
    prompt, body = output_head(text, 60)
    if command_matches(prompt, COMMANDS):
        return 95
    if any(_HEADER.match(ln.strip()) for ln in body[:3]):
        return 90
    if any(ln.startswith("LABEL:") for ln in body[:4]) and any(ln.startswith("IDENTIFIER:") for ln in body[:6]):
        return 90
    rows = sum(1 for ln in body if _ROW.match(ln.strip()))
    return 60 if rows >= 2 and rows >= 0.8 * len(body) else 0


def _stanza_done(entry: ErrorLogEntry | None, out: Parsed) -> None:
    if entry is None:
        return
    if not entry.identifier:
        out.warn(entry.line, "error log stanza without an IDENTIFIER")
        return
    desc = entry.sections.get("Description")
    if desc and not entry.description:
        entry.description = desc[0]
    out.records.append(entry)


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.user:
        out.hostname = prompt.host
    entry: ErrorLogEntry | None = None
    section: str | None = None
    for idx in range(start, len(lines)):
        lineno = idx + 1
        raw = lines[idx].rstrip()
        s = raw.strip()
        if not s or _HEADER.match(s) or is_bare_prompt(s):
            continue
        if _RULE.match(s):
            _stanza_done(entry, out)
            entry, section = None, None
            continue
        row = _ROW.match(s)
        if row and entry is None:
            out.records.append(ErrorLogEntry(
                row.group("id"), _TYPES[row.group("t")], row.group("c"), row.group("res"), row.group("desc"),
                timestamp=iso_timestamp(row.group("ts")), line=lineno,
                lines={k: lineno for k in ("identifier", "timestamp", "type", "err_class", "resource", "description")}))
            continue
        if s.startswith("LABEL:") and (entry is None or entry.identifier):
            _stanza_done(entry, out)
            entry, section = ErrorLogEntry("", "", "", "", "", line=lineno), None
        if entry is None:
            out.warn(lineno, f"not an error log row: {s[:60]!r}")
            continue
        if s in _SECTIONS or s == "VPD:":
            section = s.rstrip(":")
            entry.sections.setdefault(section, [])
            entry.lines.setdefault(section, lineno)
            continue
        fm = _FIELD.match(s) if section is None else None
        if fm and fm.group("key") in _STANZA_FIELDS:
            name = _STANZA_FIELDS[fm.group("key")]
            value: object = fm.group("value")
            if name == "sequence":
                value = whole(fm.group("value"))
            setattr(entry, name, value)
            entry.lines[name] = lineno
            continue
        if section is not None:
            entry.sections[section].append(s)
            if section == "Description" and not entry.description:
                entry.lines["description"] = lineno
        else:
            out.warn(lineno, f"unknown error log field: {s[:60]!r}")
    _stanza_done(entry, out)
    nodes = {e.node for e in out.records if e.node}
    if out.hostname is None and len(nodes) == 1:
        out.hostname = nodes.pop()
    return out
