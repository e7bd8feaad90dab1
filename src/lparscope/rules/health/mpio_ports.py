"""FC adapters and target ports with failed or missing MPIO paths, as ``lsmpio -ar`` counts them
(rules-catalogue STO-10, STO-13). The per-disk view (lspath) is HEALTH-DISK-PATHS's: this rule speaks
only for a host whose data gives no lspath, so one fault is reported once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model.estate import Host
from ..config import Config
from ..changes import root_commands
from ..engine import Commands, Finding, finding, rule
from .paths import _paths_by_disk


def _adapters(host: Host) -> dict[str, tuple[Any, list[Any]]]:
    """Each adapter's last reading and the target ports listed under it (per disk when -l named one)."""
    out: dict[str, tuple[Any, list[Any]]] = {}
    for s in host.of_kind("lsmpio-a", "MpioAdapter"):
        out[s.record.name] = (s, [])
    for s in host.of_kind("lsmpio-a", "MpioRemotePort"):
        if s.record.adapter in out:
            out[s.record.adapter][1].append(s)
    return out


@rule(
    id="HEALTH-MPIO-PORT-PATHS",
    title="FC adapter or target port with failed or missing MPIO paths",
    severity="warning",
    category="storage",
    source="rules-catalogue STO-10, STO-13; 000_31a80e54567cd02b.txt §3.5.3 (two VIOS give each client disk two paths)",
    rationale="""lsmpio -ar counts, per FC adapter and per storage target port behind it, the disk paths in
    each state. Failed paths are I/O paths MPIO stopped using after errors; Missing ones are paths the
    system knew and no longer sees (a removed zone, a moved target port). MPIO carries the I/O over the
    remaining paths, so the disks keep working without redundancy until the next fabric or VIOS fault.
    An adapter whose link is down gives no path at all.""",
)
def mpio_port_paths(host: Host, cfg: Config) -> Iterator[Finding]:
    if _paths_by_disk(host):
        return  # HEALTH-DISK-PATHS reports the same paths disk by disk
    for name, (adapter, ports) in sorted(_adapters(host).items()):
        a = adapter.record
        down = (a.link_state or "up").lower() != "up"
        bad = [p for p in ports if p.record.failed or p.record.missing]
        if not down and not bad:
            continue
        enabled = sum(p.record.enabled for p in ports)
        failed = sum(p.record.failed for p in ports)
        missing = sum(p.record.missing for p in ports)
        what = [f"link {a.link_state}"] if down else []
        what += [f"{p.record.failed} failed and {p.record.missing} missing path(s) to target port {p.record.wwpn}"
                 for p in bad]
        on = f" of {a.disk}" if a.disk else ""
        fix = root_commands(host, [
            f"lspath -p {name} -F 'name status connection' | grep -v Enabled   # the disks and paths concerned",
            "errpt | head -30   # the fault: adapter, switch port, target port or zoning",
            "# once the fault is repaired: find the paths again, and enable the failed ones",
            f"cfgmgr -l {name}",
            f"for d in $(lspath -p {name} -s failed -F name | sort -u); do chpath -l $d -p {name} -s enable; done",
            f"lsmpio -ar   # every target port of {name}: Failed and Missing back to 0"])
        yield finding(mpio_port_paths, host, name,
                      f"{name} on {host.name}{on}: " + "; ".join(what) + f" ({enabled} path(s) still Enabled).",
                      evidence=[adapter.ev(), *(p.ev() for p in bad[:5])], fix=fix,
                      rollback=Commands(root=["# read-only diagnosis and path re-enable: nothing to roll back"]),
                      severity="critical" if enabled == 0 else None,
                      values={"current": f"{enabled} enabled, {failed} failed, {missing} missing"
                              + (f", link {a.link_state}" if down else ""), "suggested": "0 failed, 0 missing, link Up"})
