"""NFS mounts in a WPAR where a NameFS mount of the global environment's file system would do
(000 §3.9.2).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model.estate import Estate, Evidence, Host
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .devices import wpar_views

_NFS_VFS = re.compile(r"^nfs\d?$", re.I)


def _identities(host: Host) -> set[str]:
    """Names and addresses by which NFS clients may reach this host."""
    ids = {host.name.lower(), host.name.split(".")[0].lower(), "localhost", "127.0.0.1", "loopback"}
    for dev in host.devices.values():
        addr = dev.attr("netaddr")
        if addr:
            ids.add(addr.lower())
    for itf in host.interfaces:
        for addr, _mask in getattr(itf, "inet", []) or []:
            ids.add(str(addr).lower())
    return ids


def _table_nfs_rows(rows: list[list[str]]) -> Iterator[tuple[str, str, str]]:
    """(mount point, remote path, node) of the NFS rows of an lswpar -L FILE SYSTEMS table."""
    for row in rows:
        idx = next((i for i, tok in enumerate(row[1:], 1) if _NFS_VFS.match(tok)), None)
        if idx is None:
            continue
        after = row[idx + 1:]
        node = after[0] if after and (len(after) > 1 or not re.search(r"[,=]|^r[ow]$", after[0])) else ""
        yield row[0], row[1] if idx > 1 else "", node


def _namefs_finding(host: Host, wpar: str, mountpoint: str, remote: str, node: str, directory: str | None,
                    evidence: list[Evidence | None], where: str) -> Finding:
    inside = mountpoint[len(directory):] if directory and mountpoint.startswith(directory + "/") else mountpoint
    target = f"{directory}{inside}" if directory else f"/wpars/{wpar}{inside}"
    return finding(nfs_instead_of_namefs, host, f"{wpar}:{inside}",
                   f"WPAR {wpar} reaches {remote or 'a file system'} of its own global {host.name} over NFS "
                   f"({node}:{remote} on {inside}, {where}); a NameFS mount avoids the TCP/NFS overhead "
                   "and allows DIO/CIO (000 §3.9.2).",
                   evidence=evidence,
                   fix=Commands(root=[f"clogin {wpar} umount {inside}",
                                      f"mount -v namefs {remote or '<global-path>'} {target}",
                                      f"# namefs mounts do not survive a reboot: mount it from a WPAR start script, "
                                      f"e.g. chwpar -u /usr/local/bin/wpar_mp.sh {wpar} (000 Example 3-44)"]),
                   rollback=Commands(root=[f"umount {target}", f"clogin {wpar} mount {node}:{remote} {inside}"]),
                   disruption=["restart-needed"],
                   values={"current": f"nfs {node}:{remote}", "suggested": f"namefs {remote} on {target}"})


@rule(
    id="WPAR-NFS-NOT-NAMEFS",
    title="WPAR mounts a file system of its own global environment over NFS",
    severity="info",
    category="wpar",
    source="000_31a80e54567cd02b.txt §3.9.2 (File; Example 3-42, 3-43; Conclusion)",
    rationale="""A WPAR can reach a global file system by NFS-exporting it and mounting it inside the WPAR,
    or by mounting it (namefs) on a directory under the WPAR's root. The Redbook found the local/NameFS
    way faster because it skips the TCP and NFS layers and lets DIO or CIO be used per mount. NameFS
    mounts are not persistent, so they belong in a WPAR start script. Advisory: NFS may be chosen on
    purpose (for example to keep WPAR mobility).""",
    scope="estate",
)
def nfs_instead_of_namefs(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for host in estate.hosts.values():
        views = wpar_views(host)
        if not views:
            continue
        ids = _identities(host)
        seen: set[tuple[str, str]] = set()
        for v in views.values():
            for s in v.stanzas:
                for mp, remote, node in _table_nfs_rows(s.record.tables.get("FILE SYSTEMS", [])):
                    if node.lower() in ids and (v.name, mp) not in seen:
                        seen.add((v.name, mp))
                        yield _namefs_finding(host, v.name, mp, remote, node, v.directory, [s.ev()], "lswpar -L")
        # NFS mounts seen from the global, over a WPAR's directory
        for m in host.of_kind("mount", "Mount"):
            r = m.record
            if not r.nfs or (r.node or "").lower() not in ids:
                continue
            for v in views.values():
                d = v.directory or f"/wpars/{v.name}"
                if r.mounted_over.startswith(d + "/") and (v.name, r.mounted_over) not in seen:
                    seen.add((v.name, r.mounted_over))
                    yield _namefs_finding(host, v.name, r.mounted_over, r.device, r.node, d, [m.ev("node")], "mount")
        # NFS mounts seen inside a WPAR collected as a host of its own
        for v in views.values():
            inner = estate.hosts.get(v.hostname or "") or estate.hosts.get(v.name)
            if inner is None or inner is host:
                continue
            for m in inner.of_kind("mount", "Mount"):
                r = m.record
                if r.nfs and (r.node or "").lower() in ids and (v.name, r.mounted_over) not in seen:
                    seen.add((v.name, r.mounted_over))
                    yield _namefs_finding(host, v.name, (v.directory or f"/wpars/{v.name}") + r.mounted_over,
                                          r.device, r.node, v.directory or f"/wpars/{v.name}", [m.ev("node")],
                                          f"mount inside {inner.name}")
