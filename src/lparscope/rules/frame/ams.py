"""Active Memory Sharing on a frame: paging space devices against the partitions' maximum logical
memory, the pool against the logical memory it backs, redundant paging VIOS, and the minimum levels
of AMS and Active Memory Deduplication (000 §3.3, §3.4; rules-catalogue AMS-01, AMS-02).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Estate, Evidence, Host
from ...model.frame import Frame, FramePartition
from ...model.generation import generation_of
from ...model.releases import firmware_stream
from ..changes import mempool_size, partition_change, pool_device, propose
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from ..host_facts import aix_level
from .hmc import S000, frames, ms

OVERCOMMIT = threshold("ams_pool_overcommit_ratio", 1.0,
                       "Σ logical memory of the running shared-memory partitions over the shared memory pool "
                       "above this ratio is reported (000 §3.3: the pool backs what the partitions use)")


def shared_partitions(fr: Frame) -> list[FramePartition]:
    return sorted((p for p in fr.partitions.values() if p.shared_memory and not p.is_vios), key=lambda p: (p.id or 0, p.name))


def host_of(estate: Estate, p: FramePartition) -> Host | None:
    return estate.hosts.get(p.host or "")


def needed_mb(p: FramePartition) -> int | None:
    """Maximum logical memory the partition can be given: running maximum, or the profile's when larger."""
    try:
        prof = int(float(p.profile.get("max_mem", "")))
    except ValueError:
        prof = None
    vals = [v for v in (p.mem_max, prof) if v]
    return max(vals) if vals else None


def hypervisor_page_ins(host: Host | None) -> float:
    """Hypervisor page-ins counted in the host's lparstat -m / vmstat -h samples."""
    series = host.memory_io if host is not None else None
    return sum(series.values("hpi")) if series is not None else 0.0


@rule(
    id="FRAME-AMS-PAGING-DEVICE",
    title="Shared-memory partition without a paging space device as large as its maximum logical memory",
    severity="warning",
    category="memory",
    source=f"{S000} §3.3 (AMS; REDP-4470 paging space devices); rules-catalogue AMS-01",
    rationale="""Under Active Memory Sharing the hypervisor keeps the logical memory the pool cannot hold on
    a paging space device that a paging VIOS serves, one device per shared-memory partition, and the
    device must hold the partition's maximum logical memory. A partition whose device is smaller than
    its maximum (the profile's maximum raised after the device was chosen), or that is not running and
    finds no free device that large in the pool, cannot be activated in shared memory mode.""",
    scope="estate",
)
def ams_paging_device(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        pool = fr.mem_pool
        if pool is None or not pool.devices:
            continue
        free = sorted((d for d in pool.devices if d.partition is None and d.size_mb), key=lambda d: d.size_mb or 0)
        for p in shared_partitions(fr):
            need = needed_mb(p)
            if not need:
                continue
            own = pool.devices_of(p.name, p.id)
            if any((d.size_mb or 0) >= need for d in own):
                continue
            if not own and p.running_now:
                continue  # the HMC lists the device of a running partition; none listed: not judged
            fit = next((d for d in free if (d.size_mb or 0) >= need), None)
            if fit is not None and not own:
                free.remove(fit)  # the HMC takes it at activation
                continue
            have = ", ".join(f"{d.device} on {d.vios} ({d.size_mb} MB)" for d in own) or "none"
            vios = (own[0].vios if own else None) or (pool.paging_vios[0] if pool.paging_vios else "<paging VIOS>")
            fix = Commands(hmc=[pool_device(ms(fr), "mempool", "a", vios, f"<hdisk of at least {need} MB>"),
                                f"lshwres -r mempool -m {ms(fr)} --rsubtype pgdev"])
            undo = Commands(hmc=[pool_device(ms(fr), "mempool", "r", vios, "<the hdisk added>")])
            yield finding(ams_paging_device, p.label, "paging space device",
                          f"{p.name} on {fr.name} uses shared memory with a maximum of {need} MB of logical memory; "
                          f"its paging space device: {have}; no free device of the pool holds {need} MB.",
                          evidence=[*p.ev("mem_max", "mem_mode"), *(d.evidence for d in own), *pool.ev("size_mb")],
                          fix=fix, rollback=undo,
                          values={"current": have, "suggested": f">= {need} MB"})


@rule(
    id="FRAME-AMS-POOL-OVERCOMMIT",
    title="Shared memory pool smaller than the logical memory of its running partitions",
    severity="info",
    category="memory",
    source=f"{S000} §3.3 (the hypervisor distributes the pool by demand); rules-catalogue AMS-01",
    rationale="""The shared memory pool backs the logical memory of its partitions with real memory by
    their demand; what does not fit is paged by the hypervisor to the paging space devices, and the
    partition waits for every such page-in. A pool smaller than the logical memory it serves relies
    on the partitions not all being busy at once and on their operating systems loaning idle pages.
    Reported as information; a warning when the partitions' own lparstat -m or vmstat -h shows
    hypervisor page-ins (AMS-01: avoid AMS for workloads that need predictable performance).""",
    scope="estate",
)
def ams_pool_overcommit(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        pool = fr.mem_pool
        if pool is None or not pool.size_mb:
            continue
        parts = [p for p in shared_partitions(fr) if p.running_now and p.mem]
        logical = sum(p.mem or 0 for p in parts)
        if not parts or logical <= pool.size_mb * cfg.t(OVERCOMMIT):
            continue
        paging = {p.name: hypervisor_page_ins(host_of(estate, p)) for p in parts}
        busy = [n for n, v in paging.items() if v > 0]
        room = (fr.mem_available or 0) + (pool.size_mb or 0)
        target = min(logical, pool.max_mb or logical, room) if fr.mem_available is not None else None
        note = (f" Hypervisor page-ins measured on {', '.join(busy)}." if busy
                else " No hypervisor page-ins were measured (no lparstat -m / vmstat -h of these partitions, or none seen).")
        fix = Commands(hmc=[f"lshwres -r mempool -m {ms(fr)}", f"lshwres -r mem -m {ms(fr)} --level lpar -F lpar_name,mem_mode,curr_mem"])
        undo = Commands()
        if target and target > pool.size_mb:
            fix.hmc.insert(0, mempool_size(ms(fr), target))
            undo.hmc.append(mempool_size(ms(fr), pool.size_mb))
        else:
            fix.hmc.append("# the frame has no free memory to grow the pool: lower the logical memory of partitions that do not use it")
        yield finding(ams_pool_overcommit, fr.name, "shared memory pool",
                      f"{fr.name}: {len(parts)} running shared-memory partitions have {logical} MB of logical memory "
                      f"for a {pool.size_mb} MB pool ({logical / pool.size_mb:.2f}x).{note}",
                      evidence=[*pool.ev("size_mb", "max_mb"), *(e for p in parts for e in p.ev("mem", "mem_mode"))],
                      fix=fix, rollback=undo, severity="warning" if busy else None,
                      values={"current": f"{pool.size_mb} MB", "logical": f"{logical} MB",
                              "suggested": f"{target} MB" if target and target > pool.size_mb else "less logical memory"})


@rule(
    id="FRAME-AMS-PAGING-VIOS-SINGLE",
    title="Shared-memory partition paged through one VIOS while the frame has two",
    severity="warning",
    category="memory",
    source=f"{S000} §3.3 (AMS), §3.5.3 (VIOS pairs); rules-catalogue AMS-01",
    rationale="""A shared-memory partition reaches its paging space device through its paging VIOS; when
    that VIOS stops (an update, a failure) the partition cannot page and stops with it. With a second
    paging VIOS that sees the same device the hypervisor switches to it. A frame with two VIOS should
    give its shared-memory partitions both (§3.5.3: VIOS in pairs for availability).""",
    scope="estate",
)
def ams_paging_vios_single(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        vios = [v.name for v in fr.vios]
        if len(vios) < 2:
            continue
        for p in shared_partitions(fr):
            if len(p.paging_vios) != 1:
                continue
            other = next(v for v in vios if v != p.paging_vios[0])
            change = partition_change(p.label, "secondary_paging_vios_name", "none", other, method="profile",
                                      lpar=p.name, frame=fr.name if fr.named else None,
                                      note="the paging space device must be reachable from both VIOS (redundant device)")
            fix, undo = propose(change, fix_notes=[f"lshwres -r mempool -m {ms(fr)} --rsubtype pgdev   # the device must be redundant"])
            yield finding(ams_paging_vios_single, p.label, "paging VIOS",
                          f"{p.name} on {fr.name} uses shared memory paged only through {p.paging_vios[0]}; "
                          f"the frame also has {other}.",
                          evidence=p.ev("paging_vios", "mem_mode"), fix=fix, rollback=undo,
                          disruption=["restart-needed"],
                          values={"current": p.paging_vios[0], "suggested": f"{p.paging_vios[0]} + {other}"})


# 000 §3.3 AMS requirements; §3.4 AMD requirements
AMS_AIX = {6: (61, 3), 7: (61, 4)}  # POWER6: AIX 6.1 TL3; POWER7 and later: AIX 6.1 TL4
AMS_VIOS = {6: (2, 1, 0, 1), 7: (2, 1, 3, 10)}  # VIOS 2.1.0.1-FP21, 2.1.3.10-FP23
AMD_FIRMWARE = 740
AMD_AIX = {61: 7, 71: 1}  # AIX 6.1 TL7, AIX 7.1 TL1 (SP1)


def _gen(fr: Frame) -> int:
    g = generation_of(fr.model)
    return 6 if g is not None and g < 7 else 7


def _ioslevel(host: Host | None) -> tuple[tuple[int, ...], Evidence | None] | None:
    lv = host.levels.get("ioslevel") if host is not None else None
    if lv is None:
        return None
    parts = tuple(int(x) for x in "".join(c if c.isdigit() else " " for c in str(lv.value)).split()[:4])
    return parts, lv.evidence


def _fmt(level: tuple[int, int]) -> str:
    return f"AIX {level[0] // 10}.{level[0] % 10} TL{level[1]}"


@rule(
    id="FRAME-AMS-LEVELS",
    title="Shared-memory partition or paging VIOS below the level Active Memory Sharing requires",
    severity="warning",
    category="memory",
    source=f"{S000} §3.3 (AMS requirements); rules-catalogue AMS-01",
    rationale="""Active Memory Sharing needs PowerVM Enterprise Edition, AIX 6.1 TL3 on POWER6 or AIX 6.1
    TL4 on POWER7, and a paging VIOS at 2.1.0.1-FP21 (POWER6) or 2.1.3.10-FP23 (POWER7). A client or
    paging VIOS below those levels lacks the operating-system cooperation (page loaning, hints) the
    hypervisor relies on, or is not supported at all.""",
    scope="estate",
)
def ams_levels(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        parts = shared_partitions(fr)
        if not parts:
            continue
        gen = _gen(fr)
        for p in parts:
            level, ev = aix_level(host_of(estate, p)) if host_of(estate, p) is not None else (None, None)
            if level is not None and level < AMS_AIX[gen]:
                yield finding(ams_levels, p.label, "AIX level",
                              f"{p.name} on {fr.name} ({'POWER6' if gen == 6 else 'POWER7 or later'}) uses shared memory "
                              f"on {_fmt(level)}; AMS needs {_fmt(AMS_AIX[gen])} or later.",
                              evidence=[ev, *p.ev("mem_mode")],
                              fix=Commands(root=["oslevel -s", "# update AIX to the level AMS needs, or return the partition to dedicated memory"]),
                              values={"current": _fmt(level), "suggested": _fmt(AMS_AIX[gen])})
        paging = sorted({v for p in parts for v in p.paging_vios} | set(fr.mem_pool.paging_vios if fr.mem_pool else []))
        for name in paging:
            vp = fr.partitions.get(name)
            got = _ioslevel(host_of(estate, vp)) if vp is not None else None
            if got is None or not got[0] or got[0] >= AMS_VIOS[gen]:
                continue
            want = ".".join(map(str, AMS_VIOS[gen]))
            yield finding(ams_levels, vp.label if vp else name, "ioslevel",
                          f"{name} pages shared memory on {fr.name} at VIOS {'.'.join(map(str, got[0]))}; AMS needs {want} or later.",
                          evidence=[got[1], *(fr.mem_pool.ev("paging_vios") if fr.mem_pool else [])],
                          fix=Commands(padmin=["ioslevel", "updateios -accept -install -dev <directory with the update>"]),
                          disruption=["reboot"], values={"current": ".".join(map(str, got[0])), "suggested": want})


@rule(
    id="FRAME-AMD-LEVELS",
    title="Active Memory Deduplication on below the firmware, processor or AIX level it needs",
    severity="warning",
    category="memory",
    source=f"{S000} §3.4 (AMD requirements); rules-catalogue AMS-02",
    rationale="""Active Memory Deduplication maps identical pages of the shared-memory partitions to one
    physical page; it needs Active Memory Sharing, POWER7, system firmware 740 and AIX 6.1 TL7 or AIX 7.1
    TL1 SP1, because the hypervisor finds duplicates with hints from the operating system. On lower
    levels deduplication costs hypervisor processor cycles without the hints that make it pay.""",
    scope="estate",
)
def amd_levels(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        pool = fr.mem_pool
        if pool is None or not pool.dedup:
            continue
        problems: list[str] = []
        evidence: list[Evidence | None] = list(pool.ev("dedup"))
        g = generation_of(fr.model)
        if g is not None and g < 7:
            problems.append(f"the frame is POWER{int(g)} ({fr.model}); AMD needs POWER7")
        hosts = [h for p in fr.partitions.values() if (h := host_of(estate, p)) is not None]
        for h in hosts:
            fw = h.firmware.get("system") or h.firmware.get("firmware_version")
            stream = firmware_stream(str(fw.value)) if fw is not None else None
            if stream is not None and stream < AMD_FIRMWARE:
                problems.append(f"system firmware {fw.value} (FW{stream}); AMD needs FW{AMD_FIRMWARE}")  # type: ignore[union-attr]
                evidence.append(fw.evidence)  # type: ignore[union-attr]
                break
        for p in shared_partitions(fr):
            h = host_of(estate, p)
            level, ev = aix_level(h) if h is not None else (None, None)
            if level is None:
                continue
            tl = AMD_AIX.get(level[0])
            if level[0] < 61 or (tl is not None and level[1] < tl):
                problems.append(f"{p.name} runs {_fmt(level)} (AMD needs AIX 6.1 TL7 or AIX 7.1 TL1 SP1)")
                evidence.append(ev)
        if not problems:
            continue
        yield finding(amd_levels, fr.name, "memory deduplication",
                      f"{fr.name} has memory deduplication on its shared memory pool, but " + "; ".join(problems) + ".",
                      evidence=evidence,
                      fix=Commands(hmc=[f"lshwres -r mempool -m {ms(fr)}",
                                        "# bring firmware and AIX to the levels AMD needs, or switch deduplication off on the pool"]),
                      values={"current": "; ".join(problems), "suggested": "FW740, POWER7, AIX 6.1 TL7 / 7.1 TL1 SP1"})
