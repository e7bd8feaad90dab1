"""Disks that run on the generic driver instead of the storage vendor's (000 §3.5.4).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model.estate import Host
from ..config import Config
from ..engine import Commands, Finding, finding, rule

_GENERIC = re.compile(r"\bOther FC SCSI Disk Drive\b", re.I)


@rule(
    id="STO-GENERIC-DISK-DRIVER",
    title="Disks use the generic MPIO driver (storage vendor driver missing)",
    severity="warning",
    category="storage",
    source="000_31a80e54567cd02b.txt §3.5.4 (Examples 3-24, 3-25)",
    rationale="""'MPIO Other FC SCSI Disk Drive' means AIX found no ODM definition for the LUNs and
    used a generic one: the vendor's path control module, queue depth defaults and load balancing
    are missing. Install the storage vendor's driver (SDDPCM/AIXPCM support for IBM storage,
    HDLM, PowerPath ...), then reconfigure the disks.""",
)
def generic_disk_driver(host: Host, cfg: Config) -> Iterator[Finding]:
    disks = sorted((d for d in host.devices.values() if _GENERIC.search(d.description)), key=lambda d: d.name)
    if not disks:
        return
    names = ", ".join(d.name for d in disks)
    pad = ["lsdev -type disk", "oem_setup_env", "lslpp -l 'devices.fcp.disk*' 'devices.sddpcm*'",
           "# install the storage vendor's host attachment / PCM fileset (installp or updateios), then:",
           "cfgdev", "exit"]
    root = ["lsdev -Cc disk", "lslpp -l 'devices.fcp.disk*' 'devices.sddpcm*'",
            "# install the storage vendor's host attachment / PCM fileset with installp, then:", "cfgmgr"]
    yield finding(generic_disk_driver, host, names,
                  f"{len(disks)} disk(s) on {host.name} use the generic driver: {names}.",
                  evidence=[d.evidence for d in disks[:5]], fix=Commands(root=root, padmin=pad if host.is_vios else []),
                  rollback=Commands(root=["# remove the vendor fileset with installp -u <fileset> (disks revert at next cfgmgr)"]),
                  disruption=["reboot"], values={"current": "MPIO Other FC SCSI Disk Drive", "suggested": "vendor driver"})
