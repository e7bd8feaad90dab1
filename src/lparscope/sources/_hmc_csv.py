"""Shared reader for HMC CLI output: the attribute=value CSV form and the ``-F`` value form.

HMC commands (``lssyscfg``, ``lshwres``, ``lslparutil``, ``lshmc``) print one object per
line as ``name=value`` pairs separated by commas. A pair whose value holds a comma is
double-quoted as a whole, and a list element that itself holds commas is quoted again
with doubled quotes::

    name=normal,lpar_id=2,"io_slots=21040003/none/1,21020003/none/1",virtual_scsi_adapters=none
    name=test_1,"virtual_eth_adapters=""2/1/1/3,4,5/0/1""\",boot_mode=sms

A quoted value may span lines (``lshmc -V``). With ``-F a,b,c`` the HMC prints only the
values, in the order asked, separated by the delimiter used in the ``-F`` list.

This module holds the splitter, the command-line reader, the generic :class:`HmcObject`
record and the typed readers for the slash-separated adapter lists of profiles.
Private to the HMC parsers (``hmc_syscfg``, ``hmc_hwres``, ``hmc_util``).
"""

from __future__ import annotations

import csv
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypedDict

from .base import preamble, Parsed, Prompt, command_matches, leading_prompt, split_lines, strip_ansi, to_float, to_int

_KEY_RE = re.compile(r"^[A-Za-z_][\w.]*$")
NONE_VALUES = frozenset({"", "none", "null", "unavailable", "n/a"})
# "HSCL0001 ...", "HSCLA4C0 The managed system does not support ..." (HMC error messages)
MESSAGE_RE = re.compile(r"^(?P<code>HSC[A-Z][0-9A-F]{3,5})\s+(?P<text>.+)$")
NO_RESULTS_RE = re.compile(r"^No results were found\.?\s*$", re.I)
DUMP_MARKER_RE = re.compile(r"^###command:(?P<cmd>.*?)###\s*$")


# --- records -------------------------------------------------------------------------


@dataclass
class HmcObject:
    """One object of ``lssyscfg`` / ``lshwres`` (and other attribute=value HMC listings).

    ``resource`` names what the line describes: "sys", "lpar", "prof", "proc-sys",
    "proc-lpar", "proc-pool", "procpool", "mem-sys", "mem-lpar", "veth", "vscsi", "vfc",
    "vserial", "vslot", "io-slot", ... ``system`` is the managed system (``-m`` on the
    command line, or the object's own name for ``-r sys``).
    """

    resource: str
    attrs: dict[str, str]
    line: int
    system: str | None = None
    lines: dict[str, int] = field(default_factory=dict)

    def get(self, key: str) -> str | None:
        """The value, or None when absent or one of none/null/unavailable."""
        v = self.attrs.get(key)
        return None if v is None or v.strip().lower() in NONE_VALUES else v

    def int(self, key: str) -> int | None:
        return as_int(self.attrs, key)

    def float(self, key: str) -> float | None:
        return as_float(self.attrs, key)

    @property
    def name(self) -> str | None:
        """Partition name (``lpar_name``) or, failing that, the object's ``name``."""
        return self.attrs.get("lpar_name") or self.attrs.get("name")

    @property
    def lpar_id(self) -> int | None:
        return as_int(self.attrs, "lpar_id")


@dataclass
class HmcMessage:
    """An HMC error or information message printed instead of data (``HSCLA4C0 ...``)."""

    code: str
    text: str
    line: int
    command: str | None = None


# --- typed value readers ---------------------------------------------------------------


def as_int(attrs: dict[str, str], key: str) -> int | None:
    v = attrs.get(key)
    return None if v is None or v.strip().lower() in NONE_VALUES else to_int(v)


def as_float(attrs: dict[str, str], key: str) -> float | None:
    v = attrs.get(key)
    return None if v is None or v.strip().lower() in NONE_VALUES else to_float(v)


def as_bool(attrs: dict[str, str], key: str) -> bool | None:
    """1/0, true/false, yes/no, on/off; None when absent or unreadable."""
    v = (attrs.get(key) or "").strip().lower()
    if v in {"1", "true", "yes", "on", "enabled"}:
        return True
    if v in {"0", "false", "no", "off", "disabled"}:
        return False
    return None


def ratio(value: str | None) -> int | None:
    """The divisor of an HPT ratio: "1:64" -> 64; None when not a ratio."""
    m = re.match(r"^\s*1\s*:\s*(\d+)\s*$", value or "")
    return int(m.group(1)) if m else None


def split_list(value: str | None) -> list[str]:
    """Elements of a comma list; an element holding commas is double-quoted (``"2/1/1/3,4,5/0/1"``)."""
    if value is None or value.strip().lower() in NONE_VALUES:
        return []
    try:
        row = next(csv.reader([value.strip()], skipinitialspace=True))
    except (csv.Error, StopIteration):
        row = value.split(",")
    return [e.strip() for e in row if e.strip()]


def int_list(value: str | None) -> list[int]:
    """VLAN ids and the like: "10,11" -> [10, 11] (non-numbers skipped)."""
    out = []
    for e in split_list(value):
        n = to_int(e)
        if n is not None:
            out.append(n)
    return out


def _opt_int(text: str) -> int | None:
    return None if text.strip().lower() in NONE_VALUES | {"any"} else to_int(text)


def _flag(text: str) -> bool | None:
    t = text.strip()
    return True if t == "1" else False if t == "0" else None


# --- profile adapter lists -------------------------------------------------------------


class VethAdapter(TypedDict):
    slot: int | None
    ieee_virtual_eth: bool | None
    pvid: int | None
    vlans: list[int]  # additional (802.1Q) VLAN ids
    trunk_priority: int  # 0 = not a trunk adapter
    is_trunk: bool
    is_required: bool | None
    vswitch: str | None
    mac: str | None
    allowed_os_mac: str | None
    qos_priority: str | None
    raw: str


class VscsiAdapter(TypedDict):
    slot: int | None
    adapter_type: str  # "client" / "server"
    remote_lpar_id: int | None  # None for "any"
    remote_lpar_name: str | None
    remote_slot: int | None
    is_required: bool | None
    raw: str


class VfcAdapter(TypedDict):
    slot: int | None
    adapter_type: str
    remote_lpar_id: int | None
    remote_lpar_name: str | None
    remote_slot: int | None
    wwpns: list[str]
    is_required: bool | None
    raw: str


class SerialAdapter(TypedDict):
    slot: int | None
    adapter_type: str
    supports_hmc: bool | None
    remote_lpar_id: int | None
    remote_lpar_name: str | None
    remote_slot: int | None
    is_required: bool | None
    raw: str


class IoSlot(TypedDict):
    drc_index: str
    slot_io_pool_id: str | None
    is_required: bool | None
    raw: str


def _parts(raw: str, n: int) -> list[str]:
    p = raw.split("/")
    return p + [""] * (n - len(p))


def parse_veth_adapters(value: str | None) -> list[VethAdapter]:
    """``virtual_eth_adapters`` of a profile.

    Element: ``slot/ieee_virtual_eth/port_vlan_id/[addl_vlan_ids]/[trunk_priority]/is_required
    [/[vswitch]/[mac]/[allowed_os_mac_addrs]/[qos_priority]]``; e.g. ``7/0/7//1/0`` is a trunk
    adapter of priority 1 in slot 7 with PVID 7.
    """
    out: list[VethAdapter] = []
    for raw in split_list(value):
        p = _parts(raw, 10)
        prio = to_int(p[4]) or 0
        out.append(VethAdapter(
            slot=to_int(p[0]), ieee_virtual_eth=_flag(p[1]), pvid=to_int(p[2]), vlans=int_list(p[3]),
            trunk_priority=prio, is_trunk=prio > 0, is_required=_flag(p[5]), vswitch=p[6] or None,
            mac=p[7] or None, allowed_os_mac=p[8] or None, qos_priority=p[9] or None, raw=raw))
    return out


def parse_vscsi_adapters(value: str | None) -> list[VscsiAdapter]:
    """``virtual_scsi_adapters``: ``slot/client|server/[remote_lpar_id]/[remote_lpar_name]/[remote_slot]/is_required``."""
    out: list[VscsiAdapter] = []
    for raw in split_list(value):
        p = _parts(raw, 6)
        out.append(VscsiAdapter(slot=to_int(p[0]), adapter_type=p[1], remote_lpar_id=_opt_int(p[2]),
                                remote_lpar_name=p[3] or None, remote_slot=_opt_int(p[4]),
                                is_required=_flag(p[5]), raw=raw))
    return out


def parse_vfc_adapters(value: str | None) -> list[VfcAdapter]:
    """``virtual_fc_adapters``: ``slot/client|server/remote_lpar_id/remote_lpar_name/remote_slot/[wwpns]/is_required``."""
    out: list[VfcAdapter] = []
    for raw in split_list(value):
        p = raw.split("/")
        if len(p) < 7:
            p = p + [""] * (7 - len(p))
        required = p[-1] if len(p) >= 7 else ""
        wwpns = "/".join(p[5:-1]) if len(p) >= 7 else p[5]
        out.append(VfcAdapter(slot=to_int(p[0]), adapter_type=p[1], remote_lpar_id=_opt_int(p[2]),
                              remote_lpar_name=p[3] or None, remote_slot=_opt_int(p[4]),
                              wwpns=[w for w in re.split(r"[,\s]+", wwpns) if w], is_required=_flag(required),
                              raw=raw))
    return out


def parse_serial_adapters(value: str | None) -> list[SerialAdapter]:
    """``virtual_serial_adapters``: ``slot/type/supports_hmc/remote_lpar_id/remote_lpar_name/remote_slot/is_required``."""
    out: list[SerialAdapter] = []
    for raw in split_list(value):
        p = _parts(raw, 7)
        out.append(SerialAdapter(slot=to_int(p[0]), adapter_type=p[1], supports_hmc=_flag(p[2]),
                                 remote_lpar_id=_opt_int(p[3]), remote_lpar_name=p[4] or None,
                                 remote_slot=_opt_int(p[5]), is_required=_flag(p[6]), raw=raw))
    return out


def parse_io_slots(value: str | None) -> list[IoSlot]:
    """``io_slots``: ``drc_index/[slot_io_pool_id]/is_required``."""
    out: list[IoSlot] = []
    for raw in split_list(value):
        p = _parts(raw, 3)
        pool = p[1] if p[1].strip().lower() not in NONE_VALUES else None
        out.append(IoSlot(drc_index=p[0], slot_io_pool_id=pool, is_required=_flag(p[2]), raw=raw))
    return out


# --- the command line ------------------------------------------------------------------


@dataclass
class HmcCommand:
    """What a prompt's HMC command line asks for."""

    program: str = ""
    resource: str | None = None  # -r
    level: str | None = None  # --level
    rsubtype: str | None = None  # --rsubtype
    system: str | None = None  # -m
    fields: list[str] | None = None  # -F list (None: attribute=value form; []: -F alone)
    delimiter: str = ","
    header: bool = False  # --header


def parse_command(command: str) -> HmcCommand:
    try:
        argv = shlex.split(command)
    except ValueError:
        argv = command.split()
    out = HmcCommand(program=argv[0].rsplit("/", 1)[-1] if argv else "")
    i = 1
    while i < len(argv):
        a = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if a == "-r" and nxt:
            out.resource, i = nxt, i + 1
        elif a == "--level" and nxt:
            out.level, i = nxt, i + 1
        elif a == "--rsubtype" and nxt:
            out.rsubtype, i = nxt, i + 1
        elif a == "-m" and nxt:
            out.system, i = nxt, i + 1
        elif a == "--header":
            out.header = True
        elif a == "-F":
            if nxt is not None and not nxt.startswith("-"):
                m = re.search(r"[^\w]", nxt)
                out.delimiter = m.group() if m else ","
                out.fields = [f for f in nxt.split(out.delimiter) if f]
                i += 1
            else:
                out.fields = []
        i += 1
    return out


_VIO_NAMES = {"eth": "veth", "scsi": "vscsi", "fc": "vfc", "serial": "vserial", "slot": "vslot"}


def resource_name(cmd: HmcCommand) -> str | None:
    """The record resource for a command: ``lshwres -r proc --level lpar`` -> "proc-lpar"."""
    r = cmd.resource
    if not r:
        return None
    if cmd.program == "lshwres":
        if r in ("proc", "mem"):
            return f"{r}-{cmd.level or 'sys'}"
        if r == "virtualio":
            base = _VIO_NAMES.get(cmd.rsubtype or "", f"virtualio-{cmd.rsubtype or 'unknown'}")
            return f"{base}-sys" if cmd.level == "sys" else base
        if cmd.rsubtype:
            return f"{r}-{cmd.rsubtype}"
        return r
    if cmd.program == "lslparutil":
        return "util-config" if r == "config" else r
    return r


def infer_resource(attrs: dict[str, str]) -> str | None:
    """The resource of an attribute=value line read without its command line."""
    k = attrs.keys()
    if "resource_type" in k and "time" in k:
        return f"util-{attrs['resource_type']}"  # an lslparutil event
    if "type_model" in k and "serial_num" in k:
        return "sys"
    if "type_model_serial_num" in k and ("sp" in k or "sp_phys_loc" in k):
        return "sysconn"
    if "problem_num" in k and "refcode" in k:
        return "svcevent"
    if "lpar_name" in k and ("desired_mem" in k or "desired_procs" in k or "desired_proc_units" in k):
        return "prof"
    if "name" in k and "lpar_env" in k and "lpar_name" not in k:
        return "lpar"
    if "configurable_sys_proc_units" in k or "installed_sys_proc_units" in k:
        return "proc-sys"
    if "curr_avail_pool_proc_units" in k or "configurable_pool_proc_units" in k:
        return "proc-pool"
    if "shared_proc_pool_id" in k and ("max_pool_proc_units" in k or "curr_reserved_pool_proc_units" in k
                                       or "lpar_names" in k):
        return "procpool"
    if "curr_proc_mode" in k or "curr_proc_units" in k or "curr_procs" in k:
        return "proc-lpar"
    if "configurable_sys_mem" in k or "installed_sys_mem" in k:
        return "mem-sys"
    if "curr_mem" in k or "curr_min_mem" in k:
        return "mem-lpar"
    if "slot_num" in k and "port_vlan_id" in k:
        return "veth"
    if "slot_num" in k and "adapter_type" in k:
        if "wwpns" in k or "topology" in k:
            return "vfc"
        if "supports_hmc" in k or "connect_status" in k:
            return "vserial"
        return "vscsi"
    if "curr_max_virtual_slots" in k:
        return "vslot"
    if "drc_index" in k and ("unit_phys_loc" in k or "phys_loc" in k or "drc_name" in k):
        return "io-slot"
    if "version" in k and "base_version" in k:
        return "hmc-version"
    if "hostname" in k and ("ipaddr" in k or "slipipaddr" in k):
        return "hmc-network"
    if "ssh" in k and "remotewebui" in k:
        return "hmc-remote"
    if k == {"vpd"}:
        return "hmc-vpd"
    return None


SYSCFG_RESOURCES = frozenset({"sys", "lpar", "prof", "sysprof", "frame", "sysconn", "svcevent"})
HMC_RESOURCES = frozenset({"hmc-version", "hmc-network", "hmc-remote", "hmc-vpd"})
HWRES_RESOURCES = frozenset({"proc-sys", "proc-lpar", "proc-pool", "procpool", "mem-sys", "mem-lpar", "veth",
                             "vscsi", "vfc", "vserial", "vslot", "io-slot"})


# --- reading lines ---------------------------------------------------------------------


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
        buf = line
        while buf.count('"') % 2 == 1 and i + 1 < end:
            i += 1
            buf += "\n" + lines[i]
        out.append((first, buf))
        i += 1
    return out


def split_fields(record: str, delimiter: str = ",") -> list[str]:
    """CSV fields of one record (quotes removed, ``""`` unescaped, blanks around fields dropped)."""
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
            last = key.strip()
            out[last] = value.strip("\n").strip()
        elif last is not None and f:
            out[last] += "," + f  # an unquoted comma inside a value
        elif f:
            return None
    return out or None


def field_lines(record: str, first_line: int) -> dict[str, int]:
    """1-based line of each attribute of a (possibly multi-line) record."""
    out: dict[str, int] = {}
    for n, part in enumerate(record.split("\n")):
        for m in re.finditer(r'(?:^|,)\s*(?:"\s*)?([A-Za-z_][\w.]*)=', part):
            out.setdefault(m.group(1), first_line + n)
    return out


def values_record(record: str, cmd: HmcCommand, header: list[str] | None) -> dict[str, str] | None:
    """A ``-F`` line: values in the order of the ``-F`` list (or of the --header line)."""
    names = header or cmd.fields
    if not names:
        return None
    values = split_fields(record, cmd.delimiter)
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
    markers = [(i, DUMP_MARKER_RE.match(ln.strip())) for i, ln in enumerate(lines)]
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


def read_section(lines: list[str], sec: Section) -> ReadResult:
    """Objects (attribute dicts), HMC messages and unreadable lines of one section."""
    out = ReadResult()
    cmd = sec.command or HmcCommand()
    header: list[str] | None = None
    for first, rec in logical_records(lines, sec.start, sec.end):
        lineno = first + 1
        stripped = rec.strip()
        if NO_RESULTS_RE.match(stripped):
            continue
        if rec.count('"') % 2 == 1:
            out.unread.append((lineno, stripped + "  (unterminated quote)"))
            continue
        m = MESSAGE_RE.match(stripped)
        if m:
            out.messages.append(HmcMessage(m.group("code"), m.group("text").strip(), lineno,
                                           sec.prompt.command if sec.prompt else None))
            continue
        if cmd.fields is not None and cmd.fields == [] and cmd.header and header is None:
            header = split_fields(stripped, cmd.delimiter)
            continue
        if cmd.fields and cmd.header and header is None and split_fields(stripped, cmd.delimiter) == cmd.fields:
            header = cmd.fields
            continue
        if cmd.fields is not None:
            attrs = values_record(rec, cmd, header)
            if attrs is not None:
                out.objects.append((lineno, attrs, {k: lineno for k in attrs}))
                continue
        attrs = parse_attrs(rec)
        if attrs is not None:
            out.objects.append((lineno, attrs, field_lines(rec, lineno)))
            continue
        out.unread.append((lineno, stripped))
    return out


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
    """For detect(): the leading prompt, the first attribute dicts, and how many records were read."""
    lines = split_lines(strip_ansi(text))[:200]
    prompt, start = leading_prompt(lines)
    recs = logical_records(lines, start)[:limit]
    objs = [a for a in (parse_attrs(r) for _, r in recs) if a]
    return prompt, objs, len(recs)


OUR_PROGRAMS = frozenset({"lssyscfg", "lshwres", "lslparutil", "lshmc"})


def hmc_objects(result: ReadResult, sec: Section) -> list[HmcObject]:
    """:class:`HmcObject` records of a section, their resource taken from the command or the content."""
    cmd = sec.command or HmcCommand()
    named = resource_name(cmd) if cmd.program in OUR_PROGRAMS else None
    out = []
    for lineno, attrs, lines in result.objects:
        resource = named or infer_resource(attrs) or cmd.program or "unknown"
        system = cmd.system
        if system is None and resource == "sys":
            system = attrs.get("name")
        out.append(HmcObject(resource, attrs, lineno, system, lines))
    return out


def warn_unread(parsed: Parsed, result: ReadResult, sec: Section) -> None:
    """Warn about lines that are neither data nor HMC messages, for our own commands only."""
    if sec.command is not None and sec.command.program not in OUR_PROGRAMS:
        return
    for lineno, text in result.unread:
        parsed.warn(lineno, f"not an HMC attribute line: {text[:60]!r}")
