"""Device lists: AIX ``lsdev -C`` / ``lsdev -Cc <class>`` and VIOS ``lsdev -type`` / ``lsdev -virtual``.

Input (AIX; the location column is blank for virtual and pseudo devices)::

    # lsdev -Cc disk
    hdisk0 Available          Virtual SCSI Disk Drive
    hdisk4 Available 24-T1-01 MPIO FC 2145

Output: one :class:`DeviceEntry` per device::

    DeviceEntry(name="hdisk0", status="Available", location=None,
                description="Virtual SCSI Disk Drive", line=2)
    DeviceEntry(name="hdisk4", status="Available", location="24-T1-01",
                description="MPIO FC 2145", line=3)

Also read: the VIOS form (header ``name status description``, also with collapsed
spacing as printed in Redbooks: ``hdisk0 Available MPIO Other FC SCSI Disk Drive``),
``-H`` headers, and ``-F`` outputs (``name:type:description``, ``name:description``;
the field names come from the ``-F`` argument on the command line when present,
fields other than name/status/location/description go to ``extra``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head

KIND = "lsdev"
TITLE = "lsdev -C / lsdev -Cc / lsdev -type / lsdev -virtual"
COMMANDS = [r"^lsdev\b(?!.*-attr)(?!.*-vpd)(?!.*-slots)"]
STARTS = re.compile(r"^name\s+status\s+(?:location\s+|physloc\s+)?description\s*$")

_STATUS = ("Available", "Defined", "Stopped", "Diagnosed", "Unknown", "Missing")
_STATUS_RE = "|".join(_STATUS)
_ROW = re.compile(rf"^(?P<name>[A-Za-z][\w.#-]*)\s+(?P<status>{_STATUS_RE})(?:\s+(?P<rest>(?:.*\S)?))?\s*$")
# AIX location codes (00-08, 05-08-00-3,0, 24-T1-01) and physical location codes (U78A0.001.X-P1-C3-T1)
_LOCATION = re.compile(r"^(?:[0-9A-F]{2}(?:-[0-9A-Za-z,.:]+)+|U[0-9A-Z]{4}\.[\w.]+(?:-[\w.,]+)+|P\d(?:-[\w.,]+)+)$")
_HEADER = re.compile(r"^name(?:\s+(?:status|location|physloc|description|parent|class|subclass|type))+\s*$")
# a prompt with no command: "$", "root@aix1:/ #"
_KNOWN = {"name", "status", "location", "description", "physloc"}
# Column names -F may ask for (CuDv and PdDv object classes, and the special names description, physloc).
_COLUMNS = frozenset("""name status chgstatus ddins location parent connwhere PdDvLn type class subclass prefix
    devid base has_vpd detectable bus_ext fru led setno msgno catalog DvDr Define Configure Change Unconfigure
    Undefine Start Stop inventory_only uniquetype description physloc""".split())
_DEFAULT_COLUMNS = (["name", "status", "location", "description"], ["name", "status", "description"],
                    ["name", "status", "physloc", "description"])


@dataclass(slots=True)  # many instances: no per-instance dict
class DeviceEntry:
    name: str
    status: str | None
    location: str | None
    description: str
    line: int
    extra: dict[str, str] = field(default_factory=dict)  # other -F fields (type, parent, ...)


def detect(text: str) -> int:
    prompt, body = output_head(text, 60)
    if prompt is None and not body:
        return 0
    if command_matches(prompt, COMMANDS):
        return 95
    if body and _HEADER.match(body[0].strip()) and " status" in body[0]:
        return 90
    if body and _header_fields(body[0]) and body[0].strip().startswith("name") and len(body) > 1:
        return 85  # a -H header of -F columns
    rows = sum(1 for ln in body if _ROW.match(ln.strip()) and not re.search(r"\s(True|False)\s*$", ln))
    if rows and rows >= 0.8 * len(body):
        return 75 if rows >= 2 else 45
    colon = [ln for ln in body if re.match(r"^[a-z][\w.-]*\d:[^:]+(?::[^:]*)?$", ln.strip())]
    if colon and len(colon) >= 0.9 * len(body) and not any(re.search(r":(True|False)$", ln) for ln in colon):
        return 55 if len(colon) >= 2 else 25
    return 0


def unreadable(text: str) -> str | None:
    """Why ``-F`` rows of four or more fields without their names (no command line, no -H header) are not read."""
    prompt, body = output_head(text, 60)
    if prompt is not None and prompt.command or not body:
        return None
    rows = [ln.strip().split(":") for ln in body]
    if len(rows) >= 1 and all(len(r) >= 4 and re.match(r"^[a-z][\w.-]*\d$", r[0]) for r in rows) \
            and any(f in _STATUS for r in rows for f in r):
        return (f"lsdev -F rows of {len(rows[0])} fields without their names: no command line "
                "(lsdev ... -F name:class:...) and no -H header, so the fields cannot be named")
    return None


def _fmt_fields(command: str) -> tuple[list[str] | None, str]:
    """Field names and separator from ``-F 'name:status:description'`` on the command line."""
    m = re.search(r"-F\s*(['\"])(.+?)\1|-F\s*(\S+)", command)
    if not m:
        return None, ""
    spec = m.group(2) or m.group(3)
    sep = ":" if ":" in spec else ("," if "," in spec else " ")
    return [f.strip() for f in spec.split(sep) if f.strip()], sep


def _header_fields(line: str) -> tuple[list[str], str] | None:
    """The column names and separator of a ``-H`` header line (``name:class:subclass:type``,
    ``name   class   status``), or None when the line is not one."""
    s = line.strip()
    sep = ":" if ":" in s else ("," if "," in s else " ")
    names = [f.strip() for f in (s.split(sep) if sep != " " else s.split()) if f.strip()]
    if len(names) < 2 or not all(n in _COLUMNS for n in names):
        return None
    return names, sep


def _column_starts(header: str, names: list[str]) -> list[int] | None:
    """Where each column of an aligned, space-separated listing starts (from its header)."""
    starts, pos = [], 0
    for n in names:
        i = header.find(n, pos)
        if i < 0:
            return None
        starts.append(i)
        pos = i + len(n)
    return starts


def _by_columns(line: str, starts: list[int]) -> list[str]:
    """An aligned row cut at the header's column starts (a value may overrun into the next gap)."""
    values = []
    for n, a in enumerate(starts):
        b = starts[n + 1] if n + 1 < len(starts) else len(line)
        values.append(line[a:b].strip())
    return values


def _entry(names: list[str], values: list[str], lineno: int) -> DeviceEntry:
    d = dict(zip(names, (v.strip() for v in values)))
    extra = {k: v for k, v in d.items() if k not in _KNOWN}
    loc = d.get("location") or d.get("physloc") or None
    return DeviceEntry(d.get("name", ""), d.get("status") or None, loc, d.get("description", ""), lineno, extra)


def _colon_row(line: str, lineno: int) -> DeviceEntry | None:
    """``-F`` colon output without the command line: infer the fields."""
    parts = line.split(":")
    if len(parts) == 2:
        return _entry(["name", "status" if parts[1] in _STATUS else "description"], parts, lineno)
    head, mid, desc = parts[0], parts[1], ":".join(parts[2:])
    if mid in _STATUS:
        return _entry(["name", "status", "description"], [head, mid, desc], lineno)
    if _LOCATION.match(mid):
        return _entry(["name", "location", "description"], [head, mid, desc], lineno)
    return _entry(["name", "type", "description"], [head, mid, desc], lineno)


def _split_rest(rest: str) -> tuple[str | None, str]:
    if not rest:
        return None, ""
    first, _, tail = rest.partition(" ")
    if _LOCATION.match(first):
        return first, tail.strip()
    return None, rest.strip()


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    fmt: list[str] | None = None
    sep = ""
    starts: list[int] | None = None  # column starts of an aligned listing, from its -H header
    if prompt:
        out.hostname = prompt.host
        fmt, sep = _fmt_fields(prompt.command)
    for idx in range(start, len(lines)):
        lineno = idx + 1
        line = lines[idx].rstrip()
        s = line.strip()
        if not s or is_bare_prompt(s):
            continue
        head = _header_fields(s) if not out.records else None
        if head is not None:
            names, hsep = head
            if fmt is None and names not in _DEFAULT_COLUMNS:
                fmt, sep = names, hsep  # -H names the columns of a -F listing
            if fmt == names and sep == " ":
                starts = _column_starts(line, names)
            continue
        if _HEADER.match(s):
            continue
        if re.match(r"^-{4,}[\s-]*$", s):
            continue
        if fmt:
            if starts is not None:
                values = _by_columns(line, starts)
                out.records.append(_entry(fmt, values, lineno))
                continue
            values = s.split(sep, len(fmt) - 1) if sep != " " else s.split(None, len(fmt) - 1)
            if len(values) != len(fmt):
                out.warn(lineno, f"expected {len(fmt)} fields ({sep.strip() or 'space'}-separated), found {len(values)}")
            if values and values[0]:
                out.records.append(_entry(fmt, values, lineno))
            continue
        m = _ROW.match(s)
        if m:
            rest = m.group("rest") or ""
            loc, desc = _split_rest(rest)  # location absent for virtual devices and in VIOS output
            out.records.append(DeviceEntry(m.group("name"), m.group("status"), loc, re.sub(r"\s{2,}", " ", desc), lineno))
            continue
        if ":" in s and re.match(r"^[A-Za-z][\w.-]*:", s) and not re.search(r":(True|False)$", s):
            rec = _colon_row(s, lineno)
            if rec:
                out.records.append(rec)
                continue
        out.warn(lineno, f"not a device row: {s[:60]!r}")
    return out
