"""Running processor and memory settings that differ from the partition's profile (rules-catalogue S3).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model.estate import Estate
from ...model.frame import FramePartition
from ..changes import hmc_word, partition_change
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .hmc import S000, frames, ms, prof_cmd

_COMPARE = ("proc_mode", "min_proc_units", "desired_proc_units", "max_proc_units", "min_procs", "desired_procs",
            "max_procs", "sharing_mode", "uncap_weight", "min_mem", "desired_mem", "max_mem", "hpt_ratio", "mem_expansion")


def _same(a: str, b: str) -> bool:
    try:
        return abs(float(a) - float(b)) < 1e-6
    except ValueError:
        return a.strip().lower() == b.strip().lower()


def profile_drift(p: FramePartition) -> list[tuple[str, str, str]]:
    """(attribute, profile value, running value) for each setting that differs."""
    out = []
    for k in _COMPARE:
        a, b = p.profile.get(k), p.running.get(k)
        if a is None or b is None or a.strip().lower() in ("", "null", "none") or b.strip() == "":
            continue
        if k == "proc_mode" or p.dedicated:
            if k in ("min_proc_units", "desired_proc_units", "max_proc_units", "uncap_weight"):
                continue
        if not _same(a, b):
            out.append((k, a.strip(), b.strip()))
    return out


@rule(
    id="FRAME-PROFILE-DRIFT",
    title="Running settings differ from the partition's profile",
    severity="warning",
    category="processor",
    source=f"{S000} §3.1 (Tables 3-1, 3-2: the profile's settings); HMC Scanner profile check",
    rationale="""A dynamic LPAR change alters the running partition but not its profile (unless the HMC syncs
    the current configuration). At the next activation from the profile the partition comes back with the
    old values: a capacity raise made during an incident silently disappears, or a reduction comes back.
    Each differing attribute is reported with both values; the fix saves the running configuration to the
    profile, the alternative is to apply the profile's value again with chhwres.""",
    scope="estate",
)
def frame_profile_drift(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        for p in sorted(fr.partitions.values(), key=lambda x: x.name):
            if not p.running_now or not p.profile or not p.running:
                continue
            diffs = profile_drift(p)
            if not diffs:
                continue
            text = "; ".join(f"{k} profile {a} / running {b}" for k, a, b in diffs)
            evid = [e for k, _, _ in diffs for e in (p.profile_evidence.get(k), p.running_evidence.get(k))]
            fix = Commands(hmc=[f"mksyscfg -r prof -m {ms(fr)} -o save -p {hmc_word(p.name)} -n {hmc_word(p.profile_name or '<profile>')} --force",
                                "# saves the running configuration into the profile; or put the profile's values back with chhwres"])
            undo = Commands(hmc=[prof_cmd(fr, p, **{k: a for k, a, _ in diffs})])
            fix.changes = [partition_change(p.label, k, b, b, method="profile", lpar=p.name,
                                            frame=fr.name if fr.named else None, vios=p.is_vios,
                                            note="the profile takes the running value")
                           for k, a, b in diffs if re.fullmatch(r"[A-Za-z0-9_.:+-]+", str(b))]
            yield finding(frame_profile_drift, p.label, f"profile {p.profile_name or '?'}",
                          f"{p.name} on {fr.name} runs with settings its profile {p.profile_name or '?'} does not hold: {text}.",
                          evidence=evid, fix=fix, rollback=undo,
                          values={"current": ", ".join(f"{k}={b}" for k, _, b in diffs),
                                  "profile": ", ".join(f"{k}={a}" for k, a, _ in diffs)})
