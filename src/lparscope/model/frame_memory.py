"""The frame's Active Memory Sharing pool and its suspend/resume reserved storage devices, as the
HMC lists them (``lshwres -r mempool``, ``--rsubtype pgdev``, ``lshwres -r rspool --rsubtype rsdev``;
000_31a80e54567cd02b.txt §3.3, §3.4, §3.10). :class:`~lparscope.model.frame.Frame` holds them as
``mem_pool`` and ``rs_devices``; the shared-memory settings of each partition (memory mode, I/O
entitled memory, paging VIOS, suspend capability) sit on the partition itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .estate import Evidence


@dataclass
class StorageDevice:
    """A VIOS block device the hypervisor pages a partition to: a paging space device of the shared
    memory pool, or a reserved storage device of the suspend/resume pool."""

    device: str
    vios: str | None
    size_mb: int | None
    partition: str | None = None  # the partition it serves (None: free)
    partition_id: int | None = None
    redundant_vios: str | None = None  # the second VIOS that can reach it
    state: str | None = None
    evidence: Evidence | None = None


@dataclass
class SharedMemoryPool:
    """The shared memory pool of a frame (sizes in MB)."""

    size_mb: int | None = None
    available_mb: int | None = None
    max_mb: int | None = None
    firmware_mb: int | None = None
    paging_vios: list[str] = field(default_factory=list)
    dedup: bool | None = None  # Active Memory Deduplication on the pool
    devices: list[StorageDevice] = field(default_factory=list)  # paging space devices
    evidence: dict[str, Evidence] = field(default_factory=dict)

    def ev(self, *names: str) -> list[Evidence]:
        return [self.evidence[n] for n in names if n in self.evidence]

    def devices_of(self, partition: str, partition_id: int | None = None) -> list[StorageDevice]:
        return [d for d in self.devices if d.partition == partition
                or (partition_id is not None and d.partition_id == partition_id)]
