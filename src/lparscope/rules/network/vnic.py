"""vNIC servers on a VIOS (vnicstat): a backing device that is not operational, and errors the
server counted (rules-catalogue NET-16).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host, Sourced
from ..changes import hmc_filter
from ..config import Config
from ..engine import Commands, Finding, finding, rule

_ERROR_WORDS = ("error", "fail", "invalid", "dropped", "overrun", "no_buffer")


def _error_counters(rec: object) -> dict[str, int]:
    counters = getattr(rec, "counters", None) or {}
    return {k: v for k, v in counters.items()
            if v and any(w in k.rsplit(".", 1)[-1] for w in _ERROR_WORDS)}


def _state_problems(rec: object) -> list[str]:
    state = (getattr(rec, "state", None) or "").strip()
    fstate = (getattr(rec, "failover_state", None) or "").strip()
    ready = (getattr(rec, "failover_readiness", None) or "").strip()
    out = []
    if ready and ready.lower() != "operational":
        out.append(f"failover readiness {ready}")
    standby = fstate.lower() == "inactive"
    if state and state.lower() != "active" and not (standby and ready.lower() == "operational"):
        out.append(f"state {state}")
    return out


@rule(
    id="NET-VNIC-SERVER-ERRORS",
    title="vNIC server with a backing device not operational, or errors counted",
    severity="warning",
    category="network",
    source="rules-catalogue NET-16",
    rationale="""A vNIC client is protected against a failed SR-IOV port or VIOS only while its other backing
    devices stay ready to take over: each backing device reports its failover readiness, and the hypervisor
    fails over only to one that is operational. A backing device that is not operational leaves its client
    with one path fewer (or none, when it is the active one), and errors counted by the vNIC server (transmit
    or receive errors, dropped packets) are frames lost between the client and the physical port. vnicstat
    on the VIOS shows both per vNIC server.""",
)
def vnic_server_errors(host: Host, cfg: Config) -> Iterator[Finding]:
    for name in sorted(host.vnic_servers):
        src: Sourced = host.vnic_servers[name]
        rec = src.record
        problems = _state_problems(rec)
        errors = _error_counters(rec)
        if not problems and not errors:
            continue
        bdev = getattr(rec, "backing_device", None) or "its backing device"
        client = getattr(rec, "client_partition_name", None) or f"partition {getattr(rec, 'client_partition_id', '?')}"
        cdev = getattr(rec, "client_device", None)
        parts = []
        if problems:
            parts.append(f"backing device {bdev}: " + ", ".join(problems))
        if errors:
            parts.append(", ".join(f"{k.replace('_', ' ')} {v}" for k, v in errors.items()))
        evidence = [src.ev(k) for k in ("failover_readiness", "state", "failover_state") if k in rec.lines]
        evidence += [src.ev(k) for k in errors]
        fix = Commands(root=[f"vnicstat -b {name}   # the backing device's state and counters again",
                             f"entstat -d {bdev} | egrep -i 'Link Status|Physical Port Link Status|Errors'"
                             if bdev != "its backing device" else f"vnicstat {name}",
                             "# on the HMC: lshwres -r virtualio --rsubtype vnic -m <managed system> --level lpar "
                             f"--filter {hmc_filter('lpar_names', client)}   # every backing device of the client's vNIC and its status",
                             "# a backing device not operational: bring its SR-IOV port's link up (cable, switch port) or "
                             "replace the backing device on another physical port / VIOS (rules-catalogue NET-16)"],
                       padmin=[f"vnicstat -b {name}"] if host.is_vios else [])
        yield finding(vnic_server_errors, host, name,
                      f"vNIC server {name} on {host.name} (client {client}" + (f" {cdev}" if cdev else "") + "): "
                      + "; ".join(parts) + ".",
                      evidence=evidence, fix=fix, rollback=Commands(),
                      values={"current": "; ".join(parts), "suggested": "backing device operational, no errors",
                              "backing_device": bdev, "client": client})
