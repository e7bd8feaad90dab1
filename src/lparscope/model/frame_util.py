"""``lslparutil`` samples into use series: processor units used per interval by each partition and
each shared pool, from the cumulative cycle counters.

The events come as tables (``sources/_hmc_util_table.UtilTable``, one per command output, a column
per attribute); a series is the rows of one partition or pool of a frame, from every table of that
frame, ordered by time (rows at the same time keep the order they were read in), and the use of each
interval is computed on whole columns.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..numbers import finite_int
from ..sources._hmc_util_table import Coded
from .estate import Evidence
from .frame import Frame, SharedPool
from .frame_records import FrameSet, HmcItem
from .frame_util_checks import TOLERANCE, Bound, Drop, num, partition_bound, pool_bound, steps as _steps, warn_drops
from .use_series import UseSeries

Rows = list[tuple[HmcItem, list[int]]]  # (table, its rows) in reading order


def keep_sample(fr: Frame, it: HmcItem) -> None:
    fr.__dict__.setdefault("_util", []).append(it)


def _key_of(event: Any, res: Any, name: Any, pid: Any, pool: Any = None) -> tuple[str, Any] | None:
    """The series a sample row belongs to (``pool``: the row's shared pool id, for ``procpool`` rows),
    None for a row of no series (an event, another resource)."""
    if (event or "sample") != "sample":
        return None
    if res == "lpar":
        return ("lpar", name or pid)
    if res == "pool":
        return ("pool", 0)
    if res == "procpool":
        return ("pool", None if pool != pool else float(pool))  # NaN: no pool id
    return None


def _coded_series(t: Any) -> list[tuple[tuple[str, Any], Any]] | None:
    """(key, its rows as an index array) of one table in the order the keys first appear, from the
    codes of its columns: the key is made once per distinct (event, resource, name, id), not per row.
    None when a column is not coded (then :func:`_series` goes row by row, as for ``procpool`` rows,
    whose key is a number of each row)."""
    import numpy as np

    cols = [t.columns.get("event_type"), t.resource, t.columns.get("lpar_name"), t.lpar_id]
    if not all(c is None or isinstance(c, Coded) for c in cols):
        return None
    combo = np.zeros(len(t), dtype=np.int64)
    for c in cols:
        if c is not None:
            combo = combo * len(c.values) + c.codes
    _, first, inverse = np.unique(combo, return_index=True, return_inverse=True)
    keys: dict[tuple[str, Any], list[int]] = {}
    for d in np.argsort(first, kind="stable").tolist():
        row = int(first[d])
        key = _key_of(*(None if c is None else c[row] for c in cols))
        if key is not None:
            keys.setdefault(key, []).append(d)
    return [(key, np.flatnonzero(np.isin(inverse, ds))) for key, ds in keys.items()]


def _series(items: list[HmcItem]) -> dict[tuple[str, Any], Rows]:
    """The sample rows of each partition (``("lpar", name or id)``) and pool (``("pool", id)``)."""
    series: dict[tuple[str, Any], Rows] = {}
    for it in items:
        t = it.rec
        coded = None if "procpool" in t.resources else _coded_series(t)
        if coded is not None:
            for key, rows in coded:
                series.setdefault(key, []).append((it, rows.tolist()))
            continue
        events = t.columns.get("event_type") or [None] * len(t)
        names = t.columns.get("lpar_name") or [None] * len(t)
        pools = t.numbers("shared_proc_pool_id") if "procpool" in t.resources else [None] * len(t)
        for row, parts in enumerate(zip(events, t.resource, names, t.lpar_id, pools)):
            key = _key_of(*parts)
            if key is None:
                continue
            runs = series.setdefault(key, [])
            if not runs or runs[-1][0] is not it:
                runs.append((it, []))
            runs[-1][1].append(row)
    return series


def settle_use(fs: FrameSet) -> None:
    """Each partition's and pool's use from its samples; the intervals that are not samples (counters
    that go back, a use above what the partition or pool can have) are warned on their inputs."""
    drops: list[Drop] = []
    for fr in fs.frames.values():
        items: list[HmcItem] = fr.__dict__.pop("_util", [])
        # pools first: their sizes bound what their partitions can use
        for (what, who), runs in sorted(_series(items).items(), key=lambda kv: kv[0][0] != "pool"):
            rows = _in_time_order(runs)
            if len(rows) > 1 and isinstance(rows[-1][0].rec.time[rows[-1][1]], datetime):
                # rows whose time could not be read (the parser warned) cannot be placed among the others
                rows = [(it, r) for it, r in rows if isinstance(it.rec.time[r], datetime)]
            last_it, last_row = rows[-1]
            last = last_it.rec
            if what == "lpar":
                first_it, first_row = rows[0]
                name = first_it.rec.text("lpar_name", first_row)
                p = fs.part(fr, name, first_it.rec.lpar_id[first_row])
                bound = partition_bound(fr, p)
                label = f"partition {name or (p.name if p else who)}"
                samples = _deltas(rows, what, bound, label, drops)
                if p is not None:
                    p.use = samples
            else:
                pid = finite_int(who) or 0
                pool = fr.pools.setdefault(pid, SharedPool(pid))
                if pid == 0 and pool.max_units is None:
                    size = last.num("configurable_pool_proc_units", last_row)
                    if size:
                        pool.max_units = size
                        pool.evidence["max_units"] = _evidence(last_it, last_row, "configurable_pool_proc_units")
                if pid and pool.max_units is None:
                    size = last.num("max_pool_capacity", last_row) or last.num("max_pool_proc_units", last_row)
                    if size:
                        pool.max_units = size
                pool.use = _deltas(rows, what, pool_bound(fr, pool), f"shared pool {pid}", drops)
    warn_drops(fs.estate, drops)


def _in_time_order(runs: Rows) -> list[tuple[HmcItem, int]]:
    """The rows of a series sorted by time (stable: rows at the same time, or without one, keep
    their reading order; a time that could not be read sorts first)."""
    if len(runs) == 1 and isinstance(times := runs[0][0].rec.time, Coded):
        return _one_table_in_time_order(runs[0][0], runs[0][1], times)
    rows = [(it, r) for it, idx in runs for r in idx]
    times = [it.rec.time[r] for it, r in rows]
    order = sorted(range(len(rows)), key=lambda i: t if isinstance(t := times[i], datetime) else datetime.min)
    return [rows[i] for i in order]


def _one_table_in_time_order(it: HmcItem, idx: list[int], times: Coded) -> list[tuple[HmcItem, int]]:
    """:func:`_in_time_order` of rows of one table: a stable sort of each row's rank, the rank of
    its time among the table's distinct times (so each time is compared once, not once per row)."""
    import numpy as np

    when = [t if isinstance(t, datetime) else datetime.min for t in times.values]
    place = {t: n for n, t in enumerate(sorted(set(when)))}  # equal times (two spellings, or unreadable) share one
    rank = np.array([place[t] for t in when], dtype=np.int64)
    rows = np.asarray(idx, dtype=np.int64)
    order = rows[np.argsort(rank[times.codes[rows]], kind="stable")]
    return [(it, r) for r in order.tolist()]


def _evidence(it: HmcItem, row: int, key: str) -> Evidence:
    """Where one attribute of a row was read (the row's line when the row does not give it)."""
    shared, line = _sample_where(it, row, key, {})
    return Evidence(shared.path, line, shared.excerpt)


def _sample_where(it: HmcItem, row: int, key: str, shared: dict[tuple[int, str], Evidence]) -> tuple[Evidence, int]:
    """What :func:`_evidence` gives, as the Evidence every row of the item shares and the row's line."""
    line = it.rec.line_of(row, key)
    if line is None:
        key, line = "", max(int(it.rec.line[row]), 1)
    ev = shared.get((id(it), key))
    if ev is None:
        ev = shared[(id(it), key)] = Evidence(it.src.path, 0, key)
    return ev, it.src.offset + line


def _deltas(rows: list[tuple[HmcItem, int]], what: str, bound: Bound, label: str, drops: list[Drop]) -> UseSeries:
    """Processor units used per interval from cumulative cycle counters (``time_cycles``: the frame's
    clock; capped + uncapped cycles: what the partition used; ``utilized_pool_cycles``: the pool's).

    An interval whose counters go back (the partition re-activated, the frame restarted: its
    counters start again lower) is not a sample, and the series goes on from the row after it; nor
    is one that used more than ``bound`` allows (a garbled or wrapped counter). Each is put in
    ``drops`` with its row, for a warning."""
    import numpy as np

    used_key = ("capped_cycles", "uncapped_cycles") if what == "lpar" else ("utilized_pool_cycles",)
    tables: dict[int, dict[str, Any]] = {}
    first = rows[0][0]
    one_table = all(it is first for it, _ in rows)
    index = [r for _, r in rows] if one_table else []

    def column(key: str) -> Any:
        if one_table:
            return first.rec.numbers(key)[index]
        for it, _ in rows:
            cols = tables.setdefault(id(it), {})
            if key not in cols:
                cols[key] = it.rec.numbers(key)
        return np.array([tables[id(it)][key][r] for it, r in rows], dtype=np.float64)

    cycles = column("time_cycles")
    used = column(used_key[0])
    for k in used_key[1:]:
        used = used + column(k)  # NaN where a row lacks one: that interval is skipped
    dated = any(isinstance(it.rec.time[r], datetime) for it, r in rows)  # the first row tells, as a rule
    back = _steps(dated, cycles, [used] + ([column("entitled_cycles")] if what == "lpar" else []))
    t0, t1, u0, u1 = cycles[:-1], cycles[1:], used[:-1], used[1:]
    with np.errstate(invalid="ignore", divide="ignore"):
        ok = ~(np.isnan(t0) | np.isnan(t1) | np.isnan(u0) | np.isnan(u1)) & (t1 != t0) & ~back
        physc = np.abs(u1 - u0) / np.abs(t1 - t0)  # in time order, or newest first (``_steps``)
    limit = bound.per_interval(column, len(rows))
    with np.errstate(invalid="ignore"):
        high = ok & (physc > limit * (1 + TOLERANCE) + 0.01)  # NaN limit: nothing known, nothing dropped

    def drop(j: int, why: str) -> None:
        where, line = _sample_where(*rows[j + 1], used_key[0], {})
        drops.append((where.path, line, why))

    for j in np.flatnonzero(back & ~np.isnan(u1 - u0)).tolist():
        drop(j, f"{label}: its cycle counters go back at this sample (the partition re-activated, the counters "
                "reset, or the row before it garbled): the interval that ends here is not a sample, the series "
                "restarts here")
    for j in np.flatnonzero(high).tolist():
        drop(j, f"{label}: {num(float(physc[j]))} processor units used in the interval that ends at this "
                f"sample, above the {num(float(limit[j]))} it can use ({bound.why(float(limit[j]))}): a garbled "
                "or wrapped counter, not a sample")
    valid = np.flatnonzero(ok & ~high)
    used_at = np.array([round(v, 3) for v in physc[valid].tolist()], dtype=np.float64)
    at = [rows[j + 1] for j in valid.tolist()]  # each sample is the interval that ends at its row
    if one_table and not first.rec.field_lines:
        # One table, each row on its line (the usual listing): every sample counted has its used
        # cycles, so its evidence is its row's line (what _sample_where gives, without its lookups).
        times, lines = first.rec.time, first.rec.line
        idx = np.array([r for _, r in at], dtype=np.int64)
        return UseSeries([times[r] for _, r in at], used_at, Evidence(first.src.path, 0, used_key[0]),
                         first.src.offset + np.asarray(lines, dtype=np.int64)[idx])
    shared: dict[tuple[int, str], Evidence] = {}
    wheres: list[Evidence | None] = []
    line_of: list[int] = []
    for it, row in at:
        where, line = _sample_where(it, row, used_key[0], shared)
        wheres.append(where)
        line_of.append(line)
    return UseSeries([it.rec.time[row] for it, row in at], used_at, wheres, np.array(line_of, dtype=np.int64))
