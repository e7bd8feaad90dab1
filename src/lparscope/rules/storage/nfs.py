"""NFS client rules: too few biods per mount (the AIX 5.3 default of 4) and ``dio`` mounts
that give up read-ahead (001_56ba1d0866fd4e65.txt, "AIX NFS client mount options").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ...model.estate import Evidence, Host
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule

BIODS_MIN = threshold("nfs_biods_min", 32, "biods per NFS mount below this are flagged: 001 gives 32 as the AIX "
                                           "6.1/7.1 default ('usually sufficient') and calls the AIX 5.3 default "
                                           "of 4 not sufficient")
# 001: default biods per NFS mount by AIX release.
DEFAULT_BIODS = {"5.3": 4, "6.1": 32, "7.1": 32, "7.2": 32, "7.3": 32}


@dataclass
class NfsMount:
    """One NFS mount as the mount table and/or nfsstat -m show it."""

    mounted_over: str
    server: str | None
    remote: str | None
    options: dict[str, str] = field(default_factory=dict)
    raw: str = ""  # the options as the mount table printed them (for the remount command)
    evidence: Evidence | None = None


def nfs_mounts(host: Host) -> list[NfsMount]:
    """NFS mounts, the mount table first; nfsstat -m fills in mounts the table did not list."""
    out: dict[str, NfsMount] = {}
    for s in host.of_kind("mount", "Mount"):
        r = s.record
        if r.nfs:
            out[r.mounted_over] = NfsMount(r.mounted_over, r.node, r.device, dict(r.options), r.options_raw, s.ev("options"))
    for s in host.of_kind("mount", "NfsMountInfo"):
        r = s.record
        if r.mounted_over in out:
            m = out[r.mounted_over]
            for k in ("biods", "dio"):  # nfsstat -m shows what is in force
                if k in r.flags and k not in m.options:
                    m.options[k] = r.flags[k]
            continue
        raw = ",".join(k if v == "" else f"{k}={v}" for k, v in r.flags.items())
        out[r.mounted_over] = NfsMount(r.mounted_over, r.server, r.remote, dict(r.flags), raw, s.ev("flags"))
    return list(out.values())


def os_release(host: Host) -> tuple[str | None, Evidence | None]:
    """The AIX release ("5.3", "7.2") from oslevel, with its evidence."""
    for s in host.of_kind("oslevel", "Level"):
        if getattr(s.record, "command", "") == "oslevel" and not getattr(s.record, "listed", False) and s.record.release:
            return s.record.release, s.ev()
    lv = host.levels.get("oslevel")
    if lv is not None:
        m = re.match(r"^(\d)(\d)\d\d-|^(\d)\.(\d)\.", str(lv.value))
        if m:
            major, minor = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            return f"{major}.{minor}", lv.evidence
    return None, None


def _without(raw: str, key: str) -> str:
    return ",".join(p for p in raw.split(",") if p and p.split("=", 1)[0] != key)


def _with(raw: str, key: str, value: str) -> str:
    kept = _without(raw, key)
    return f"{kept},{key}={value}" if kept else f"{key}={value}"


def _remount(m: NfsMount, options: str) -> list[str]:
    src = f"{m.server}:{m.remote}" if m.server else (m.remote or "<server>:<path>")
    return [f"umount {m.mounted_over}", f"mount -o {options} {src} {m.mounted_over}" if options else f"mount {src} {m.mounted_over}"]


@rule(
    id="NFS-BIODS-LOW",
    title="NFS mount with fewer biods than the later-AIX default",
    severity="warning",
    category="storage",
    source="001_56ba1d0866fd4e65.txt (AIX NFS client mount options)",
    rationale="""biods are the client daemons that carry an NFS mount's read-ahead and write-behind. 001
    notes that AIX 5.3 gave each NFS mount only 4 biods, which is not enough, while AIX 6.1 and 7.1 give
    32, which usually is. A mount running with fewer (by the 5.3 default or an explicit biods= option)
    limits how many requests are in flight to the server. Raise it with the biods mount option.""",
)
def nfs_biods_low(host: Host, cfg: Config) -> Iterator[Finding]:
    release, rel_ev = os_release(host)
    want = int(cfg.t(BIODS_MIN))
    for m in nfs_mounts(host):
        explicit = m.options.get("biods")
        if explicit is not None and explicit.isdigit():
            biods, why, evs = int(explicit), f"biods={explicit} on the mount", [m.evidence]
        elif release in DEFAULT_BIODS:
            biods, why, evs = DEFAULT_BIODS[release], f"the AIX {release} default", [m.evidence, rel_ev]
        else:
            continue
        if biods >= want:
            continue
        new = _with(m.raw, "biods", str(want))
        yield finding(nfs_biods_low, host, m.mounted_over,
                      f"NFS mount {m.mounted_over} on {host.name} runs with {biods} biods ({why}); "
                      f"{want} is the AIX 6.1/7.1 default that 001 calls usually sufficient.",
                      evidence=evs,
                      fix=Commands(root=_remount(m, new) + [f"# keep it: add biods={want} to the options line of the "
                                                            f"{m.mounted_over} stanza in /etc/filesystems"]),
                      rollback=Commands(root=_remount(m, m.raw)),
                      disruption=["restart-needed"],
                      values={"current": biods, "suggested": want})


@rule(
    id="NFS-DIO-READAHEAD",
    title="NFS mount with dio: no client caching and no read-ahead",
    severity="info",
    category="storage",
    source="001_56ba1d0866fd4e65.txt (AIX NFS client mount options)",
    rationale="""dio makes the NFS client bypass the AIX file cache: good for streams written once (backups
    to a NAS), since it lowers memory demand and lrud scanning, but it is not faster and it disables
    read-ahead. Reading the data back through the same mount (a restore) is then slow: remount without
    dio for that. Advisory only; dio is often the right choice for the write path.""",
)
def nfs_dio(host: Host, cfg: Config) -> Iterator[Finding]:
    for m in nfs_mounts(host):
        if "dio" not in m.options:
            continue
        yield finding(nfs_dio, host, m.mounted_over,
                      f"NFS mount {m.mounted_over} on {host.name} uses dio: no caching and no read-ahead. "
                      "Fine for backups written to it; remount without dio before reading large data back.",
                      evidence=[m.evidence],
                      fix=Commands(root=["# only before a restore / large reads from this mount:"] + _remount(m, _without(m.raw, "dio"))),
                      rollback=Commands(root=_remount(m, m.raw)),
                      disruption=["restart-needed"],
                      values={"current": "dio", "suggested": "no dio for read workloads"})
