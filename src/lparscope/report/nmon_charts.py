"""Chart specs for every host whose nmon recording was read (physc with EC/VP and the
recommendation, pool idle, memory, disk busy, network), from the tables kept on the host."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model.estate import Estate, Host
from ..model.nmon_physc import host_physc
from . import charts_nmon as more
from .charts import chart_specs


def _columns(table: Any, wanted: list[str] | None = None) -> dict[str, np.ndarray]:
    if table is None:
        return {}
    names = wanted if wanted is not None else list(table.columns)
    out = {}
    for name in names:
        if name in table.columns:
            out[name] = np.asarray(table.column(name), dtype=float)
    return out


def host_charts(host: Host) -> list[dict[str, Any]]:
    rec = host.nmon
    if rec is None:
        return []
    t = rec.tables
    lpar, mem = t.get("LPAR"), t.get("MEMNEW") or t.get("MEM")
    disk, net = t.get("DISKBUSY"), t.get("NET")
    if not t:
        return []
    # an empty table is falsy: test for None, and skip sections with a header and no snapshot
    base = next((tab for tab in (lpar, mem, disk, *t.values()) if tab is not None and len(tab.times)), None)
    if base is None:
        return []  # (``AAA,`` then ``LPAR,,``): nothing to draw
    # physc as sized: a glitch (60 cores of a 6-VP partition, 1e300) is no point of the chart
    physc = host_physc(host, lpar) if lpar is not None and "PhysicalCPU" in lpar.columns else None
    pool_idle = np.asarray(lpar.column("PoolIdle"), dtype=float) if lpar is not None and "PoolIdle" in lpar.columns else None
    s = host.sizing
    p = host.partition
    memory_cols = ["Process%", "FScache%", "System%", "Free%"] if mem is not None and mem.name == "MEMNEW" else \
        ["Real free(MB)", "Real total(MB)", "Virtual free(MB)"]
    times_by_kind = {k: tab.times for k, tab in (("physc", lpar), ("pool", lpar), ("memory", mem),
                                                 ("disk", disk), ("network", net)) if tab is not None}
    specs = chart_specs(
        host.name, base.times, physc=physc,
        ec=getattr(s, "current_ec", None) or (p.entitled_capacity if p else None),
        vp=getattr(s, "current_vp", None) or (p.online_vps if p else None), sizing=s,
        pool_idle=pool_idle, pool_cores=getattr(s, "pool_cores", None) or (p.pool_cores if p else None),
        memory=_columns(mem, memory_cols), disk_busy=_columns(disk), network=_columns(net),
        times_by_kind=times_by_kind)
    if mem is not None and mem.name == "MEMNEW":  # MEMNEW holds shares of memory, not sizes
        for spec in specs:
            if spec.get("kind") == "memory":
                spec["title"], spec["unit"] = "Memory use (% of real memory)", "%"
    return _in_order(specs + _more_charts(host.name, t, lpar))


# Report order of one host's charts: what sizing reads first, then CPU detail, memory, storage, network.
ORDER = ("physc", "cpu", "pool", "runqueue", "heatmap", "memory", "paging", "disk", "disk-throughput",
         "disk-service", "fc", "network")


def _in_order(specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rank = {k: n for n, k in enumerate(ORDER)}
    return sorted(specs, key=lambda s: rank.get(s.get("kind"), len(ORDER)))


def _more_charts(name: str, t: dict[str, Any], lpar: Any) -> list[dict[str, Any]]:
    """CPU, run queue, per-CPU heat map, paging, disk throughput and service time, FC (charts_nmon)."""
    out: list[dict[str, Any]] = []
    cpu_all = t.get("CPU_ALL")
    if cpu_all:
        out.append(more.cpu_chart(cpu_all.times, _columns(cpu_all, ["User%", "Sys%", "Wait%", "Idle%"]), host=name))
    proc = t.get("PROC")
    per_cpu = more.cpu_tables(t)
    if proc and "Runnable" in proc.columns:
        lcpu: Any = None
        if lpar and "logicalCPUs" in lpar.columns and len(lpar) == len(proc):
            lcpu = np.asarray(lpar.column("logicalCPUs"), dtype=float)
        elif per_cpu:
            lcpu = float(len(per_cpu))
        if lcpu is not None:
            out.append(more.run_queue_chart(proc.times, np.asarray(proc.column("Runnable"), dtype=float), lcpu, host=name))
    busy = [(n, 100.0 - np.asarray(tab.column("Idle%"), dtype=float)) for n, tab in per_cpu
            if "Idle%" in tab.columns and per_cpu and len(tab) == len(per_cpu[0][1])]
    if busy:
        out.append(more.cpu_heatmap(per_cpu[0][1].times, busy, host=name))
    page = t.get("PAGE")
    if page:
        out.append(more.paging_chart(page.times, _columns(page, ["pgsin", "pgsout", "pgin", "pgout"]), host=name))
    dread, dwrite = t.get("DISKREAD"), t.get("DISKWRITE")
    if dread or dwrite:
        base = dread or dwrite
        out.append(more.disk_throughput_chart(base.times, dread if dread and len(dread) == len(base) else None,
                                              dwrite if dwrite and len(dwrite) == len(base) else None, host=name))
    serv = t.get("DISKSERV")
    if serv:
        out.append(more.disk_service_chart(serv.times, _columns(serv), host=name))
    fread, fwrite = t.get("FCREAD"), t.get("FCWRITE")
    if fread or fwrite:
        base = fread or fwrite
        out.append(more.fc_chart(base.times, fread if fread and len(fread) == len(base) else None,
                                 fwrite if fwrite and len(fwrite) == len(base) else None, host=name))
    return out


def estate_charts(estate: Estate) -> list[dict[str, Any]]:
    """Charts of every host with a measured recording, hosts in name order."""
    out: list[dict[str, Any]] = []
    for name in sorted(estate.hosts):
        out.extend(host_charts(estate.hosts[name]))
    return out
