"""Shared storage pool disks whose attributes differ between the VIOS of the cluster (000 §3.6.2;
rules-catalogue STO-14).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from ...model.estate import Device, Estate, Host
from ..changes import chdev_padmin, chdev_root, device_change
from ..config import Config
from ..engine import Commands, Finding, finding, rule


def ssp_disks(host: Host) -> tuple[str | None, list[str]]:
    """(CAA repository PVID, probable shared storage pool member disks) of a VIOS.

    A VIOS in an SSP cluster has a ``caavg_private`` disk (the CAA repository) in lspv. Pool
    disks belong to no LVM volume group (lspv VG ``None``) but are not free either: they are
    the ``None`` disks that ``lspv -free`` does not list and that back no vSCSI mapping.
    Both ``lspv`` and ``lspv -free`` are needed; otherwise no members are inferred.
    """
    pvs = host.of_kind("lspv", "PhysicalVolume")
    repo = next((s.record.pvid or s.record.name for s in pvs if s.record.vg == "caavg_private"), None)
    free = {s.record.name for s in pvs if s.record.free}
    listed = [s.record for s in pvs if not s.record.free and s.record.size_mb is None]
    if repo is None or not any(s.record.free for s in pvs):
        return repo, []
    mapped = {m.backing_device for m in host.vscsi_mappings}
    return repo, sorted({p.name for p in listed if p.vg is None and p.name not in free and p.name not in mapped})


@rule(
    id="STO-SSP-DISK-ATTRS-DIFFER",
    title="Shared storage pool disks with differing queue_depth or max_transfer",
    severity="warning",
    category="storage",
    source="000_31a80e54567cd02b.txt §3.6.2",
    rationale="""Every disk of a shared storage pool has its own queue_depth and max_transfer, and §3.6.2 asks
    for all of them to be set alike on every VIOS of the cluster (ideally before the pool is created),
    large enough for what the client LPARs set. Changing one later needs the pool offline on that VIOS
    or a restart of each VIOS in turn. Pool members are inferred: VIOS sharing a CAA repository disk
    (caavg_private PVID) form a cluster; the member disks are those lspv shows in no volume group that
    lspv -free does not list and that back no vSCSI mapping (both lspv outputs needed).""",
    scope="estate",
)
def ssp_attrs(estate: Estate, cfg: Config) -> Iterator[Finding]:
    clusters: dict[str, list[tuple[Host, Device]]] = {}
    for h in sorted(estate.vios, key=lambda h: h.name):
        repo, disks = ssp_disks(h)
        if repo:
            clusters.setdefault(repo, []).extend((h, h.devices[d]) for d in disks if d in h.devices)
    for repo, members in clusters.items():
        for attr in ("queue_depth", "max_transfer"):
            have = [(h, d, d.attr(attr)) for h, d in members if d.attr(attr) is not None]
            values = Counter(v for _, _, v in have)
            if len(values) < 2:
                continue
            common = values.most_common(1)[0][0]
            odd = [(h, d, v) for h, d, v in have if v != common]
            for h in sorted({h.name: h for h, _, _ in odd}.values(), key=lambda x: x.name):
                mine = [(d, v) for hh, d, v in odd if hh is h]
                fix = Commands(padmin=["# with the pool offline on this VIOS, or for the next restart (one VIOS at a time):",
                                       *[chdev_padmin(d.name, {attr: common}, perm=True) for d, _ in mine]],
                               root=[chdev_root(d.name, {attr: common}, perm=True) for d, _ in mine])
                fix.changes = [device_change(h, d.name, attr, v, common, method="chdev-reboot") for d, v in mine]
                undo = Commands(padmin=[chdev_padmin(d.name, {attr: v}, perm=True) for d, v in mine],
                                root=[chdev_root(d.name, {attr: v}, perm=True) for d, v in mine])
                spread = ", ".join(f"{v} on {n} disk(s)" for v, n in values.most_common())
                yield finding(ssp_attrs, h, f"{attr}: " + ", ".join(d.name for d, _ in mine),
                              f"Shared storage pool disks (repository {repo}) have {attr} {spread}; on {h.name} "
                              + ", ".join(f"{d.name}={v}" for d, v in mine) + f" differ from {common}.",
                              evidence=[e for d, _ in mine for e in d.attr_ev(attr)] +
                              [e for hh, d, v in have if v == common for e in d.attr_ev(attr)][:1],
                              fix=fix, rollback=undo, disruption=["reboot"],
                              values={"current": ", ".join(f"{d.name}={v}" for d, v in mine), "suggested": common})
