"""Virtual processor and logical CPU limits: VPs per unit of EC, and logical CPUs above what the AIX
level supports (000 §3.1 Table 3-1; rules-catalogue CPU-01, CPU-02, CPU-03).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ...model.estate import Host
from ..changes import MS, dlpar_resize, dlpar_units, hmc_word
from ..config import Config, threshold
from ..engine import Commands, Finding, finding, rule
from ..host_facts import aix_level, power_generation, smt_threads

VP_PER_EC_UNKNOWN = threshold(
    "vp_per_ec_unknown_generation", 20.0,
    "VPs allowed per processing unit when the POWER generation is not in the input: 20 (EC >= 0.05 per VP, "
    "POWER7+ and later) is the most permissive documented limit, so the rule only fires where every "
    "generation refuses the setting (rules-catalogue CPU-08/CPU-09)")


@rule(
    id="CPU-VP-EC-LIMITS",
    title="Virtual processors outside the range the entitlement allows",
    severity="warning",
    category="processor",
    source="rules-catalogue CPU-09, CPU-08 (SZ-11); 000_31a80e54567cd02b.txt §3.1 (Table 3-1)",
    rationale="""Each virtual processor needs a minimum slice of entitlement: 0.10 processing units up to
    POWER7 (at most 10 VPs per unit of EC) and 0.05 from POWER7+ on (20 per unit). Below that floor each
    VP gets a sliver per dispatch window and misses dispatches; and a partition also needs at least
    ceil(EC) VPs to consume its own entitlement. The generation is read from lsattr proc0 or amepat;
    without it the looser POWER7+ limit is used.""",
)
def vp_ec_limits(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if p is None or not p.shared or not p.entitled_capacity or not p.online_vps:
        return
    gen, gen_what, gen_ev = power_generation(host, use_frame=True)
    if gen is None:
        per_ec, basis = cfg.t(VP_PER_EC_UNKNOWN), "POWER generation unknown, most permissive limit assumed"
    else:
        per_ec = 10.0 if gen < 7.5 else 20.0
        basis = f"{gen_what}: EC >= {1 / per_ec:.2f} per VP"
    ec, vps = p.entitled_capacity, p.online_vps
    low, high = math.ceil(ec - 1e-9), math.floor(ec * per_ec + 1e-9)
    if low <= vps <= high:
        return
    if vps > high:
        # Prefer raising EC to the floor (keeps the VPs the workload may need); offer the VP cut as well.
        new_ec = round(math.ceil(vps / per_ec * 100 - 1e-9) / 100, 2)
        gone = vps - high
        fix, undo = dlpar_units(host, ec, new_ec, basis="limit", bound="min")
        fix.hmc.append(f"# or keep EC {ec:.2f} and remove {gone} VP: chhwres -m {MS} -r proc -o r -p {hmc_word(host.lpar_name)} --procs {gone}")
        msg = (f"{host.name}: {vps} VPs on EC {ec:.2f} is {ec / vps:.3f} units per VP; at most {high} VPs "
               f"({basis}).")
        suggested = f"EC >= {new_ec:.2f} for {vps} VP, or <= {high} VP"
    else:
        fix, undo = dlpar_resize(host, "proc", "--procs", vps, low, "desired_procs", "{}", basis="limit",
                                 bound="min")
        msg = f"{host.name}: {vps} VPs cannot consume EC {ec:.2f}; at least {low} are needed."
        suggested = f">= {low} VP"
    yield finding(vp_ec_limits, host, "partition", msg,
                  evidence=p.ev("entitled_capacity", "online_vps") + [gen_ev], fix=fix, rollback=undo,
                  disruption=["dlpar"],
                  values={"current": f"EC {ec:.2f}, {vps} VP", "suggested": suggested,
                          "allowed": f"{low}..{high} VP", "generation": gen_what or "unknown"})


AIX_LCPU_LIMIT = {61: 256}  # AIX 6.1: 256 logical CPUs; 7.1 and later: 1024 (rules-catalogue CPU-02)


@rule(
    id="CPU-LCPU-OVER-AIX-LIMIT",
    title="More logical CPUs than the AIX level supports",
    severity="warning",
    category="processor",
    source="rules-catalogue CPU-02",
    rationale="""AIX supports a fixed number of logical CPUs: 256 on AIX 6.1 and 1024 from AIX 7.1 on. The
    logical CPUs are the online virtual processors times the SMT threads, so a large partition at SMT8
    passes the limit with more than 128 cores. Lower the SMT limit (or the VPs) so that every thread can
    be used.""",
)
def lcpu_over_limit(host: Host, cfg: Config) -> Iterator[Finding]:
    level, l_ev = aix_level(host)
    if level is not None and level[0] < 61:
        return
    limit = AIX_LCPU_LIMIT.get(level[0], 1024) if level else 1024
    lcpu, ev = None, []
    for s in host.of_kind("lparstat", "LparstatConfig"):
        if s.record.lcpu:
            lcpu, ev = s.record.lcpu, [s.ev()]
    threads, t_ev = smt_threads(host)
    p = host.partition
    if lcpu is None and p is not None and p.online_vps and threads:
        lcpu, ev = p.online_vps * threads, p.ev("online_vps") + [t_ev]
    if lcpu is None or lcpu <= limit:
        return
    vps = lcpu // threads if threads else None
    fit = next((t for t in (8, 4, 2, 1) if vps and vps * t <= limit and (threads is None or t < threads)), 1)
    now = threads or 8
    fix = Commands(root=[f"smtctl -m limit -t {fit} -w boot", "bosboot -a", "shutdown -Fr"])
    undo = Commands(root=[f"smtctl -m limit -t {now} -w boot", "bosboot -a", "shutdown -Fr"])
    yield finding(lcpu_over_limit, host, "lcpu",
                  f"{host.name} has {lcpu} logical CPUs; AIX {'%d.%d' % divmod(level[0], 10) if level else '7.1+ (level unknown)'} "
                  f"supports {limit}." + (f" {vps} VPs x SMT{fit} = {vps * fit} fits." if vps else ""),
                  evidence=ev + [l_ev], fix=fix, rollback=undo, disruption=["reboot"],
                  values={"current": f"{lcpu} logical CPUs", "suggested": f"<= {limit} (SMT{fit})"})
