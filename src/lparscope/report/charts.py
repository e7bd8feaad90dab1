"""Chart specifications for the HTML report, drawn offline by the vendored uPlot library.

A *spec* is a JSON-safe dict that the ``charts.html.j2`` partial embeds (through ``|tojson``,
which escapes every input-derived string) and its small script hands to uPlot::

    {"kind": "physc", "host": "aix1", "title": "Processor use (physc)", "unit": "cores",
     "note": "...",                       # one line shown under the title, or ""
     "x": [1709510400, ...],              # seconds; the clock time as recorded, drawn as UTC
     "series": [{"label": "physc", "values": [1.2, null, ...], "color": "#1d5fb4",
                 "width": 1.5, "dash": null, "fill": null},
                {"label": "EC", "constant": 25.0, "color": ..., "dash": [6, 4]}],
     "bands": [[upper, lower, "rgba(...)"]],   # series indexes (0 = first series), filled between
     "highlights": [[x0, x1]], "highlight_fill": "rgba(...)",  # shaded x ranges (peak window)
     "y_min": 0.0, "y_max": null}

Times: nmon files carry no time zone, so the x values are the recorded clock times encoded
as if they were UTC and drawn in UTC: every viewer sees the times the file says, whatever the
viewer's own zone. Size: each series is cut to at most :data:`MAX_POINTS` points by taking the
*maximum* of each bucket of consecutive samples (peaks, which sizing is about, stay visible).
Many devices (disks, interfaces): the :data:`TOP_N` busiest by mean are drawn, the rest are
folded into an "others" band (their min-max range per sample) with their mean as a line, so a
day at 1-minute intervals on 200 disks stays light (about TOP_N + 3 lines).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

UPLOT_VERSION = "1.6.32"
MAX_POINTS = 2000
TOP_N = 10
DECIMALS = 4

PALETTE = ("#1d5fb4", "#c2410c", "#2f6f3e", "#7c3aed", "#b42318", "#0e7490", "#a16207",
           "#be185d", "#4d7c0f", "#475569")
EC_COLOR, VP_COLOR, OTHERS_COLOR = "#2f6f3e", "#b42318", "#8c959f"
REC_EC_COLOR, REC_VP_COLOR = "#7c3aed", "#c2410c"
HIGHLIGHT_FILL = "rgba(250,204,21,0.13)"

FIGURE_SOURCE = "IBM Redbook SG24-8080, chapter 3, §3.1 Figure 3-1"


# --------------------------------------------------------------------------- library

@lru_cache(maxsize=1)
def chart_library() -> dict[str, str]:
    """The vendored uPlot JS and CSS (our own files, never input) for inlining into the page.

    Raises if a file could close the element it is inlined into, which would break the page.
    """
    static = resources.files("lparscope") / "report" / "static"
    js = (static / "uPlot.iife.min.js").read_text(encoding="utf-8")
    css = (static / "uPlot.min.css").read_text(encoding="utf-8")
    if "</script" in js.lower() or "<!--" in js or "</style" in css.lower():
        raise RuntimeError("vendored chart library cannot be inlined safely")
    return {"js": js, "css": css, "version": UPLOT_VERSION}


def chart_context(charts: list[dict[str, Any]]) -> dict[str, Any]:
    """Template variables the ``charts.html.j2`` partial expects."""
    return {"charts": charts, "chart_library": chart_library() if charts else None}


# --------------------------------------------------------------------------- helpers

def _epoch_seconds(times: np.ndarray) -> np.ndarray:
    """Clock times as recorded -> seconds since 1970 as if UTC (int64)."""
    return np.asarray(times).astype("datetime64[s]").astype(np.int64)


def _bucket_max(values: np.ndarray, k: int) -> np.ndarray:
    """NaN-aware maximum of consecutive buckets of ``k`` samples."""
    n = values.size
    pad = (-n) % k
    padded = np.concatenate([values, np.full(pad, np.nan)]).reshape(-1, k)
    with np.errstate(all="ignore"):
        all_nan = np.isnan(padded).all(axis=1)
        out = np.nanmax(np.where(np.isnan(padded), -np.inf, padded), axis=1)
    out[all_nan] = np.nan
    return out


class _Axis:
    """The shared time axis of one chart, downsampled to at most ``max_points``."""

    def __init__(self, times: np.ndarray, max_points: int = MAX_POINTS) -> None:
        t = np.asarray(times).astype("datetime64[s]")
        self.valid = ~np.isnat(t)
        secs = _epoch_seconds(t[self.valid])
        self.order = np.argsort(secs, kind="stable")
        secs = secs[self.order]
        self.k = max(1, math.ceil(secs.size / max(1, max_points)))
        self.x = secs[:: self.k]

    def align(self, values: np.ndarray) -> np.ndarray:
        """A caller's series in axis order (invalid times dropped, sorted by time)."""
        v = np.asarray(values, dtype=float)
        if v.shape != self.valid.shape:
            raise ValueError(f"series of shape {v.shape} does not match times {self.valid.shape}")
        return v[self.valid][self.order]

    def down(self, aligned: np.ndarray, *, low: bool = False) -> list[float | None]:
        """JSON values of an aligned series, bucketed (max, or min when ``low``)."""
        if self.k > 1:
            aligned = -_bucket_max(-aligned, self.k) if low else _bucket_max(aligned, self.k)
        return _json_values(aligned)

    def json(self, values: np.ndarray) -> list[float | None]:
        return self.down(self.align(values))

    @property
    def note(self) -> str:
        return f"each point is the maximum of {self.k} samples" if self.k > 1 else ""


def _finite_stats(block: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Maximum, minimum and mean of the finite values along ``axis``; NaN where there is none
    (numpy's nanmean and nanmax warn on such an empty slice, and a warning reaches the user)."""
    finite = np.isfinite(block)
    n = finite.sum(axis=axis)
    hi = np.where(finite, block, -np.inf).max(axis=axis, initial=-np.inf)
    lo = np.where(finite, block, np.inf).min(axis=axis, initial=np.inf)
    total = np.where(finite, block, 0.0).sum(axis=axis)
    mean = total / np.maximum(n, 1)
    empty = n == 0
    hi[empty], lo[empty], mean[empty] = np.nan, np.nan, np.nan
    return hi.astype(float), lo.astype(float), mean.astype(float)


def _json_values(values: np.ndarray) -> list[float | None]:
    rounded = np.round(values.astype(float), DECIMALS)
    return [None if not math.isfinite(v) else float(v) for v in rounded.tolist()]


def _line(label: str, values: list[float | None] | None = None, *, color: str, width: float = 1.5,
          dash: list[int] | None = None, fill: str | None = None,
          constant: float | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"label": label, "color": color, "width": width, "dash": dash, "fill": fill}
    if constant is not None:
        spec["constant"] = round(float(constant), DECIMALS)
    else:
        spec["values"] = values if values is not None else []
    return spec


def _spec(kind: str, host: str, title: str, unit: str, axis: _Axis, series: list[dict[str, Any]],
          *, note: str = "", bands: list[list[Any]] | None = None, y_min: float | None = 0.0,
          y_max: float | None = None, highlights: list[list[int]] | None = None) -> dict[str, Any]:
    notes = "; ".join(n for n in (note, axis.note) if n)
    return {"kind": kind, "host": str(host), "title": title, "unit": unit, "note": notes,
            "x": [int(s) for s in axis.x.tolist()], "series": series, "bands": bands or [],
            "highlights": highlights or [], "highlight_fill": HIGHLIGHT_FILL,
            "y_min": y_min, "y_max": y_max}


# --------------------------------------------------------------------------- charts

def physc_chart(times: np.ndarray, physc: np.ndarray, *, host: str, ec: float | None = None,
                vp: float | None = None, recommended_ec: float | None = None,
                recommended_vp: float | None = None,
                peak_window: tuple[Any, Any] | None = None,
                peak_ranges: list[tuple[int, int]] | None = None) -> dict[str, Any]:
    """physc over time with the current EC and VPs and the recommended EC/VP as flat lines,
    the way 000 §3.1 Figure 3-1 reads a workload (EC = average at peak, VP = peak).

    ``peak_ranges`` ((first, last) sample indexes into ``times``, as in ``Sizing.peak_ranges``)
    are shaded as the peak window."""
    axis = _Axis(times)
    highlights = []
    secs = _epoch_seconds(np.asarray(times))
    for first, last in peak_ranges or []:
        if 0 <= first <= last < secs.size:
            highlights.append([int(secs[first]), int(secs[last])])
    series = [_line("physc", axis.json(physc), color=PALETTE[0], fill="rgba(29,95,180,0.08)")]
    # Four flat lines a reader must tell apart at a glance (and in grey print): current values
    # dashed, recommended ones solid or dotted, VP lines heavier than EC lines.
    for label, value, color, dash, width in (
        ("EC", ec, EC_COLOR, [8, 4], 1.5),
        ("VP", vp, VP_COLOR, [14, 4, 3, 4], 2.5),
        ("recommended EC", recommended_ec, REC_EC_COLOR, [2, 3], 2.0),
        ("recommended VP", recommended_vp, REC_VP_COLOR, None, 2.5),
    ):
        if value is not None:
            series.append(_line(f"{label} {value:g}", color=color, dash=dash, width=width,
                                constant=value))
    note = f"lines as in {FIGURE_SOURCE}"
    if peak_window is not None:
        note = (f"peak window {peak_window[0].strftime('%H:%M')}-{peak_window[1].strftime('%H:%M')}"
                f"{' (shaded)' if highlights else ''}; " + note)
    top = max((v for v in (vp, recommended_vp) if v is not None), default=None)
    return _spec("physc", host, "Processor use (physc, cores)", "cores", axis, series, note=note,
                 y_max=None if top is None else float(top) * 1.05, highlights=highlights)


def pool_idle_chart(times: np.ndarray, pool_idle: np.ndarray, *, host: str,
                    pool_cores: float | None = None) -> dict[str, Any]:
    """Idle cores in the shared pool (nmon LPAR PoolIdle, lparstat app)."""
    axis = _Axis(times)
    series = [_line("pool idle", axis.json(pool_idle), color=PALETTE[5], fill="rgba(14,116,144,0.10)")]
    if pool_cores is not None:
        series.append(_line(f"pool cores {pool_cores:g}", color=OTHERS_COLOR, dash=[6, 4],
                            constant=pool_cores))
    return _spec("pool", host, "Shared pool idle (cores)", "cores", axis, series)


def _many(kind: str, host: str, title: str, unit: str, times: np.ndarray,
          series: Mapping[str, np.ndarray], *, top_n: int, what: str,
          y_max: float | None = None) -> dict[str, Any]:
    """Up to ``top_n`` named series by mean, the rest as an "others" min-max band and mean."""
    axis = _Axis(times)
    names = list(series)
    if not names:
        return _spec(kind, host, title, unit, axis, [], note=f"no {what}")
    raw = np.vstack([axis.align(series[n]) for n in names])
    means = _finite_stats(raw, axis=1)[2]
    means[np.isnan(means)] = -1.0  # a series with no sample ranks last
    ranked = sorted(range(len(names)), key=lambda i: (-means[i], str(names[i])))
    top, rest = ranked[:top_n], ranked[top_n:]
    out = [_line(str(names[i]), axis.down(raw[i]), color=PALETTE[n % len(PALETTE)], width=1.25)
           for n, i in enumerate(top)]
    bands: list[list[Any]] = []
    note = ""
    if rest:
        hi, lo, mean = _finite_stats(raw[rest], axis=0)
        label = f"others ({len(rest)})"
        out.append(_line(f"{label} max", axis.down(hi), color=OTHERS_COLOR, width=0.75))
        out.append(_line(f"{label} mean", axis.down(mean), color=OTHERS_COLOR, width=1.5, dash=[4, 3]))
        out.append(_line(f"{label} min", axis.down(lo, low=True), color=OTHERS_COLOR, width=0.75))
        bands.append([len(out) - 3, len(out) - 1, "rgba(140,149,159,0.22)"])
        note = (f"the {len(top)} busiest of {len(names)} {what} by mean; "
                f"the other {len(rest)} as a min-max band with their mean")
    return _spec(kind, host, title, unit, axis, out, note=note, bands=bands, y_max=y_max)


def disk_busy_chart(times: np.ndarray, busy: Mapping[str, np.ndarray], *, host: str,
                    top_n: int = TOP_N) -> dict[str, Any]:
    """Disk busy % per disk (nmon DISKBUSY), top ``top_n`` by mean plus an "others" band."""
    return _many("disk", host, "Disk busy (%)", "%", times, busy, top_n=top_n, what="disks",
                 y_max=100.0)


def network_chart(times: np.ndarray, series: Mapping[str, np.ndarray], *, host: str,
                  unit: str = "KB/s", top_n: int = TOP_N) -> dict[str, Any]:
    """Network throughput per interface and direction (nmon NET: ``en0-read-KB/s`` ...)."""
    return _many("network", host, f"Network ({unit})", unit, times, series, top_n=top_n,
                 what="interface series")


def memory_chart(times: np.ndarray, series: Mapping[str, np.ndarray], *, host: str,
                 unit: str = "MB") -> dict[str, Any]:
    """Memory series (nmon MEM/MEMNEW: real free, process, FS cache, ...), all drawn."""
    return _many("memory", host, f"Memory ({unit})", unit, times, series, top_n=len(PALETTE),
                 what="memory series")


def chart_specs(host: str, times: np.ndarray, *, physc: np.ndarray | None = None,
                ec: float | None = None, vp: float | None = None, sizing: Any = None,
                pool_idle: np.ndarray | None = None, pool_cores: float | None = None,
                memory: Mapping[str, np.ndarray] | None = None,
                disk_busy: Mapping[str, np.ndarray] | None = None,
                network: Mapping[str, np.ndarray] | None = None,
                times_by_kind: Mapping[str, np.ndarray] | None = None) -> list[dict[str, Any]]:
    """Every chart one host's series allow, in report order: physc, pool, memory, disk, network.

    ``sizing`` is a :class:`lparscope.sizing.cpu.Sizing` (its recommended EC/VP and peak window
    are drawn). ``times_by_kind`` overrides ``times`` for a kind (``"disk"``, ``"network"`` ...)
    whose series were sampled on another clock. Series that are absent or empty give no chart.
    """
    def t(kind: str) -> np.ndarray:
        return (times_by_kind or {}).get(kind, times)

    specs: list[dict[str, Any]] = []
    if physc is not None and np.asarray(physc).size:
        specs.append(physc_chart(
            t("physc"), physc, host=host, ec=ec, vp=vp,
            recommended_ec=getattr(sizing, "recommended_ec", None),
            recommended_vp=getattr(sizing, "recommended_vp", None),
            peak_window=getattr(sizing, "peak_window", None),
            peak_ranges=getattr(sizing, "peak_ranges", None)))
    if pool_idle is not None and np.asarray(pool_idle).size:
        specs.append(pool_idle_chart(t("pool"), pool_idle, host=host, pool_cores=pool_cores))
    if memory:
        specs.append(memory_chart(t("memory"), memory, host=host))
    if disk_busy:
        specs.append(disk_busy_chart(t("disk"), disk_busy, host=host))
    if network:
        specs.append(network_chart(t("network"), network, host=host))
    return specs
