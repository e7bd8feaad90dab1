"""HMC Scanner usage series (``sources/_hmcscanner_usage.py``) into the frames' measured use.

Processor units used per day or per hour go to the partition's and the shared pool's ``use``
(the same :class:`UseSample` list lslparutil fills, which sizing, the plan and the pool rules
read); a frame's configurable and available memory (Sys_RAM_Usage) go to ``Frame.mem_use``.
When a series comes both per hour and per day, the hourly one is kept (a daily mean hides the
peaks sizing looks for); lslparutil samples, when there are some, are kept before either.
A pool is found by its name (as LPAR_CPU or lshwres named it); the default pool also when
the series has no name. Series of other measures (entitlement, virtual processors) are left
on the records.
"""

from __future__ import annotations

from typing import Any

from .estate import Evidence
from .frame import Frame, MemUseSample, SharedPool, UseSample
from .frame_records import FrameSet, HmcItem

_USED = {"used", "pc", "physc", "physical cpu", "cpu used", "used cpu", "usage", "used cores", "procs used"}
_DEFAULT_POOL = {"defaultpool", "default", "default pool", "physical", "all", "shared", "sharedpool0"}


def scanner_usage(fs: FrameSet, items: list[HmcItem], names: dict[int, str]) -> None:
    """Fold the usage series among ``items`` (frame names by item id in ``names``) into the frames."""
    chosen: dict[tuple, tuple[int, list[HmcItem]]] = {}
    for it in items:
        r = it.rec
        key = (names[id(it)], r.what, r.name, r.measure)
        rank = 0 if r.resolution == "hour" else 1
        have = chosen.get(key)
        if have is None or rank < have[0]:
            chosen[key] = (rank, [it])
        elif rank == have[0]:
            have[1].append(it)  # one series over several sheets (LPAR_Daily_Usage_1, _2 ...)
    for (frame_name, what, name, measure), (_, its) in chosen.items():
        fr = fs.frame(frame_name, its[0], named=not frame_name.startswith("unnamed system"))
        points = _points(its)
        if what == "system":
            _memory(fr, measure, points)
        elif measure in _USED or measure.startswith("used"):
            samples = [UseSample(t, round(v, 3), ev) for t, v, ev in points]
            if what == "lpar":
                p = fs.part(fr, name, None)
                if p is not None and not p.use:
                    p.use = samples
            else:
                pool = _pool(fr, name)
                if pool is not None and not pool.use:
                    pool.use = samples


def _points(its: list[HmcItem]) -> list[tuple[Any, float, Evidence]]:
    """(time, value, evidence) in time order; a time met twice keeps its last value."""
    by_time: dict[Any, tuple[Any, float, Evidence]] = {}
    for it in its:
        r = it.rec
        for (t, v), line in zip(r.points, r.point_lines):
            by_time[t] = (t, v, Evidence(it.src.path, it.src.offset + line, f"{r.sheet} {r.name or r.measure}"))
    return [by_time[t] for t in sorted(by_time)]


def _pool(fr: Frame, name: str | None) -> SharedPool | None:
    for pool in fr.pools.values():
        if name and pool.name == name:
            return pool
    if not name or name.strip().lower() in _DEFAULT_POOL:
        return fr.pools.setdefault(0, SharedPool(0, "DefaultPool"))
    return None  # a pool the configuration sheets do not name: its id is not known


def _memory(fr: Frame, measure: str, points: list[tuple[Any, float, Evidence]]) -> None:
    field = "configurable" if "config" in measure else "available" if ("avail" in measure or "free" in measure) else None
    if field is None:
        return
    scale = 1 if "mb" in measure.split() or "(mb)" in measure else 1024  # HMC Scanner shows GB
    by_time = {m.time: m for m in fr.mem_use}
    for t, v, ev in points:
        m = by_time.get(t)
        if m is None:
            m = by_time[t] = MemUseSample(t, evidence=ev)
        setattr(m, field, int(round(v * scale)))
    fr.mem_use = [by_time[t] for t in sorted(by_time)]
