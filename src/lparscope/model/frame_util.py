"""``lslparutil`` samples into use series: processor units used per interval by each partition and
each shared pool, from the cumulative cycle counters.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..numbers import finite_int
from .frame import Frame, SharedPool, UseSample
from .frame_records import FrameSet, HmcItem


def keep_sample(fr: Frame, it: HmcItem) -> None:
    fr.__dict__.setdefault("_util", []).append(it)


def settle_use(fs: FrameSet) -> None:
    for fr in fs.frames.values():
        items: list[HmcItem] = fr.__dict__.pop("_util", [])
        series: dict[tuple[str, Any], list[HmcItem]] = {}
        for it in items:
            r = it.rec
            if (getattr(r, "event_type", None) or "sample") != "sample":
                continue
            if r.resource == "lpar":
                key: tuple[str, Any] = ("lpar", r.lpar_name or r.lpar_id)
            elif r.resource in ("pool", "procpool"):
                key = ("pool", r.num("shared_proc_pool_id") if r.resource == "procpool" else 0)
            else:
                continue
            series.setdefault(key, []).append(it)
        for (what, who), its in series.items():
            its.sort(key=lambda i: i.rec.time if isinstance(i.rec.time, datetime) else datetime.min)
            samples = _deltas(its, what)
            if what == "lpar":
                first = its[0].rec
                p = fs.part(fr, first.lpar_name, first.lpar_id)
                if p is not None:
                    p.use = samples
            else:
                pid = finite_int(who) or 0
                pool = fr.pools.setdefault(pid, SharedPool(pid))
                pool.use = samples
                if pid == 0 and pool.max_units is None:
                    size = its[-1].rec.num("configurable_pool_proc_units")
                    if size:
                        pool.max_units = size
                        pool.evidence["max_units"] = its[-1].ev("configurable_pool_proc_units")
                if pid and pool.max_units is None:
                    size = its[-1].rec.num("max_pool_capacity") or its[-1].rec.num("max_pool_proc_units")
                    if size:
                        pool.max_units = size


def _deltas(items: list[HmcItem], what: str) -> list[UseSample]:
    """Processor units used per interval from cumulative cycle counters."""
    out: list[UseSample] = []
    used_key = ("capped_cycles", "uncapped_cycles") if what == "lpar" else ("utilized_pool_cycles",)
    for prev, cur in zip(items, items[1:]):
        a, b = prev.rec, cur.rec
        t0, t1 = a.num("time_cycles"), b.num("time_cycles")
        if t0 is None or t1 is None or t1 == t0:
            continue
        u0 = [a.num(k) for k in used_key]
        u1 = [b.num(k) for k in used_key]
        if any(x is None for x in u0 + u1):
            continue
        used = sum(u1) - sum(u0)  # type: ignore[arg-type]
        # time_cycles is counted descending by lslparutil (newest first): take the absolute interval
        interval = abs(t1 - t0)
        out.append(UseSample(b.time, round(abs(used) / interval, 3), cur.ev(used_key[0])))
    return out
