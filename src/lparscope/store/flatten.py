"""The JSON report (docs/report-schema.md) flattened into catalogue rows."""

from __future__ import annotations

from typing import Any

SCALARS = (str, int, float, bool)


def _scalar(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def host_frames(report: dict[str, Any]) -> dict[str, tuple[str | None, int | None]]:
    """host -> (frame name, shared pool id) from the frame section (HMC data)."""
    out: dict[str, tuple[str | None, int | None]] = {}
    for frame in report.get("frames") or []:
        for part in frame.get("partitions") or []:
            host = part.get("host")
            if host:
                pool = part.get("pool_id")
                out[host] = (frame.get("name"), int(pool) if isinstance(pool, (int, float)) else None)
    for host in report.get("hosts") or []:  # lparstat -i knows the pool too
        name = host["name"]
        if name not in out:
            continue
        frame, pool = out[name]
        if pool is None:
            sid = (host.get("summary") or {}).get("shared_pool_id")
            out[name] = (frame, sid if isinstance(sid, int) else None)
    return out


def config_rows(report: dict[str, Any]) -> list[tuple[str, str, str, str | None]]:
    """(scope, name, attribute, value): the configuration snapshot of every host and frame."""
    rows: list[tuple[str, str, str, str | None]] = []
    for host in report.get("hosts") or []:
        name = host["name"]
        rows.append(("host", name, "role", host.get("role")))
        for key, value in (host.get("summary") or {}).items():
            if value is None or isinstance(value, SCALARS):
                rows.append(("host", name, f"summary.{key}", _scalar(value)))
        for kind, items in (host.get("inventory") or {}).items():
            for i, item in enumerate(items):
                ident = item.get("name") or item.get("vhost") or item.get("vfchost") or str(i)
                if kind in ("vscsi_mappings", "npiv_mappings"):
                    ident = "/".join(str(item.get(k, "")) for k in ("vhost", "vfchost", "vtd", "client_id")
                                     if item.get(k))
                for key, value in item.items():
                    if key != "name" and isinstance(value, SCALARS):
                        rows.append(("host", name, f"{kind}.{ident}.{key}", _scalar(value)))
    for frame in report.get("frames") or []:
        fname = frame.get("name") or "frame"
        for key, value in (frame.get("summary") or {}).items():
            if isinstance(value, SCALARS):
                rows.append(("frame", fname, f"summary.{key}", _scalar(value)))
        for part in frame.get("partitions") or []:
            pname = part.get("name")
            for key, value in part.items():
                if key not in ("name", "host", "join") and (value is None or isinstance(value, SCALARS)):
                    rows.append(("frame", fname, f"partition.{pname}.{key}", _scalar(value)))
                    if part.get("host"):  # the HMC's view of the host, also under the host
                        rows.append(("host", part["host"], f"hmc.{key}", _scalar(value)))
        for pool in frame.get("pools") or []:
            for key, value in pool.items():
                if key not in ("id", "measured_peak", "samples") and isinstance(value, SCALARS):
                    rows.append(("frame", fname, f"pool.{pool.get('id')}.{key}", _scalar(value)))
    return rows


def fingerprint(f: dict[str, Any]) -> str:
    """What makes two findings of two collections the same finding."""
    return f"{f.get('rule_id')}|{f.get('host')}|{f.get('subject')}"


def finding_rows(report: dict[str, Any]) -> list[tuple]:
    return [(fingerprint(f), f.get("rule_id"), f.get("host"), f.get("subject"), f.get("severity"),
             f.get("category"), f.get("title"), f.get("message")) for f in report.get("findings") or []]


def sizing_rows(report: dict[str, Any]) -> list[tuple]:
    rows = []
    for host in report.get("hosts") or []:
        s = host.get("sizing")
        if not s:
            continue
        peak = s.get("peak") or {}
        rows.append((host["name"], s.get("n_samples"), peak.get("mean"), peak.get("p95"), peak.get("max"),
                     s.get("current_ec"), s.get("recommended_ec"), s.get("current_vp"), s.get("recommended_vp"),
                     s.get("pool_cores")))
    return rows
