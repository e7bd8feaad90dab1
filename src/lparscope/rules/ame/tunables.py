"""AME tunables changed from their defaults (000 §3.2.5 Table 3-6, Example 3-8; rules-catalogue S12).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host, Sourced
from ..changes import root_commands
from ..config import Config
from ..engine import Finding, finding, rule
from ..host_facts import tunable

# 000 §3.2.5 Example 3-8 defaults (bytes / processors / %); a -L DEF column wins when present.
AME_TUNABLES = {"ame_minfree_mem": 8 * 2**20, "ame_maxfree_mem": 24 * 2**20, "ame_cpus_per_pool": 8,
                "ame_min_ucpool_size": 0}


@rule(
    id="AME-TUNABLES-NOT-DEFAULT",
    title="AME vmo tunables off their defaults",
    severity="info",
    category="ame",
    source="000_31a80e54567cd02b.txt §3.2.5 (Table 3-6, Example 3-8)",
    rationale="""The AME tunables (free-memory thresholds of the compressed pool, CPUs per compressed pool,
    minimum uncompressed pool size) suit most workloads at their defaults and are meant to be changed only
    with IBM support; the expansion factor is the only AME setting to tune. ame_minfree_mem must also stay
    at least 257 KB below ame_maxfree_mem.""",
)
def ame_tunables(host: Host, cfg: Config) -> Iterator[Finding]:
    off: list[tuple[str, Sourced, int, int]] = []
    for name, seed_default in AME_TUNABLES.items():
        s = tunable(host, name)
        if s is None or s.record.current_int is None:  # "n/a" when AME is off
            continue
        default = s.record.default_int if s.record.default_int is not None else seed_default
        if s.record.current_int != default:
            off.append((name, s, s.record.current_int, default))
    lo, hi = tunable(host, "ame_minfree_mem"), tunable(host, "ame_maxfree_mem")
    broken = (lo is not None and hi is not None and lo.record.current_int is not None and hi.record.current_int is not None
              and lo.record.current_int > hi.record.current_int - 257 * 1024)
    if not off and not broken:
        return
    fix_root, undo_root, reboot = [], [], False
    for name, s, cur, _d in off:
        flag = "-r" if s.record.type == "B" else "-p"
        reboot = reboot or flag == "-r"
        fix_root.append(f"vmo {flag} -d {name}")
        undo_root.append(f"vmo {flag} -o {name}={s.record.current}")
    if broken and not any(n in ("ame_minfree_mem", "ame_maxfree_mem") for n, *_ in off):
        fix_root.append("vmo -p -d ame_minfree_mem -d ame_maxfree_mem")
        undo_root.append(f"vmo -p -o ame_maxfree_mem={hi.record.current} -o ame_minfree_mem={lo.record.current}")  # type: ignore[union-attr]
    if reboot:
        fix_root += ["bosboot -a", "shutdown -Fr"]
        undo_root += ["bosboot -a", "shutdown -Fr"]
    listing = ", ".join(f"{n}={s.record.current} (default {d})" for n, s, _c, d in off)
    msg = f"{host.name}: " + (listing if listing else "AME tunables")
    if broken:
        msg += f"; ame_minfree_mem {lo.record.current} is not 257 KB below ame_maxfree_mem {hi.record.current}"  # type: ignore[union-attr]
    ev = [s.ev() for _n, s, *_ in off] + ([lo.ev(), hi.ev()] if broken else [])  # type: ignore[union-attr]
    yield finding(ame_tunables, host, "vmo ame_*", msg + ".", evidence=ev, severity="warning" if broken else None,
                  fix=root_commands(host, fix_root), rollback=root_commands(host, undo_root),
                  disruption=["reboot"] if reboot else [],
                  values={"current": listing or "min/max free inconsistent",
                          "suggested": ", ".join(f"{n}={d}" for n, _s, _c, d in off) or "defaults"})
