"""File systems and inodes nearly full (df), stricter for / /var /tmp."""

from __future__ import annotations

import math
from collections.abc import Iterator

from ...model.estate import Host
from ..changes import root_commands
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule

WARN = threshold("fs_used_warning_pct", 90.0, "file system (or inode) use at or above this is a warning")
CRIT = threshold("fs_used_critical_pct", 97.0, "file system (or inode) use at or above this is critical")
SYS_WARN = threshold("fs_system_used_warning_pct", 80.0,
                     "the same for /, /var and /tmp, which the system itself writes to (logs, dumps, spool)")
SYS_CRIT = threshold("fs_system_used_critical_pct", 90.0, "critical level for /, /var and /tmp")
TARGET = threshold("fs_used_target_pct", 75.0, "use the suggested size brings a full file system back to")

_SYSTEM = {"/", "/var", "/tmp"}


@rule(
    id="HEALTH-FS-FULL",
    title="File system or its inodes nearly full",
    severity="warning",
    category="health",
    source="rules-catalogue MEM-09 (system file systems hold paging, dumps and logs; the thresholds are lparscope's own and configurable)",
    rationale="""A full file system stops whatever writes to it: a full /var stops logging, the error
    daemon and dumps; a full /tmp breaks installations and sort work; a full / can stop logins. Inodes run
    out separately from blocks on JFS (fixed nbpi) and on JFS2 when the space is gone. Growing a JFS2 file
    system is online; the suggested size brings use back to about three quarters.""",
)
def fs_full(host: Host, cfg: Config) -> Iterator[Finding]:
    for mount in sorted(host.filesystems):
        s = host.filesystems[mount]
        r = s.record
        system = mount in _SYSTEM
        warn, crit = (cfg.t(SYS_WARN), cfg.t(SYS_CRIT)) if system else (cfg.t(WARN), cfg.t(CRIT))
        worst = []
        if r.used_pct is not None and r.used_pct >= warn:
            worst.append(("space", r.used_pct, "used_pct"))
        if r.inodes_used_pct is not None and r.inodes_used_pct >= warn:
            worst.append(("inodes", r.inodes_used_pct, "inodes_used_pct"))
        if not worst:
            continue
        top = max(p for _, p, _ in worst)
        sev = "critical" if top >= crit else None
        what = " and ".join(f"{w} {p:.0f}%" for w, p, _ in worst)
        fix_root: list[str] = []
        undo_root: list[str] = []
        values = {"current": what, "suggested": f"below {warn:.0f}%"}
        if any(w == "space" for w, _, _ in worst) and r.size_mb and r.free_mb is not None:
            used = r.size_mb - r.free_mb
            new = int(math.ceil(used / (cfg.t(TARGET) / 100.0) / 64.0) * 64)
            if new > r.size_mb:
                grow = new - int(r.size_mb)
                fix_root += [f"chfs -a size=+{grow}M {mount}   # to about {new} MB ({cfg.t(TARGET):.0f}% used); "
                             "needs that much free space in the volume group (lsvg)"]
                undo_root += [f"chfs -a size=-{grow}M {mount}   # JFS2 only, and only while the space is still free"]
                values["suggested"] = f"{new} MB"
        fix_root.append(f"du -gsx {mount}/* 2>/dev/null | sort -n | tail   # what fills it")
        if mount in ("/var", "/tmp"):
            fix_root.append("# also: errclear/trace/dump files under /var/adm, old files in /tmp (skulker)")
        fix = root_commands(host, fix_root)
        yield finding(fs_full, host, mount,
                      f"{mount} on {host.name}: {what} (warning at {warn:.0f}%, critical at {crit:.0f}%"
                      f"{'; a system file system' if system else ''}).",
                      evidence=[s.ev(f) for _, _, f in worst], fix=fix,
                      rollback=Commands(root=undo_root or ["# diagnosis only: nothing to roll back"]),
                      severity=sev, values=values)
