"""Shared reader for HMC CLI output: the attribute=value CSV form and the ``-F`` value form.

HMC commands (``lssyscfg``, ``lshwres``, ``lslparutil``, ``lshmc``) print one object per
line as ``name=value`` pairs separated by commas. A pair whose value holds a comma is
double-quoted as a whole, and a list element that itself holds commas is quoted again
with doubled quotes::

    name=normal,lpar_id=2,"io_slots=21040003/none/1,21020003/none/1",virtual_scsi_adapters=none
    name=test_1,"virtual_eth_adapters=""2/1/1/3,4,5/0/1""\",boot_mode=sms

A quoted value may span lines (``lshmc -V``). With ``-F a,b,c`` the HMC prints only the
values, in the order asked, separated by the delimiter used in the ``-F`` list; with ``--header``
a first line of the field names comes before them, read as the names even when the command line
was not kept (:func:`header_names`).

This module splits lines into records and records into fields, cuts a file into the sections
of its commands and reads each into :class:`HmcObject` records. The records and typed value
readers are in ``_hmc_values``, the command line in ``_hmc_command``, the slash-separated
adapter lists of profiles in ``_hmc_adapters``. Private to the HMC parsers (``hmc_syscfg``,
``hmc_hwres``, ``hmc_util``, ``hmc_lshmc``) and the frame model.
"""

from __future__ import annotations

import csv
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from ._hmc_command import KNOWN_ATTRS, HmcCommand, infer_resources, parse_command, resource_name
from ._hmc_values import HmcMessage, HmcObject
from .base import Parsed, Prompt, command_matches, head_text, leading_prompt, preamble, split_lines, strip_ansi

# An attribute name may start with a digit (``5250_application_capable``) but is never a number alone:
# ``a=1,2=3`` unquoted keeps "1,2=3" as the value of a.
_KEY_RE = re.compile(r"^\d*[A-Za-z_][\w.]*$")


# "HSCL0001 ...", "HSCLA4C0 The managed system does not support ..." (HMC error messages)
MESSAGE_RE = re.compile(r"^(?P<code>HSC[A-Z][0-9A-F]{3,5})\s+(?P<text>.+)$")
NO_RESULTS_RE = re.compile(r"^No results were found\.?\s*$", re.I)
DUMP_MARKER_RE = re.compile(r"^###command:(?P<cmd>.*?)###\s*$")


def logical_records(lines: list[str], start: int = 0, end: int | None = None) -> list[tuple[int, str]]:
    """(0-based first line, text) of each record: physical lines joined while a quote is open."""
    out: list[tuple[int, str]] = []
    end = len(lines) if end is None else end
    i = start
    while i < end:
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        first = i
        parts = [line]
        quotes = line.count('"')  # counted per line: a long open quote stays linear
        while quotes % 2 == 1 and i + 1 < end:
            i += 1
            parts.append(lines[i])
            quotes += lines[i].count('"')
        out.append((first, "\n".join(parts)))
        i += 1
    return out


_CSV_SPECIAL = re.compile('["\r\n\x00]')


def split_fields(record: str, delimiter: str = ",") -> list[str]:
    """CSV fields of one record (quotes removed, ``""`` unescaped, blanks around fields dropped)."""
    if record and delimiter != " " and not _CSV_SPECIAL.search(record):  # nothing quoted, one line: the csv reader would cut it the same
        return [f.strip(" \t") for f in record.split(delimiter)]
    try:
        row = next(csv.reader([record], delimiter=delimiter, skipinitialspace=True))
    except (csv.Error, StopIteration):
        row = record.split(delimiter)
    return [f.strip(" \t") for f in row]


def parse_attrs(record: str) -> dict[str, str] | None:
    """``a=1,"b=x,y"`` -> {"a": "1", "b": "x,y"}; None when the record is not in that form."""
    if "=" not in record:
        return None
    out: dict[str, str] = {}
    last: str | None = None
    for f in split_fields(record):
        key, eq, value = f.partition("=")
        if eq and _KEY_RE.match(key.strip()):
            last = sys.intern(key.strip())
            out[last] = value.strip("\n").strip()
        elif last is not None and f:
            out[last] += "," + f  # an unquoted comma inside a value
        elif f:
            return None
    return out or None


_FIELD_NAME_RE = re.compile(r'(?:^|,)\s*(?:"\s*)?(\d*[A-Za-z_][\w.]*)=')


def field_lines(record: str, first_line: int) -> dict[str, int]:
    """1-based line of each attribute of a (possibly multi-line) record.

    Attribute names are interned: a large lslparutil listing repeats the same few dozen names on
    every line, and each record keeps two dicts keyed by them."""
    if "\n" not in record:  # one line: every attribute on it (one number object, not one per attribute)
        return dict.fromkeys(map(sys.intern, _FIELD_NAME_RE.findall(record)), first_line)
    out: dict[str, int] = {}
    for n, part in enumerate(record.split("\n")):
        line = first_line + n
        for name in _FIELD_NAME_RE.findall(part):
            out.setdefault(sys.intern(name), line)
    return out


_NAME_RE = re.compile(r"^\d*[a-z_][a-z0-9_]*$")


def header_names(record: str) -> tuple[list[str], str] | None:
    """The field names and delimiter of a ``-F ... --header`` name line (``config_id,lpar_name,lpar_id``):
    lower-case attribute names, each once, two or more of them names lparscope knows. None otherwise."""
    if "=" in record or '"' in record or "\n" in record:
        return None
    m = re.search(r"[^\w\s]", record)
    if m is None:
        return None
    names = split_fields(record.strip(), m.group())
    if len(set(names)) != len(names) or not all(_NAME_RE.match(n) for n in names):
        return None
    return (names, m.group()) if sum(n in KNOWN_ATTRS for n in names) >= 2 else None


def values_record(record: str, cmd: HmcCommand, header: list[str] | None, delimiter: str | None = None) -> dict[str, str] | None:
    """A ``-F`` line: values in the order of the ``-F`` list (or of the --header line)."""
    names = header or cmd.fields
    if not names:
        return None
    values = split_fields(record, delimiter or cmd.delimiter)
    if len(values) != len(names):
        return None
    return dict(zip(names, values))


@dataclass
class Section:
    """The part of a text after one command line (or all of it when there is none)."""

    command: HmcCommand | None
    prompt: Prompt | None
    start: int  # 0-based index of the first output line
    end: int


def sections(text: str) -> tuple[list[str], list[Section]]:
    """Lines of ``text`` and its parts: one after the leading prompt, or one per ``###command:X###`` marker."""
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    markers = [(i, DUMP_MARKER_RE.match(ln.strip())) for i, ln in enumerate(lines)] if "###command:" in strip_ansi(text) else []
    marks = [(i, m.group("cmd")) for i, m in markers if m]
    if not marks:
        cmd = parse_command(prompt.command) if prompt and prompt.command else None
        return lines, [Section(cmd, prompt, start, len(lines))]
    out = []
    if any(ln.strip() for ln in lines[start:marks[0][0]]):
        out.append(Section(parse_command(prompt.command) if prompt and prompt.command else None, prompt, start, marks[0][0]))
    for n, (i, cmd) in enumerate(marks):
        end = marks[n + 1][0] if n + 1 < len(marks) else len(lines)
        out.append(Section(parse_command(cmd), None, i + 1, end))
    return lines, out


@dataclass
class ReadResult:
    objects: list[tuple[int, dict[str, str], dict[str, int]]] = field(default_factory=list)  # (1-based line, attrs, lines)
    messages: list[HmcMessage] = field(default_factory=list)
    unread: list[tuple[int, str]] = field(default_factory=list)  # (1-based line, text) neither data nor message
    unnamed: list[int] = field(default_factory=list)  # 1-based lines of -F values whose names are not known
    valued: set[int] = field(default_factory=set)  # 1-based lines of -F values: their order is the -F list's
    no_results: bool = False  # the HMC printed "No results were found." (a listing of nothing, not a failure)


def read_section(lines: list[str], sec: Section) -> ReadResult:
    """Objects (attribute dicts), HMC messages and unreadable lines of one section."""
    out = ReadResult()
    cmd = sec.command or HmcCommand()
    header: list[str] | None = None
    delimiter = cmd.delimiter
    first_data = True
    for first, rec in logical_records(lines, sec.start, sec.end):
        lineno = first + 1
        stripped = rec.strip()
        if NO_RESULTS_RE.match(stripped):
            out.no_results = True
            continue
        if rec.count('"') % 2 == 1:
            out.unread.append((lineno, stripped + "  (unterminated quote)"))
            continue
        m = MESSAGE_RE.match(stripped)
        if m:
            out.messages.append(HmcMessage(m.group("code"), m.group("text").strip(), lineno,
                                           sec.prompt.command if sec.prompt else None))
            continue
        at_first, first_data = first_data, False
        if cmd.fields is not None and cmd.fields == [] and cmd.header and header is None:
            header = split_fields(stripped, cmd.delimiter)
            continue
        if cmd.fields and cmd.header and header is None and split_fields(stripped, cmd.delimiter) == cmd.fields:
            header = cmd.fields
            continue
        named = header_names(stripped) if at_first and header is None else None
        if named and not (cmd.fields and not cmd.header and len(named[0]) == len(cmd.fields)):
            # The name line of "-F ... --header" output: it names the values, whatever the command line
            # kept (none, or a file name's "-F header"); a -F list of as many names without --header is values.
            header, delimiter = named
            continue
        if cmd.fields == [] and header is None and "=" not in stripped and cmd.delimiter in stripped:
            out.unnamed.append(lineno)  # "-F" alone: the HMC printed values in an order nobody wrote down
            continue
        if cmd.fields is not None or header is not None:
            attrs = values_record(rec, cmd, header, delimiter)
            if attrs is not None:
                out.objects.append((lineno, attrs, {k: lineno for k in attrs}))
                out.valued.add(lineno)
                continue
        attrs = parse_attrs(rec)
        if attrs is not None:
            out.objects.append((lineno, attrs, field_lines(rec, lineno)))
            continue
        out.unread.append((lineno, stripped))
    return out


# Values the HMC prints that no other output prints as a CSV field: states, environments, modes.
_HMC_VALUES = re.compile(r"^(?:Running|Not Activated|Operating|Power Off|Open Firmware|Starting|Shutting Down|"
                         r"Standby|Not Available|Migrating - Running|Migrating - Not Activated|No Connection|"
                         r"Incomplete|Pending Authentication|Failed Authentication|aixlinux|vioserver|os400|"
                         r"shared|ded|uncap|cap|share_idle_procs\w*|keep_idle_procs|\d{4}-[0-9A-Z]{3}|"
                         r"ETHERNET\d+)$")  # the HMC's default virtual switch


def values_without_names(text: str) -> str | None:
    """Why a text of bare HMC ``-F`` values (``aix1,3,Running``) is not read, or None when it is not one."""
    lines = [ln.strip() for ln in split_lines(strip_ansi(text[:200_000]))]
    prompt, start = leading_prompt(lines)
    if prompt is not None and prompt.command:
        cmd = parse_command(prompt.command)
        if cmd.program not in OUR_PROGRAMS or cmd.fields or cmd.header:
            return None  # the names are on the command line (or in the --header line)
    body = [ln for ln in lines[start:] if ln]
    if not body or len(body) > 100_000 or any("=" in ln for ln in body[:200]) or header_names(body[0]):
        return None
    for delim in (",", ":"):
        rows = [split_fields(ln, delim) for ln in body[:200]]
        widths = {len(r) for r in rows}
        if len(widths) == 1 and widths.pop() >= 2 and any(_HMC_VALUES.match(f) for r in rows for f in r):
            where = f"'{prompt.command}' has no -F field list" if prompt and prompt.command else \
                "no command line (lssyscfg/lshwres ... -F a,b,c) in the file or its name"
            return (f"HMC -F values without field names ({len(body)} line(s) of {len(rows[0])} values): "
                    f"{where}, so the values cannot be named")
    return None


def is_dump(text: str) -> bool:
    """Whether ``text`` is a multi-command dump cut by ``###command:X###`` lines (the lssyscfg kind reads it)."""
    head = text[:200_000]
    return "###command:" in head and any(DUMP_MARKER_RE.match(ln.strip()) for ln in split_lines(head))


def detect_objects(text: str, commands: list[str], belongs: Callable[[dict[str, str]], bool]) -> int:
    """detect() of an HMC kind that is not the dump: its command on the prompt, or attribute
    lines that all ``belong`` to it (the dump itself is read whole by the lssyscfg kind)."""
    prompt, objs, _ = head_objects(text)
    if prompt and command_matches(prompt, commands):
        return 95
    if is_dump(text):
        return 0
    return 95 if objs and all(belongs(o) for o in objs) else 0

def head_objects(text: str, limit: int = 6) -> tuple[Prompt | None, list[dict[str, str]], int]:
    """For detect(): the leading prompt, the first attribute dicts, and how many records were read.
    Remembered for the text asked last (the HMC kinds' detect() each ask it of the same text); the
    dicts are shared, not to be changed."""
    global _HEAD_LAST
    last = _HEAD_LAST
    if last[0] is not text or last[1] != limit:
        lines = split_lines(strip_ansi(head_text(text, 200)))[:200]
        prompt, start = leading_prompt(lines)
        recs = logical_records(lines, start)[:limit + 1]
        named = header_names(recs[0][1].strip()) if recs else None
        if named:  # "-F ... --header" output: the values named by its first line
            recs = recs[1:]
            rows = [split_fields(r.strip(), named[1]) for _, r in recs]
            objs = [dict(zip(named[0], v)) for v in rows if len(v) == len(named[0])]
        else:
            recs = recs[:limit]
            objs = [a for a in (parse_attrs(r) for _, r in recs) if a]
        last = _HEAD_LAST = (text, limit, prompt, objs, len(recs))
    _, _, prompt, objs, count = last
    return prompt, list(objs), count


_HEAD_LAST: tuple[str | None, int, Prompt | None, list[dict[str, str]], int] = (None, 0, None, [], 0)


OUR_PROGRAMS = frozenset({"lssyscfg", "lshwres", "lslparutil", "lshmc"})


def hmc_objects(result: ReadResult, sec: Section) -> list[HmcObject]:
    """:class:`HmcObject` records of a section, their resource taken from the command or the content."""
    cmd = sec.command or HmcCommand()
    named = resource_name(cmd) if cmd.program in OUR_PROGRAMS else None
    inferred = [None] * len(result.objects) if named else \
        infer_resources([a for _, a, _ in result.objects], [ln not in result.valued for ln, _, _ in result.objects])
    out = []
    for (lineno, attrs, lines), guess in zip(result.objects, inferred):
        resource = named or guess or cmd.program or "unknown"
        system = cmd.system
        if system is None and resource == "sys":
            system = attrs.get("name")
        out.append(HmcObject(resource, attrs, lineno, system, lines))
    return out


def warn_unread(parsed: Parsed, result: ReadResult, sec: Section) -> None:
    """Warn about lines that are neither data nor HMC messages, for our own commands only."""
    if sec.command is not None and sec.command.program not in OUR_PROGRAMS:
        return
    if result.unnamed:
        parsed.warn(result.unnamed[0], f"{len(result.unnamed)} line(s) of -F values not read: the command line has "
                                       "-F without its field list, so the values cannot be named")
    for lineno, text in result.unread:
        parsed.warn(lineno, f"not an HMC attribute line: {text[:60]!r}")
