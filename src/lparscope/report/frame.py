"""The frame section of the report (JSON-ready) and the XLSX export.

``frame_section(estate)`` gives one dict per managed system (``estate.frames``, see
``model/frame.py``): a summary, the processor pool table (EC, VP and measured use per partition
against the pool size), the memory table (assigned / HPT / firmware / free), the virtual network
topology (VIOS, SEA trunk adapters, VLANs, clients), the client <-> VIOS <-> port mapping tables,
the VIOS sizing (``sizing/vios.py``) and the settings that differ from the profiles. Every value is
a string, number, bool, None, list or dict. Everything that comes from an input file is
untrusted: renderers escape it (the HTML partial ``templates/frame.html.j2`` relies on autoescape;
the XLSX export writes every text cell as text, never as a formula).

``export_xlsx(report, path)`` writes the report dict (``report/json_report.py`` plus its
``frames`` key) as a workbook: Findings, Hosts, one sheet per inventory list, and the frame tables.
It needs openpyxl (>= 3.0), imported only when called.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Any

from ..dict_views import DictViews
from ..model.estate import Estate
from ..model.frame import Frame, FramePartition

_SLOT = re.compile(r"-C(\d+)(?:-|$)")


def _slot_of(physloc: str | None) -> int | None:
    m = _SLOT.search(physloc or "")
    return int(m.group(1)) if m else None


def _num(x: float | None, nd: int = 2) -> float | None:
    return None if x is None else round(float(x), nd)


def _pool_table(estate: Estate, fr: Frame) -> list[dict[str, Any]]:
    out = []
    live = [p for p in fr.partitions.values() if p.running_now]
    for pid in sorted({p.pool_id or 0 for p in live if p.shared} | set(fr.pools)):
        pool = fr.pools.get(pid)
        size, _ = fr.pool_size(pid)
        rows = []
        for p in sorted((p for p in live if p.shared and (p.pool_id or 0) == pid), key=lambda p: (p.id or 0, p.name)):
            peak, mean = p.peak_use(), p.mean_use()
            src = getattr(p.use, "origin", "lslparutil") if p.use else None
            h = estate.hosts.get(p.host or "")
            if (peak is None) and h is not None and h.cpu is not None and h.cpu.values("physc"):
                v = h.cpu.values("physc")
                peak, mean, src = max(v), sum(v) / len(v), "lparstat"
            rows.append({"partition": p.name, "host": p.host, "join": p.join, "vios": p.is_vios, "sharing_mode": p.sharing_mode,
                         "ec": p.ec, "vps": p.vps, "weight": p.weight, "measured_mean": _num(mean),
                         "measured_peak": _num(peak), "measured_from": src})
        out.append({"id": pid, "name": (pool.name if pool and pool.name else ("DefaultPool" if pid == 0 else None)),
                    "size": size, "reserved": pool.reserved_units if pool else None,
                    "ec_total": _num(sum(r["ec"] or 0 for r in rows)), "vp_total": sum(r["vps"] or 0 for r in rows),
                    "measured_peak": _num(pool.peak_use()) if pool and pool.use else None,
                    "samples": len(pool.use) if pool else 0, "partitions": rows})
    return out


def _memory_table(fr: Frame) -> dict[str, Any]:
    from ..rules.frame.memory import divisor, memory_budget

    rows = []
    for p in sorted(fr.partitions.values(), key=lambda p: (p.id or 0, p.name)):
        div = divisor(fr, p) if p.mem_max else None
        rows.append({"partition": p.name, "host": p.host, "state": p.state, "mem_mb": p.mem, "min_mb": p.mem_min,
                     "max_mb": p.mem_max, "hpt_ratio": f"1:{div}" if div else None,
                     "hpt_mb": p.hpt(div) if div else None, "ame_factor": p.ame_factor})
    return {"budget": memory_budget(fr), "partitions": rows}


def _topology(estate: Estate, fr: Frame) -> dict[str, Any]:
    from ..rules.frame.sea import seas_of

    vios = []
    for v in fr.vios:
        vios.append({"name": v.name, "host": v.host, "id": v.id,
                     "trunks": [{"slot": t.slot, "pvid": t.pvid, "vlans": t.vlans, "priority": t.priority,
                                 "vswitch": t.vswitch} for t in v.veth if t.trunk],
                     "seas": [{k: (str(x) if x is not None else None) for k, x in s.items() if k != "evidence"}
                              for s in seas_of(estate, fr, v)],
                     "vscsi_clients": sorted({s.remote_name or str(s.remote_id) for s in v.vscsi if s.adapter_type == "server"}),
                     "vfc_clients": sorted({s.remote_name or str(s.remote_id) for s in v.vfc if s.adapter_type == "server"})})
    vlans: dict[tuple[str, int], dict[str, Any]] = {}
    for p in fr.partitions.values():
        for a in p.veth:
            for vl in a.all_vlans:
                row = vlans.setdefault((a.vswitch or "ETHERNET0", vl),
                                       {"vswitch": a.vswitch or "ETHERNET0", "vlan": vl, "bridged_by": [], "clients": []})
                if a.trunk:
                    row["bridged_by"].append(f"{p.name} (priority {a.priority})")
                elif not p.is_vios:
                    row["clients"].append(p.name)
    return {"vios": vios, "vlans": [vlans[k] for k in sorted(vlans)], "pairs": [list(x) for x in fr.vios_pairs]}


def _mappings(estate: Estate, fr: Frame) -> dict[str, list[dict[str, Any]]]:
    vscsi, vfc = [], []
    for v in fr.vios:
        h = estate.hosts.get(v.host or "")
        lsmap = {}
        npiv = {}
        if h is not None:
            for m in h.vscsi_mappings:
                lsmap.setdefault(_slot_of(m.physloc), []).append(m)
            for m in h.npiv_mappings:
                npiv.setdefault(_slot_of(m.physloc), []).append(m)
        scanner = {}
        for row in fr.vscsi_maps:
            if row.get("vios") == v.name:
                scanner.setdefault(row.get("slot"), []).append(row)
        for s in sorted((s for s in v.vscsi if s.adapter_type == "server"), key=lambda s: s.slot or 0):
            maps = lsmap.get(s.slot) or []
            rows = [{"vhost": m.vhost, "vtd": m.vtd, "backing": m.backing_device, "lun": m.lun} for m in maps] or \
                   [{"vhost": r.get("vhost"), "vtd": r.get("vtd"), "backing": r.get("backing"), "lun": r.get("lun")}
                    for r in scanner.get(s.slot, [])] or [{"vhost": None, "vtd": None, "backing": None, "lun": None}]
            for r in rows:
                vscsi.append({"client": s.remote_name or (fr.by_id(s.remote_id).name if fr.by_id(s.remote_id) else s.remote_id),
                              "client_slot": s.remote_slot, "vios": v.name, "vios_slot": s.slot, **r})
        for s in sorted((s for s in v.vfc if s.adapter_type == "server"), key=lambda s: s.slot or 0):
            maps = npiv.get(s.slot) or []
            client = fr.by_id(s.remote_id) if s.remote_id is not None else fr.partitions.get(s.remote_name or "")
            wwpns: list[str] = []
            if client is not None:
                wwpns = next((c.wwpns for c in client.vfc if c.slot == s.remote_slot), [])
            m = maps[0] if maps else None
            vfc.append({"client": s.remote_name or (client.name if client else s.remote_id), "client_slot": s.remote_slot,
                        "vios": v.name, "vios_slot": s.slot, "vfchost": m.vfchost if m else None,
                        "port": (m.fc_name if m else None) or s.port, "status": m.status if m else None,
                        "wwpns": ", ".join(wwpns)})
    vnic = [{"client": p.name, "client_slot": v.slot, "vios": b.vios or b.vios_uuid, "adapter": b.adapter_id,
             "port": b.port_id, "active": b.active, "status": b.status, "capacity": b.capacity}
            for p in sorted(fr.partitions.values(), key=lambda q: (q.id or 0, q.name))
            for v in sorted(p.vnics, key=lambda x: x.slot or 0) for b in v.backings]
    return {"vscsi": vscsi, "vfc": vfc, "vnic": vnic}


def _sizing(estate: Estate, fr: Frame) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    from ..sizing.vios import failover, size_vios

    sized = {v.name: size_vios(estate.hosts.get(v.host or ""), v, fr) for v in fr.vios}
    checks = []
    for a, b in fr.vios_pairs:
        chk = failover(sized[a], sized[b])
        if chk is not None:
            checks.append(chk.to_dict())
    return [s.to_dict() for s in sized.values()], checks


def _wpar(estate: Estate, fr: Frame) -> dict[str, Any] | None:
    """The global LPAR that would host the frame's measured AIX partitions as WPARs (000 §3.9.1)."""
    from ..sizing.wpar import frame_wpar_sizing

    return frame_wpar_sizing(estate, fr)


def _partition_row(p: FramePartition) -> dict[str, Any]:
    return {"name": p.name, "id": p.id, "env": p.env, "state": p.state, "host": p.host, "join": p.join,
            "proc_mode": p.proc_mode, "sharing_mode": p.sharing_mode, "ec": p.ec, "vps": p.vps,
            "min_ec": p.min_ec, "max_ec": p.max_ec, "min_vps": p.min_vps, "max_vps": p.max_vps, "weight": p.weight,
            "pool_id": p.pool_id, "mem_mb": p.mem, "min_mem_mb": p.mem_min, "max_mem_mb": p.mem_max,
            "ame_factor": p.ame_factor, "profile": p.profile_name, "os_version": p.os_version}


def _drift(fr: Frame) -> list[dict[str, Any]]:
    from ..rules.frame.profiles import profile_drift

    return [{"partition": p.name, "attribute": k, "profile": a, "running": b}
            for p in sorted(fr.partitions.values(), key=lambda p: p.name) if p.running_now and p.profile
            for k, a, b in profile_drift(p)]


def _frame_summary(fr: Frame) -> dict[str, Any]:
    return {"cores_installed": fr.cores_installed, "cores_configurable": fr.cores_configurable,
            "cores_available": fr.cores_available, "mem_installed_mb": fr.mem_installed,
            "mem_configurable_mb": fr.mem_configurable, "mem_firmware_mb": fr.mem_firmware,
            "mem_available_mb": fr.mem_available,
            "default_hpt_ratio": f"1:{fr.default_hpt_ratio}" if fr.default_hpt_ratio else None,
            "hpt_total_mb": fr.hpt_total(), "partitions": len(fr.partitions), "vios": len(fr.vios),
            "joined_hosts": sorted(p.host for p in fr.partitions.values() if p.host)}


class _FrameEntry:
    """A frame with the estate it is in. Its VIOS sizing and their failover checks are two keys of
    the entry made by one computation, done once per entry."""

    def __init__(self, estate: Estate, frame: Frame) -> None:
        self.estate = estate
        self.frame = frame

    @cached_property
    def vios(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return _sizing(self.estate, self.frame)


# A frame's entry, key by key: frame_section makes them all, frame_views one at a time when read
# (dict_views.py).
_FRAME_FIELDS: dict[str, Callable[[_FrameEntry], Any]] = {
    "name": lambda e: e.frame.name, "model": lambda e: e.frame.model, "serial": lambda e: e.frame.serial,
    "state": lambda e: e.frame.state, "hmc": lambda e: e.frame.hmc, "named": lambda e: e.frame.named,
    "summary": lambda e: _frame_summary(e.frame),
    "partitions": lambda e: [_partition_row(p) for p in sorted(e.frame.partitions.values(),
                                                               key=lambda p: (p.id or 0, p.name))],
    "pools": lambda e: _pool_table(e.estate, e.frame),
    "memory": lambda e: _memory_table(e.frame),
    "topology": lambda e: _topology(e.estate, e.frame),
    "mappings": lambda e: _mappings(e.estate, e.frame),
    "vios_sizing": lambda e: e.vios[0],
    "failover": lambda e: e.vios[1],
    "wpar_consolidation": lambda e: _wpar(e.estate, e.frame),
    "profile_drift": lambda e: _drift(e.frame),
    "sources": lambda e: [{"path": path, "resources": sorted(res)} for path, res in sorted(e.frame.sources.items())],
    "merged": lambda e: list(e.frame.merged),
}


def _entries(estate: Estate) -> list[_FrameEntry]:
    frames = (f for f in (estate.frames or {}).values() if isinstance(f, Frame))
    return [_FrameEntry(estate, fr) for fr in sorted(frames, key=lambda f: f.name)]


def frame_section(estate: Estate) -> list[dict[str, Any]]:
    """One JSON-ready dict per frame."""
    return [{key: get(e) for key, get in _FRAME_FIELDS.items()} for e in _entries(estate)]


def frame_views(estate: Estate) -> DictViews:
    """:func:`frame_section` as views: each frame's dict made when read (a thousand hosts' 125 frames
    held 3.9 MB of them)."""
    return DictViews(_entries(estate), _FRAME_FIELDS)


# --- XLSX -------------------------------------------------------------------------------------------

def _cell(v: Any) -> Any:
    if v is None or isinstance(v, (int, float, bool)):
        return v
    if isinstance(v, (list, tuple)):
        return ", ".join(str(x) for x in v)
    if isinstance(v, dict):
        return ", ".join(f"{k}={x}" for k, x in v.items())
    return str(v)


# Characters a worksheet cannot hold (XML 1.0 forbids them): stripped, so one odd byte in an
# input never costs the workbook.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xlsx_safe(v: Any) -> Any:
    """A cell value a worksheet accepts: control characters stripped, inf / NaN written as text."""
    if isinstance(v, str):
        return _CONTROL.sub("", v)
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return v


# The header of a frame sheet with no row (no vNIC on any frame ...): the keys its rows have.
EMPTY_SHEET_COLUMNS: dict[str, tuple[str, ...]] = {
    "vSCSI map": ("frame", "client", "client_slot", "vios", "vios_slot", "vhost", "vtd", "backing", "lun"),
    "vFC map": ("frame", "client", "client_slot", "vios", "vios_slot", "vfchost", "port", "status", "wwpns"),
    "vNIC map": ("frame", "client", "client_slot", "vios", "adapter", "port", "active", "status", "capacity"),
    "VLANs": ("frame", "vswitch", "vlan", "bridged_by", "clients"),
    "Memory": ("frame", "partition", "host", "state", "mem_mb", "min_mb", "max_mb", "hpt_ratio", "hpt_mb", "ame_factor"),
    "Profile drift": ("frame", "partition", "attribute", "profile", "running"),
}


def _sheet(wb: Any, title: str, rows: list[dict[str, Any]], columns: list[str] | None = None) -> None:
    ws = wb.create_sheet(re.sub(r"[\[\]:*?/\\]", "_", xlsx_safe(title))[:31] or "sheet")
    cols = [xlsx_safe(str(c)) for c in (columns or list(dict.fromkeys(k for r in rows for k in r))
                                        or EMPTY_SHEET_COLUMNS.get(title, ()))]
    ws.append(cols)
    for r in rows:
        ws.append([None] * len(cols))
        for j, c in enumerate(cols, start=1):
            cell = ws.cell(row=ws.max_row, column=j)
            v = xlsx_safe(_cell(r.get(c)))
            cell.value = v
            if isinstance(v, str):
                cell.data_type = "s"  # text from the inputs is stored as text, never as a formula
    _finish(ws, cols, rows)


def _finish(ws: Any, cols: list[str], rows: list[dict[str, Any]]) -> None:
    """Frozen header row, an autofilter over the table, columns as wide as their content (capped)."""
    from openpyxl.utils import get_column_letter

    ws.freeze_panes = "A2"
    if cols:
        ws.auto_filter.ref = f"A1:{get_column_letter(len(cols))}{max(1, len(rows)) + 1}"
    for j, c in enumerate(cols, start=1):
        longest = len(str(c))
        for r in rows[:2000]:  # enough rows to judge a width; a huge sheet stays cheap
            v = _cell(r.get(c))
            if v is not None:
                longest = max(longest, max(len(line) for line in str(v).split("\n")))
        ws.column_dimensions[get_column_letter(j)].width = min(60, max(6, longest + 2))


def _sizing_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per host and window (peak, whole recording) of the measured sizing."""
    rows = []
    for h in report.get("hosts", []):
        z = h.get("sizing")
        if not z:
            continue
        for label, key in (("peak " + "-".join(z.get("peak_window") or []) if z.get("peak_window") else "peak", "peak"),
                           ("whole recording", "overall")):
            st = z.get(key) or {}
            rows.append({"host": h.get("name"), "window": label, "window_source": z.get("peak_source") if key == "peak" else "",
                         "samples": st.get("n"), "average": _num(st.get("mean"), 3), "p90": _num(st.get("p90"), 3),
                         "p95": _num(st.get("p95"), 3), "p99": _num(st.get("p99"), 3), "peak": _num(st.get("max"), 3),
                         "current_ec": z.get("current_ec"), "current_vp": z.get("current_vp"),
                         "recommended_ec": z.get("recommended_ec"), "recommended_vp": z.get("recommended_vp"),
                         "recommended_uncapped": z.get("recommended_uncapped")})
    return rows


def export_xlsx(report: dict[str, Any], path: str | Path) -> None:
    """Inventory and findings of a report dict as an .xlsx workbook (openpyxl >= 3.0)."""
    try:
        from openpyxl import Workbook
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError("the XLSX export needs openpyxl: pip install 'openpyxl>=3.0'") from exc
    wb = Workbook()
    wb.properties.creator = "lparscope"  # a later run may write over its own workbook (report/targets.py)
    wb.remove(wb.active)
    from .plan_xlsx import plan_sheets  # the plan leads the workbook

    for title, rows in plan_sheets(report):
        _sheet(wb, title, rows)
    findings = []
    for f in report.get("findings", []):
        findings.append({"severity": f.get("severity"), "rule_id": f.get("rule_id"), "host": f.get("host"),
                         "subject": f.get("subject"), "message": f.get("message"), "title": f.get("title"),
                         "category": f.get("category"), "source": f.get("source"),
                         "evidence": "; ".join(f"{e.get('path')}:{e.get('line')}" for e in f.get("evidence", [])),
                         "fix_hmc": "\n".join(f.get("fix", {}).get("hmc", [])),
                         "fix_padmin": "\n".join(f.get("fix", {}).get("padmin", [])),
                         "fix_root": "\n".join(f.get("fix", {}).get("root", [])),
                         "rollback": "\n".join(x for k in ("hmc", "padmin", "root") for x in f.get("rollback", {}).get(k, [])),
                         "disruption": ", ".join(f.get("disruption", [])), **{f"value_{k}": v for k, v in f.get("values", {}).items()}})
    _sheet(wb, "Findings", findings)
    hosts, inventory = [], {}
    for h in report.get("hosts", []):
        hosts.append({"name": h.get("name"), "role": h.get("role"), **(h.get("summary") or {}),
                      **{f"{k}_findings": v for k, v in (h.get("counts") or {}).items()}})
        for kind, rows in (h.get("inventory") or {}).items():
            inventory.setdefault(kind, []).extend({"host": h.get("name"), **r} for r in rows)
    _sheet(wb, "Hosts", hosts)
    sizing = _sizing_rows(report)
    if sizing:
        _sheet(wb, "Sizing", sizing)
    for kind, rows in sorted(inventory.items()):
        _sheet(wb, f"Inv {kind}", rows)
    frames = report.get("frames") or []
    if frames:
        _sheet(wb, "Frames", [{"name": f["name"], "model": f.get("model"), "serial": f.get("serial"), **f.get("summary", {})}
                              for f in frames])
        _sheet(wb, "Partitions", [{"frame": f["name"], **p} for f in frames for p in f.get("partitions", [])])
        _sheet(wb, "Pools", [{"frame": f["name"], "pool": pl.get("name"), "pool_id": pl.get("id"), "pool_size": pl.get("size"), **r}
                             for f in frames for pl in f.get("pools", []) for r in pl.get("partitions", [])])
        _sheet(wb, "Memory", [{"frame": f["name"], **r} for f in frames for r in f.get("memory", {}).get("partitions", [])])
        _sheet(wb, "vSCSI map", [{"frame": f["name"], **r} for f in frames for r in f.get("mappings", {}).get("vscsi", [])])
        _sheet(wb, "vFC map", [{"frame": f["name"], **r} for f in frames for r in f.get("mappings", {}).get("vfc", [])])
        _sheet(wb, "vNIC map", [{"frame": f["name"], **r} for f in frames for r in f.get("mappings", {}).get("vnic", [])])
        _sheet(wb, "VLANs", [{"frame": f["name"], **r} for f in frames for r in f.get("topology", {}).get("vlans", [])])
        _sheet(wb, "VIOS sizing", [{"frame": f["name"], **r} for f in frames for r in f.get("vios_sizing", [])])
        _sheet(wb, "WPAR consolidation", [{k: v for k, v in f["wpar_consolidation"].items() if k != "source"}
                                          for f in frames if f.get("wpar_consolidation")])
        _sheet(wb, "Profile drift", [{"frame": f["name"], **r} for f in frames for r in f.get("profile_drift", [])])
        _sheet(wb, "Joins", [{**{k: v for k, v in j.items() if k != "evidence"},
                              "evidence": "; ".join(f"{e.get('path')}:{e.get('line')}" for e in j.get("evidence") or [])}
                             for j in report.get("joins") or [] if isinstance(j, dict)],
               ["host", "status", "frame", "partition", "basis", "candidates", "reason", "evidence"])
    wb.save(str(path))
