"""The physc an nmon LPAR section measured, as sizing and the rules use it: :func:`lpar_physc`.

nmon prints ``PhysicalCPU`` (physc = physical processors consumed) per snapshot. A partition cannot
use more than its virtual processors (shared) or its dedicated cores, nor a shared one more than
its pool has: ``LPAR,T0120,60.000`` of a partition with 6 VPs in a 16-core pool is a glitch (a
counter read across a wrap, a damaged line), as are ``1e300``, ``inf`` and negative values. They
would size the partition (a peak of 60 cores asks for 16 VPs) and print as figures in findings:
sizing and the rules read physc through here, with such values as NaN (no sample); the table keeps
them as read (the export shows the raw data). :func:`physc_note` is the recording's one warning.

The bound of a snapshot is its own ``virtualCPUs`` and (shared, ``SharedCPU`` 1) ``poolCPUs``, a
snapshot without one taking the most the column shows; a section without the column takes the
partition's settings when the caller knows them. 5% and a hundredth of a core are allowed (nmon
reads the counters a moment apart).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..numbers import LIMIT, fmt_number

#: the share by which physc may pass its bound (see the module doc), plus a hundredth of a core
TOLERANCE = 0.05


def _bound_column(lpar: Any, name: str, fallback: float | None) -> np.ndarray | None:
    """The column's count per snapshot (a snapshot without one: the most the column shows), else
    ``fallback`` for every snapshot; None when nothing is known."""
    n = len(lpar.times)
    if name in getattr(lpar, "columns", []):
        col = np.array(lpar.column(name), dtype=np.float64)
        col[~(np.isfinite(col) & (col > 0))] = np.nan
        if not np.isnan(col).all():
            return np.where(np.isnan(col), np.nanmax(col), col)
    return None if not fallback else np.full(n, float(fallback))


def _bounds(lpar: Any, vp: float | None, pool: float | None,
            shared: bool | None) -> tuple[np.ndarray | None, np.ndarray | None]:
    """(VPs, pool cores) bounding each snapshot's physc; the pool's NaN where the partition is
    dedicated (its cores are not the pool's). None: nothing known."""
    vps = _bound_column(lpar, "virtualCPUs", vp)
    pools = _bound_column(lpar, "poolCPUs", pool)
    if pools is not None:
        n = len(pools)
        if "SharedCPU" in lpar.columns:
            flag = np.asarray(lpar.column("SharedCPU"), dtype=np.float64)
            with np.errstate(invalid="ignore"):
                is_shared = flag >= 1 if shared is None else np.where(np.isnan(flag), shared, flag >= 1)
        else:
            is_shared = np.full(n, bool(shared))
        pools = np.where(is_shared, pools, np.nan)
    return vps, pools


def impossible(lpar: Any, vp: float | None = None, pool: float | None = None,
               shared: bool | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(physc as read, where it is no sample): not finite (``inf``, not NaN: a snapshot without a
    value is no glitch), negative, beyond what a system reports, or above the partition's bound.
    ``vp``, ``pool``, ``shared``: the partition's settings, for a section without those columns."""
    physc = np.array(lpar.column("PhysicalCPU"), dtype=np.float64)
    vps, pools = _bounds(lpar, vp, pool, shared)
    bound = vps if pools is None else pools if vps is None else np.fmin(vps, pools)
    with np.errstate(invalid="ignore"):
        bad = np.isinf(physc) | (physc < 0) | (np.abs(physc) > LIMIT)
        if bound is not None:
            bad |= physc > bound * (1 + TOLERANCE) + 0.01  # NaN bound: nothing known, nothing dropped
    return physc, bad


def settings_of(host: Any) -> tuple[float | None, float | None, bool | None]:
    """(VPs, pool cores, shared) of the host's partition (lparstat -i), for a section without them."""
    p = getattr(host, "partition", None)
    if p is None:
        return None, None, None
    shared = True if p.shared else False if p.dedicated else None
    return p.online_vps or None, p.pool_cores or None, shared


def host_physc(host: Any, lpar: Any) -> np.ndarray:
    """:func:`lpar_physc` of the host's LPAR section, its partition's settings as the fallback."""
    return lpar_physc(lpar, *settings_of(host))


def lpar_physc(lpar: Any, vp: float | None = None, pool: float | None = None, shared: bool | None = None) -> np.ndarray:
    """``PhysicalCPU`` of each snapshot as sizing and the rules use it: NaN where it is no sample
    (:func:`impossible`) or missing."""
    physc, bad = impossible(lpar, vp, pool, shared)
    physc[bad] = np.nan
    return physc


def physc_note(lpar: Any, vp: float | None = None, pool: float | None = None,
               shared: bool | None = None) -> tuple[int, str] | None:
    """The recording's warning about its impossible physc values: (the first one's file line, how
    many and why); None when there are none."""
    if lpar is None or "PhysicalCPU" not in getattr(lpar, "columns", []):
        return None
    physc, bad = impossible(lpar, vp, pool, shared)
    idx = np.flatnonzero(bad)
    if not idx.size:
        return None
    k = int(idx[0])
    lines = np.asarray(getattr(lpar, "lines", []), dtype=np.int64)
    line = int(lines[k]) if k < lines.size else int(getattr(lpar, "first_line", 1) or 1)
    vps, pools = _bounds(lpar, vp, pool, shared)
    what = ", ".join(x for x in (f"{fmt_number(vps[k])} processors" if vps is not None else "",
                                 f"a {fmt_number(pools[k])}-core pool" if pools is not None and pools[k] == pools[k]
                                 else "") if x)
    return line, (f"LPAR PhysicalCPU: {idx.size} snapshot(s) with a physc the partition cannot use (first: "
                  f"{fmt_number(float(physc[k]))}{f', with {what}' if what else ''}; values that are negative, "
                  "infinite or above its processors or its pool are counted): left out of sizing and the rules, "
                  "kept in the recording's tables")
