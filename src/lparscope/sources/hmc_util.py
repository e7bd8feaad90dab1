"""HMC utilisation samples (``lslparutil``) and HMC identity (``lshmc -V`` / ``-n`` / ``-r``).

Input (``lslparutil -r lpar``, one event per line, attribute=value CSV)::

    hscroot@hmc1:~> lslparutil -r lpar -m p9frame1 -n 2
    time=03/14/2024 10:15:00,event_type=sample,resource_type=lpar,sys_time=03/14/2024 10:14:58,time_cycles=3785641241622855,lpar_name=aix1,lpar_id=3,curr_proc_mode=shared,curr_proc_units=0.5,curr_procs=2,curr_sharing_mode=uncap,curr_uncap_weight=128,curr_shared_proc_pool_name=DefaultPool,curr_shared_proc_pool_id=0,mem_mode=ded,curr_mem=8192,entitled_cycles=81266125486213,capped_cycles=29861552378714,uncapped_cycles=1234657764,idle_cycles=23577711271265

Output: one :class:`UtilTable` per command output, a column per attribute (``_hmc_util_table``);
its row ``i`` is the ``i``-th event, ``table.sample(i)`` gives it as a :class:`UtilSample`, numbers as
floats (cycle counters are cumulative: the model takes differences between samples)::

    UtilSample(time=datetime(2024, 3, 14, 10, 15), resource="lpar", lpar_name="aix1", lpar_id=3,
               attrs={"curr_proc_units": 0.5, "entitled_cycles": 81266125486213.0,
                      "curr_sharing_mode": "uncap", ...}, line=2, system="p9frame1",
               event_type="sample")

Also read: ``-r sys|pool|procpool|mempool`` events, ``-F`` value lines (``time,entitled_cycles``
with the names from the command line), ``-r config`` (an :class:`HmcObject`).

``lshmc -V`` (a quoted value over several lines), ``lshmc -n`` and ``lshmc -r`` give one
:class:`HmcInfo`::

    "version= Version: 8
     Release: 8.2.0
     Service Pack: 0
    HMC Build level 20141006.3
    ","base_version=V8R8.2.0
    "

    HmcInfo(what="version", attrs={"version": "8", "release": "8.2.0", "service_pack": "0",
            "build_level": "20141006.3", "base_version": "V8R8.2.0"}, line=1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import _hmc_command as hcmd
from . import _hmc_csv as hc
from . import _hmc_values as hv
from . import _hmc_util_table as ut
from . import _hmc_util_listing as listing
from ._hmc_util_times import unread_note
from . import _vpd
from ._hmc_adapters import VNIC_BACKING_RE, vnic_backings
from .base import Parsed

KIND = "lslparutil"
TITLE = "lslparutil -r lpar|pool|procpool|sys"
COMMANDS = [r"^lslparutil\b"]
STARTS = re.compile(r"^time=\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}[ T][\d:]+,")  # the HMC's form, or a locale's

HmcObject = hv.HmcObject
HmcMessage = hv.HmcMessage

UtilSample = ut.UtilSample
UtilTable = ut.UtilTable
samples_of = ut.samples_of


@dataclass
class HmcInfo:
    """What ``lshmc`` says about the HMC: ``what`` is "version", "network", "remote" or "vpd"."""

    what: str
    attrs: dict[str, str]
    line: int
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def base_version(self) -> str | None:
        return self.attrs.get("base_version")

    @property
    def hostname(self) -> str | None:
        return self.attrs.get("hostname")


parse_time = ut.parse_time


def detect(text: str) -> int:
    return hc.detect_objects(text, COMMANDS, lambda o: "time" in o and ("event_type" in o or "resource_type" in o))


# --- lslparutil ------------------------------------------------------------------------


def util_records(lines: list[str], sec: hc.Section) -> tuple[hc.ReadResult, list[object]]:
    """What was read of one lslparutil section, and its records: the events as one :class:`UtilTable`
    (the ``-r config`` settings as :class:`HmcObject`)."""
    cmd = sec.command
    if cmd is not None and cmd.resource != "config" and cmd.fields is None:
        fast = listing.read_plain(lines, sec.start, sec.end, cmd.resource, cmd.system)
        if fast is not None:
            return hc.ReadResult(), [fast]
    result = hc.read_section(lines, sec)
    _join_unquoted_vpd(result)
    if cmd is not None and cmd.resource == "config":
        return result, list(hc.hmc_objects(result, sec))
    rows = [(lineno, attrs, lines) for lineno, attrs, lines in result.objects]
    if cmd is not None and cmd.fields and cmd.resource == "lpar" and not {"lpar_name", "lpar_id"} & set(cmd.fields):
        # "-F time,entitled_cycles,..." with no partition column: the one partition the filter names
        only = cmd.filters.get("lpar_names", []) + cmd.filters.get("lpar_ids", [])
        if len(only) == 1:
            key = "lpar_name" if cmd.filters.get("lpar_names") else "lpar_id"
            rows = [(lineno, {**attrs, key: only[0]}, {**lines, key: sec.start}) for lineno, attrs, lines in rows]  # the command line
        elif rows:
            result.unread.append((rows[0][0], "rows naming no partition: the -F list has no lpar_name or lpar_id "
                                              "and no --filter names one partition"))
            rows = []
    return result, ([ut.table(rows, cmd.resource if cmd else None, cmd.system if cmd else None)] if rows else [])


# --- lshmc -----------------------------------------------------------------------------

_VERSION_LINE = re.compile(r"^\s*(?P<key>Version|Release|Service Pack|HMC Build level)\s*(?::\s*)?(?P<value>\S(?:.*\S)?)\s*$", re.I)


def info_from(attrs: dict[str, str], line: int, lines: dict[str, int]) -> HmcInfo:
    resource = hcmd.infer_resource(attrs) or "hmc"
    what = resource.removeprefix("hmc-")
    out = dict(attrs)
    if what == "version":
        parsed: dict[str, str] = {}
        fixes = []
        for raw in attrs.get("version", "").split("\n"):
            m = _VERSION_LINE.match(raw)
            if m:
                parsed[m.group("key").lower().replace("hmc ", "").replace(" ", "_")] = m.group("value")
            elif raw.strip():
                fixes.append(raw.strip())
        out["version_text"] = out.pop("version", "")
        out.update(parsed)
        if fixes:
            out["fixes"] = "\n".join(fixes)
    if what == "vpd":
        return vpd_info(attrs.get("vpd", ""), line, lines)
    return HmcInfo(what, out, line, lines)


def vpd_info(vpd: str, line: int, lines: dict[str, int]) -> HmcInfo:
    """``lshmc -v``: every ``*XX value`` keyword of the quoted ``vpd=`` value as its own field
    (``type_model``, ``machine_serial``, ``firmware_release`` ...), each with its line."""
    blocks, _ = _vpd.star_blocks(vpd.split("\n"), first_line=lines.get("vpd", line))
    attrs, field_lines = _vpd.flatten(blocks)
    attrs["vpd"] = vpd
    field_lines["vpd"] = lines.get("vpd", line)
    return HmcInfo("vpd", attrs, line, field_lines)


def _join_unquoted_vpd(result: hc.ReadResult) -> None:
    """``vpd=*FC ????????`` printed without quotes: its keyword lines follow as lines of their own."""
    for n, (lineno, attrs, lines) in enumerate(result.objects):
        if set(attrs) != {"vpd"}:
            continue
        after = [(ln, t) for ln, t in result.unread if ln > lineno and t.startswith("*")]
        nxt = next((o[0] for o in result.objects[n + 1:]), None)
        taken = [(ln, t) for ln, t in after if nxt is None or ln < nxt]
        if taken and all(b[0] - a[0] == 1 for a, b in zip([(lineno, "")] + taken, taken)):
            attrs["vpd"] = "\n".join([attrs["vpd"]] + [t for _, t in taken])
            result.unread = [u for u in result.unread if u not in taken]


def lshmc_records(result: hc.ReadResult) -> list[HmcInfo]:
    return [info_from(attrs, lineno, lines) for lineno, attrs, lines in result.objects]


def _said(out: Parsed, result: Any) -> None:
    """An HMC message printed instead of data is said where the output is listed (the command did not
    give what it was asked); "No results were found." is an answer: nothing to list."""
    for m in result.messages:
        out.warn(m.line, f"the HMC printed {m.code} instead of data: {m.text[:160]}")
    if getattr(result, "no_results", False):
        out.empty = "the HMC found nothing to list (No results were found.)"


def parse_hmc(text: str, kind: str) -> Parsed:
    """Any HMC CLI text: a command's output or a ``###command:X###`` dump, records by command or content.

    ``lshmc`` objects become :class:`HmcInfo`, ``lslparutil`` events :class:`UtilSample`, the rest
    (``lssyscfg``, ``lshwres``, other listings of a dump) :class:`HmcObject`; HMC error messages
    become :class:`HmcMessage`. Shared by the lssyscfg, lshwres, lslparutil and lshmc kinds.
    """
    out = Parsed(kind=kind)
    lines, secs = hc.sections(text)
    for sec in secs:
        if sec.prompt and sec.prompt.host:
            out.hostname = sec.prompt.host
        program = sec.command.program if sec.command else ""
        if program == "lslparutil":
            result, records = util_records(lines, sec)
            out.records.extend(result.messages)
            _said(out, result)
            out.records.extend(records)
            for table in records:
                _warn_times(out, table)
            hc.warn_unread(out, result, sec)
            continue
        result = hc.read_section(lines, sec)
        _join_unquoted_vpd(result)
        out.records.extend(result.messages)
        _said(out, result)
        if program == "lshmc":
            out.records.extend(lshmc_records(result))
        elif program:
            out.records.extend(hc.hmc_objects(result, sec))
        else:
            _unnamed_records(out, result, sec)
        hc.warn_unread(out, result, sec)
    if out.hostname is None:
        out.hostname = next((r.hostname for r in out.records if isinstance(r, HmcInfo) and r.hostname), None)
    _warn_unread_vnic_backings(out)
    return out


def _warn_unread_vnic_backings(out: Parsed) -> None:
    """The frame model reads the first fields of each vNIC backing device: say which it cannot
    (an lshwres listing, or the same listing inside a dump any HMC kind reads)."""
    for o in out.records:
        if not (isinstance(o, hv.HmcObject) and o.resource == "vnic"):
            continue
        for item in vnic_backings(o.attrs.get("backing_devices")):
            if not VNIC_BACKING_RE.match(item):
                out.warn(o.lines.get("backing_devices", o.line),
                         f"vNIC slot {o.attrs.get('slot_num')}: backing device {item[:60]!r} not read "
                         "(expected sriov/<VIOS>/<VIOS id>/<adapter id>/<port id>/...)")


def _unnamed_records(out: Parsed, result: hc.ReadResult, sec: hc.Section) -> None:
    """Records of a section without a command line, each kind known from its attributes; its
    lslparutil events become one table, where the first of them was."""
    events: list[tuple[int, dict[str, str], dict[str, int] | None]] = []
    at = 0
    for obj in hc.hmc_objects(result, sec):
        if obj.resource in hcmd.HMC_RESOURCES:
            out.records.append(info_from(obj.attrs, obj.line, obj.lines))
        elif "time" in obj.attrs and "resource_type" in obj.attrs:
            if not events:
                at = len(out.records)
            events.append((obj.line, obj.attrs, obj.lines))
        else:
            out.records.append(obj)
    if events:
        out.records.insert(at, table := ut.table(events, None, None))
        _warn_times(out, table)


def _warn_times(out: Parsed, table: object) -> None:
    """One warning per listing whose times could not all be read (``_hmc_util_times``): its first
    such line, and how many events have no time (they are no samples)."""
    times = getattr(table, "time", None)
    if not isinstance(times, ut.Coded):
        return
    unread = [code for code, v in enumerate(times.values) if isinstance(v, str) and v]
    if not unread:
        return
    import numpy as np

    rows = np.flatnonzero(np.isin(times.codes, unread))
    first = int(rows[0])
    out.warn(int(table.line[first]), unread_note(times[first], len(rows), len(times), table.time_form))  # type: ignore[attr-defined]


def parse(text: str) -> Parsed:
    return parse_hmc(text, KIND)
