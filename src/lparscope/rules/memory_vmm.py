"""Memory rules beyond the HPT: DLPAR reach, AIX VMM tunables, free-list gap, paging, pinned memory.

Sources: rules-catalogue MEM-02, MEM-06, MEM-07, MEM-08, MEM-13 (and SZ-09); 000 §3.1 (Table 3-2).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ..model.estate import Evidence, Host, Setting, Sourced
from .config import Config, threshold
from .engine import Commands, Finding, finding, rule
from .processor import MS, PROFILE
from .processor_more import aix_level, tunable, tunable_int

PAGING_SINCE_BOOT = threshold(
    "paging_space_pages_since_boot", 10000.0,
    "paging-space page ins + outs since boot (one vmstat -s) at or above this are reported as info; any growth "
    "between two vmstat -s snapshots is a warning (rules-catalogue MEM-08; the count is a heuristic, K)")
COMP_PCT_HIGH = threshold(
    "computational_pct_high", 85.0,
    "vmstat -v computational-page percentage at or above this makes paging a warning (rules-catalogue MEM-08, K)")
PAGING_ADD_SHARE = threshold(
    "paging_add_memory_share", 0.25,
    "first memory step suggested against paging, as a share of online memory (a starting point, not a sizing)")
PINNED_SHARE = threshold(
    "pinned_to_maxpin_share", 0.9,
    "pinned memory at or above this share of maxpin% is reported (rules-catalogue MEM-13, K)")


def _hmc_mem(host: Host, op: str, mb: int) -> str:
    return f"chhwres -m {MS} -r mem -o {op} -p {host.name} -q {mb}"


def root_commands(host: Host, root: list[str]) -> Commands:
    c = Commands(root=list(root))
    if host.is_vios:
        c.padmin = ["oem_setup_env"] + list(root) + ["exit"]
    return c


def _initial_memory(host: Host) -> tuple[int | None, Evidence | None]:
    """The memory the partition was activated with: lparstat -i Desired Memory, else Online Memory."""
    for s in reversed(host.of_kind("lparstat-i")):
        mb = getattr(s.record, "desired_memory_mb", None)
        if mb:
            return int(mb), s.ev("desired_memory_mb")
    p = host.partition
    if p is not None and p.online_memory_mb:
        ev = p.ev("online_memory_mb")
        return p.online_memory_mb, ev[0] if ev else None
    return None, None


def _reach(mb: int) -> tuple[int, int]:
    factor = 16 if mb < 256 else 64
    return factor, mb * factor


@rule(
    id="MEM-MAX-OVER-64X-MIN",
    title="Maximum memory beyond what DLPAR can reach (64 x the initial memory)",
    severity="warning",
    category="memory",
    source="rules-catalogue MEM-02, SZ-09; 000_31a80e54567cd02b.txt §3.1 (Table 3-2)",
    rationale="""Dynamic LPAR can grow a partition to at most 64 times the memory it was activated with (16
    times when that is below 256 MB). A maximum above that can never be reached by DLPAR, yet the
    hypervisor still sizes the page table from it. The catalogue reads the initial size as the minimum
    memory: a partition activated at its minimum is limited to 64 x minimum. So the finding is a warning
    when the maximum is out of reach from the desired (activation) memory, and advisory when it is out of
    reach only from the minimum.""",
)
def max_over_64x_min(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if p is None or not p.max_memory_mb or not p.min_memory_mb:
        return
    initial, i_ev = _initial_memory(host)
    f_min, reach_min = _reach(p.min_memory_mb)
    f_init, reach_init = _reach(initial) if initial else (f_min, reach_min)
    if p.max_memory_mb <= reach_min:
        return
    sev = "warning" if initial and p.max_memory_mb > reach_init else "info"
    online = p.online_memory_mb or initial or 0
    if reach_min >= online:
        fix = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},max_mem={reach_min}"'])
        undo = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},max_mem={p.max_memory_mb}"'])
        suggested = f"max {reach_min} MB"
    else:
        new_min = math.ceil(p.max_memory_mb / 64 / 256) * 256
        fix = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},min_mem={new_min}"'])
        undo = Commands(hmc=[f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},min_mem={p.min_memory_mb}"'])
        suggested = f"min {new_min} MB"
    fix.hmc.append("# profile change: applies at the next activation from the profile")
    msg = (f"{host.name}: maximum memory {p.max_memory_mb} MB; from its minimum {p.min_memory_mb} MB DLPAR reaches "
           f"at most {f_min}x = {reach_min} MB")
    if sev == "warning":
        msg += f", and from its initial {initial} MB at most {f_init}x = {reach_init} MB."
    else:
        msg += f" (from its initial {initial} MB: {reach_init} MB); this matters if it is activated at its minimum."
    yield finding(max_over_64x_min, host, "partition", msg,
                  evidence=p.ev("max_memory_mb", "min_memory_mb") + [i_ev], fix=fix, rollback=undo,
                  disruption=["restart-needed"], severity=None if sev == "warning" else "info",
                  values={"current": f"min {p.min_memory_mb} MB, initial {initial} MB, max {p.max_memory_mb} MB",
                          "suggested": suggested})


# AIX 6.1+ defaults (rules-catalogue MEM-06: page_steal_method and minfree V, the rest K) and the
# values the catalogue names as AIX 5.3 leftovers.
VMM_DEFAULTS = {"minperm%": 3, "maxperm%": 90, "maxclient%": 90, "strict_maxclient": 1, "strict_maxperm": 0,
                "lru_file_repage": 0, "page_steal_method": 1}
_LEGACY = {"minperm%": lambda v: v >= 10, "maxperm%": lambda v: v <= 80, "maxclient%": lambda v: v <= 80,
           "lru_file_repage": lambda v: v == 1, "page_steal_method": lambda v: v == 0}
_VMSTAT_NAMES = {"minperm%": "minperm_percentage", "maxperm%": "maxperm_percentage",
                 "maxclient%": "maxclient_percentage"}


def _vmm_value(host: Host, name: str) -> tuple[int | None, int, str | None, Evidence | None]:
    """(current, default, tunable type, evidence): vmo output first, vmstat -v percentages second."""
    s = tunable(host, name)
    if s is not None and s.record.current_int is not None:
        default = s.record.default_int if s.record.default_int is not None else VMM_DEFAULTS[name]
        return s.record.current_int, default, s.record.type, s.ev()
    st: Setting | None = host.vmstat.get(_VMSTAT_NAMES.get(name, ""))
    if st is not None and isinstance(st.value, (int, float)):
        return round(st.value), VMM_DEFAULTS[name], None, st.evidence
    return None, VMM_DEFAULTS[name], None, None


@rule(
    id="MEM-VMM-LEGACY-TUNABLES",
    title="VMM tunables not at their AIX 6.1+ defaults (AIX 5.3 values carried over)",
    severity="warning",
    category="memory",
    source="rules-catalogue MEM-06, C5, C11",
    rationale="""From AIX 6.1 the VMM defaults (minperm% 3, maxperm% and maxclient% 90, lru_file_repage 0,
    list-based page stealing) already protect computational memory from file cache. Values tuned for AIX
    5.3, such as minperm% 10-20 or maxperm% 50-80, survive migrations in /etc/tunables/nextboot and now make
    the VMM steal the wrong pages or page out too early. Reset them to the defaults unless IBM support set
    them. Only page_steal_method and minfree defaults are confirmed by the catalogue; the others are domain
    knowledge, so values merely off default are reported as info.""",
)
def vmm_legacy(host: Host, cfg: Config) -> Iterator[Finding]:
    level, l_ev = aix_level(host)
    if level is not None and level[0] < 61:
        return
    off: list[tuple[str, int, int, str | None, Evidence | None, bool]] = []
    for name in VMM_DEFAULTS:
        cur, default, ttype, ev = _vmm_value(host, name)
        if cur is None or cur == default:
            continue
        off.append((name, cur, default, ttype, ev, _LEGACY.get(name, lambda v: False)(cur)))
    if not off:
        return
    fix_root: list[str] = []
    undo_root: list[str] = []
    reboot = False
    for name, cur, default, ttype, _ev, _legacy in off:
        if ttype == "B" or name == "page_steal_method":
            fix_root.append(f"vmo -r -d {name}")
            undo_root.append(f"vmo -r -o {name}={cur}")
            reboot = True
        else:
            fix_root.append(f"vmo -p -d {name}")
            undo_root.append(f"vmo -p -o {name}={cur}")
    if reboot:
        fix_root += ["bosboot -a", "shutdown -Fr"]
        undo_root += ["bosboot -a", "shutdown -Fr"]
    fix_root.append("grep -p vmo: /etc/tunables/nextboot   # nothing of the above should remain there")
    legacy = any(x[5] for x in off)
    listing = ", ".join(f"{n}={c} (default {d})" for n, c, d, *_ in off)
    yield finding(vmm_legacy, host, "vmo",
                  f"{host.name}: {listing}" + ("; these are pre-AIX 6.1 tuning values." if legacy else "."),
                  evidence=[x[4] for x in off] + [l_ev], severity=None if legacy else "info",
                  fix=root_commands(host, fix_root), rollback=root_commands(host, undo_root),
                  disruption=["reboot"] if reboot else [],
                  values={"current": listing, "suggested": ", ".join(f"{n}={d}" for n, _c, d, *_ in off)})


@rule(
    id="MEM-FREE-GAP-BELOW-READAHEAD",
    title="maxfree - minfree smaller than the file read-ahead",
    severity="warning",
    category="memory",
    source="rules-catalogue MEM-07",
    rationale="""The page stealer refills the free list from minfree up to maxfree. A sequential read can ask
    for j2_maxPageReadAhead pages (maxpgahead for JFS) at once; when the gap between maxfree and minfree is
    smaller, one read-ahead empties the free list again and threads wait for free frames. Keep the gap at
    least as large as the largest read-ahead.""",
)
def free_gap_below_readahead(host: Host, cfg: Config) -> Iterator[Finding]:
    minfree, s_min = tunable_int(host, "minfree")
    maxfree, s_max = tunable_int(host, "maxfree")
    if minfree is None or maxfree is None or s_min is None or s_max is None:
        return
    ahead: list[tuple[int, str, Sourced]] = []
    for name in ("j2_maxPageReadAhead", "maxpgahead"):
        v, s = tunable_int(host, name)
        if v is not None and s is not None:
            ahead.append((v, name, s))
    if ahead:
        ra, ra_name, ra_s = max(ahead, key=lambda x: x[0])
        ra_ev: list[Evidence] = [ra_s.ev()]
        ra_what = f"{ra_name} {ra}"
    else:
        ra, ra_ev, ra_what = 128, [], "j2_maxPageReadAhead 128 (its default; ioo not in the input)"
    gap = maxfree - minfree
    if gap >= ra:
        return
    new = minfree + ra
    yield finding(free_gap_below_readahead, host, "vmo maxfree",
                  f"{host.name}: maxfree {maxfree} - minfree {minfree} = {gap} pages, below {ra_what}.",
                  evidence=[s_min.ev(), s_max.ev()] + ra_ev,
                  fix=root_commands(host, [f"vmo -p -o maxfree={new}"]),
                  rollback=root_commands(host, [f"vmo -p -o maxfree={maxfree}"]),
                  values={"current": f"maxfree {maxfree}, minfree {minfree} (gap {gap})",
                          "suggested": f"maxfree {new} (gap {ra})"})


def _vmstat_s_snapshots(host: Host) -> list[dict[str, Sourced]]:
    """Each vmstat -s output (grouped by file and position), in reading order."""
    snaps: dict[tuple[str, int], dict[str, Sourced]] = {}
    for s in host.of_kind("vmstat-s"):
        snaps.setdefault((s.path, s.offset), {})[s.record.name] = s
    return list(snaps.values())


@rule(
    id="MEM-PAGING-SPACE-ACTIVITY",
    title="Paging to paging space (real memory short)",
    severity="warning",
    category="memory",
    source="rules-catalogue MEM-08; 000_31a80e54567cd02b.txt §3.2.6 (vmstat -s paging space counters)",
    rationale="""Pages written to and read back from paging space mean the working set does not fit in real
    memory; every such fault costs a disk I/O. vmstat -s counts since boot, so one snapshot only says it
    happened at some time: growth between two snapshots, or a computational share near the whole memory,
    says it is happening now. Add memory (or fix the process that grows) and find the consumer with
    svmon.""",
)
def paging_space_activity(host: Host, cfg: Config) -> Iterator[Finding]:
    snaps = [s for s in _vmstat_s_snapshots(host)
             if "paging_space_page_outs" in s or "paging_space_page_ins" in s]
    if not snaps:
        return

    def total(snap: dict[str, Sourced]) -> int:
        return sum(int(snap[k].record.value) for k in ("paging_space_page_ins", "paging_space_page_outs") if k in snap)

    last = snaps[-1]
    ev = [last[k].ev() for k in ("paging_space_page_ins", "paging_space_page_outs") if k in last]
    comp = host.vmstat.get("percentage_of_memory_used_for_computational_pages")
    comp_v = float(comp.value) if comp is not None and isinstance(comp.value, (int, float)) else None
    if len(snaps) >= 2 and total(snaps[-1]) - total(snaps[0]) > 0:
        delta = total(snaps[-1]) - total(snaps[0])
        first = snaps[0]
        ev = [first[k].ev() for k in ("paging_space_page_ins", "paging_space_page_outs") if k in first] + ev
        msg, sev = f"{host.name}: paging-space page ins + outs grew by {delta} between two vmstat -s snapshots.", None
    elif total(last) >= cfg.t(PAGING_SINCE_BOOT):
        high = comp_v is not None and comp_v >= cfg.t(COMP_PCT_HIGH)
        msg = f"{host.name}: {total(last)} paging-space page ins + outs since boot"
        msg += (f", and computational pages use {comp_v:.1f}% of memory." if high
                else "; take two vmstat -s snapshots to see whether it still happens.")
        sev = None if high else "info"
    else:
        return
    if comp is not None and comp.evidence:
        ev.append(comp.evidence)
    p = host.partition
    step = math.ceil((p.online_memory_mb if p and p.online_memory_mb else 4096) * cfg.t(PAGING_ADD_SHARE) / 1024) * 1024
    fix = root_commands(host, ["svmon -P -O sortentity=pgsp,unit=MB -t 10   # which processes own the paged-out memory",
                                  "lsps -a"])
    fix.hmc = [_hmc_mem(host, "a", step),
               f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},desired_mem={(p.online_memory_mb or 0) + step}"'
               if p and p.online_memory_mb else "# then raise desired_mem in the profile by the same amount"]
    undo = Commands(hmc=[_hmc_mem(host, "r", step)] + (
        [f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},desired_mem={p.online_memory_mb}"']
        if p and p.online_memory_mb else []))
    yield finding(paging_space_activity, host, "paging space", msg, evidence=ev, fix=fix, rollback=undo,
                  disruption=["dlpar"], severity=sev,
                  values={"current": f"{total(last)} paging-space pages since boot"
                          + (f", comp {comp_v:.1f}%" if comp_v is not None else ""),
                          "suggested": f"no paging-space traffic; first step +{step} MB"})


@rule(
    id="MEM-PINNED-NEAR-MAXPIN",
    title="Pinned memory close to maxpin",
    severity="info",
    category="memory",
    source="rules-catalogue MEM-13 (K)",
    rationale="""AIX refuses to pin more than maxpin% of real memory; when pinned pages approach it, pinning
    requests (large pages, pbufs, pinned shared memory, network buffers) start to fail. The catalogue has
    this from domain knowledge only, so it is advisory: find the pinned consumers before the limit is
    reached.""",
)
def pinned_near_maxpin(host: Host, cfg: Config) -> Iterator[Finding]:
    pinned, pages = host.vmstat.get("pinned_pages"), host.vmstat.get("memory_pages")
    maxpin_s = host.vmstat.get("maxpin_percentage")
    maxpin_v, t = tunable_int(host, "maxpin%")
    if pinned is None or pages is None or not pages.value:
        return
    if maxpin_v is not None and t is not None:
        maxpin, maxpin_ev = float(maxpin_v), t.ev()
    elif maxpin_s is not None:
        maxpin, maxpin_ev = float(maxpin_s.value), maxpin_s.evidence
    else:
        return
    pct = 100.0 * float(pinned.value) / float(pages.value)
    if pct < maxpin * cfg.t(PINNED_SHARE):
        return
    fix = root_commands(host, ["svmon -G -O unit=MB   # pin column per segment type",
                                  "vmo -o lgpg_regions -o lgpg_size   # large pages are pinned"])
    p = host.partition
    step = math.ceil((p.online_memory_mb if p and p.online_memory_mb else 4096) * cfg.t(PAGING_ADD_SHARE) / 1024) * 1024
    fix.hmc = [_hmc_mem(host, "a", step)]
    yield finding(pinned_near_maxpin, host, "pinned memory",
                  f"{host.name}: {int(pinned.value)} of {int(pages.value)} pages pinned ({pct:.1f}%), maxpin {maxpin:.0f}%.",
                  evidence=[pinned.evidence, pages.evidence, maxpin_ev], fix=fix,
                  rollback=Commands(hmc=[_hmc_mem(host, "r", step)]), disruption=["dlpar"],
                  values={"current": f"{pct:.1f}% pinned", "suggested": f"< {maxpin * cfg.t(PINNED_SHARE):.0f}% (maxpin {maxpin:.0f}%)"})
