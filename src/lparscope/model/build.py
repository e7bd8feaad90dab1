"""Turn parser records into the estate model.

``apply(host, kind, parsed, path, offset)`` folds one parsed output into its host;
``finish(estate)`` settles what needs everything at once (roles, device classes).
Line numbers from the parsers are relative to their segment; ``offset`` (the
segment's first line in its file, minus one) makes them file lines.
"""

from __future__ import annotations

import re

from ..sources.base import Parsed
from .appliers import APPLIERS as _APPLIERS
from .appliers import applies as _applies
from .build_partition import partition_from_header
from .estate import Device, Estate, Evidence, Host, KernelQueueDepth, Partition, Series, Setting, Sourced


def apply(host: Host, kind: str, parsed: Parsed, path: str, offset: int) -> list[tuple[int, str]]:
    """Fold one parsed output into ``host``.

    Returns the records that could not be attached to the model, as (file line, why): the
    caller reports them as warnings, so nothing read is dropped without a word.
    """
    if path not in host.files:
        host.files.append(path)
    host.records.setdefault(kind, []).extend(Sourced(r, path, offset) for r in parsed.records)
    fn = _APPLIERS.get(kind)
    dropped = (fn(host, parsed, path, offset) or []) if fn is not None else []
    return [(offset + line, why) for line, why in dropped]


def _ev(path: str, offset: int, line: int | None, excerpt: str = "") -> Evidence | None:
    return Evidence(path, offset + line, excerpt) if line else None


# --- device classes -------------------------------------------------------------------

def class_from_description(name: str, description: str) -> str | None:
    d = description.lower()
    if "shared ethernet adapter" in d:
        return "sea"
    if "etherchannel" in d or "link aggregation" in d:
        return "etherchannel"
    if "virtual i/o ethernet" in d or "l-lan" in d:
        return "virtual"
    if name.startswith("ent") and "vlan" in d:
        return "vlan"
    return None


def class_from_name(name: str) -> str:
    for prefix, cls in (("vfchost", "vfchost"), ("vhost", "vhost"), ("vscsi", "vscsi"), ("fscsi", "fscsi"),
                        ("fcs", "fc"), ("hdisk", "disk"), ("ent", "physical"), ("en", "interface"),
                        ("et", "interface")):
        if re.fullmatch(prefix + r"\d+", name):
            return cls
    return "other"


def _settle_class(dev: Device) -> None:
    """Best class from what is known; entstat's own class (set elsewhere) wins."""
    if dev.stats is not None and getattr(dev.stats, "adapter_class", "unknown") not in (None, "unknown"):
        dev.cls = dev.stats.adapter_class
        return
    by_desc = class_from_description(dev.name, dev.description)
    if by_desc:
        dev.cls = by_desc
        return
    if dev.name.startswith("ent"):
        if "real_adapter" in dev.attrs and "virt_adapters" in dev.attrs:
            dev.cls = "sea"
            return
        if "adapter_names" in dev.attrs:
            dev.cls = "etherchannel"
            return
        if "min_buf_tiny" in dev.attrs or "max_buf_huge" in dev.attrs:
            dev.cls = "virtual"
            return
    dev.cls = class_from_name(dev.name)


# --- appliers ---------------------------------------------------------------------------

@_applies("lparstat")
def _lparstat_stats(host: Host, parsed: Parsed, path: str, offset: int) -> list[tuple[int, str]] | None:
    if host.cpu is not None and host.cpu.origin == "nmon":  # one series per host: the recording's is longer
        first = min((r.line for r in parsed.records if hasattr(r, "line")), default=1)
        return [(first, f"processor samples not added to {host.name}'s series: it comes from the nmon recording "
                        f"{host.nmon_path} ({len(host.cpu.samples)} snapshots)")]
    dropped: list[tuple[int, str]] = []
    if host.cpu is not None and host.cpu.origin == "sar" and host.cpu.samples:  # lparstat's is the partition's own series
        first = min((r.line for r in parsed.records if hasattr(r, "line")), default=1)
        dropped.append((first, f"{host.name}'s processor series from sar ({len(host.cpu.samples)} samples) is replaced "
                               "by this lparstat output's"))
        host.cpu = None
    series = host.cpu or Series()
    for rec in parsed.records:
        if hasattr(rec, "values") and hasattr(rec, "line") and not hasattr(rec, "ent"):
            series.samples.append(dict(rec.values))
            series.evidence.append(Evidence(path, offset + rec.line))
        elif hasattr(rec, "ent"):
            series.config.update({k: str(v) for k, v in rec.values.items()})
            if host.partition is None:
                host.partition = partition_from_header(rec, Evidence(path, offset + rec.line))
    if series.samples or series.config:
        host.cpu = series
    return dropped


@_applies("lsattr")
def _lsattr(host: Host, parsed: Parsed, path: str, offset: int) -> list[tuple[int, str]]:
    dropped = []
    for a in parsed.records:
        if a.device is None:
            dropped.append((a.line, f"attribute {a.name} not attached: no device named (no command line, none in the file name)"))
            continue
        dev = host.device(a.device)
        dev.attrs[a.name] = Setting(a.value, Evidence(path, offset + a.line))
    return dropped


@_applies("lsdev")
def _lsdev(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for e in parsed.records:
        dev = host.device(e.name)
        dev.description = e.description or dev.description
        dev.status = e.status or dev.status
        dev.evidence = dev.evidence or Evidence(path, offset + e.line)


@_applies("entstat")
def _entstat(host: Host, parsed: Parsed, path: str, offset: int) -> list[tuple[int, str]]:
    dropped = []
    for s in parsed.records:
        if not getattr(s, "name", None):
            dropped.append((s.line, "adapter statistics not attached: the output names no adapter"))
            continue
        dev = host.device(s.name)
        dev.stats = s
        dev.stats_origin = (path, offset)
        dev.parent = s.parent or dev.parent
        if s.device_type and not dev.description:
            dev.description = s.device_type
        dev.evidence = dev.evidence or Evidence(path, offset + s.line)
        if getattr(s, "lacp", None) is not None:
            dev.lacp = Sourced(s.lacp, path, offset)
        ec = getattr(s, "etherchannel", None)
        if ec is not None:  # members and backup named by the summary belong to the aggregation
            for member in [*ec.members, *([ec.backup_adapter] if ec.backup_adapter else [])]:
                if re.fullmatch(r"ent\d+", member) and member != s.name:
                    host.device(member).parent = host.device(member).parent or s.name
    return dropped


@_applies("netstat-s")
def _netstat_s(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for r in parsed.records:
        if type(r).__name__ == "NetstatSummary":  # the per-protocol sections stay in host.records
            host.protocol_stats = Sourced(r, path, offset)


@_applies("vnicstat")
def _vnicstat(host: Host, parsed: Parsed, path: str, offset: int) -> list[tuple[int, str]]:
    dropped = []
    for r in parsed.records:
        if not r.name:
            dropped.append((r.line, "vNIC server statistics not attached: the output names no vNIC server"))
            continue
        host.vnic_servers[r.name] = Sourced(r, path, offset)
        if r.backing_device:
            host.device(r.backing_device).parent = host.device(r.backing_device).parent or r.name
    if host.vnic_servers:
        host.role_reasons.append(f"vnicstat output: serves vNIC clients ({path})")
    return dropped


_LSSEA_DESCRIPTIONS = {"etherchannel": "EtherChannel / IEEE 802.3ad Link Aggregation",
                       "virtual adapters": "Virtual I/O Ethernet Adapter (l-lan)"}


@_applies("lssea")
def _lssea(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    """The lssea report: SEAs, their aggregation (the attributes it prints), ports with LACP state."""
    members: dict[str, str] = {}
    for r in parsed.records:
        kind = type(r).__name__
        if kind == "LsseaSea":
            dev = host.device(r.name)
            dev.description = dev.description or "Shared Ethernet Adapter"
            dev.evidence = dev.evidence or Evidence(path, offset + r.line)
        elif kind == "LsseaRow":
            dev = host.device(r.name)
            dev.description = dev.description or _LSSEA_DESCRIPTIONS.get(r.table, "")
            dev.parent = dev.parent or members.get(r.name) or r.sea
            if r.table == "etherchannel":
                for attr, col in (("adapter_names", "phys_adapters"), ("mode", "mode"), ("hash_mode", "hash_mode")):
                    if r.values.get(col) and attr not in dev.attrs:
                        dev.attrs[attr] = Setting(r.values[col], Evidence(path, offset + r.line))
                members.update({m: r.name for m in r.values.get("phys_adapters", "").split(",") if m})
            if r.lacp is not None:
                dev.lacp = Sourced(r.lacp, path, offset)
    if any(type(r).__name__ == "LsseaSea" for r in parsed.records):
        host.role_reasons.append(f"lssea report of Shared Ethernet Adapters ({path})")


@_applies("tunables")
def _tunables(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for t in parsed.records:
        host.tunables[t.name] = Setting(t.current, Evidence(path, offset + t.line))


@_applies("oslevel")
def _levels(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for lv in parsed.records:
        if getattr(lv, "listed", False):
            continue
        host.levels[lv.command] = Setting(lv.value, Evidence(path, offset + lv.line))


def _counters(host: Host, parsed: Parsed, path: str, offset: int) -> dict[str, Setting]:
    snap = {c.name: Setting(c.value, Evidence(path, offset + c.line, c.description)) for c in parsed.records}
    host.vmstat.update(snap)
    return snap


@_applies("vmstat-v")
def _vmstat_v(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    host.vmstat_snapshots.append(_counters(host, parsed, path, offset))


@_applies("vmstat-s")
def _vmstat_s(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    _counters(host, parsed, path, offset)


@_applies("iostat-D")
def _iostat(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for s in parsed.records:
        if not hasattr(s, "disk"):
            continue  # IostatConfig: kept in host.records
        # "Physical" and adapter rows (vscsi0, fcs0) summarise disks: kept apart, never counted as disks.
        target = host.disk_io if s.scope == "disk" else host.io_totals
        series = target.setdefault(s.disk, Series())
        series.samples.append({"sqfull": s.sqfull, "tps": s.tps, "tm_act": s.tm_act, "avgsqsz": s.avgsqsz,
                               "avgwqsz": s.avgwqsz, "read_avgserv": s.read_avgserv, "write_avgserv": s.write_avgserv,
                               "interval": float(s.interval)})
        series.evidence.append(Evidence(path, offset + s.line))
        series.field_lines.append({k: offset + v for k, v in (getattr(s, "lines", None) or {}).items()})


@_applies("lswpar")
def _lswpar(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for w in parsed.records:
        w._evidence = Evidence(path, offset + w.line)  # type: ignore[attr-defined]
        if type(w).__name__ == "WparDevice":
            if not any((d.wpar, d.device) == (w.wpar, w.device) for d in host.wpar_devices):
                host.wpar_devices.append(w)
        else:
            host.wpars = [x for x in host.wpars if x.name != w.name] + [w]


@_applies("kdb")
def _kdb(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for k in parsed.records:
        if type(k).__name__ == "KernelDiskEntry":
            host.kernel_disk_names[k.address.upper().replace("0X", "0x")] = k.name
        elif type(k).__name__ == "KernelQueueDepth":
            host.kernel_queue_depth.append(KernelQueueDepth(k.name, k.address, k.queue_depth, Evidence(path, offset + k.line)))


@_applies("netif")
def _netif(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for r in parsed.records:
        if type(r).__name__ == "Interface":
            host.interfaces.append(r)
        else:
            host.interface_counters.append(r)


@_applies("fcstat")
def _fcstat(host: Host, parsed: Parsed, path: str, offset: int) -> list[tuple[int, str]]:
    dropped = []
    for s in parsed.records:
        if s.name:
            dev = host.device(s.name)
            if dev.stats is not None and dev.stats_first is None:
                dev.stats_first = dev.stats  # fcstat run again: the first reading tells what rose since
            dev.stats, dev.stats_origin, dev.cls = s, (path, offset), "fc"
        else:
            dropped.append((s.line, "FC adapter statistics not attached: the output names no adapter"))
    return dropped


@_applies("amepat")
def _amepat(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    for r in parsed.records:
        host.amepat = r
        host.amepat_origin = (path, offset)  # type: ignore[attr-defined]


@_applies("odmget")
def _odmget(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    host.odm.extend(parsed.records)


@_applies("seastat")
def _seastat(host: Host, parsed: Parsed, path: str, offset: int) -> None:
    host.sea_clients.extend(parsed.records)
    host.role_reasons.append(f"seastat output ({path})")


from . import build_system  # noqa: E402,F401  (registers the system-health appliers)
from . import build_vios  # noqa: E402,F401  (registers the VIOS mapping appliers)
from . import build_partition  # noqa: E402,F401  (registers the lparstat -i applier)


# --- finishing ------------------------------------------------------------------------------

HMC_KINDS = {"lssyscfg", "lshwres", "lslparutil", "lshmc", "hmcscanner", "hmc-rest", "hmc-pcm"}


def _role(host: Host) -> None:
    if HMC_KINDS & set(host.records) and host.partition is None and not host.devices:
        host.role, host.role_reasons = "hmc", ["HMC command output"]
        return
    reasons = list(host.role_reasons)
    if "ioslevel" in host.levels:
        reasons.append("ioslevel reported")
    if any(d.cls == "sea" or d.name.startswith(("vhost", "vfchost")) for d in host.devices.values()):
        reasons.append("serves virtual adapters (SEA / vhost / vfchost)")
    linux = any(getattr(s.record, "platform", "") == "linux" for s in host.records.get("lparstat", []))
    linux = linux or (host.partition is not None and host.partition.source.endswith("(Linux)"))
    # nmon for Linux names its system in the header (AAA,OS,Linux,<kernel>,...)
    recordings = [host.nmon, *(rec for rec, _, _ in host.nmon_parts)]  # (parts joined: their recordings are let go)
    nmon_linux = any(str((getattr(rec, "header", None) or {}).get("OS", "")).lower().startswith("linux") for rec in recordings)
    if reasons:
        host.role, host.role_reasons = "vios", reasons
    elif (linux or nmon_linux) and "oslevel" not in host.levels and not host.devices:  # a Linux partition
        host.role, host.role_reasons = "linux", (["lparstat of powerpc-utils (Linux on Power)"] if linux else
                                                 ["nmon recording of Linux (its AAA,OS header line)"])
    elif host.partition is not None or "oslevel" in host.levels or host.devices:
        host.role = "aix"


def _resolve_kernel_names(host: Host) -> None:
    """Name kdb readings taken in a separate command from the scsidisk list."""
    for k in host.kernel_queue_depth:
        if k.name is None and k.address:
            k.name = host.kernel_disk_names.get(k.address.upper().replace("0X", "0x"))


def finish(estate: Estate) -> None:
    for host in estate.hosts.values():
        if len(host.nmon_parts) > 1:  # recordings that follow one another (a file a day): one series
            _join_recordings(estate, host)
        _resolve_kernel_names(host)
        for dev in host.devices.values():
            if dev.cls in ("other", "physical") or dev.cls == class_from_name(dev.name):
                _settle_class(dev)
        _role(host)



def _join_recordings(estate: Estate, host: Host) -> None:
    from .nmon import join_parts  # numpy and the nmon model: loaded only when recordings were read

    note = join_parts(host)
    paths = {path for _, path, _ in host.nmon_parts}
    for status in estate.inputs if note else []:
        if status.kind in ("nmon", "njmon") and status.path in paths:
            status.reason = "; ".join(x for x in (status.reason, note) if x)
