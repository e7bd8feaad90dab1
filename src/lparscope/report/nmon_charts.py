"""Chart specs for every host whose nmon recording was read (physc with EC/VP and the
recommendation, pool idle, memory, disk busy, network), from the tables kept on the host."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model.estate import Estate, Host
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
    if lpar is None and mem is None and disk is None:
        return []
    base = next(tab for tab in (lpar, mem, disk) if tab is not None)  # an empty table is falsy: test for None
    if not len(base.times):
        return []  # a section with a header and no snapshot (``AAA,`` then ``LPAR,,``): nothing to draw
    physc = np.asarray(lpar.column("PhysicalCPU"), dtype=float) if lpar is not None and "PhysicalCPU" in lpar.columns else None
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
    return specs


def estate_charts(estate: Estate) -> list[dict[str, Any]]:
    """Charts of every host with a measured recording, hosts in name order."""
    out: list[dict[str, Any]] = []
    for name in sorted(estate.hosts):
        out.extend(host_charts(estate.hosts[name]))
    return out
