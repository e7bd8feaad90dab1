"""Frame-wide memory rules: the hardware page table (HPT) each partition's maximum memory costs and
its total per frame, maximum memory far above need for partitions seen only through the HMC, and
the firmware reservation against the frame's memory (000 §3.1; rules-catalogue S4, MEM-02..04).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Estate
from ...model.frame import Frame, FramePartition, hpt_mb
from ..changes import partition_change
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from .hmc import S000, frames, ms, prof_cmd

HPT_RECLAIM_MB = threshold("frame_hpt_reclaim_mb", 1024.0,
                           "frame HPT that lowering max memory to 2x desired would free, from this many MB on (MEM-03)")
MAX_TO_DESIRED = 2.0  # rules-catalogue MEM-03: flag max_mem / desired_mem > 2 without a growth plan


def divisor(fr: Frame, p: FramePartition, cfg: Config | None = None) -> int:
    """The partition's HPT ratio, as every rule and view reads it (model/hpt.py)."""
    return fr.hpt_divisor(p, (cfg or Config()).t("hpt_ratio"))


def desired_mb(p: FramePartition) -> int | None:
    """Memory the partition is meant to have: its current memory when running, else the profile's desired."""
    if p.running_now:
        return p.mem
    try:
        return int(float(p.profile.get("desired_mem", "")))
    except ValueError:
        return None


def hpt_table(fr: Frame, cfg: Config | None = None) -> list[dict]:
    """Per partition: max memory, ratio, HPT now, HPT with max = 2 x desired."""
    rows = []
    for p in sorted(fr.partitions.values(), key=lambda x: (x.id or 0, x.name)):
        if not p.mem_max:
            continue
        div = divisor(fr, p, cfg)
        now = hpt_mb(p.mem_max, div)
        want = desired_mb(p)
        target = min(p.mem_max, int(MAX_TO_DESIRED * want)) if want else p.mem_max
        rows.append({"partition": p.name, "max_mb": p.mem_max, "desired_mb": want, "ratio": div, "hpt_mb": now,
                     "hpt_at_2x_mb": hpt_mb(target, div) if target else now, "target_max_mb": target})
    return rows


@rule(
    id="FRAME-HPT-TOTAL",
    title="Hardware page tables sized for maximum memory that will not be used",
    severity="info",
    category="memory",
    source=f"{S000} §3.1 (Table 3-2, HPT); rules-catalogue S4, MEM-03",
    rationale="""The hypervisor reserves, for every partition, a hardware page table of its MAXIMUM memory
    divided by the HPT ratio (1:64, or 1:128 for AIX/Linux on POWER8 and later), rounded up to a power of
    two, whether or not that memory is ever added. Summed over the frame this memory is lost to every
    partition. The finding lists each partition's HPT and what setting maximum memory to twice the desired
    amount (the MEM-03 threshold) would give back; it fires when that saving reaches the threshold.""",
    scope="estate",
)
def frame_hpt_total(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        rows = hpt_table(fr, cfg)
        if not rows:
            continue
        total = sum(r["hpt_mb"] for r in rows)
        better = sum(r["hpt_at_2x_mb"] for r in rows)
        if total - better < cfg.t(HPT_RECLAIM_MB):
            continue
        big = [r for r in rows if r["hpt_mb"] > r["hpt_at_2x_mb"]]
        parts = {p.name: p for p in fr.partitions.values()}
        fix = Commands(hmc=[prof_cmd(fr, parts[r["partition"]], max_mem=r["target_max_mb"]) for r in big]
                       + ["# the new maximum and its HPT apply at the next activation of each partition from its profile"])
        undo = Commands(hmc=[prof_cmd(fr, parts[r["partition"]], max_mem=r["max_mb"]) for r in big])
        fix.changes = [partition_change(parts[r["partition"]].label, "max_mem", r["max_mb"], r["target_max_mb"],
                                        method="profile", lpar=r["partition"], frame=fr.name if fr.named else None,
                                        vios=parts[r["partition"]].is_vios) for r in big]
        share = f" ({100 * total / fr.mem_firmware:.0f}% of the {fr.mem_firmware} MB firmware reservation)" if fr.mem_firmware else ""
        detail = ", ".join(f"{r['partition']} max {r['max_mb']} MB -> HPT {r['hpt_mb']} MB" for r in big)
        yield finding(frame_hpt_total, fr.name, "HPT",
                      f"{fr.name}: the partitions' HPTs total {total} MB{share}; with maximum memory at twice the "
                      f"desired amount they would total {better} MB. Largest: {detail}.",
                      evidence=[*fr.ev("mem_firmware", "default_hpt_ratio"),
                                *(e for r in big for e in parts[r["partition"]].ev("mem_max", "hpt_ratio"))],
                      fix=fix, rollback=undo, disruption=["restart-needed"],
                      values={"current": f"{total} MB", "suggested": f"{better} MB", "saving": f"{total - better} MB"},
                      facts={(fr.name, "hpt_total_mb"): total,
                             **{(parts[r["partition"]].label, "hpt_mb"): r["hpt_mb"] for r in big},
                             **{(parts[r["partition"]].label, "hpt_divisor"): r["ratio"] for r in big}})


def _host_covers_max(estate: Estate, p: FramePartition, cfg: Config) -> bool:
    h = estate.hosts.get(p.host or "")
    hp = h.partition if h else None
    return bool(hp and hp.max_memory_mb and hp.online_memory_mb)


@rule(
    id="FRAME-MEM-MAX-ABOVE-NEED",
    title="Maximum memory far above desired memory (partition seen through the HMC)",
    severity="warning",
    category="memory",
    source=f"{S000} §3.1 (Table 3-2); rules-catalogue S4, MEM-02, MEM-03",
    rationale="""Maximum memory should be what the partition would realistically be given (Table 3-2): the
    HPT is sized from it, and DLPAR can in any case only grow a partition to 64 times its initial memory
    (MEM-02). Uses the same ratio threshold as the host-level MEM-MAX-FAR-ABOVE-ONLINE, which covers
    partitions whose own lparstat -i is in the analysis; this rule covers the others, from the HMC.""",
    scope="estate",
)
def frame_mem_max_above_need(estate: Estate, cfg: Config) -> Iterator[Finding]:
    limit = cfg.t("max_mem_to_online_ratio")
    for fr in frames(estate):
        for p in sorted(fr.partitions.values(), key=lambda x: x.name):
            want = desired_mb(p)
            if not want or not p.mem_max or _host_covers_max(estate, p, cfg):
                continue
            ratio = p.mem_max / want
            over64 = bool(p.mem_min and p.mem_max > 64 * p.mem_min)
            if ratio <= limit and not over64:
                continue
            div = divisor(fr, p, cfg)
            suggested = want * 2
            now, then = hpt_mb(p.mem_max, div), hpt_mb(suggested, div)
            note = f"; it is also above 64 x its minimum {p.mem_min} MB, beyond DLPAR's reach (MEM-02)" if over64 else ""
            fix = Commands(hmc=[prof_cmd(fr, p, max_mem=suggested), "# applies at the next activation from the profile"])
            undo = Commands(hmc=[prof_cmd(fr, p, max_mem=p.mem_max)])
            fix.changes = [partition_change(p.label, "max_mem", p.mem_max, suggested, method="profile", lpar=p.name,
                                            frame=fr.name if fr.named else None, vios=p.is_vios)]
            yield finding(frame_mem_max_above_need, p.label, "partition",
                          f"{p.name} on {fr.name}: maximum memory {p.mem_max} MB is {ratio:.1f}x its {want} MB; "
                          f"its HPT is {now} MB (1:{div}), {then} MB with a maximum of {suggested} MB{note}.",
                          evidence=p.ev("mem_max", "mem", "mem_min", "hpt_ratio"), fix=fix, rollback=undo,
                          disruption=["restart-needed"],
                          values={"current": f"max {p.mem_max} MB, HPT {now} MB", "suggested": f"max {suggested} MB, HPT {then} MB"},
                          facts={(p.label, "hpt_mb"): now, (p.label, "hpt_divisor"): div})


def memory_budget(fr) -> dict:
    """Assigned / firmware / free memory of a frame (MB): MEM-04."""
    assigned = sum(p.mem or 0 for p in fr.partitions.values() if p.running_now)
    asleep = sum(p.mem or 0 for p in fr.partitions.values() if not p.running_now)
    total = fr.mem_configurable or fr.mem_installed
    firmware = fr.mem_firmware
    free = (total - assigned - (firmware or 0)) if total else None
    return {"configurable_mb": total, "installed_mb": fr.mem_installed, "assigned_mb": assigned,
            "not_running_mb": asleep, "firmware_mb": firmware, "hpt_mb": fr.hpt_total(),
            "free_mb": free, "available_mb": fr.mem_available}


@rule(
    id="FRAME-FIRMWARE-MEMORY",
    title="Partitions' memory plus the firmware reservation exceed the frame's memory",
    severity="warning",
    category="memory",
    source=f"{S000} §3.1 (Figure 3-5: memory reserved for the hypervisor); rules-catalogue MEM-04",
    rationale="""Memory sizing must budget the hypervisor's own reservation (sys_firmware_mem): the HPTs, I/O
    and virtualisation structures. When the desired memory of every partition, running or not, plus the
    firmware reservation exceeds the configurable memory, some partition cannot be activated with its
    desired memory (the hypervisor gives it less, or it does not start), typically after a frame restart.""",
    scope="estate",
)
def frame_firmware_memory(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        b = memory_budget(fr)
        total, fw = b["configurable_mb"], b["firmware_mb"]
        if not total or fw is None:
            continue
        need = b["assigned_mb"] + b["not_running_mb"] + fw
        if need <= total:
            continue
        asleep = [p for p in fr.partitions.values() if not p.running_now and p.mem]
        fix = Commands(hmc=["# lower maximum memory (smaller HPTs, see FRAME-HPT-TOTAL) and desired memory of partitions that do not need it:"]
                       + [prof_cmd(fr, p, desired_mem="<MB>") for p in asleep[:3]]
                       + [f"lshwres -r mem -m {ms(fr)} --level sys -F configurable_sys_mem,curr_avail_sys_mem,sys_firmware_mem"])
        yield finding(frame_firmware_memory, fr.name, "memory",
                      f"{fr.name}: running partitions hold {b['assigned_mb']} MB, partitions not running want "
                      f"{b['not_running_mb']} MB and the firmware reserves {fw} MB: {need} MB for {total} MB configurable.",
                      evidence=fr.ev("mem_configurable", "mem_firmware", "mem_installed"), fix=fix,
                      values={"current": f"{need} MB", "suggested": f"<= {total} MB"})
