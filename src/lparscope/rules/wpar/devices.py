"""Devices given to WPARs: adapters a WPAR cannot take, SDDPCM with AIX 5.2 Versioned WPARs
(000 §3.9.2).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ...model.estate import Evidence, Host, Sourced
from ..config import Config
from ..engine import Commands, Finding, finding, rule

_ADAPTER = re.compile(r"^(?:fcs|ent|fscsi)\d+$")


@dataclass
class WparView:
    """What every lswpar output said about one WPAR, merged, with where each fact came from."""

    name: str
    hostname: str | None = None
    directory: str | None = None
    rootvg: bool | None = None
    versioned: bool | None = None
    os_version: str | None = None
    evidence: dict[str, Evidence] = field(default_factory=dict)
    stanzas: list[Sourced] = field(default_factory=list)  # -L records (with tables)


def wpar_views(host: Host) -> dict[str, WparView]:
    views: dict[str, WparView] = {}
    for s in host.of_kind("lswpar", "Wpar"):
        w = s.record
        v = views.setdefault(w.name, WparView(w.name))
        v.evidence.setdefault("name", s.ev())
        v.hostname = w.hostname or v.hostname
        v.directory = w.directory or v.directory
        if w.rootvg is not None:
            v.rootvg = w.rootvg if v.rootvg is None else (v.rootvg or w.rootvg)
            v.evidence["rootvg"] = s.ev("RootVG WPAR") if "RootVG WPAR" in w.lines else s.ev()
        if w.versioned is not None:
            v.versioned, v.os_version = w.versioned, w.os_version
            key = next((k for k in w.general if k == "OStype" or "version" in k.lower()), None)
            v.evidence["versioned"] = s.ev(key) if key else s.ev()
        if w.tables:
            v.stanzas.append(s)
    for w in host.wpars:  # records built without the lswpar parser (tests, other inputs)
        if w.name not in views:
            views[w.name] = WparView(w.name, getattr(w, "hostname", None), getattr(w, "directory", None),
                                     getattr(w, "rootvg", None), getattr(w, "versioned", None),
                                     getattr(w, "os_version", None),
                                     {"name": getattr(w, "_evidence", None) or Evidence("?", 1)})
    return views


@rule(
    id="WPAR-ADAPTER-UNSUPPORTED",
    title="Adapter exported to a Versioned or rootvg WPAR",
    severity="warning",
    category="wpar",
    source="000_31a80e54567cd02b.txt §3.9.2 (Block; Conclusion)",
    rationale="""Physical or NPIV Fibre Channel adapters (and other adapters) can be handed to a system
    WPAR with chwpar, but the Redbook states this is not possible for a rootvg WPAR or for a Versioned
    (AIX 5.2/5.3) WPAR, and that adapter mappings are not supported with Versioned WPARs. Such a
    configuration runs outside what IBM supports; export the LUNs (hdisks) instead, which works for
    system, rootvg and Versioned WPARs alike.""",
)
def adapter_in_unsupported_wpar(host: Host, cfg: Config) -> Iterator[Finding]:
    views = wpar_views(host)
    for d in host.wpar_devices:
        if not (str(d.type or "").lower() == "adapter" or _ADAPTER.match(d.device)):
            continue
        v = views.get(d.wpar or "")
        if v is None or not (v.versioned or v.rootvg):
            continue
        why = " and ".join(x for x, on in (("Versioned" + (f" (OStype {v.os_version})" if v.os_version else ""), v.versioned),
                                           ("rootvg", v.rootvg)) if on)
        yield finding(adapter_in_unsupported_wpar, host, f"{d.wpar}:{d.device}",
                      f"Adapter {d.device} is exported to WPAR {d.wpar} on {host.name}, which is a {why} WPAR: "
                      "adapters cannot be presented to such WPARs (000 §3.9.2).",
                      evidence=[getattr(d, "_evidence", None), v.evidence.get("versioned") if v.versioned else None,
                                v.evidence.get("rootvg") if v.rootvg else None],
                      fix=Commands(root=[f"chwpar -K -D devname={d.device} {d.wpar}",
                                         f"# then export the LUNs instead, one per disk: chwpar -D devname=hdiskN {d.wpar}"]),
                      rollback=Commands(root=[f"chwpar -D devname={d.device} {d.wpar}"]),
                      disruption=["restart-needed"],
                      values={"current": f"{d.device} exported ({d.status})", "suggested": "hdisk exports only"})


def _is_52(version: str | None) -> bool | None:
    """True when the WPAR's version names AIX 5.2, False when it names another level, None when unknown."""
    if not version:
        return None
    v = version.strip().lower()
    if re.search(r"5\.?2", v):
        return True
    if re.search(r"5\.?3|^0$|native", v):
        return False
    return None


@rule(
    id="WPAR-SDDPCM-VERSIONED52",
    title="SDDPCM installed in a global environment that hosts an AIX 5.2 Versioned WPAR",
    severity="warning",
    category="wpar",
    source="000_31a80e54567cd02b.txt §3.9.2 (Example 3-41 notes)",
    rationale="""When disks are given to an AIX 5.2 Versioned WPAR, the Redbook says SDDPCM must not be
    installed in the global AIX (its example checks that lslpp finds no sddpcm fileset before mapping the
    disk). A global with devices.sddpcm.* and a 5.2 Versioned WPAR breaks that requirement. When the
    WPAR's level is only given as an OStype code, the finding is informational: confirm the level.""",
)
def sddpcm_with_versioned52(host: Host, cfg: Config) -> Iterator[Finding]:
    sdd = [s for s in host.of_kind("lslpp", "Fileset") if s.record.name.lower().startswith("devices.sddpcm")]
    if not sdd:
        return
    names = sorted({s.record.name for s in sdd})
    for v in wpar_views(host).values():
        if not v.versioned:
            continue
        is52 = _is_52(v.os_version)
        if is52 is False:
            continue
        sure = is52 is True
        level = "AIX 5.2 Versioned WPAR" if sure else f"Versioned WPAR (OStype {v.os_version}; level not named)"
        yield finding(sddpcm_with_versioned52, host, v.name,
                      f"{host.name} has {', '.join(names)} ({sdd[0].record.level}) installed and hosts {v.name}, "
                      f"a {level}." + ("" if sure else f" Confirm with 'clogin {v.name} oslevel': the rule applies to 5.2."),
                      evidence=[sdd[0].ev("name"), v.evidence.get("versioned")],
                      fix=Commands(root=["# move the disks to the AIX default PCM first (manage_disk_drivers -l lists the choices)",
                                         "lspv; lsdev -Cc disk    # note the disks and their current driver",
                                         f"installp -u {' '.join(names)}",
                                         "shutdown -Fr"]),
                      rollback=Commands(root=[f"installp -acgXd <install-media> {' '.join(names)}", "shutdown -Fr"]),
                      disruption=["reboot"], severity=None if sure else "info",
                      values={"current": f"{names[0]} {sdd[0].record.level}", "suggested": "no SDDPCM in the global"})
