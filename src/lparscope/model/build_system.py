"""Appliers for system-health outputs: error log, paging spaces, file systems, firmware,
the prtconf summary and the extra lparstat reports (-H, -m, -E).

Registered with :func:`lparscope.model.appliers.applies`; imported by ``build`` itself.
Records are kept whole (as :class:`Sourced`) so rules can cite any field's line.
"""

from __future__ import annotations

import re

from ..sources.base import Parsed
from ..sources.prtconf import SystemConfig
from .appliers import applies as _applies
from .build_partition import partition_from_header
from .estate import Evidence, Host, Series, Setting, Sourced


@_applies("errpt")
def _errpt(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    # The same entry read twice (errpt and errpt -a of one log) is kept once: -a wins (more fields).
    seen = {_error_key(s.record): i for i, s in enumerate(host.errors)}
    for e in parsed.records:
        key = _error_key(e)
        if key in seen:
            if e.label and not host.errors[seen[key]].record.label:
                host.errors[seen[key]] = Sourced(e, path, offset)
            continue
        seen[key] = len(host.errors)
        host.errors.append(Sourced(e, path, offset))


def _error_key(e: object) -> tuple:
    date = getattr(e, "date", None)
    stamp = getattr(e, "timestamp", None) or error_stamp(date) or date  # a date without a year: as printed
    return (e.identifier, e.resource, stamp)  # type: ignore[attr-defined]


_MONTHS = {m: i for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(), start=1)}


def error_stamp(date: str | None) -> str | None:
    """``Sun Nov  2 14:15:02 CET 2025`` -> ``2025-11-02T14:15`` (the summary's precision); None when the
    date does not read so (older levels cut it before the year: ``Sun Jan  9 03:44:04 BEIS``), so that
    it is not sorted among the dated ones."""
    if not date:
        return None
    parts = date.split()
    try:
        month, day, clock, year = _MONTHS[parts[1]], int(parts[2]), parts[3], int(parts[-1])
    except (IndexError, KeyError, ValueError):
        return None
    if not 1970 <= year <= 2999 or not re.fullmatch(r"\d{1,2}:\d{2}(?::\d{2})?", clock):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}T{clock[:5]}"


@_applies("lsps")
def _lsps(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for r in parsed.records:
        if type(r).__name__ == "PagingSummary":
            host.paging_total = Sourced(r, path, offset)
        else:
            host.paging_spaces[r.name] = Sourced(r, path, offset)


@_applies("df")
def _df(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for r in parsed.records:
        host.filesystems[r.mounted_on] = Sourced(r, path, offset)


@_applies("lsfs")
def _lsfs(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for r in parsed.records:
        host.fs_definitions[r.mount_point] = Sourced(r, path, offset)


@_applies("lsmcode")
def _lsmcode(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for r in parsed.records:
        ev = Evidence(path, offset + r.line)
        if r.kind in ("system", "service"):
            if r.level:
                host.firmware[r.kind] = Setting(r.level, ev)
            for side in ("permanent", "temporary"):
                value = getattr(r, side)
                if value:
                    host.firmware[f"{r.kind}_{side}"] = Setting(value, Evidence(path, offset + r.lines.get(side, r.line)))
            if r.booted_from:
                host.firmware[f"{r.kind}_booted_from"] = Setting(r.booted_from, ev)
        elif r.level:
            host.firmware[r.device] = Setting(r.level, ev)


@_applies("prtconf")
def _prtconf(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for r in parsed.records:
        kind = type(r).__name__
        if kind == "SystemConfig":
            host.system = Sourced(r, path, offset)
            # lsmcode is the primary source for firmware; prtconf fills in when it is absent.
            if r.platform_firmware and "system" not in host.firmware:
                host.firmware["system"] = Setting(r.platform_firmware, Evidence(path, offset + r.lines["platform_firmware"]))
            if r.firmware_version and "firmware_version" not in host.firmware:
                host.firmware["firmware_version"] = Setting(r.firmware_version, Evidence(path, offset + r.lines["firmware_version"]))
            if r.paging_mb is not None and host.paging_total is None:
                host.paging_total = Sourced(r, path, offset)
        elif kind == "InstalledResource":
            dev = host.device(r.name)
            dev.description = dev.description or r.description
            dev.evidence = dev.evidence or Evidence(path, offset + r.line)


@_applies("lparstat-H")
def _hcalls(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    host.hcalls.extend(Sourced(r, path, offset) for r in parsed.records if type(r).__name__ == "HypervisorCall")


def _series(current: Series | None, parsed: Parsed, path: str, offset: int, rows) -> Series | None:
    series = current or Series()
    for rec in parsed.records:
        if type(rec).__name__ == "LparstatConfig":
            series.config.update(rec.values)
            continue
        series.samples.append(rows(rec))
        series.evidence.append(Evidence(path, offset + rec.line))
    return series if series.samples or series.config else current


@_applies("lparstat-m")
def _lparstat_mem(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    host.memory_io = _series(host.memory_io, parsed, path, offset, lambda r: dict(r.values))


@_applies("vmstat-h")
def _vmstat_hyp(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    """vmstat -h rows join the lparstat -m samples: both give hpi / hpit / pmem (AMS)."""
    host.memory_io = _series(host.memory_io, parsed, path, offset, lambda r: dict(r.values))


@_applies("vmstat")
def _vmstat_interval(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    """Each vmstat interval output is its own run: reports of two runs are not one series."""
    run: Series | None = None
    for rec in parsed.records:
        if type(rec).__name__ == "VmstatHeader":
            typed = {"lcpu_count": rec.lcpu, "interval_s": rec.interval_s}  # numbers as the parser read them
            run = Series(config={**rec.values, **{k: f"{v:g}" for k, v in typed.items() if v}})
            host.vmstat_runs.append(run)
            continue
        if run is None:
            run = Series()
            host.vmstat_runs.append(run)
        run.samples.append({**rec.values, "elapsed_s": rec.elapsed_s})
        run.evidence.append(Evidence(path, offset + rec.line))
    host.vmstat_runs[:] = [r for r in host.vmstat_runs if r.samples]


# sar's column names as lparstat prints them: one processor series, read alike by the rules and sizing
_SAR_AS_LPARSTAT = {"%usr": "%user", "%wio": "%wait"}


def _sar_intervals(records: list) -> set[tuple[str, str]]:  # type: ignore[type-arg]
    """(date, time) of the partition rows of one sar output's records (not the Average ones)."""
    date = next((r.date for r in records if type(r).__name__ == "SarHeader"), "")
    return {(date, r.time) for r in records if type(r).__name__ == "SarRow" and r.is_partition and r.time}


@_applies("sar")
def _sar(host: Host, parsed: Parsed, path: str, offset: int) -> list[tuple[int, str]] | None:
    """sar -u / -P ALL: the partition's rows (``-``, every row of -u; not the Average block) are the host's
    processor series (``host.cpu``, as lparstat's samples: physc, %entc, %user ...), each with its
    ``elapsed_s``. One series per host: an nmon recording's or lparstat's is kept, and an output of
    the same intervals as one already read (sar -u and sar -P ALL of one run) is not added twice."""
    for cfg in parsed.records:
        if type(cfg).__name__ == "LparstatConfig" and host.partition is None:
            host.partition = partition_from_header(cfg, Evidence(path, offset + cfg.line), "sar")
    rows = [r for r in parsed.records if type(r).__name__ == "SarRow" and r.is_partition and not r.average]
    if not rows:
        return None
    cpu = host.cpu
    if cpu is not None and cpu.samples and cpu.origin != "sar":
        what = f"the nmon recording {host.nmon_path}" if cpu.origin == "nmon" else "its lparstat output"
        return [(rows[0].line, f"sar processor samples not added to {host.name}'s series: it comes from {what} "
                               f"({len(cpu.samples)} samples)")]
    mine = {id(r) for r in parsed.records}
    earlier: dict[tuple[str, int], list] = {}  # type: ignore[type-arg]
    for s in host.records.get("sar", []):
        if id(s.record) not in mine:
            earlier.setdefault((s.path, s.offset), []).append(s.record)
    intervals = _sar_intervals(parsed.records)
    for (where, off), records in earlier.items():
        if intervals & _sar_intervals(records):
            return [(rows[0].line, f"sar processor samples not added twice: the same intervals are in the sar output "
                                   f"at {where}:{off + 1}")]
    series = cpu if cpu is not None and cpu.origin == "sar" else Series(origin="sar")
    for cfg in parsed.records:
        if type(cfg).__name__ == "LparstatConfig":
            series.config.update(cfg.values)
    for r in rows:
        series.samples.append({**{_SAR_AS_LPARSTAT.get(k, k): v for k, v in r.values.items()}, "elapsed_s": r.elapsed_s})
        series.evidence.append(Evidence(path, offset + r.line))
    host.cpu = series
    return None


@_applies("lparstat-E")
def _lparstat_spurr(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    def row(r):  # type: ignore[no-untyped-def]
        values = {f"actual_{k}": v for k, v in r.actual.items()}
        values.update({f"normalised_{k}": v for k, v in r.normalised.items()})
        values.update({"freq_ghz": r.freq_ghz, "freq_pct": r.freq_pct})
        return values
    host.spurr = _series(host.spurr, parsed, path, offset, row)
    for cfg in parsed.records:
        if hasattr(cfg, "ent") and host.partition is None:
            host.partition = partition_from_header(cfg, Evidence(path, offset + cfg.line))


def _platform(host: Host, summary, path: str, offset: int) -> None:  # type: ignore[no-untyped-def]
    """Machine type/serial and the system firmware from platform VPD, where nothing better said them."""
    for key, theirs in (("system", "firmware_current"), ("system_permanent", "firmware_permanent"),
                        ("system_temporary", "firmware_temporary")):
        value = getattr(summary, theirs)
        if value and key not in host.firmware:
            host.firmware[key] = Setting(value, Evidence(path, offset + summary.lines.get(theirs, summary.line)))
    if host.system is None and (summary.type_model or summary.machine_serial):
        lines = {"model": summary.lines.get("type_model", summary.line),
                 "serial": summary.lines.get("machine_serial", summary.line)}
        cfg = SystemConfig(model=summary.type_model, serial=summary.machine_serial, line=summary.line, lines=lines)
        host.system = Sourced(cfg, path, offset)


def _described(host: Host, name: str, description: str, path: str, offset: int, line: int) -> None:
    dev = host.device(name)
    dev.description = dev.description or description
    dev.evidence = dev.evidence or Evidence(path, offset + line)


@_applies("lscfg")
def _lscfg(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for r in parsed.records:
        kind = type(r).__name__
        if kind == "VpdDevice":
            _described(host, r.name, r.description, path, offset, r.line)
        elif kind == "PlatformSummary":
            _platform(host, r, path, offset)


@_applies("lsvpd")
def _lsvpd(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for r in parsed.records:
        kind = type(r).__name__
        if kind == "VpdBlock" and r.fields.get("device_name"):
            _described(host, r.fields["device_name"], r.description or "", path, offset, r.line)
        elif kind == "PlatformSummary":
            _platform(host, r, path, offset)
