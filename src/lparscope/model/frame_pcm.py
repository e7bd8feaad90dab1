"""HMC PCM processed metrics (``sources/hmc_pcm.py``) into the frames' measured use.

Each file holds a few minutes to hours of one managed system; the series of one partition, VIOS
or shared pool from every file of its frame are joined in time order (a time met twice keeps the
first file's sample). They become the partition's or pool's ``use`` (what lslparutil gives, read
by sizing, the plan and the pool rules) when lslparutil or HMC Scanner gave none. On a frame whose
configuration was read (lssyscfg, lshwres, REST), a series joins the partition of its name (and
id): a series of a partition the configuration does not list (renamed, removed, its id reused)
is not attached. On a frame known from PCM data only, its partitions are made from the series.
The settings a sample carries (entitlement, virtual processors, weight, pool, memory) fill those
no other HMC data gave, with the sample as evidence.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .estate import Evidence
from .frame import FramePartition, SharedPool
from .frame_records import FrameSet, HmcItem
from .use_series import UseSeries

_DEDICATED_MODES = {"keep_idle_procs", "share_idle_procs", "share_idle_procs_active", "share_idle_procs_always", "ded"}


def pcm_usage(fs: FrameSet, items: list[HmcItem], names: dict[int, str]) -> None:
    """Fold the PCM series among ``items`` (frame names by item id in ``names``) into the frames."""
    groups: dict[tuple[str, str, Any], list[HmcItem]] = {}
    for it in items:
        r = it.rec
        groups.setdefault((names[id(it)], r.what, r.id if r.id is not None else r.name), []).append(it)
    configured = {name for name, fr in fs.frames.items() if fr.partitions}  # before any PCM series is folded
    for (frame_name, what, _), its in groups.items():
        fr = fs.frame(frame_name, its[0], named=not frame_name.startswith("unnamed system"))
        mtms = its[0].rec.mtms or ""
        if "*" in mtms and not fr.model:  # "9009-42A*21F64EV": the frame's machine type-model and serial
            fr.model, fr.serial = mtms.split("*", 1)[0] or None, fr.serial or mtms.split("*", 1)[1] or None
        use = _joined(its)
        last = max(its, key=lambda i: i.rec.times[-1])
        if what == "pool":
            pool = fr.pools.setdefault(last.rec.id or 0, SharedPool(last.rec.id or 0, last.rec.name))
            pool.name = pool.name or last.rec.name
            if not pool.use:
                pool.use = use
            continue
        if frame_name in configured:  # the configuration lists the partitions: a series joins one of them
            p = fr.partitions.get(last.rec.name or "")
            if p is None or (p.id is not None and last.rec.id is not None and p.id != last.rec.id):
                continue  # another partition now (renamed, removed, or the id reused): not attached
        else:
            p = fs.part(fr, last.rec.name, last.rec.id)
        if p is None:
            continue
        if not p.use:
            p.use = use
        if what == "vios" and not p.env:
            p.env = "vioserver"
        _fill(p, last)


def _joined(its: list[HmcItem]) -> UseSeries:
    """The samples of every file in time order, each time once; each cites its file and line."""
    seen: dict[Any, tuple[float, Evidence, int]] = {}
    for it in its:
        r = it.rec
        where = Evidence(it.src.path, 0, "utilizedProcUnits")
        for t, v, line in zip(r.times, r.used, r.lines):
            seen.setdefault(t, (round(v, 3), where, it.src.offset + line))
    times = sorted(seen)
    return UseSeries(times, np.array([seen[t][0] for t in times], dtype=np.float64), [seen[t][1] for t in times],
                     np.array([seen[t][2] for t in times], dtype=np.int64), origin="HMC PCM")


def _fill(p: FramePartition, it: HmcItem) -> None:
    """Settings the PCM sample gives, where no other HMC data set them."""
    c, line = it.rec.config, it.src.offset + it.rec.config_line
    mode = c.get("mode")
    dedicated = mode in _DEDICATED_MODES
    shared_only = {"ec": c.get("entitled"), "weight": c.get("weight"), "pool_id": c.get("pool_id")}
    # a dedicated partition's sample counts no virtual processors (0) and no entitlement of a pool
    settings = [("mem", c.get("mem"))] + ([] if dedicated else [("vps", c.get("vps"))] + list(shared_only.items()))
    for ours, value in settings:
        if value is not None and getattr(p, ours) is None:
            setattr(p, ours, value)
            p.evidence[ours] = Evidence(it.src.path, line, "PCM sample")
    if isinstance(mode, str) and p.proc_mode is None:
        p.proc_mode = "ded" if dedicated else "shared"
        p.sharing_mode = p.sharing_mode or mode
        p.evidence["proc_mode"] = Evidence(it.src.path, line, "PCM sample")
