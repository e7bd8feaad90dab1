"""The sizing stage: EC/VP recommendations for every host with a measured processor series.

Runs after the model is built and before the rules: it reads the measured processor use of each
host (physc per interval, with its times) and the partition's current settings, and stores a
:class:`~lparscope.sizing.cpu.Sizing` on ``host.sizing`` for the rules and reports.

Two series can measure one partition: the nmon LPAR section of the host's own recording, and the
HMC's utilisation samples (``lslparutil``) of the frame partition the host is joined to. The
longer one in time is sized (a day of HMC samples says more about the peak than an hour of nmon,
and a week of nmon more than a day of HMC samples); ``Sizing.series`` says which, and
``host.sizing_evidence`` holds the evidence of each HMC sample (nmon rows are cited from the table).
"""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import datetime, time
from typing import Any

import numpy as np

from ..model.estate import Estate, Host
from ..model.frame import FramePartition
from ..model.nmon_physc import lpar_physc
from ..model.use_series import dated_use
from .cpu import Sizing, size_partition
from .measured_use import datetime64_of

#: fewest HMC utilisation samples a sizing is made from (fewer: the host's own series, if any)
MIN_HMC_SAMPLES = 12
#: widest interval between samples a sizing is made from (hourly averages still show the working day)
MAX_STEP_SECONDS = 3600


def _last(table: Any, column: str) -> float | None:
    try:
        values = np.asarray(table.column(column), dtype=float)
    except (KeyError, ValueError):
        return None
    values = values[~np.isnan(values)]
    return float(values[-1]) if values.size else None


def _span_seconds(times: Any) -> float:
    t = np.asarray(times, dtype="datetime64[s]")
    t = t[~np.isnat(t)]
    return float((t.max() - t.min()).astype(float)) if t.size > 1 else 0.0


def _settings(host: Host, lpar: Any = None) -> tuple[float | None, int | None, float | None, bool | None]:
    """(EC, VPs, pool cores, capped) now: the partition's, else the last nmon values."""
    p = host.partition
    ec = (p.entitled_capacity if p and p.entitled_capacity else None) or (_last(lpar, "entitled") if lpar else None)
    vp_value = (p.online_vps if p and p.online_vps else None) or (_last(lpar, "virtualCPUs") if lpar else None)
    pool = (p.pool_cores if p and p.pool_cores else None) or (_last(lpar, "poolCPUs") if lpar else None)
    capped: bool | None = p.capped if p and p.mode else None
    if capped is None and lpar is not None:
        flag = _last(lpar, "Capped")
        capped = None if flag is None else flag >= 1
    vp = int(vp_value) if vp_value is not None and not math.isnan(vp_value) else None
    return ec, vp, pool, capped


def _nmon_sizing(host: Host, peak: tuple[time, time] | None) -> tuple[Sizing, float] | None:
    rec = host.nmon
    lpar = rec.tables.get("LPAR") if rec is not None else None
    if lpar is None or "PhysicalCPU" not in lpar.columns:
        return None
    ec, vp, pool, capped = _settings(host, lpar)
    p = host.partition
    shared = None if p is None else True if p.shared else False if p.dedicated else None
    sz = size_partition(lpar.times, lpar_physc(lpar, vp, pool, shared),  # impossible values left out
                        ec=ec, vp=vp, pool_cores=pool, capped=capped, is_vios=host.is_vios, peak=peak)
    return sz, _span_seconds(lpar.times)


def _hmc_sizing(host: Host, fp: FramePartition, peak: tuple[time, time] | None) -> tuple[Sizing, float] | None:
    when, physc, _ = dated_use(fp.use)
    if len(when) < MIN_HMC_SAMPLES:
        return None
    stamps = [t.replace(tzinfo=None) if getattr(t, "tzinfo", None) is not None else t for t in when]
    if all(type(t) is datetime for t in stamps):  # the usual case: converted in one call
        times = datetime64_of(stamps)
    else:
        times = np.array([np.datetime64(t, "s") for t in stamps])
    steps = np.diff(np.sort(times)).astype(float)
    if steps.size and float(np.median(steps)) > MAX_STEP_SECONDS:
        return None  # daily averages (an HMC Scanner usage sheet) hide the peak: not a series to size from
    ec, vp, pool, capped = _settings(host)
    ec = ec if ec is not None else fp.ec
    vp = vp if vp is not None else fp.vps
    if capped is None and fp.sharing_mode:
        capped = fp.sharing_mode == "cap"
    sz = size_partition(times, physc, ec=ec, vp=vp, pool_cores=pool, capped=capped, is_vios=host.is_vios, peak=peak)
    return replace(sz, series="HMC utilisation samples (lslparutil)"), _span_seconds(times)


def size_host(host: Host, peak: tuple[time, time] | None = None, frame_partition: FramePartition | None = None) -> None:
    """Size ``host`` from the longest of its measured series (module doc)."""
    found = [x for x in (_nmon_sizing(host, peak),
                         _hmc_sizing(host, frame_partition, peak) if frame_partition is not None else None)
             if x is not None]
    if not found:
        return
    usable = [x for x in found if x[0].recommended_ec is not None] or found
    sz, _span = max(usable, key=lambda x: (x[1], x[0].n_samples))
    host.sizing = sz
    if frame_partition is not None and sz.series.startswith("HMC"):
        use = frame_partition.use
        _, _, idx = dated_use(use)  # the samples sized from, in the order sized (indexes of the sizing)
        host.sizing_evidence = use if len(idx) == len(use) else [use[int(i)] for i in idx]


def size_estate(estate: Estate, peak: tuple[time, time] | None = None) -> None:
    """Size every host that has a measured series (its own nmon, or its frame partition's HMC samples)."""
    joined: dict[str, FramePartition] = {}
    for fr in estate.frames.values():
        for fp in fr.partitions.values():
            if fp.host and fp.use:
                joined.setdefault(fp.host, fp)
    for host in estate.hosts.values():
        size_host(host, peak, joined.get(host.name))
