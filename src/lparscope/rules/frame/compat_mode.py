"""Processor compatibility mode: a partition that runs, or is set to run, in an older processor's
mode than its frame's (rules-catalogue CPU-07, LPM-07; the HMC's curr_ / desired_lpar_proc_compat_mode,
the profile's lpar_proc_compat_mode, REST Current / PendingProcessorCompatibilityMode).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Estate
from ...model.frame import FramePartition
from ...model.generation import generation_of, label
from ..changes import partition_change
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from ..host_facts import generation_from_text
from .hmc import frames, ms, prof_cmd

def _preferred(p: FramePartition) -> tuple[str | None, list]:
    """The mode asked for at the next activation, and where it was read."""
    if p.compat_mode_preferred:
        return p.compat_mode_preferred, p.ev("compat_mode_preferred")
    mode = p.profile.get("lpar_proc_compat_mode")
    ev = p.profile_evidence.get("lpar_proc_compat_mode")
    return mode, [ev] if ev is not None else []


def _restart(m: str, p: FramePartition) -> str:
    """The activation that sets the mode, as a note (the plan orders restarts; a script never shuts a partition down)."""
    return (f"# the mode is set at activation: at a maintenance window, chsysstate -m {m} -r lpar -o osshutdown -n {p.name} "
            "(it needs the partition's RMC connection; without it, shut the OS down from its console), "
            f"then chsysstate -m {m} -r lpar -o on -n {p.name} -f {p.profile_name or '<profile>'} (an OS reboot keeps the mode)")


@rule(
    id="FRAME-PROC-COMPAT-MODE",
    title="Partition in an older processor compatibility mode than its frame",
    severity="info",
    category="processor",
    source="rules-catalogue CPU-07 (the mode should be the highest the OS level supports), LPM-07 (a migration "
           "keeps the mode until the next restart)",
    rationale="""A partition in an older processor's compatibility mode (POWER8 mode on a POWER9 or POWER10
    frame) does without the newer processor's instructions and scheduling features. Mode "default" lets
    the partition take the newest mode its operating system supports, at each activation; an explicit
    older mode is right only as a deliberate choice for Live Partition Mobility to older frames. The mode
    is set when the partition is activated: one moved here by LPM, or whose profile changed, keeps its
    mode until it is shut down and activated again (a reboot of the OS is not enough).""",
    scope="estate",
)
def frame_proc_compat_mode(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        gen = generation_of(fr.model)
        if gen is None:
            continue
        m = ms(fr)
        for p in sorted(fr.partitions.values(), key=lambda q: (q.id or 0, q.name)):
            if (p.env or "").lower() not in ("aixlinux", "vioserver"):
                continue  # IBM i has its own modes; a partition of unknown type is not judged
            preferred, pref_ev = _preferred(p)
            now = p.compat_mode if p.running_now else None
            older_pref = generation_from_text(preferred)
            older_now = generation_from_text(now)
            if older_pref is not None and older_pref < gen:
                fix = Commands(hmc=[prof_cmd(fr, p, lpar_proc_compat_mode="default"), _restart(m, p)])
                undo = Commands(hmc=[prof_cmd(fr, p, lpar_proc_compat_mode=preferred)])
                fix.changes = [partition_change(p.label, "lpar_proc_compat_mode", preferred, "default", method="profile",
                                                lpar=p.name, frame=fr.name if fr.named else None, vios=p.is_vios)]
                running = f", and runs in {now} mode" if now else ""
                yield finding(frame_proc_compat_mode, p.label, "partition",
                              f"{p.name} on {fr.name} ({label(gen)}): its profile asks for {preferred} mode{running}. "
                              "Unless it must move by LPM to older frames, set the mode to default: it then runs in "
                              "the newest mode its OS level supports, from its next activation.",
                              evidence=pref_ev + p.ev("compat_mode"), fix=fix, rollback=undo,
                              disruption=["restart-needed"],
                              values={"current": f"{preferred} mode", "suggested": "default (newest the OS supports)"})
            elif older_now is not None and older_now < gen and (preferred or "").lower() == "default":
                yield finding(frame_proc_compat_mode, p.label, "partition",
                              f"{p.name} on {fr.name} ({label(gen)}) runs in {now} mode while its preferred mode is "
                              f"default: it was activated on an older frame and moved here, or its OS level does not "
                              "support a newer mode. A shutdown and activation (not an OS reboot) gives it the newest "
                              "mode its OS supports.",
                              evidence=p.ev("compat_mode") + pref_ev,
                              fix=Commands(hmc=[_restart(m, p)]),
                              disruption=["restart-needed"],
                              values={"current": f"{now} mode", "suggested": "the newest mode, at the next activation"})
