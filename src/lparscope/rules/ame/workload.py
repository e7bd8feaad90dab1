"""Workloads that compress badly under AME: little compressible memory, and 64 KB pages compressed
(000 §3.2.3; rules-catalogue AME-05).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Evidence, Host
from ..changes import MS, PROFILE, root_commands, tunable_change
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from ..host_facts import tunable
from .amepat import ame_on, amepat_report, current_ame

UNCOMPRESSIBLE = threshold(
    "ame_uncompressible_pct", 50.0,
    "file cache + pinned memory (% of true memory) at or above which AME has little to compress (000 §3.2.3)")


@rule(
    id="AME-UNCOMPRESSIBLE-WORKLOAD",
    title="AME on a workload dominated by file cache or pinned memory",
    severity="info",
    category="ame",
    source="000_31a80e54567cd02b.txt §3.2.3",
    rationale="""AME compresses only pageable working storage: file cache is not compressed, and pinned memory
    and large pages cannot be. When those fill most of the memory, the expansion factor has little to work
    with, so the gain is small while compression still costs processor. Advisory: check the amepat model
    before keeping or enabling AME here.""",
)
def uncompressible_workload(host: Host, cfg: Config) -> Iterator[Finding]:
    s = amepat_report(host)
    rep = s.record if s is not None else None
    considered = ame_on(host, rep) or bool(rep and rep.recommended_expansion_factor and rep.recommended_expansion_factor > 1)
    if not considered:
        return
    fc = rep.resource_stats.get("file_cache_size") if rep else None
    pin = rep.resource_stats.get("pinned_memory") if rep else None
    ev: list[Evidence | None] = []
    if fc is not None and pin is not None and fc.average_pct is not None and pin.average_pct is not None:
        file_pct, pin_pct = fc.average_pct, pin.average_pct
        ev = [s.ev("file_cache_size"), s.ev("pinned_memory")]  # type: ignore[union-attr]
    else:
        numperm, pinned, pages = (host.vmstat.get(k) for k in ("numperm_percentage", "pinned_pages", "memory_pages"))
        if numperm is None or pinned is None or pages is None or not pages.value:
            return
        file_pct, pin_pct = float(numperm.value), 100.0 * float(pinned.value) / float(pages.value)
        ev = [numperm.evidence, pinned.evidence, pages.evidence]
    share = file_pct + pin_pct
    if share < cfg.t(UNCOMPRESSIBLE):
        return
    p = host.partition
    ev += p.ev("memory_mode") if p else []
    mem, factor = current_ame(host, rep) if rep else ((p.online_memory_mb if p else None), (p.ame_factor if p and p.ame_factor else 1.0))
    fix = root_commands(host, ["amepat 60 60   # model the factors over a peak hour before deciding"])
    undo = Commands()
    if ame_on(host, rep) and mem:
        fix.hmc = [f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.lpar_name},mem_expansion=0"',
                   "# AME off takes effect at the next activation; size true memory for the workload first"]
        undo.hmc = [f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.lpar_name},mem_expansion={factor:.2f}"']
    yield finding(uncompressible_workload, host, "memory",
                  f"{host.name}: file cache {file_pct:.0f}% + pinned {pin_pct:.0f}% = {share:.0f}% of memory cannot be "
                  f"compressed by AME.", evidence=ev, fix=fix, rollback=undo,
                  disruption=["restart-needed"] if undo else [],
                  values={"current": f"file cache {file_pct:.0f}%, pinned {pin_pct:.0f}%",
                          "suggested": f"< {cfg.t(UNCOMPRESSIBLE):.0f}% uncompressible, or no AME"})


@rule(
    id="AME-64K-PAGE-COMPRESSION",
    title="64 KB page compression enabled under AME",
    severity="info",
    category="ame",
    source="000_31a80e54567cd02b.txt §3.2.3 (vmm_mpsize_support); rules-catalogue AME-05 (ame_mpsize_support, K)",
    rationale="""Under AME a 64 KB page is decompressed as sixteen 4 KB pages, and the Redbook found that this
    cost usually outweighs the benefit of medium pages, which is why 64 KB compression is off by default
    (vmm_mpsize_support -1). Later AIX levels moved the switch to ame_mpsize_support with the hardware
    accelerator (catalogue, not confirmed): check the level before changing it.""",
)
def ame_64k_compression(host: Host, cfg: Config) -> Iterator[Finding]:
    rep = amepat_report(host)
    if not ame_on(host, rep.record if rep is not None else None):
        return
    for name, off in (("vmm_mpsize_support", None), ("ame_mpsize_support", 0)):
        s = tunable(host, name)
        if s is None:
            continue
        t = s.record
        if off is None:  # the seed's default -1; only -L output (with DEF and BOOT) says what was set
            if t.default_int is None:
                continue
            setting = t.boot_int if t.boot_int is not None else t.current_int
            if setting is None or setting == t.default_int:
                continue
            target = t.default_int
        else:
            setting = t.current_int
            if setting is None or setting == off:
                continue
            target = off
        fix = root_commands(host, [f"vmo -r -o {name}={target}", "bosboot -a", "shutdown -Fr"])
        undo = root_commands(host, [f"vmo -r -o {name}={setting}", "bosboot -a", "shutdown -Fr"])
        yield finding(ame_64k_compression, host, f"vmo {name}",
                      f"{host.name}: AME is on and {name} = {setting} (off is {target}): 64 KB pages are compressed.",
                      evidence=[s.ev()], fix=fix, rollback=undo, disruption=["reboot"],
                      changes=[tunable_change(host, "vmo", name, str(setting), str(target), boot=True)],
                      values={"current": setting, "suggested": target})
