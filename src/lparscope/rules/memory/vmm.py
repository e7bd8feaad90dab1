"""AIX VMM tunables: legacy minperm/maxperm/maxclient settings and a free list smaller than the
read-ahead it must feed (rules-catalogue MEM-06, MEM-07).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Evidence, Host, Setting, Sourced
from ..changes import root_commands, tunable_change
from ..config import Config
from ..engine import Finding, finding, rule
from ..host_facts import aix_level, tunable, tunable_int

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
                  changes=[tunable_change(host, "vmo", "maxfree", str(maxfree), str(new))],
                  values={"current": f"maxfree {maxfree}, minfree {minfree} (gap {gap})",
                          "suggested": f"maxfree {new} (gap {ra})"})
