"""Fibre Channel adapter resources: fcs command elements and transfer size, fscsi error recovery
(rules-catalogue STO-04, STO-05, STO-06, STO-07, STO-16).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Device, Host
from ..changes import attr_change
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule

NO_CMD_MIN = threshold("fcs_no_command_resource_min", 1,
                       "fcstat 'No Command Resource Count' at or above this is a num_cmd_elems shortage (catalogue STO-05)")
NO_DMA_MIN = threshold("fcs_no_dma_resource_min", 1,
                       "fcstat 'No DMA Resource Count' (FC SCSI section) at or above this is a DMA window shortage (catalogue STO-06)")
_PHYS_ERRORS = ("error_frames", "link_failure_count", "loss_of_sync_count", "loss_of_signal", "invalid_crc_count")


def _fc_stats(host: Host) -> list[Device]:
    return sorted((d for d in host.devices.values() if d.stats is not None and hasattr(d.stats, "counters")
                   and d.name.startswith("fcs")), key=lambda d: d.name)


def still_rising(dev: Device, key: str) -> bool:
    """False when an earlier fcstat of the adapter, since the same reset, shows the counter did not
    rise: a count since reset that stood still is an old shortage, not a current one."""
    first, last = dev.stats_first, dev.stats
    if first is None or not hasattr(first, "counters"):
        return True
    since = (first.counters.get("seconds_since_last_reset"), last.counters.get("seconds_since_last_reset"))
    if since[0] is None or since[1] is None or since[1] < since[0]:
        return True  # reset in between (or not told): the readings do not compare
    return (last.counters.get(key) or 0) > (first.counters.get(key) or 0)


def _phys_note(dev: Device) -> str:
    errs = {k: dev.stats.counters.get(k) for k in _PHYS_ERRORS if (dev.stats.counters.get(k) or 0) > 0}
    if not errs:
        return ""
    return (" Physical-layer errors are also counted (" + ", ".join(f"{k} {v}" for k, v in errs.items())
            + "): fix cabling/SFP/switch first, more queueing makes service times worse (catalogue STO-04).")


def _is_vfc_client(dev: Device) -> bool:
    return "vfc-client" in (getattr(dev.stats, "device_type", "") or "").lower() or "virtual fibre" in dev.description.lower()


def _change(host: Host, dev: Device, attr: str, new: str, old: str) -> tuple[Commands, Commands]:
    fix, undo = attr_change(host, dev.name, {attr: new}, {attr: old}, perm=True,
                            root_notes=["# applies at the next boot (or after rmdev -R / cfgmgr of the adapter)"])
    if _is_vfc_client(dev):
        fix.root.insert(0, f"# NPIV client: first raise {attr} on the VIOS physical port behind this adapter (client <= VIOS)")
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
        if nocmd < cfg.t(NO_CMD_MIN) or not still_rising(dev, "no_command_resource_count"):
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
        if nodma < cfg.t(NO_DMA_MIN) or not still_rising(dev, "no_dma_resource_count"):
            continue
        cur = dev.attr("max_xfer_size")
        # unknown now: a larger value may already be set, which a fixed target would lower
        new = _next_xfer(cur) if cur else "<twice the current, at least 0x200000, at most 0x1000000>"
        fix, undo = _change(host, dev, "max_xfer_size", new, cur or "<previous>")
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
        fix, undo = attr_change(host, dev.name, {"fc_err_recov": "fast_fail", "dyntrk": "yes"},
                                {"fc_err_recov": recov or "delayed_fail", "dyntrk": dyn or "no"}, perm=True,
                                root_notes=["# applies at the next boot"])
        yield finding(fscsi_recovery, host, dev.name,
                      f"{dev.name} on {host.name} has fc_err_recov={recov}, dyntrk={dyn} ({how}).",
                      evidence=dev.attr_ev("fc_err_recov", "dyntrk"), fix=fix, rollback=undo, disruption=["reboot"],
                      values={"current": f"fc_err_recov={recov}, dyntrk={dyn}", "suggested": "fc_err_recov=fast_fail, dyntrk=yes"})


_LINK_ERRORS = (*_PHYS_ERRORS, "invalid_tx_word_count", "primitive_seq_protocol_error_count")


@rule(
    id="STO-FC-LINK-ERRORS",
    title="Physical-layer errors on a Fibre Channel port",
    severity="warning",
    category="storage",
    source="rules-catalogue STO-04 (and its counter table: fcstat Error Frames, Link Failure, Loss of Sync / Signal, Invalid CRC)",
    rationale="""Error frames, link failures, loss of sync or signal, invalid CRCs and invalid transmission
    words are counted below SCSI: a cable, a transceiver (SFP) or a switch port that corrupts or
    drops frames. The I/O is retried, so it shows as service time, not as errors. Raising queue
    depths or command elements then makes it worse: fix the link first. The counters run since the
    adapter's last reset, so one reading cannot tell an old burst from a current fault: with two fcstat
    readings of the port since one reset, a counter that rose is a warning; with one reading the
    counts are information, to be read again after a busy period. Virtual (NPIV client) ports are
    not judged: their link is the VIOS port's.""",
)
def fc_link_errors(host: Host, cfg: Config) -> Iterator[Finding]:
    for dev in _fc_stats(host):
        if _is_vfc_client(dev):
            continue
        c = dev.stats.counters
        counted = {k: c[k] for k in _LINK_ERRORS if isinstance(c.get(k), int) and c[k] > 0}
        if not counted:
            continue
        two = dev.stats_first is not None and hasattr(dev.stats_first, "counters") and not _reset_between(dev)
        rose = {k: v for k, v in counted.items() if two and v > (dev.stats_first.counters.get(k) or 0)}
        if two and not rose:
            continue  # counted before the first reading and not since: an old burst
        what = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in (rose or counted).items())
        since = c.get("seconds_since_last_reset")
        when = ("rose between the two fcstat readings" if rose
                else f"counted over {since} s since the last reset; one reading, so whether they still rise is unknown"
                if since is not None else "counted since the last reset; one reading")
        fix = Commands(root=[f"fcstat {dev.name} | egrep -i 'Error Frames|Link Failure|Loss of Sync|Loss of Signal|Invalid CRC|Invalid Tx'",
                             "# read it again after a busy period: rising counts are a link fault",
                             "# check the cable, the transceivers at both ends and the switch port's own error counters; "
                             "replace what is faulty before tuning queues on this port"],
                       padmin=[f"fcstat {dev.name}"] if host.is_vios else [])
        yield finding(fc_link_errors, host, dev.name,
                      f"{dev.name} on {host.name}: {what} ({when}).",
                      evidence=dev.stat_ev(*(rose or counted), "seconds_since_last_reset"), fix=fix,
                      severity=None if rose else "info",
                      values={"current": what, "suggested": "no physical-layer errors"})


def _reset_between(dev: Device) -> bool:
    """Whether the adapter's counters were reset between its first and last reading (or it cannot be told)."""
    first = dev.stats_first.counters.get("seconds_since_last_reset")  # type: ignore[union-attr]
    last = dev.stats.counters.get("seconds_since_last_reset")
    return first is None or last is None or last < first
