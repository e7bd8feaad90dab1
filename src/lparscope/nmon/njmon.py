"""njmon for AIX recordings (JSON, one object per snapshot) read into the same :class:`NmonRecording`
as an nmon file, so that sizing, the series checks, the charts and the store read them alike.

Input: ``njmon -s 60 -c 1440 -f`` writes ``host_yymmdd_hhmm.json``. From version 50 on each snapshot
is one JSON object on one line; older versions indent the objects and put them inside braces that
do not make one JSON document (``{ {...}, {...} }``). Both are read, and so is a document holding
a ``samples`` list. One snapshot (values made up)::

    {"identity": {"hostname": "aix9", "njmon_version": "njmon4AIX-v65-..."},
     "timestamp": {"datetime": "2024-03-04T10:00:00", "UTC": "2024-03-04T09:00:00", "snapshot_seconds": 60},
     "server": {"serial_no": "7812345", "lpar_number_name": "5,aix9", "machine_type": "IBM-9009-42A"},
     "config": {"entitled_proc_capacity": 0.4, "vcpus_online": 4, "lcpus": 16, "activecpusinpool": 8, ...},
     "partition_type": {"capped": 0, "shared_enabled": 1, "smt_enabled": 1, ...},
     "cpu_util": {"physical_consumed": 1.187, "entitlement": 0.4, "user_pct": 95.3, "kern_pct": 3.7, ...},
     "kernel": {"run_queue": 4.0, ...}, "memory": {"real_total": 18350080, "real_free": 4636394, ...},
     "disks": {"hdisk0": {"busy": 0.6, "read_blks": 1.6, "write_blks": 254.4, "blocksize": 512, "xfers": 15.0}},
     "network_interfaces": {"en0": {"ibytes": 1320.0, "obytes": 781.3, ...}},
     "fc_adapters": {"fcs0": {"InputBytes": 0.0, "OutputBytes": 0.0, ...}}}

Output: the tables nmon has for the same measurements, with nmon's column names and units: LPAR
(PhysicalCPU, entitled, virtualCPUs, logicalCPUs, poolCPUs, weight, Capped, Pool_id), CPU_ALL
(User% Sys% Wait% Idle%), PROC (Runnable, Swap-in), MEM (MB), PAGE (per second), DISKBUSY,
DISKREAD / DISKWRITE (KB/s), DISKXFER, NET (KB/s), FCREAD / FCWRITE (KB/s), FCXFERIN / FCXFEROUT (virtual
FC client adapters from ``disk_adapters``, see :func:`_fc_rows`); the header as nmon's AAA lines name
it (host, SerialNumber, MachineType, LPARNumberName, cpus, interval) with njmon's own keys for the AIX
level and processor (aix_version, aix_technology_level, aix_service_pack, processorFamily,
cpus_description: ``NmonRecording.oslevel`` / ``processor`` read them); the last
snapshot's partition configuration (``config``, ``partition_type``) as ``rec.partition``. Rates
are njmon's own (per second over its interval); each row keeps its snapshot's line.

Tolerance: a snapshot cut short (the file of a running njmon), text that is not JSON, a value
that is not a number (NaN): each is a line-numbered warning, and the rest is read.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from collections.abc import Iterator
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np

from ..numbers import json_number
from .model import NAIVE, NmonRecording, NmonTable

_DECODER = json.JSONDecoder()


def _num(v: Any) -> float:
    """A table value: the JSON number, NaN when it is none (or not finite, or past a 64-bit counter)."""
    x = json_number(v)
    return float("nan") if x is None else x


def _sub(d: Any, *keys: str) -> Any:
    for k in keys:
        d = d.get(k) if isinstance(d, dict) else None
    return d


def _section(d: Any, key: str) -> dict[str, Any]:
    """A section of a snapshot as a dict ({} when it is missing or not an object)."""
    v = _sub(d, key)
    return v if isinstance(v, dict) else {}


class _Tables:
    """Rows by table, each row a dict of column -> value, with its snapshot index."""

    def __init__(self) -> None:
        self.rows: dict[str, list[tuple[int, dict[str, float]]]] = {}
        self.columns: dict[str, dict[str, None]] = {}  # first-seen order

    def add(self, table: str, snap: int, row: dict[str, float]) -> None:
        if not row:
            return
        self.rows.setdefault(table, []).append((snap, row))
        cols = self.columns.setdefault(table, {})
        for c in row:
            cols.setdefault(c, None)


_TITLES = {"LPAR": "Logical Partition", "CPU_ALL": "CPU Total", "PROC": "Processes", "MEM": "Memory MB",
           "PAGE": "Paging", "DISKBUSY": "Disk %Busy", "DISKREAD": "Disk Read KB/s", "DISKWRITE": "Disk Write KB/s",
           "DISKXFER": "Disk transfers per second", "NET": "Network I/O", "FCREAD": "Fibre Channel Read KB/s",
           "FCWRITE": "Fibre Channel Write KB/s",
           "FCXFERIN": "Fibre Channel Transfers In/s", "FCXFEROUT": "Fibre Channel Transfers Out/s"}


def _snapshot_rows(s: dict[str, Any], snap: int, t: _Tables) -> None:
    """The table rows of one snapshot (columns and units as nmon's)."""
    cfg, util, ptype = _section(s, "config"), _section(s, "cpu_util"), _section(s, "partition_type")
    lpar = {"PhysicalCPU": _num(util.get("physical_consumed")),
            "entitled": _num(util.get("entitlement", cfg.get("entitled_proc_capacity"))),
            "virtualCPUs": _num(cfg.get("vcpus_online")), "logicalCPUs": _num(cfg.get("lcpus")),
            "poolCPUs": _num(cfg.get("activecpusinpool")), "weight": _num(cfg.get("cpucap_weightage")),
            "Capped": _num(ptype.get("capped")), "Pool_id": _num(cfg.get("processor_poolid"))}
    if util:
        t.add("LPAR", snap, lpar)
        t.add("CPU_ALL", snap, {"User%": _num(util.get("user_pct")), "Sys%": _num(util.get("kern_pct")),
                                "Wait%": _num(util.get("wait_pct")), "Idle%": _num(util.get("idle_pct"))})
    kernel = _sub(s, "kernel")
    if isinstance(kernel, dict):
        t.add("PROC", snap, {"Runnable": _num(kernel.get("run_queue")), "Swap-in": _num(kernel.get("swp_queue"))})
    mem = _sub(s, "memory")
    if isinstance(mem, dict):  # perfstat counts memory in 4 KB pages
        mb = {k: _num(mem.get(k)) * 4 / 1024 for k in ("real_free", "real_total", "pgsp_free", "pgsp_total")}
        t.add("MEM", snap, {"Real free(MB)": mb["real_free"], "Virtual free(MB)": mb["pgsp_free"],
                            "Real total(MB)": mb["real_total"], "Virtual total(MB)": mb["pgsp_total"]})
        t.add("PAGE", snap, {"pgin": _num(mem.get("pgins")), "pgout": _num(mem.get("pgouts")),
                             "pgsin": _num(mem.get("pgspins")), "pgsout": _num(mem.get("pgspouts")),
                             "scans": _num(mem.get("scans")), "cycles": _num(mem.get("cycles"))})
    disks = _sub(s, "disks")
    if isinstance(disks, dict):
        busy, read, write, xfer = {}, {}, {}, {}
        for name, d in disks.items():
            if not isinstance(d, dict):
                continue
            block = _num(d.get("blocksize"))
            block = block if block > 0 else 512.0  # the read/write counts are in blocks
            busy[name], xfer[name] = _num(d.get("busy")), _num(d.get("xfers"))
            read[name], write[name] = _num(d.get("read_blks")) * block / 1024, _num(d.get("write_blks")) * block / 1024
        for table, row in (("DISKBUSY", busy), ("DISKREAD", read), ("DISKWRITE", write), ("DISKXFER", xfer)):
            t.add(table, snap, row)
    nets = _sub(s, "network_interfaces")
    if isinstance(nets, dict):
        net: dict[str, float] = {}
        for name, n in nets.items():
            if isinstance(n, dict):
                net[f"{name}-read-KB/s"], net[f"{name}-write-KB/s"] = _num(n.get("ibytes")) / 1024, _num(n.get("obytes")) / 1024
        t.add("NET", snap, net)
    _fc_rows(s, snap, t)


def _fc_rows(s: dict[str, Any], snap: int, t: _Tables) -> None:
    """FCREAD / FCWRITE (KB/s) and FCXFERIN / FCXFEROUT (per second) of each FC adapter. A virtual FC
    client adapter (``disk_adapters`` entry described ``Virtual Fibre Channel Client Adapter``) has
    its traffic there (``read_kb``, ``write_kb``, ``rtransfers``, ``wtransfers``) while ``fc_adapters``
    shows it as a port whose link is down: those values are used when ``fc_adapters`` gives it none."""
    fr: dict[str, float] = {}
    fw: dict[str, float] = {}
    xi: dict[str, float] = {}
    xo: dict[str, float] = {}
    for k, v in _section(s, "fc_adapters").items():
        if isinstance(v, dict):
            fr[k], fw[k] = _num(v.get("InputBytes")) / 1024, _num(v.get("OutputBytes")) / 1024
            xi[k], xo[k] = _num(v.get("InputRequests")), _num(v.get("OutputRequests"))
    for k, v in _section(s, "disk_adapters").items():
        if not isinstance(v, dict) or "virtual fibre channel client" not in str(v.get("description", "")).lower():
            continue
        if fr.get(k, 0.0) > 0 or fw.get(k, 0.0) > 0:  # fc_adapters has its traffic (NaN > 0 is False)
            continue
        fr[k], fw[k] = _num(v.get("read_kb")), _num(v.get("write_kb"))
        xi[k], xo[k] = _num(v.get("rtransfers")), _num(v.get("wtransfers"))
    for table, row in (("FCREAD", fr), ("FCWRITE", fw), ("FCXFERIN", xi), ("FCXFEROUT", xo)):
        t.add(table, snap, row)


_SAMPLE_START = re.compile(r'\{\s*"(?:identity|timestamp)"')
WARN_DAMAGED = 20  # damaged snapshots named one by one; the rest are counted


def _objects(text: str, rec: NmonRecording) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every snapshot object of the text with its first line, whatever wraps them, one at a time
    (a day's recording holds thousands). A damaged snapshot is named and skipped: the scan goes on
    inside it until the next one starts."""
    pos, line, counted, damaged = 0, 1, 0, 0
    end_of_text = len(text.rstrip())
    while True:
        start = text.find("{", pos)
        if start < 0:
            break
        line += text.count("\n", counted, start)
        counted = start
        try:
            obj, end = _DECODER.raw_decode(text, start)
        except RecursionError:  # nested past what the decoder follows: no njmon snapshot is
            rec.warnings.append((line, "JSON nested too deeply: the rest of the file is not read"))
            break
        except json.JSONDecodeError as exc:
            if _SAMPLE_START.match(text, start):
                if exc.pos >= end_of_text - 1 or not _SAMPLE_START.search(text, start + 1):
                    # the last snapshot does not end: the file stops inside it (njmon was still writing)
                    rec.warnings.append((line, "snapshot cut short (the file ends inside it): not read"))
                    break
                damaged += 1
                if damaged <= WARN_DAMAGED:
                    rec.warnings.append((line, f"damaged snapshot ({exc.msg} at line {exc.lineno}): not read"))
            pos = start + 1  # an old njmon file's outer brace, or inside a damaged snapshot
            continue
        if isinstance(obj, dict) and isinstance(obj.get("samples"), list):
            yield from ((line, o) for o in obj["samples"] if isinstance(o, dict))
        elif isinstance(obj, dict) and ("timestamp" in obj or "identity" in obj):
            yield line, obj
        pos = end
    if damaged > WARN_DAMAGED:
        rec.warnings.append((1, f"{damaged} damaged snapshots in all ({damaged - WARN_DAMAGED} more than named)"))


def _when(s: dict[str, Any], tz: str | None) -> datetime | None:
    stamp = _sub(s, "timestamp", "datetime")
    try:
        when = datetime.fromisoformat(str(stamp)) if stamp else None
    except ValueError:
        return None
    if when is not None and tz:
        when = when.replace(tzinfo=ZoneInfo(tz))
    return when


def read_njmon(text: str, tz: str | None = None) -> NmonRecording:
    """An njmon recording (its text) as an :class:`NmonRecording` (see the module doc)."""
    if tz:
        ZoneInfo(tz)  # an unknown zone raises ValueError, as read_nmon's does
    rec = NmonRecording(tz=tz or NAIVE)
    rec.bytes_read, rec.lines = len(text), text.count("\n")
    t = _Tables()
    snaps: list[tuple[int, int, datetime]] = []  # (snapshot, line, time)
    last_seen: dict[str, Any] = {}
    for line, s in _objects(text, rec):
        when = _when(s, tz)
        if when is None:
            rec.warnings.append((line, "snapshot without a readable timestamp.datetime: not read"))
            continue
        snap = len(snaps) + 1
        snaps.append((snap, line, when))
        _snapshot_rows(s, snap, t)
        last_seen = {"sample": s, "line": line}
    if not snaps:
        if not rec.warnings:
            rec.warnings.append((1, "no njmon snapshot found"))
        return rec
    rec.times = {f"T{snap:04d}": when for snap, _, when in snaps}
    utc = np.array([(w.astimezone(ZoneInfo("UTC")).replace(tzinfo=None) if w.tzinfo else w) for _, _, w in snaps],
                   dtype="datetime64[s]")
    line_of = np.array([ln for _, ln, _ in snaps], np.int64)
    for name, rows in t.rows.items():
        cols = list(t.columns[name])
        values = np.full((len(rows), len(cols)), np.nan)
        for r, (_, row) in enumerate(rows):
            for c, col in enumerate(cols):
                values[r, c] = row.get(col, np.nan)
        index = np.array([snap - 1 for snap, _ in rows], np.int64)
        rec.tables[name] = NmonTable(name, _TITLES.get(name, name), cols, index + 1, utc[index], values,
                                     int(line_of[index[0]]), line_of[index])
    _header(rec, last_seen["sample"], snaps[0][1], len(snaps))
    last = last_seen["sample"]
    rec.partition = {"config": _section(last, "config"), "partition_type": _section(last, "partition_type"),
                     "server": _section(last, "server"), "line": last_seen["line"]}
    return rec


def _header(rec: NmonRecording, s: dict[str, Any], line: int, snapshots: int) -> None:
    ident, server, cfg = _section(s, "identity"), _section(s, "server"), _section(s, "config")
    details = _section(s, "cpu_details")
    rec.host = str(ident.get("hostname") or server.get("uname_node") or cfg.get("nodename") or "") or None
    machine = str(server.get("machine_type") or "")
    header = {"progname": "njmon", "version": ident.get("njmon_version"), "host": rec.host,
              "SerialNumber": server.get("serial_no"), "LPARNumberName": server.get("lpar_number_name"),
              "MachineType": machine.replace("IBM-", "IBM,", 1) if machine.startswith("IBM-") else machine or None,
              "cpus": cfg.get("lcpus"), "interval": _sub(s, "timestamp", "snapshot_seconds"),
              "snapshots": snapshots, "aix_version": server.get("aix_version"),
              "aix_technology_level": server.get("aix_technology_level"),
              "aix_service_pack": server.get("aix_service_pack"), "processorFamily": cfg.get("processorFamily"),
              "cpus_description": details.get("cpus_description")}
    rec.header = {k: str(v) for k, v in header.items() if v not in (None, "") and not isinstance(v, (dict, list))}
    rec.header_lines = {k: line for k in rec.header}
