"""Paging space in use (lsps -s / lsps -a; rules-catalogue MEM-09)."""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule

WARN = threshold("paging_space_used_warning_pct", 50.0,
                 "paging space %Used (lsps -s, else the size-weighted lsps -a) above this is a warning "
                 "(rules-catalogue MEM-09: > 50 % warn, K)")
CRIT = threshold("paging_space_used_critical_pct", 80.0,
                 "paging space %Used above this is critical: AIX starts killing processes when it runs out "
                 "(npskill); the catalogue's technote says 70 %, the issue's default is 80 %")


def _used(host: Host) -> tuple[float, int | None, list] | None:
    """(% used, total MB, evidence) from lsps -s, else from the active lsps -a spaces weighted by size."""
    if host.paging_total is not None:
        r = host.paging_total.record
        # lsps -s gives used_pct / total_mb; a prtconf summary gives paging_used_pct / paging_mb.
        pct = getattr(r, "used_pct", None)
        field = "used_pct"
        if pct is None:
            pct, field = getattr(r, "paging_used_pct", None), "paging_used_pct"
        if pct is not None:
            total = getattr(r, "total_mb", None) or getattr(r, "paging_mb", None)
            return float(pct), total, [host.paging_total.ev(field)]
    spaces = [s for s in host.paging_spaces.values() if s.record.active and s.record.size_mb and s.record.used_pct is not None]
    if not spaces:
        return None
    total = sum(s.record.size_mb for s in spaces)
    used = sum(s.record.size_mb * s.record.used_pct / 100.0 for s in spaces)
    return 100.0 * used / total, total, [s.ev() for s in spaces]


@rule(
    id="HEALTH-PAGING-SPACE-USED",
    title="Paging space filling up",
    severity="warning",
    category="memory",
    source="rules-catalogue MEM-08, MEM-09 (lsps %Used > 50 % warn)",
    rationale="""Pages held in paging space are memory the partition could not keep in RAM. When paging space
    use passes npswarn AIX sends SIGDANGER, and at npskill it kills processes; long before that, every
    page read back costs a disk I/O. A high %Used after a busy period also means the space stays allocated
    until the owning processes end. Add real memory first (see the paging-activity findings), then more
    paging space of equal size on separate disks.""",
)
def paging_space_used(host: Host, cfg: Config) -> Iterator[Finding]:
    got = _used(host)
    if got is None:
        return
    pct, total, evidence = got
    if pct <= cfg.t(WARN):
        return
    sev = "critical" if pct > cfg.t(CRIT) else None
    size = f" of {total} MB" if total else ""
    hd6 = "hd6" if "hd6" in host.paging_spaces or not host.paging_spaces else sorted(host.paging_spaces)[0]
    fix = Commands(root=["svmon -P -O sortentity=pgsp,unit=MB -t 10   # which processes hold paging space",
                         "lsps -a",
                         f"# more room while memory is added: chps -s 8 {hd6}   (8 more logical partitions)"])
    if host.is_vios:
        fix.padmin = ["lsps -a", "oem_setup_env", f"chps -s 8 {hd6}", "exit"]
    undo = Commands(root=[f"chps -d 8 {hd6}   # shrink back (AIX 5.3 and later, when the space is not in use)"])
    yield finding(paging_space_used, host, "paging space",
                  f"{host.name}: paging space {pct:.0f}% used{size} (warning above {cfg.t(WARN):.0f}%, "
                  f"critical above {cfg.t(CRIT):.0f}%).",
                  evidence=evidence, fix=fix, rollback=undo, severity=sev,
                  values={"current": f"{pct:.0f}%", "suggested": f"below {cfg.t(WARN):.0f}%"})
