"""The frame-wide view: managed systems as the HMC sees them, joined with the hosts' own outputs.

``build_frames(estate)`` (in ``model/frame_build.py``) reads every HMC record kept on the hosts (``lssyscfg``, ``lshwres``,
``lslparutil`` and HMC Scanner sheets, see ``sources/hmc_*.py`` and ``sources/hmcscanner.py``)
and returns one :class:`Frame` per managed system, by system name:

- the system: type-model, serial, cores (installed / configurable / available), memory
  (installed / configurable / firmware / available), default HPT ratio, shared processor pools;
- every partition (:class:`FramePartition`): processor and memory settings as they run, the
  profile's values beside them, virtual Ethernet / vSCSI / vFC adapters with their slot pairs,
  measured use from ``lslparutil`` samples;
- the join: ``FramePartition.host`` names the :class:`~lparscope.model.estate.Host` analysed from
  the partition's own outputs, ``FramePartition.join`` the evidence it was joined on: partition
  name, node name, or frame serial and partition id, never a partition number alone (see
  ``model/frame_join.py``; each host's outcome, joins refused or ambiguous included, is in
  ``Estate.joins``);
- VIOS pairs: two VIOS of a frame with server adapters (HMC vSCSI / vFC slot pairs, or the
  VIOS's own ``lsmap`` client ids) toward a common client.

Records whose command line did not name the managed system (``-m``) are put on the one system
named in the HMC data when there is exactly one, on one unnamed frame per HMC host when no system
is named at all, and otherwise on an unnamed frame per file (so two systems' data do not mix),
files merged only on evidence: the same frame serial, or partitions that agree by name and id
(``model/frame_merge.py``; ``Frame.merged`` says why).

Every value keeps where it was read: ``evidence[attr]`` on frames and partitions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..numbers import finite_float
from .estate import Estate, Evidence, Host
from .frame_memory import SharedMemoryPool, StorageDevice
from .generation import generation_of
from .hpt import FALLBACK_DIVISOR, hpt_divisor, hpt_mb
from .use_series import UseSample, physc_of

HMC_KINDS = ("lssyscfg", "lshwres", "lslparutil", "lshmc", "hmcscanner", "hmc-rest", "hmc-pcm")


# --- value helpers ------------------------------------------------------------------------------

_NONE = {"", "none", "null", "unavailable", "n/a", "-"}


# HMC values as typed Python values: "none", "null", "unavailable", "n/a" and "-" read as absent.
def opt_str(v: Any) -> str | None:
    if v is None:
        return None
    t = str(v).strip()
    return None if t.lower() in _NONE else t


def opt_float(v: Any) -> float | None:
    """A finite number within range (``inf``, ``nan``, ``1e308`` are refused: None)."""
    t = opt_str(v)
    return None if t is None else _text_float(t)


@lru_cache(maxsize=8192)  # every frame's listings repeat the same few values ("1.0", "0", "255")
def _text_float(t: str) -> float | None:
    return finite_float(t.replace(",", ".") if t.count(",") == 1 and "." not in t else t)


def opt_int(v: Any) -> int | None:
    x = opt_float(v)
    return None if x is None else int(round(x))


def ratio_divisor(v: Any) -> int | None:
    """"1:64" -> 64."""
    m = re.match(r"^\s*1\s*:\s*(\d+)\s*$", str(v or ""))
    return int(m.group(1)) if m else None


def int_list(v: Any) -> list[int]:
    out = []
    for part in re.split(r"[,\s]+", str(v or "")):
        n = opt_int(part)
        if n is not None:
            out.append(n)
    return out


# --- records --------------------------------------------------------------------------------------


@dataclass
class VirtualEth:
    slot: int | None
    pvid: int | None
    vlans: list[int] = field(default_factory=list)  # additional 802.1Q VLANs
    trunk: bool = False
    priority: int | None = None  # trunk priority (1 = highest)
    vswitch: str | None = None
    ieee: bool | None = None
    mac: str | None = None
    state: str | None = None
    evidence: Evidence | None = None

    @property
    def all_vlans(self) -> list[int]:
        return sorted({*(v for v in [self.pvid] if v is not None), *self.vlans})


@dataclass
class VirtualSlot:
    """A vSCSI or vFC adapter: this partition's slot and its partner's."""

    protocol: str  # "vscsi" | "vfc"
    slot: int | None
    adapter_type: str  # client | server
    remote_id: int | None = None
    remote_name: str | None = None
    remote_slot: int | None = None
    wwpns: list[str] = field(default_factory=list)
    port: str | None = None  # physical FC port location (HMC Scanner), for vFC server adapters
    evidence: Evidence | None = None


@dataclass
class MemUseSample:
    """The frame's memory at one time (HMC Scanner Sys_RAM_Usage): configurable and still available, MB."""

    time: Any
    configurable: int | None = None
    available: int | None = None
    evidence: Evidence | None = None


@dataclass
class FramePartition:
    name: str
    id: int | None = None
    env: str | None = None  # aixlinux | vioserver | os400
    state: str | None = None
    os_version: str | None = None
    proc_mode: str | None = None  # shared | ded
    sharing_mode: str | None = None  # cap | uncap | keep_idle_procs | share_idle_procs ...
    ec: float | None = None  # curr_proc_units
    vps: int | None = None  # curr_procs (virtual processors, or dedicated processors)
    min_ec: float | None = None
    max_ec: float | None = None
    min_vps: int | None = None
    max_vps: int | None = None
    weight: int | None = None
    pool_id: int | None = None
    pool_name: str | None = None
    mem: int | None = None  # MB
    mem_min: int | None = None
    mem_max: int | None = None
    mem_mode: str | None = None
    hpt_ratio: int | None = None  # divisor
    ame_factor: float | None = None
    io_entitled_mb: int | None = None  # shared memory: I/O entitled memory (None with auto or unknown)
    io_entitled_auto: bool | None = None
    paging_vios: list[str] = field(default_factory=list)  # shared memory: primary, secondary paging VIOS
    suspend_capable: bool | None = None
    compat_mode: str | None = None  # the processor compatibility mode it runs in (POWER8, POWER9_Base ...)
    compat_mode_preferred: str | None = None  # the one asked for at its next activation ("default": the newest)
    profile_name: str | None = None
    profile: dict[str, str] = field(default_factory=dict)  # the current profile's attributes
    profile_evidence: dict[str, Evidence] = field(default_factory=dict)
    running: dict[str, str] = field(default_factory=dict)  # running values under the profile's attribute names
    running_evidence: dict[str, Evidence] = field(default_factory=dict)
    veth: list[VirtualEth] = field(default_factory=list)
    vscsi: list[VirtualSlot] = field(default_factory=list)
    vfc: list[VirtualSlot] = field(default_factory=list)
    vnics: list[Any] = field(default_factory=list)  # frame_vnic.Vnic: vNIC adapters and their backing devices
    io_slots: list[Any] = field(default_factory=list)  # frame_io.PhysicalSlot: physical I/O slots it owns
    use: Sequence[UseSample] = field(default_factory=list)  # lslparutil: processor units used per interval (a UseSeries)
    host: str | None = None  # joined Host name
    twin_frame: str | None = None  # set when its name, unjoined, is on another frame too: this one's frame
    join: str | None = None  # how it was joined
    uuid: str | None = None  # the HMC's id of the partition (REST API objects name partitions by it)
    evidence: dict[str, Evidence] = field(default_factory=dict)

    @property
    def is_vios(self) -> bool:
        return (self.env or "").lower() == "vioserver"

    @property
    def shared_memory(self) -> bool:
        return (self.mem_mode or "").lower() == "shared"

    @property
    def shared(self) -> bool:
        return (self.proc_mode or "").lower() == "shared"

    @property
    def dedicated(self) -> bool:
        return (self.proc_mode or "").lower() == "ded"

    @property
    def uncapped(self) -> bool:
        return (self.sharing_mode or "").lower() == "uncap"

    @property
    def running_now(self) -> bool:
        s = (self.state or "").lower()
        return s in ("running", "on", "open firmware", "starting") or (not s and bool(self.ec or self.vps))

    @property
    def label(self) -> str:
        """The name findings use: the joined host, else the partition name (with its frame's when a
        partition of that name with no host joined is on another frame too: "vios1 (p9frame2)")."""
        if self.host:
            return self.host
        return f"{self.name} ({self.twin_frame})" if self.twin_frame else self.name

    def ev(self, *names: str) -> list[Evidence]:
        return [self.evidence[n] for n in names if n in self.evidence]

    def hpt(self, divisor: int | None) -> int | None:
        """HPT of this partition's maximum memory with ``divisor`` (see :meth:`Frame.hpt_divisor`)."""
        if not self.mem_max or not divisor:
            return None
        return hpt_mb(self.mem_max, divisor)

    def peak_use(self) -> float | None:
        return _peak(self.use)

    def mean_use(self) -> float | None:
        used = physc_of(self.use)
        return float(used.mean()) if used.size else None


@dataclass
class SharedPool:
    id: int
    name: str | None = None
    max_units: float | None = None  # max_pool_proc_units (named pools) or the default pool's size
    reserved_units: float | None = None
    partitions: list[str] = field(default_factory=list)
    use: Sequence[UseSample] = field(default_factory=list)  # lslparutil -r pool / procpool (a UseSeries)
    evidence: dict[str, Evidence] = field(default_factory=dict)

    def peak_use(self) -> float | None:
        return _peak(self.use)


def _peak(use: Sequence[UseSample]) -> float | None:
    used = physc_of(use)
    return float(used.max()) if used.size else None


@dataclass
class Frame:
    name: str
    model: str | None = None
    serial: str | None = None
    state: str | None = None
    cores_installed: float | None = None
    cores_configurable: float | None = None
    cores_active: float | None = None
    cores_available: float | None = None
    mem_installed: int | None = None  # MB
    mem_configurable: int | None = None
    mem_firmware: int | None = None
    mem_available: int | None = None
    default_hpt_ratio: int | None = None
    pools: dict[int, SharedPool] = field(default_factory=dict)
    partitions: dict[str, FramePartition] = field(default_factory=dict)
    vios_pairs: list[tuple[str, str]] = field(default_factory=list)
    hmc: str | None = None  # the host the HMC data came from
    named: bool = True  # False: no -m / system name in the data
    sources: dict[str, set[str]] = field(default_factory=dict)  # file -> resources read from it
    merged: list[str] = field(default_factory=list)  # why records of several files are this one frame
    # VIOS-side facts the HMC data gives (HMC Scanner's sheets; REST: SEAs): SEA attributes, FC port attributes, vSCSI maps
    seas: list[dict[str, Any]] = field(default_factory=list)  # {"vios", "sea", attrs..., "evidence"}
    fc_ports: list[dict[str, Any]] = field(default_factory=list)  # {"vios", "fc", "num_cmd_elems", "max_xfer_size", ...}
    vscsi_maps: list[dict[str, Any]] = field(default_factory=list)  # {"vios", "vhost", "client_id", "vtd", "lun", "backing"}
    mem_pool: SharedMemoryPool | None = None  # Active Memory Sharing (lshwres -r mempool)
    rs_devices: list[StorageDevice] = field(default_factory=list)  # suspend/resume (lshwres -r rspool --rsubtype rsdev)
    mem_use: list[MemUseSample] = field(default_factory=list)  # HMC Scanner Sys_RAM_Usage, per day or hour
    evidence: dict[str, Evidence] = field(default_factory=dict)

    def ev(self, *names: str) -> list[Evidence]:
        return [self.evidence[n] for n in names if n in self.evidence]

    def partition(self, name: str | None = None, id: int | None = None) -> FramePartition | None:
        if name is not None and name in self.partitions:
            return self.partitions[name]
        if id is not None:
            for p in self.partitions.values():
                if p.id == id:
                    return p
        return None

    def by_id(self, id: int | None) -> FramePartition | None:
        return self.partition(None, id)

    def by_uuid(self, uuid: str | None) -> FramePartition | None:
        """The partition the HMC REST API names by this UUID (any case), if the data gave it."""
        key = (uuid or "").lower()
        return next((p for p in self.partitions.values() if key and (p.uuid or "").lower() == key), None)

    @property
    def vios(self) -> list[FramePartition]:
        return sorted((p for p in self.partitions.values() if p.is_vios), key=lambda p: (p.id or 0, p.name))

    @property
    def clients(self) -> list[FramePartition]:
        return sorted((p for p in self.partitions.values() if not p.is_vios), key=lambda p: (p.id or 0, p.name))

    def pool_size(self, pool_id: int = 0) -> tuple[float | None, Evidence | None]:
        """Cores the pool can use: a named pool's maximum, the default pool's configurable units,
        else the configurable cores minus those of running dedicated partitions."""
        pool = self.pools.get(pool_id)
        if pool is not None and pool.max_units:
            return pool.max_units, pool.evidence.get("max_units")
        if pool_id != 0:
            return None, None
        total = self.cores_configurable or self.cores_active
        if not total:
            return None, None
        ded = sum(p.vps or 0 for p in self.partitions.values() if p.dedicated and p.running_now)
        return total - ded, self.evidence.get("cores_configurable")

    def pool_free(self, pool_id: int = 0) -> float | None:
        """Processor units of a pool that no running partition is entitled to: its size less the EC of
        its running shared partitions and its reserve, and never more than the frame's available units
        (``curr_avail_sys_proc_units``); None when the pool's size is unknown and so is the frame's."""
        size, _ev = self.pool_size(pool_id)
        pool = self.pools.get(pool_id)
        used = sum(p.ec or 0.0 for p in self.partitions.values()
                   if p.shared and p.running_now and (p.pool_id or 0) == pool_id)
        free = None if size is None else size - used - ((pool.reserved_units or 0.0) if pool is not None else 0.0)
        if self.cores_available is not None:
            free = self.cores_available if free is None else min(free, self.cores_available)
        return free

    def hpt_divisor(self, p: FramePartition, fallback: float = FALLBACK_DIVISOR,
                    profile_ratio: int | None = None) -> int:
        """The HPT ratio of ``p`` on this frame (model/hpt.py): its own, the frame's default, the
        generation's, else ``fallback``; ``profile_ratio`` judges a profile's ratio instead of the running one."""
        return hpt_divisor(profile_ratio or p.hpt_ratio, self.default_hpt_ratio, generation_of(self.model),
                           p.env, fallback, shared_memory=(p.mem_mode or "").lower() == "shared")[0]

    def hpt_total(self, fallback: float = FALLBACK_DIVISOR) -> int:
        return sum(p.hpt(self.hpt_divisor(p, fallback)) or 0 for p in self.partitions.values())


_LOC = re.compile(r"^U(?P<type>\w{4})\.(?P<model>\w{3})\.(?P<serial>\w+)-V\d+")


def host_serial(h: Host) -> str | None:
    """The frame serial a host's virtual adapter location codes name (lsmap Physloc)."""
    for m in [*h.vscsi_mappings, *h.npiv_mappings, *h.net_mappings]:
        mm = _LOC.match(getattr(m, "physloc", None) or "")
        if mm:
            return mm.group("serial")
    return None


def vios_pairs(estate: Estate, fr: Frame) -> list[tuple[str, str]]:
    """Pairs of VIOS of the frame that serve a common client (HMC slot pairs or lsmap client ids)."""
    serves: dict[str, set[int]] = {}
    for v in fr.vios:
        ids = {s.remote_id for s in [*v.vscsi, *v.vfc] if s.adapter_type == "server" and s.remote_id is not None}
        for s in [*v.vscsi, *v.vfc]:
            if s.adapter_type == "server" and s.remote_id is None and s.remote_name:
                other = fr.partitions.get(s.remote_name)
                if other is not None and other.id is not None:
                    ids.add(other.id)
        host = estate.hosts.get(v.host or "")
        if host is not None:
            ids |= {m.client_id for m in [*host.vscsi_mappings, *host.npiv_mappings] if getattr(m, "client_id", None)}
        serves[v.name] = ids
    names = sorted(serves, key=lambda n: (fr.partitions[n].id or 0, n))
    # Grouped by client: only VIOS that serve the same client are paired (not every pair of the frame).
    by_client: dict[int, list[str]] = {}
    for n in names:
        for c in serves[n]:
            by_client.setdefault(c, []).append(n)
    pairs: set[tuple[str, str]] = set()
    for group in by_client.values():
        for i, a in enumerate(group):
            pairs.update((a, b) for b in group[i + 1:])
    rank = {n: i for i, n in enumerate(names)}
    return sorted(pairs, key=lambda ab: (rank[ab[0]], rank[ab[1]]))


def frame_of_host(estate: Estate, host_name: str) -> tuple[Frame, FramePartition] | None:
    for fr in estate.frames.values():
        for p in fr.partitions.values():
            if p.host == host_name:
                return fr, p
    return None
