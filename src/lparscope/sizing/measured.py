"""The sizing stage: EC/VP recommendations for every host with a measured processor series.

Runs after the model is built and before the rules: it reads the nmon LPAR section kept on
the host (physc per snapshot, with its times) and the partition's current settings, and
stores a :class:`~lparscope.sizing.cpu.Sizing` on ``host.sizing`` for the rules and reports.
"""

from __future__ import annotations

import math
from datetime import time
from typing import Any

import numpy as np

from ..model.estate import Estate, Host
from .cpu import size_partition


def _last(table: Any, column: str) -> float | None:
    try:
        values = np.asarray(table.column(column), dtype=float)
    except (KeyError, ValueError):
        return None
    values = values[~np.isnan(values)]
    return float(values[-1]) if values.size else None


def size_host(host: Host, peak: tuple[time, time] | None = None) -> None:
    rec = host.nmon
    lpar = rec.tables.get("LPAR") if rec is not None else None
    if lpar is None or "PhysicalCPU" not in lpar.columns:
        return
    p = host.partition
    ec = (p.entitled_capacity if p and p.entitled_capacity else None) or _last(lpar, "entitled")
    vp_value = (p.online_vps if p and p.online_vps else None) or _last(lpar, "virtualCPUs")
    pool = (p.pool_cores if p and p.pool_cores else None) or _last(lpar, "poolCPUs")
    capped: bool | None = p.capped if p and p.mode else None
    if capped is None:
        flag = _last(lpar, "Capped")
        capped = None if flag is None else flag >= 1
    vp = int(vp_value) if vp_value is not None and not math.isnan(vp_value) else None
    host.sizing = size_partition(lpar.times, np.asarray(lpar.column("PhysicalCPU"), dtype=float),
                                 ec=ec, vp=vp, pool_cores=pool, capped=capped,
                                 is_vios=host.is_vios, peak=peak)


def size_estate(estate: Estate, peak: tuple[time, time] | None = None) -> None:
    """Size every host that has a measured series."""
    for host in estate.hosts.values():
        size_host(host, peak)
