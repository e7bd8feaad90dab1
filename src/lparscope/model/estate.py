"""The estate as lparscope understands it: hosts, their partition settings, devices,
tunables and measurements, each value tied to the file line it came from.

Rules read only these classes, never text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)  # one per value read (and per sample of a series): no per-instance dict
class Evidence:
    """Where a value was read: a file (or bundle member) and a 1-based line."""

    path: str
    line: int
    excerpt: str = ""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(slots=True)  # many instances: no per-instance dict
class Setting:
    """A configured value (attribute, tunable, level) and where it was read."""

    value: Any
    evidence: Evidence | None = None


@dataclass
class Partition:
    """Partition configuration as ``lparstat -i`` reports it."""

    name: str | None = None
    number: int | None = None
    type: str | None = None  # Shared-SMT-4, Dedicated-SMT, Dedicated ...
    mode: str | None = None  # Capped, Uncapped, Donating
    entitled_capacity: float | None = None  # processing units (EC)
    online_vps: int | None = None  # online virtual processors
    max_vps: int | None = None
    weight: int | None = None  # variable capacity (uncapped) weight 0..255
    online_memory_mb: int | None = None
    max_memory_mb: int | None = None
    min_memory_mb: int | None = None
    memory_mode: str | None = None  # Dedicated, Dedicated-Expanded (AME), Shared (AMS)
    ame_factor: float | None = None  # target memory expansion factor
    ame_size_mb: int | None = None  # target expanded memory size
    shared_pool_id: int | None = None
    pool_cores: int | None = None  # "Active CPUs in Pool"
    system_cores: int | None = None  # "Active Physical CPUs in system"
    # the shared pool as the partition saw it when collected, in cores ("Maximum Capacity of Pool"
    # and "Entitled Capacity of Pool" print hundredths; both "-" unless the partition may collect
    # pool information): its size and the entitlement of the partitions in it
    pool_capacity: float | None = None
    pool_entitled: float | None = None
    # or "lparstat header" / "sar header": the few settings an interval output's header line gives;
    # "lparcfg (Linux)": a Linux partition's /proc/ppc64/lparcfg
    source: str = "lparstat -i"
    evidence: dict[str, Evidence] = field(default_factory=dict)

    @property
    def shared(self) -> bool:
        return bool(self.type and self.type.lower().startswith("shared"))

    @property
    def dedicated(self) -> bool:
        return bool(self.type and self.type.lower().startswith("dedicated"))

    @property
    def capped(self) -> bool:
        return bool(self.mode and self.mode.lower() == "capped")

    @property
    def uncapped(self) -> bool:
        return bool(self.mode and self.mode.lower() == "uncapped")

    @property
    def ame_enabled(self) -> bool:
        return bool(self.memory_mode and "expanded" in self.memory_mode.lower())

    def ev(self, *names: str) -> list[Evidence]:
        return [self.evidence[n] for n in names if n in self.evidence]


@dataclass
class Device:
    """A device: ent/en, hdisk, fcs/fscsi, vhost/vfchost ...

    ``cls`` says what it is in PowerVM terms: for Ethernet one of ``physical``,
    ``virtual`` (client l-lan), ``trunk`` (l-lan bridging for an SEA), ``sea``,
    ``etherchannel``, ``vlan``; otherwise ``interface`` (en), ``disk``, ``fc``,
    ``fscsi``, ``vhost``, ``vfchost``, ``vscsi``, ``other``.
    """

    name: str
    cls: str = "other"
    description: str = ""
    status: str = ""
    attrs: dict[str, Setting] = field(default_factory=dict)
    stats: Any = None  # EthernetAdapterStats, FcAdapterStats ... from the parsers
    parent: str | None = None  # SEA or EtherChannel this adapter belongs to
    evidence: Evidence | None = None
    stats_origin: tuple[str, int] | None = None  # (path, line offset) of the stats' output
    stats_first: Any = None  # the first of several readings of the same counters (fcstat run twice): a rise is now
    lacp: Any = None  # Sourced LACP port state: entstat's 802.3ad port statistics, or an lssea report row

    def stat_ev(self, *keys: str) -> list[Evidence]:
        """Evidence for statistics fields, from the parser's per-field line numbers."""
        if self.stats is None or self.stats_origin is None:
            return []
        lines = dict(getattr(self.stats, "lines", {}) or {})
        for sub in ("sea", "etherchannel"):  # SEA / EtherChannel summaries keep their own line maps
            lines.update(getattr(getattr(self.stats, sub, None), "lines", None) or {})
        path, offset = self.stats_origin
        out = [Evidence(path, offset + lines[k], k) for k in keys if k in lines]
        if not out and getattr(self.stats, "line", None):
            out.append(Evidence(path, offset + self.stats.line, self.name))
        return out

    def attr(self, name: str) -> str | None:
        s = self.attrs.get(name)
        return None if s is None else str(s.value)

    def attr_ev(self, *names: str) -> list[Evidence]:
        return [self.attrs[n].evidence for n in names if n in self.attrs and self.attrs[n].evidence]


@dataclass
class Series:
    """Samples of one measurement stream (lparstat, iostat, ...)."""

    samples: list[dict[str, float | None]] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)  # one per sample
    field_lines: list[dict[str, int]] = field(default_factory=list)  # per sample, where known: the file line of each value
    config: dict[str, str] = field(default_factory=dict)  # header values, e.g. ent=, psize=
    origin: str = ""  # "nmon": an nmon recording's LPAR section, "sar": sar -u / -P ALL rows (other outputs' samples are not mixed in)

    def values(self, column: str) -> list[float]:
        whole = getattr(self.samples, "column_values", None)  # samples kept column-wise (model.nmon)
        if whole is not None:
            return whole(column)  # type: ignore[no-any-return]
        return [s[column] for s in self.samples if s.get(column) is not None]  # type: ignore[misc]

    def mean(self, column: str) -> float | None:
        v = self.values(column)
        return sum(v) / len(v) if v else None


@dataclass(slots=True)  # many instances: no per-instance dict
class Sourced:
    """A parser record kept as it is, with where its output sits in which file."""

    record: Any
    path: str
    offset: int  # file line of the output's first line, minus one

    def ev(self, field_name: str | None = None) -> Evidence:
        """Evidence for one field (from the record's ``lines``) or for the record itself."""
        lines = getattr(self.record, "lines", None) or {}
        if field_name is not None and field_name in lines:  # the line's own text is added as the excerpt later
            return Evidence(self.path, self.offset + lines[field_name])
        return Evidence(self.path, self.offset + max(int(getattr(self.record, "line", 1) or 1), 1))


@dataclass
class KernelQueueDepth:
    """A disk's queue depth as the running kernel holds it (kdb scsidisk)."""

    name: str | None  # as the kernel lists it: inside a WPAR, the WPAR's own disk name
    address: str | None
    queue_depth: int
    evidence: Evidence


@dataclass
class Host:
    """One AIX LPAR or VIOS, with everything read about it."""

    name: str
    role: str = "unknown"  # vios, aix, unknown
    role_reasons: list[str] = field(default_factory=list)
    partition: Partition | None = None
    devices: dict[str, Device] = field(default_factory=dict)
    tunables: dict[str, Setting] = field(default_factory=dict)  # by tunable name
    levels: dict[str, Setting] = field(default_factory=dict)  # "ioslevel", "oslevel"
    vmstat: dict[str, Setting] = field(default_factory=dict)  # vmstat -v / -s counters (last seen)
    vmstat_snapshots: list[dict[str, Setting]] = field(default_factory=list)  # each -v output, in order
    cpu: Series | None = None  # lparstat interval samples (else sar -u / -P ALL partition rows, or nmon LPAR snapshots)
    disk_io: dict[str, Series] = field(default_factory=dict)  # iostat -D per disk
    io_totals: dict[str, Series] = field(default_factory=dict)  # iostat rows that are not disks: "Physical", vscsi0 ...
    vscsi_mappings: list[Any] = field(default_factory=list)
    npiv_mappings: list[Any] = field(default_factory=list)
    net_mappings: list[Any] = field(default_factory=list)
    wpars: list[Any] = field(default_factory=list)
    wpar_devices: list[Any] = field(default_factory=list)
    kernel_queue_depth: list[KernelQueueDepth] = field(default_factory=list)  # kdb readings
    kernel_disk_names: dict[str, str] = field(default_factory=dict)  # kdb scsidisk_list: address -> name
    interfaces: list[Any] = field(default_factory=list)  # ifconfig -a
    interface_counters: list[Any] = field(default_factory=list)  # netstat -in
    amepat: Any = None
    odm: list[Any] = field(default_factory=list)
    sea_clients: list[Any] = field(default_factory=list)  # seastat -d
    errors: list[Sourced] = field(default_factory=list)  # errpt / errpt -a entries (one per logged error)
    paging_spaces: dict[str, Sourced] = field(default_factory=dict)  # lsps -a, by paging space name
    paging_total: Sourced | None = None  # lsps -s (or prtconf's paging lines)
    filesystems: dict[str, Sourced] = field(default_factory=dict)  # df, by mount point
    fs_definitions: dict[str, Sourced] = field(default_factory=dict)  # lsfs, by mount point
    firmware: dict[str, Setting] = field(default_factory=dict)  # "system", "system_permanent", "service", device name ...
    system: Sourced | None = None  # prtconf / lsconf summary (model, serial, LPAR number and name)
    hcalls: list[Sourced] = field(default_factory=list)  # lparstat -H rows
    memory_io: Series | None = None  # lparstat -m / vmstat -h samples (AMS page-ins, loan, I/O entitlement)
    spurr: Series | None = None  # lparstat -E samples (actual vs frequency-normalised use)
    # vmstat interval outputs, one Series each (run queue, paging, scan rate, pc/ec): a sample's
    # "elapsed_s" is its time since the output's first report, None when the output does not tell it
    vmstat_runs: list[Series] = field(default_factory=list)
    protocol_stats: Sourced | None = None  # netstat -s counters read by name (NetstatSummary), the last read
    vnic_servers: dict[str, Sourced] = field(default_factory=dict)  # vnicstat, by vNIC server (vnicserverN)
    files: list[str] = field(default_factory=list)
    nmon: Any = None  # the NmonRecording read for this host, if any (time series for sizing and charts)
    nmon_path: str | None = None  # where that recording was read from, for evidence (joined: the latest part)
    # The recordings of this host that do not overlap in time, (recording, file, time span) in time
    # order: joined into ``nmon`` once every input is read (model.nmon.join_parts)
    nmon_parts: list[tuple[Any, str, Any]] = field(default_factory=list)
    sizing: Any = None  # lparscope.sizing.cpu.Sizing computed from the measured series, if any
    sizing_evidence: list[Any] = field(default_factory=list)  # the HMC samples sized from (each has .evidence)
    frame_model: str | None = None  # type-model of the frame the host runs on (HMC data), e.g. 9009-42A
    frame_model_evidence: Evidence | None = None
    frame_name: str | None = None  # the frame (HMC data) this host was joined to
    hpt_ratio: int | None = None  # its HPT ratio divisor as the HMC gives it (curr_hpt_ratio), None when not given
    frame_hpt_ratio: int | None = None  # the frame's default HPT ratio divisor (default_hpt_ratios)
    # Every parser record, by input kind, with its origin: rules for kinds that have no
    # dedicated model fields read them here (e.g. host.records["mount"]).
    records: dict[str, list[Sourced]] = field(default_factory=dict)

    def of_kind(self, kind: str, record_type: str | None = None) -> list[Sourced]:
        """Records of one input kind, optionally only those of one record class name."""
        return [s for s in self.records.get(kind, []) if record_type is None or type(s.record).__name__ == record_type]

    @property
    def lpar_name(self) -> str:
        """The partition's name for HMC commands as the host's own outputs give it (``lparstat -i``
        or ``amepat`` Partition Name: the HMC's name for it, which often differs from the AIX host
        name), else the host name. The plan puts the name of the HMC partition the host is joined
        to in its place when the HMC data gives one (plan/names.py)."""
        p = self.partition
        return p.name if p is not None and p.name else self.name

    @property
    def is_vios(self) -> bool:
        return self.role == "vios"

    def device(self, name: str) -> Device:
        """The device, created on first mention."""
        if name not in self.devices:
            self.devices[name] = Device(name)
        return self.devices[name]

    def by_class(self, *classes: str) -> list[Device]:
        return [d for d in self.devices.values() if d.cls in classes]


@dataclass(slots=True)  # many instances: no per-instance dict
class InputStatus:
    """One command output found in one input file, and how reading it went."""

    path: str
    line: int
    kind: str | None
    host: str
    status: str  # parsed, partly, unrecognised
    reason: str = ""
    warnings: list[tuple[int, str]] = field(default_factory=list)  # (file line, message)
    internal: bool = False  # an unexpected error (a bug), not bad input: the run exits 3


@dataclass
class Estate:
    hosts: dict[str, Host] = field(default_factory=dict)
    inputs: list[InputStatus] = field(default_factory=list)
    # Managed systems seen through HMC data (lparscope.model.frame.Frame), by system name.
    frames: dict[str, Any] = field(default_factory=dict)
    # How each host was joined to a partition of the HMC data, or why not (model/frame_join.JoinNote).
    joins: list[Any] = field(default_factory=list)
    # Inputs not read again: the same file met twice (overlapping paths, a link to a file read already, a
    # hard link): (the name it was met under again, the name it was read under).
    repeated_inputs: list[tuple[str, str]] = field(default_factory=list)

    def host(self, name: str) -> Host:
        if name not in self.hosts:
            self.hosts[name] = Host(name)
        return self.hosts[name]

    @property
    def vios(self) -> list[Host]:
        return [h for h in self.hosts.values() if h.is_vios]
