"""How old the system firmware and the VIOS release are, against the dated table in
:mod:`lparscope.model.releases` (its date is printed with each finding)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from ...model.estate import Host
from ...model.releases import (FIRMWARE_STREAMS, TABLE_DATE, VIOS_RELEASES, age_years, firmware_stream,
                               vios_release)
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule

FW_AGE = threshold("firmware_stream_age_years", 3.0,
                   "system firmware whose release stream first shipped more than this many years before the "
                   "table date is reported (a stream still gets service packs: check FLRT)")
VIOS_AGE = threshold("vios_release_age_years", 3.0,
                     "VIOS release that first shipped more than this many years before the table date is reported")


def _today() -> date:
    # Judged against the table's own date, not the clock: the same inputs give the same findings.
    return TABLE_DATE


@rule(
    id="HEALTH-FIRMWARE-OLD",
    title="System firmware from an old release stream",
    severity="info",
    category="health",
    source="000_31a80e54567cd02b.txt §3.4 (features gated by firmware level, e.g. AMD needs FW740); rules-catalogue VIOS-09",
    rationale="""Features and fixes arrive with firmware streams (AMD needs FW740, DPO FW760, vNIC failover
    FW860, NPIV multiqueue FW940). A system still on a stream that first shipped years ago misses them and
    may be past its end of service pack support. The months come from a table shipped with lparscope; its
    date is printed, and IBM FLRT has the current recommendation.""",
)
def firmware_old(host: Host, cfg: Config) -> Iterator[Finding]:
    for key in ("system", "system_permanent", "firmware_version"):
        s = host.firmware.get(key)
        if s is None or not s.value:
            continue
        stream = firmware_stream(str(s.value))
        if stream is None:
            return
        age = age_years(FIRMWARE_STREAMS[stream], _today())
        if age <= cfg.t(FW_AGE):
            return
        y, m = FIRMWARE_STREAMS[stream]
        yield finding(firmware_old, host, "system firmware",
                      f"{host.name} runs system firmware {s.value} (stream FW{stream}, first shipped about "
                      f"{y}-{m:02d}, {age:.1f} years before lparscope's release table of {TABLE_DATE.isoformat()}).",
                      evidence=[s.evidence],
                      fix=Commands(root=["lsmcode -A   # every firmware level on the system",
                                         "# check IBM FLRT for the recommended level of this machine type and plan "
                                         "the update from the HMC (updlic) in a maintenance window"]),
                      rollback=Commands(root=["# advisory: nothing to roll back"]),
                      values={"current": f"FW{stream} ({y}-{m:02d})", "table_date": TABLE_DATE.isoformat()})
        return


@rule(
    id="HEALTH-VIOS-LEVEL-OLD",
    title="VIOS release first shipped years ago",
    severity="info",
    category="vios",
    source="rules-catalogue VIOS-09 (ioslevel behind the FLRT recommendation is advisory)",
    rationale="""An old VIOS release lacks fixes and features that later rules rely on (NPIV multiqueue
    needs 3.1.2, vNIC failover 2.2.5) and may be out of support. Update one VIOS of the pair at a time,
    after failing its traffic over to the partner. The months come from a table shipped with lparscope;
    its date is printed.""",
)
def vios_level_old(host: Host, cfg: Config) -> Iterator[Finding]:
    s = host.levels.get("ioslevel")
    if not host.is_vios or s is None or not s.value:
        return
    rel = vios_release(str(s.value))
    if rel is None:
        return
    age = age_years(VIOS_RELEASES[rel], _today())
    if age <= cfg.t(VIOS_AGE):
        return
    y, m = VIOS_RELEASES[rel]
    yield finding(vios_level_old, host, "ioslevel",
                  f"{host.name} runs VIOS {s.value} (release {rel}, first shipped about {y}-{m:02d}, {age:.1f} years "
                  f"before lparscope's release table of {TABLE_DATE.isoformat()}).",
                  evidence=[s.evidence],
                  fix=Commands(padmin=["ioslevel", "# check IBM FLRT, then on one VIOS at a time after failover: "
                                       "updateios -dev <update folder> -accept -install; shutdown -restart"],
                               root=["# as padmin (updateios)"]),
                  rollback=Commands(padmin=["# an applied update can be rejected before it is committed: updateios -reject"]),
                  values={"current": f"{rel} ({y}-{m:02d})", "table_date": TABLE_DATE.isoformat()})
