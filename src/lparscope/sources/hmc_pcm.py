"""HMC performance and capacity monitoring data (PCM, "ProcessedMetrics" JSON of the HMC REST API):
processor units used per sample by each partition, VIOS and shared processor pool of one managed
system.

Input (a managed system's or a partition's processed metrics, cut short)::

    {"systemUtil": {
      "utilInfo": {"version": "1.3.0", "metricType": "Processed", "frequency": 30,
                   "mtms": "9009-42A*21F64EV", "name": "Server-9009-42A-SN21F64EV", "uuid": "b597e4da-...",
                   "metricArrayOrder": ["AVG"]},
      "utilSamples": [
        {"sampleType": "LogicalPartition", "sampleInfo": {"timeStamp": "2022-12-02T12:59:30+0100", "status": 2},
         "lparsUtil": [{"id": 11, "name": "aix11", "state": "Running",
                        "processor": {"poolId": 0, "weight": 128, "mode": "uncap", "currentVirtualProcessors": [4],
                                      "entitledProcUnits": [2], "utilizedProcUnits": [0.00793], ...},
                        "memory": {"logicalMem": [16384], ...}}]}, ...]}}

Output: one :class:`PcmSeries` per partition (``lparsUtil``), VIOS (``viosUtil``) and shared pool
(``serverUtil.sharedProcessorPool``) of the file, its samples in the file's order::

    PcmSeries(what="lpar", name="aix11", id=11, system="Server-9009-42A-SN21F64EV",
              times=[datetime(2022, 12, 2, 12, 59, 30), ...], used=[0.00793, ...], lines=[17, ...],
              config={"entitled": 2.0, "vps": 4, "weight": 128, "mode": "uncap", "pool_id": 0, "mem": 16384},
              config_line=17, line=17)

Times are the HMC's wall clock as printed (the offset is dropped, as lslparutil prints none);
each sample's line is that of its ``timeStamp``. Values are the ``AVG`` entry of each metric's array
(``metricArrayOrder``). A sample the HMC marks with an error keeps its values; one without a
``utilizedProcUnits`` number is skipped. Not read: the network and storage metrics, the LTM raw
("phyp") data.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .base import Parsed, to_float

KIND = "hmc-pcm"
TITLE = "HMC PCM processed metrics (JSON)"
COMMANDS: list[str] = []
STARTS = None

_HEAD = re.compile(r'^\s*\{\s*"systemUtil"\s*:')
_STAMP = re.compile(r'"timeStamp"\s*:\s*"([^"]*)"')


def detect(text: str) -> int:
    head = text[:65536]
    return 95 if _HEAD.match(head) and '"utilSamples"' in head and '"utilInfo"' in head else 0


@dataclass
class PcmSeries:
    """The samples of one partition, VIOS or shared pool (``what``: "lpar", "vios", "pool")."""

    what: str
    name: str | None
    id: int | None
    system: str | None  # the managed system's name (utilInfo.name)
    system_uuid: str | None
    line: int
    times: list[datetime] = field(default_factory=list)
    used: list[float] = field(default_factory=list)  # processor units used, per sample
    lines: list[int] = field(default_factory=list)  # line of each sample's timeStamp
    config: dict[str, Any] = field(default_factory=dict)  # the last sample's settings (entitled, vps, weight ...)
    config_line: int = 0
    mtms: str | None = None  # the managed system's machine type-model*serial (utilInfo.mtms: "9009-42A*21F64EV")


def _time(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    for fmt in ("%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M:%S.%f%z", "%Y-%m-%dT%H:%M:%S"):
        try:
            return datetime.strptime(text.strip(), fmt).replace(tzinfo=None)
        except ValueError:
            continue
    return None


def _avg(metric: Any, at: int) -> float | None:
    """The ``AVG`` value of a metric array (or a plain number), as a finite float."""
    v = metric[at] if isinstance(metric, list) and len(metric) > at else metric
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        return None
    return to_float(str(v))


def _whole(v: float | None) -> int | None:
    return int(v) if v is not None and v == int(v) else None


def _sample_lines(text: str, count: int) -> list[int]:
    """The line of each sample's ``timeStamp`` (1 for all when they cannot be told apart)."""
    starts = [m.start() for m in _STAMP.finditer(text)]
    if len(starts) != count:
        return [1] * count
    return [text.count("\n", 0, s) + 1 for s in starts]


def _config(proc: dict[str, Any], mem: dict[str, Any], at: int) -> dict[str, Any]:
    """The settings a sample gives beside the use (entitlement, virtual processors, weight, pool, memory)."""
    out: dict[str, Any] = {}
    for key, value in (("entitled", _avg(proc.get("entitledProcUnits"), at)),
                       ("vps", _whole(_avg(proc.get("currentVirtualProcessors"), at))),
                       ("weight", _whole(_avg(proc.get("weight"), at))),
                       ("pool_id", _whole(_avg(proc.get("poolId"), at))),
                       ("mem", _whole(_avg(mem.get("logicalMem") or mem.get("assignedMem"), at)))):
        if value is not None:
            out[key] = value
    if isinstance(proc.get("mode"), str) and proc["mode"]:
        out["mode"] = proc["mode"]
    return out


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        out.warn(getattr(exc, "lineno", 1) or 1, f"JSON not read: {str(exc)[:100]}")
        return out
    util = doc.get("systemUtil") if isinstance(doc, dict) else None
    info = util.get("utilInfo") if isinstance(util, dict) else None
    samples = util.get("utilSamples") if isinstance(util, dict) else None
    if not isinstance(info, dict) or not isinstance(samples, list):
        out.warn(1, "no systemUtil.utilInfo / utilSamples: not PCM processed metrics")
        return out
    order = info.get("metricArrayOrder")
    at = order.index("AVG") if isinstance(order, list) and "AVG" in order else 0
    system = info.get("name") if isinstance(info.get("name"), str) else None
    uuid = info.get("uuid") if isinstance(info.get("uuid"), str) else None
    mtms = info.get("mtms") if isinstance(info.get("mtms"), str) else None
    lines = _sample_lines(text, len(samples))
    errors: dict[str, tuple[int, int]] = {}  # an error the HMC attached to samples -> (first line, count)
    series: dict[tuple[str, Any], PcmSeries] = {}
    skipped = 0
    for sample, line in zip(samples, lines):
        if not isinstance(sample, dict):
            skipped += 1
            continue
        info_of = sample.get("sampleInfo") if isinstance(sample.get("sampleInfo"), dict) else {}
        for err in info_of.get("errorInfo") or []:
            if isinstance(err, dict):
                said = f"{err.get('errId', '?')}: {str(err.get('errMsg') or err.get('uuid') or '')[:120]}"
                first, n = errors.get(said, (line, 0))
                errors[said] = (first, n + 1)
        when = _time((sample.get("sampleInfo") or {}).get("timeStamp") if isinstance(sample.get("sampleInfo"), dict) else None)
        if when is None:
            skipped += 1
            continue
        server = sample.get("serverUtil") if isinstance(sample.get("serverUtil"), dict) else {}
        rows = [("lpar", r) for r in sample.get("lparsUtil") or [] if isinstance(r, dict)]
        rows += [("vios", r) for r in sample.get("viosUtil") or [] if isinstance(r, dict)]
        rows += [("pool", r) for r in server.get("sharedProcessorPool") or [] if isinstance(r, dict)]
        for what, r in rows:
            proc = r.get("processor") if what != "pool" else r
            if not isinstance(proc, dict):
                continue
            used = _avg(proc.get("utilizedProcUnits"), at)
            name = r.get("name") if isinstance(r.get("name"), str) else None
            ident = _whole(_avg(r.get("id"), at))
            if used is None or (name is None and ident is None):
                skipped += 1
                continue
            key = (what, ident if ident is not None else name)
            s = series.get(key)
            if s is None:
                s = series[key] = PcmSeries(what, name, ident, system, uuid, line, mtms=mtms)
            s.times.append(when)
            s.used.append(used)
            s.lines.append(line)
            mem = r.get("memory") if isinstance(r.get("memory"), dict) else {}
            s.config, s.config_line = (_config(proc, mem, at), line) if what != "pool" else ({}, line)
    out.records.extend(series.values())
    for said, (first, n) in errors.items():
        out.warn(first, f"the HMC marks {n} sample(s) with error {said} (their values may be partial)")
    if skipped:
        out.warn(1, f"{skipped} sample row(s) without a time, a name or a processor-units-used number not read")
    if not series:
        out.warn(1, "no partition, VIOS or shared pool samples")
    return out
