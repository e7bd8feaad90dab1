"""Fibre Channel rules: NPIV fan-out per physical port, fcs command/DMA resources, fscsi error recovery.

Sources: 000 §3.6.3; rules-catalogue STO-04, STO-05, STO-06, STO-07, STO-16, S7, S8.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from ..model.estate import Device, Host
from .config import Config, threshold
from .engine import Commands, Finding, finding, rule

MAX_CLIENTS = threshold("npiv_clients_per_port_max", 64,
                        "000 §3.6.3 / catalogue S8, STO-16: at most 64 active vFC clients per physical port (16 Gb or slower)")
IMBALANCE = threshold("npiv_port_imbalance", 2,
                      "NPIV clients are 'unevenly spread' when the busiest NPIV port of a VIOS carries at least this many "
                      "more clients than the least used one (lparscope choice; 000 §3.6.3 asks for an even spread)")
NO_CMD_MIN = threshold("fcs_no_command_resource_min", 1,
                       "fcstat 'No Command Resource Count' at or above this is a num_cmd_elems shortage (catalogue STO-05)")
NO_DMA_MIN = threshold("fcs_no_dma_resource_min", 1,
                       "fcstat 'No DMA Resource Count' (FC SCSI section) at or above this is a DMA window shortage (catalogue STO-06)")
_PHYS_ERRORS = ("error_frames", "link_failure_count", "loss_of_sync_count", "loss_of_signal", "invalid_crc_count")


def _mev(m: Any):
    return getattr(m, "_evidence", None)


def _remap(moves: list[tuple[str, str, str]]) -> tuple[list[str], list[str]]:
    fix, undo = [], []
    for vfchost, old, new in moves:
        fix += [f"vfcmap -vadapter {vfchost} -fcp", f"vfcmap -vadapter {vfchost} -fcp {new}"]
        undo += [f"vfcmap -vadapter {vfchost} -fcp", f"vfcmap -vadapter {vfchost} -fcp {old}"]
    return fix, undo


_PATH_NOTE = "# the client loses this path while it is remapped: check on the client (lspath) that another path is Enabled"


@rule(
    id="STO-NPIV-PORT-CLIENTS",
    title="More NPIV clients on one physical FC port than it supports",
    severity="warning",
    category="storage",
    source="000_31a80e54567cd02b.txt §3.6.3; rules-catalogue STO-16, S8",
    rationale="""One physical FC port can be shared by up to 64 virtual FC client adapters (adapters of 16 Gb
    or slower; 32 Gb adapters allow more). Beyond that clients fail to log in, and long before it the
    port can be saturated: add ports and spread the clients.""",
)
def npiv_port_clients(host: Host, cfg: Config) -> Iterator[Finding]:
    limit = int(cfg.t(MAX_CLIENTS))
    by_port: dict[str, list[Any]] = {}
    for m in host.npiv_mappings:
        if m.fc_name:
            by_port.setdefault(m.fc_name, []).append(m)
    for port, maps in sorted(by_port.items()):
        if len(maps) <= limit:
            continue
        extra = sorted(maps, key=lambda m: m.vfchost)[limit:]
        fix, undo = _remap([(m.vfchost, port, "<another NPIV port>") for m in extra])
        yield finding(npiv_port_clients, host, port,
                      f"{port} on {host.name} carries {len(maps)} NPIV client adapters (limit {limit}).",
                      evidence=[_mev(m) for m in maps[:3]],
                      fix=Commands(padmin=["lsnports   # NPIV-capable ports and their free slots (aports)", _PATH_NOTE, *fix]),
                      rollback=Commands(padmin=undo),
                      values={"current": len(maps), "suggested": f"<= {limit}"})


def _npiv_ports(host: Host) -> list[str]:
    """Physical FC ports of a VIOS known from its mappings and device list."""
    ports = {m.fc_name for m in host.npiv_mappings if m.fc_name}
    ports |= {d.name for d in host.by_class("fc") if "virtual" not in d.description.lower()}
    return sorted(ports, key=lambda p: (len(p), p))


@rule(
    id="STO-NPIV-PORT-SPREAD",
    title="NPIV clients unevenly spread over the physical FC ports",
    severity="warning",
    category="storage",
    source="000_31a80e54567cd02b.txt §3.6.3",
    rationale="""Clients sharing one physical port share its bandwidth and its command resources; §3.6.3 asks
    for enough ports on the VIOS and clients spread evenly across them. Uneven: the busiest port has at
    least npiv_port_imbalance more clients than the least used known port. When every client sits on
    the only port the data shows, the finding is informational (other ports may exist but were not
    collected: add lsdev -type adapter or lsnports). An idle port may be reserved for the VIOS's own
    disks or be unable to do NPIV: lsnports tells.""",
)
def npiv_port_spread(host: Host, cfg: Config) -> Iterator[Finding]:
    if not host.is_vios:
        return
    maps = [m for m in host.npiv_mappings if m.fc_name]
    if len(maps) < 2:
        return
    ports = _npiv_ports(host)
    load = Counter({p: 0 for p in ports})
    load.update(m.fc_name for m in maps)
    gap = int(cfg.t(IMBALANCE))
    busiest = max(load.values())
    if len(ports) == 1:
        (port,) = ports
        fix = Commands(padmin=["lsdev -type adapter   # look for other fcs ports", "lsnports",
                               _PATH_NOTE, *_remap([(m.vfchost, port, "<another NPIV port>") for m in maps[len(maps) // 2:]])[0]])
        undo = Commands(padmin=_remap([(m.vfchost, port, "<another NPIV port>") for m in maps[len(maps) // 2:]])[1])
        yield finding(npiv_port_spread, host, port,
                      f"All {len(maps)} NPIV client adapters of {host.name} use {port}; no other FC port of this VIOS "
                      f"is in the data.", evidence=[_mev(m) for m in maps[:4]], fix=fix, rollback=undo,
                      severity="info", values={"current": f"{len(maps)} on {port}", "suggested": "spread over the ports"})
        return
    if busiest - min(load.values()) < gap:
        return
    # greedy moves from the busiest to the least used port until the spread is even (difference <= 1)
    current = dict(load)
    moves: list[tuple[str, str, str]] = []
    pool = {p: sorted((m for m in maps if m.fc_name == p), key=lambda m: m.vfchost) for p in ports}
    while True:
        hi = max(current, key=lambda p: (current[p], p))
        lo = min(current, key=lambda p: (current[p], p))
        if current[hi] - current[lo] <= 1 or not pool[hi]:
            break
        m = pool[hi].pop()
        moves.append((m.vfchost, hi, lo))
        current[hi] -= 1
        current[lo] += 1
    fix, undo = _remap(moves)
    spread = ", ".join(f"{p}: {load[p]}" for p in ports)
    yield finding(npiv_port_spread, host, "NPIV ports",
                  f"NPIV clients of {host.name} per physical port: {spread}.",
                  evidence=[_mev(m) for m in maps[:4]] + [host.devices[p].evidence for p in ports if p in host.devices],
                  fix=Commands(padmin=["lsnports   # confirm the target ports are NPIV-capable (fabric=1)", _PATH_NOTE, *fix]),
                  rollback=Commands(padmin=undo),
                  values={"current": spread, "suggested": ", ".join(f"{p}: {current[p]}" for p in ports)})


def _fc_stats(host: Host) -> list[Device]:
    return sorted((d for d in host.devices.values() if d.stats is not None and hasattr(d.stats, "counters")
                   and d.name.startswith("fcs")), key=lambda d: d.name)


def _phys_note(dev: Device) -> str:
    errs = {k: dev.stats.counters.get(k) for k in _PHYS_ERRORS if (dev.stats.counters.get(k) or 0) > 0}
    if not errs:
        return ""
    return (" Physical-layer errors are also counted (" + ", ".join(f"{k} {v}" for k, v in errs.items())
            + "): fix cabling/SFP/switch first, more queueing makes service times worse (catalogue STO-04).")


def _is_vfc_client(dev: Device) -> bool:
    return "vfc-client" in (getattr(dev.stats, "device_type", "") or "").lower() or "virtual fibre" in dev.description.lower()


def _change(host: Host, dev: Device, attr: str, new: str, old: str) -> tuple[Commands, Commands]:
    pad = host.is_vios
    fix = Commands(root=[f"chdev -l {dev.name} -a {attr}={new} -P", "# applies at the next boot (or after rmdev -R / cfgmgr of the adapter)"],
                   padmin=[f"chdev -dev {dev.name} -attr {attr}={new} -perm"] if pad else [])
    if _is_vfc_client(dev):
        fix.root.insert(0, f"# NPIV client: first raise {attr} on the VIOS physical port behind this adapter (client <= VIOS)")
    undo = Commands(root=[f"chdev -l {dev.name} -a {attr}={old} -P"],
                    padmin=[f"chdev -dev {dev.name} -attr {attr}={old} -perm"] if pad else [])
    return fix, undo


@rule(
    id="STO-FCS-NUM-CMD-ELEMS",
    title="FC adapter ran out of command elements (num_cmd_elems)",
    severity="warning",
    category="storage",
    source="rules-catalogue STO-05, S7",
    rationale="""'No Command Resource Count' in fcstat counts I/Os the FC driver could not start because all of
    the adapter's command elements (num_cmd_elems) were in use: the port queues I/O the disks could
    take. Raise num_cmd_elems (default 200, up to 4096 on physical adapters, but adapter firmware may
    cap it lower, e.g. 3200: check the value after the reboot). On an NPIV client the value must not
    exceed the VIOS port's.""",
)
def fcs_num_cmd_elems(host: Host, cfg: Config) -> Iterator[Finding]:
    for dev in _fc_stats(host):
        c = dev.stats.counters
        nocmd = c.get("no_command_resource_count") or 0
        if nocmd < cfg.t(NO_CMD_MIN):
            continue
        cur = dev.attr("num_cmd_elems")
        new = str(min(int(cur) * 2, 4096)) if cur and cur.isdigit() else "<2 x current, at most 4096>"
        fix, undo = _change(host, dev, "num_cmd_elems", new, cur or "<previous>")
        elems = c.get("no_adapter_elements_count") or 0
        more = f", No Adapter Elements Count {elems}" if elems > 0 else ""
        yield finding(fcs_num_cmd_elems, host, dev.name,
                      f"{dev.name} on {host.name}: No Command Resource Count {nocmd}{more} "
                      f"(over {c.get('seconds_since_last_reset', '?')} s since reset); num_cmd_elems {cur or 'unknown'}."
                      + _phys_note(dev),
                      evidence=dev.stat_ev("no_command_resource_count", "no_adapter_elements_count", "seconds_since_last_reset")
                      + dev.attr_ev("num_cmd_elems"), fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": cur or "unknown", "suggested": new})


def _next_xfer(cur: str | None) -> str:
    try:
        v = int(cur or "", 16)
    except ValueError:
        return "0x200000"
    return hex(min(max(v * 2, 0x200000), 0x1000000))


@rule(
    id="STO-FCS-MAX-XFER-SIZE",
    title="FC adapter ran out of DMA resources (max_xfer_size)",
    severity="warning",
    category="storage",
    source="rules-catalogue STO-06",
    rationale="""'No DMA Resource Count' in the FC SCSI section of fcstat counts I/Os delayed because the
    adapter's DMA window was exhausted. With the default max_xfer_size 0x100000 the window is 16 MB;
    any larger value gives 128 MB. Change the VIOS physical port first, then the NPIV clients (a
    client value above the VIOS's is not allowed to work).""",
)
def fcs_max_xfer(host: Host, cfg: Config) -> Iterator[Finding]:
    for dev in _fc_stats(host):
        nodma = dev.stats.counters.get("no_dma_resource_count") or 0
        if nodma < cfg.t(NO_DMA_MIN):
            continue
        cur = dev.attr("max_xfer_size")
        new = _next_xfer(cur)
        fix, undo = _change(host, dev, "max_xfer_size", new, cur or "0x100000")
        yield finding(fcs_max_xfer, host, dev.name,
                      f"{dev.name} on {host.name}: No DMA Resource Count {nodma}; max_xfer_size {cur or 'unknown'}."
                      + _phys_note(dev),
                      evidence=dev.stat_ev("no_dma_resource_count") + dev.attr_ev("max_xfer_size"),
                      fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": cur or "unknown (default 0x100000)", "suggested": new})


def _multipath_parents(host: Host) -> set[str] | None:
    """fscsi adapters carrying a path of a disk that has paths through two or more adapters (lspath);
    None when there is no path data."""
    paths = host.of_kind("lspath", "DiskPath")
    if not paths:
        return None
    parents: dict[str, set[str]] = {}
    for s in paths:
        parents.setdefault(s.record.disk, set()).add(s.record.parent)
    return {p for ps in parents.values() if len(ps) > 1 for p in ps}


@rule(
    id="STO-FSCSI-FAST-FAIL-DYNTRK",
    title="Multipathed FC port without fast_fail / dynamic tracking",
    severity="warning",
    category="storage",
    source="rules-catalogue STO-07",
    rationale="""With several paths, fc_err_recov=fast_fail fails I/O on a dead link quickly so MPIO moves it to
    another path, and dyntrk=yes follows a target whose N_Port ID changed (switch port move) without
    an outage. The AIX defaults are delayed_fail and no. Multipathing is taken from lspath (a disk
    with paths through two or more adapters); without lspath, two or more FC ports on the host are
    taken as multipathing and the message says so. Single-path ports keep delayed_fail.""",
)
def fscsi_recovery(host: Host, cfg: Config) -> Iterator[Finding]:
    fscsi = sorted((d for d in host.devices.values() if d.name.startswith("fscsi")
                    and ("fc_err_recov" in d.attrs or "dyntrk" in d.attrs)), key=lambda d: d.name)
    if not fscsi:
        return
    multi = _multipath_parents(host)
    ports = {d.name for d in fscsi} | {d.name for d in host.by_class("fc")}
    for dev in fscsi:
        recov, dyn = dev.attr("fc_err_recov"), dev.attr("dyntrk")
        if recov in (None, "fast_fail") and dyn in (None, "yes"):
            continue
        if multi is not None and dev.name not in multi:
            continue
        how = "lspath shows disks with several paths through it" if multi is not None else \
            f"assumed multipathed: {len(ports)} FC ports on the host, no lspath in the data"
        if multi is None and len(ports) < 2:
            continue
        fix = Commands(root=[f"chdev -l {dev.name} -a fc_err_recov=fast_fail -a dyntrk=yes -P", "# applies at the next boot"],
                       padmin=[f"chdev -dev {dev.name} -attr fc_err_recov=fast_fail dyntrk=yes -perm"] if host.is_vios else [])
        undo = Commands(root=[f"chdev -l {dev.name} -a fc_err_recov={recov or 'delayed_fail'} -a dyntrk={dyn or 'no'} -P"],
                        padmin=[f"chdev -dev {dev.name} -attr fc_err_recov={recov or 'delayed_fail'} dyntrk={dyn or 'no'} -perm"]
                        if host.is_vios else [])
        yield finding(fscsi_recovery, host, dev.name,
                      f"{dev.name} on {host.name} has fc_err_recov={recov}, dyntrk={dyn} ({how}).",
                      evidence=dev.attr_ev("fc_err_recov", "dyntrk"), fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": f"fc_err_recov={recov}, dyntrk={dyn}", "suggested": "fc_err_recov=fast_fail, dyntrk=yes"})
