"""The versioned JSON report (docs/report-schema.md) - also the input of the HTML report."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any, TextIO

from .. import __version__
from ..dict_views import DictView, DictViews, plain
from ..model.estate import Device, Host
from ..pipeline import Analysis
from ..rules.engine import FINDING_FIELDS
from .citations import cite_dicts
from .frame import frame_section, frame_views

SCHEMA = "lparscope.report/1"


def _str(v: Any) -> str:
    return "" if v is None else str(v)


def _summary(host: Host) -> dict[str, Any]:
    p = host.partition
    get = (lambda name: getattr(p, name)) if p else (lambda name: None)
    return {
        "partition_type": get("type"), "mode": get("mode"), "entitled_capacity": get("entitled_capacity"),
        "virtual_processors": get("online_vps"), "weight": get("weight"),
        "online_memory_mb": get("online_memory_mb"), "maximum_memory_mb": get("max_memory_mb"),
        "memory_mode": get("memory_mode"), "ame_factor": get("ame_factor"),
        "oslevel": host.levels["oslevel"].value if "oslevel" in host.levels else None,
        "ioslevel": host.levels["ioslevel"].value if "ioslevel" in host.levels else None,
        "pool_cores": get("pool_cores"), "system_cores": get("system_cores"),
    }


def _row(dev: Device, *attrs: str) -> dict[str, str]:
    row = {"name": dev.name, "class": dev.cls, "description": dev.description}
    for a in attrs:
        if dev.attr(a) is not None:
            row[a] = _str(dev.attr(a))
    return row


def _inventory(host: Host) -> dict[str, list[dict[str, str]]]:
    devs = sorted(host.devices.values(), key=lambda d: (len(d.name), d.name))
    eth = ("physical", "virtual", "trunk", "sea", "etherchannel", "vlan")
    return {
        "ethernet": [_row(d, "thread", "largesend", "large_receive", "ha_mode", "mode", "hash_mode", "jumbo_frames")
                     for d in devs if d.cls in eth],
        "interfaces": [_row(d, "mtu", "mtu_bypass", "netaddr") for d in devs if d.cls == "interface"],
        "disks": [_row(d, "queue_depth", "max_transfer", "reserve_policy", "algorithm") for d in devs if d.cls == "disk"],
        "fc": [_row(d, "num_cmd_elems", "max_xfer_size") for d in devs if d.cls in ("fc", "fscsi", "vfchost")],
        "vscsi_mappings": [{"vhost": m.vhost, "client_id": _str(m.client_id), "vtd": _str(m.vtd),
                            "backing_device": _str(m.backing_device), "status": _str(m.status)} for m in host.vscsi_mappings],
        "npiv_mappings": [{"vfchost": m.vfchost, "client_id": _str(m.client_id), "client_name": _str(m.client_name),
                           "fc_name": _str(m.fc_name), "status": _str(m.status)} for m in host.npiv_mappings],
        "wpars": [{"name": w.name, "state": _str(w.state), "type": _str(w.type),
                   "os_version": _str(getattr(w, "os_version", None))} for w in host.wpars],
    }


# The long lists of the report are views (dict_views.py): each item's dict is made when read.
_INPUT_FIELDS: dict[str, Callable[[Any], Any]] = {
    "path": lambda i: i.path, "line": lambda i: i.line, "kind": lambda i: i.kind, "host": lambda i: i.host,
    "status": lambda i: i.status, "reason": lambda i: i.reason,
    "warnings": lambda i: [{"line": ln, "message": m} for ln, m in i.warnings],
}
# a host's entry is made from (host, its finding counts by severity)
_HOST_FIELDS: dict[str, Callable[[tuple[Host, dict[str, int]]], Any]] = {
    "name": lambda e: e[0].name, "role": lambda e: e[0].role, "summary": lambda e: _summary(e[0]),
    "inventory": lambda e: _inventory(e[0]), "counts": lambda e: dict(e[1]),
}
_SIZED_HOST_FIELDS = {**_HOST_FIELDS, "sizing": lambda e: e[0].sizing.to_dict()}


def build_report(analysis: Analysis, now: datetime | None = None, views: bool = False) -> dict[str, Any]:
    """The report as a JSON-ready dict. ``views``: its findings, inputs, hosts, frames and planned changes are
    read-only views (dict_views.py) that make each item's dict when it is read, not kept (the command
    line's reports; ``json.dumps`` then needs ``default=dict_views.plain``)."""
    estate = analysis.estate
    by_sev = {s: sum(1 for f in analysis.findings if f.level == s) for s in ("critical", "warning", "info")}
    files = {s: sum(1 for i in estate.inputs if i.status == s) for s in ("parsed", "partly", "unrecognised")}
    per_host: dict[str, dict[str, int]] = {}  # one pass over the findings, not one per host
    for f in analysis.findings:
        c = per_host.setdefault(f.host, {"critical": 0, "warning": 0, "info": 0})
        if f.level in c:
            c[f.level] += 1
    hosts: list[Any] = [DictView((host, dict(per_host.get(host.name) or {"critical": 0, "warning": 0, "info": 0})),
                                 _HOST_FIELDS if host.sizing is None else _SIZED_HOST_FIELDS)
                        for host in sorted(estate.hosts.values(), key=lambda h: (h.role != "vios", h.name))]
    findings: Any = DictViews(analysis.findings, FINDING_FIELDS)  # each finding's dict made when read
    inputs: Any = DictViews(estate.inputs, _INPUT_FIELDS)
    plan = getattr(analysis, "plan", None)
    if not views:
        hosts = [h.to_dict() for h in hosts]
        findings, inputs = [f.to_dict() for f in findings], [i.to_dict() for i in inputs]
    return {
        "schema": SCHEMA,
        "lparscope_version": __version__,
        "generated_at": (now or datetime.now(timezone.utc)).isoformat(timespec="seconds"),
        "summary": {"hosts": len(hosts), "findings": by_sev, "files": files,
                    "repeated_inputs": len(getattr(estate, "repeated_inputs", None) or []),
                    "repeated": [{"path": again, "same_as": first}
                                 for again, first in getattr(estate, "repeated_inputs", None) or []]},
        "inputs": inputs,
        "hosts": hosts,
        "findings": findings,
        "frames": frame_views(estate) if views else frame_section(estate),
        "joins": [n.to_dict() for n in getattr(estate, "joins", None) or []],
        "plan": plan.to_dict(views=views) if plan is not None else None,
        "rules": _rules_used(analysis),
        "problems": list(analysis.problems),
    }


def _rules_used(analysis: Analysis) -> list[dict[str, str]]:
    """Metadata of every rule that produced a finding, so reports can show the rule's text."""
    seen: dict[str, dict[str, str]] = {}
    for f in analysis.findings:
        r = f.rule
        seen.setdefault(r.id, {"id": r.id, "title": r.title, "severity": r.severity, "category": r.category,
                               "source": r.source, "citations": cite_dicts(r.source), "rationale": r.rationale})
    return [seen[k] for k in sorted(seen)]


def dumps(report: dict[str, Any]) -> str:
    return "".join(_pieces(report)) + "\n"


def write_json(report: dict[str, Any], path: Path) -> None:
    """The text of :func:`dumps`, written as it is encoded (a thousand hosts' report is never held
    whole as one string next to its pieces)."""
    write_pieces(chain(_pieces(report), ("\n",)), path)


def write_json_to(report: dict[str, Any], stream: TextIO) -> None:
    """:func:`write_json` to an open text stream (standard output)."""
    for piece in chain(_pieces(report), ("\n",)):
        stream.write(piece)
    stream.flush()


def write_pieces(pieces: Iterable[str], path: Path) -> None:
    """Text made in pieces (a report's), written to ``path`` as it comes, WRITE_CHARS at a time."""
    with open(path, "w", encoding="utf-8") as out:
        chunks: list[str] = []
        size = 0
        for chunk in pieces:
            chunks.append(chunk)
            size += len(chunk)
            if size >= WRITE_CHARS:  # by size, not count: 4,096 findings' lines were 9 MB
                out.write("".join(chunks))
                chunks.clear()
                size = 0
        out.write("".join(chunks))


WRITE_CHARS = 256 * 1024  # text gathered before each write (one write per piece costs a call each)


# json's C encoder (it has none for indented text); views anywhere (an empty list of them too) as plain data
_compact = json.JSONEncoder(ensure_ascii=False, default=plain).encode


def _pieces(value: Any, level: int = 0, item: bool = False) -> Iterator[str]:
    """The report's JSON text, a record per line: the objects and lists that hold records are laid
    out (two spaces a level), and each list item (a finding, an input, a plan step ...) is written
    on one line, so that ``grep aix1`` shows whole findings. Four times faster than ``indent=2``
    (json has a C encoder for compact text only)."""
    if isinstance(value, DictView):
        value = value.to_dict()
    if value and not item and isinstance(value, (list, dict, DictViews)):
        pad, sep = "\n" + "  " * (level + 1), "{" if isinstance(value, dict) else "["
        pairs = value.items() if isinstance(value, dict) else ((None, v) for v in value)
        for key, v in pairs:
            yield sep + pad + ("" if key is None else _compact(_key(key)) + ": ")
            yield from _pieces(v, level + 1, key is None)
            sep = ","
        yield "\n" + "  " * level + ("}" if isinstance(value, dict) else "]")
    else:
        yield _compact(value)


def _key(key: Any) -> str:
    """An object key as json writes it (keys that are not text become text)."""
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, (bool, int, float)):
        return json.dumps(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")
