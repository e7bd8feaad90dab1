"""Virtual processor folding and the scheduler's throughput mode: folding switched off, the
client fold policy, vpm_throughput_mode (000 §3.1, §3.5.1; rules-catalogue CPU-09, CPU-14, CPU-15).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host
from ..config import Config
from ..changes import root_commands, tunable_change
from ..engine import Commands, Finding, finding, rule
from ..host_facts import tunable_int


@rule(
    id="CPU-FOLDING-DISABLED",
    title="Virtual processor folding disabled or held open on a client partition",
    severity="warning",
    category="processor",
    source="rules-catalogue CPU-03; 000_31a80e54567cd02b.txt §3.1 (folding test)",
    rationale="""Folding lets AIX park idle virtual processors so that they are not dispatched and do not
    consume pool cycles. schedo vpm_xvcpus=-1 switches it off, so every VP is dispatched even when idle,
    which wastes shared-pool capacity and hurts cache affinity; a positive value keeps that many extra
    VPs unfolded (some database vendors ask for it). Only a VIOS has a documented reason to disable
    folding.""",
)
def folding_disabled(host: Host, cfg: Config) -> Iterator[Finding]:
    if host.is_vios:
        return
    value, s = tunable_int(host, "vpm_xvcpus")
    if value is None or s is None or value == 0:
        return
    p = host.partition
    if p is not None and p.dedicated:
        return
    sev = None if value < 0 else "info"
    what = "folding is off" if value < 0 else f"{value} extra VPs are kept unfolded"
    yield finding(folding_disabled, host, "schedo vpm_xvcpus",
                  f"{host.name}: vpm_xvcpus = {value}: {what}.",
                  evidence=[s.ev()], severity=sev,
                  changes=[tunable_change(host, "schedo", "vpm_xvcpus", value, 0)],
                  values={"current": value, "suggested": 0})


@rule(
    id="CPU-FOLD-POLICY-CLIENT",
    title="vpm_fold_policy off its default on a client partition",
    severity="info",
    category="processor",
    source="rules-catalogue CPU-06, S11 (K); 000_31a80e54567cd02b.txt §3.5.1",
    rationale="""vpm_fold_policy is a bit mask whose default 1 folds virtual processors in shared partitions.
    A value without bit 0x1 stops folding in a shared partition; that is the advice for a VIOS only. On a
    client it keeps idle VPs dispatched. The bit meanings come from domain knowledge (catalogue K):
    confirm with schedo -h vpm_fold_policy on the AIX level.""",
)
def fold_policy_client(host: Host, cfg: Config) -> Iterator[Finding]:
    if host.is_vios:
        return
    value, s = tunable_int(host, "vpm_fold_policy")
    if value is None or s is None:
        return
    default = s.record.default_int if s.record.default_int is not None else 1
    p = host.partition
    if value & 1 or (p is not None and p.dedicated):
        return
    yield finding(fold_policy_client, host, "schedo vpm_fold_policy",
                  f"{host.name}: vpm_fold_policy = {value} (default {default}); bit 0x1 is clear, so virtual "
                  f"processors of this shared partition are never folded.",
                  evidence=[s.ev()],
                  changes=[tunable_change(host, "schedo", "vpm_fold_policy", value, default)],
                  values={"current": value, "suggested": default})


@rule(
    id="CPU-THROUGHPUT-MODE",
    title="Scaled throughput mode on a client partition",
    severity="info",
    category="processor",
    source="rules-catalogue CPU-05",
    rationale="""vpm_throughput_mode above 0 makes AIX load more SMT threads of each core before it unfolds
    another virtual processor. That lowers the cores a partition consumes but lengthens response times, so
    it suits consolidation, not response-time-sensitive work. Advisory: keep it only if density is the
    goal.""",
)
def throughput_mode(host: Host, cfg: Config) -> Iterator[Finding]:
    if host.is_vios:
        return
    value, s = tunable_int(host, "vpm_throughput_mode")
    if value is None or s is None or value == 0:
        return
    default = s.record.default_int  # schedo -L's DEF column, when the data has it
    if default is not None and value == default:
        return  # this AIX level's own default (newer levels default to a scaled mode on some processors)
    if default is None:
        # schedo -a does not tell this level's default (a scaled mode on some newer levels): a check, not a change
        yield finding(throughput_mode, host, "schedo vpm_throughput_mode",
                      f"{host.name}: vpm_throughput_mode = {value} (0 = raw, the default the catalogue gives; "
                      f"this level's default is not in the data).",
                      evidence=[s.ev()],
                      fix=root_commands(host, ["schedo -L vpm_throughput_mode   # DEF: this level's default",
                                               "# if DEF is 0 and density is not the goal: schedo -p -o vpm_throughput_mode=0"]),
                      rollback=Commands(root=["# a check: nothing to roll back"]),
                      values={"current": value, "suggested": "0 where the level's default is 0"})
        return
    yield finding(throughput_mode, host, "schedo vpm_throughput_mode",
                  f"{host.name}: vpm_throughput_mode = {value} (0 = raw; this level's default is {default}).",
                  evidence=[s.ev()],
                  changes=[tunable_change(host, "schedo", "vpm_throughput_mode", value, 0)],
                  values={"current": value, "suggested": 0})
