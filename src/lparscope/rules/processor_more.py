"""More processor rules: weight, donation, VP/EC limits, SMT, logical CPUs, folding and throughput mode.

Sources: 000 §3.1 (Table 3-1, dedicated donating) and rules-catalogue CPU-01/02/03/05/06/08/09/14/15.
The POWER generation and AIX level helpers here are shared with the memory and AME modules.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from ..model.estate import Evidence, Host, Sourced
from .config import Config, threshold
from .engine import Commands, Finding, finding, rule
from .processor import MS, PROFILE, dlpar_resize, dlpar_units, weight_change

VP_PER_EC_UNKNOWN = threshold(
    "vp_per_ec_unknown_generation", 20.0,
    "VPs allowed per processing unit when the POWER generation is not in the input: 20 (EC >= 0.05 per VP, "
    "POWER7+ and later) is the most permissive documented limit, so the rule only fires where every "
    "generation refuses the setting (rules-catalogue CPU-08/CPU-09)")


# --- helpers shared with memory_vmm / ame_report ------------------------------------------------

def _gen_from_text(text: str) -> float | None:
    """7.5 stands for POWER7+; 'PowerPC_POWER9', 'POWER9 Mode', 'Power7 Mode', 'POWER7+' ..."""
    m = re.search(r"power\s*_?(\d+)\s*(\+)?", text, re.I)
    if not m:
        return None
    gen = float(m.group(1))
    return gen + 0.5 if m.group(2) else gen


def power_generation(host: Host) -> tuple[float | None, str, Evidence | None]:
    """(generation, what it was read from, evidence); hardware (lsattr proc type) wins over compat modes."""
    for name in sorted(host.devices):
        dev = host.devices[name]
        if re.fullmatch(r"proc\d+", name) and dev.attr("type"):
            gen = _gen_from_text(dev.attr("type") or "")
            if gen:
                ev = dev.attr_ev("type")
                return gen, f"{name} type {dev.attr('type')}", ev[0] if ev else None
    for s in host.of_kind("amepat", "AmepatReport"):
        mode = getattr(s.record, "processor_implementation_mode", None)
        gen = _gen_from_text(mode or "")
        if gen:
            return gen, f"amepat Processor Implementation Mode {mode}", s.ev("processor_implementation_mode")
    return None, "", None


def aix_level(host: Host) -> tuple[tuple[int, int] | None, Evidence | None]:
    """(AIX release as (7, 2), TL) from oslevel; a VIOS ioslevel maps to its AIX base (2.x 6.1, 3.x 7.2, 4.x 7.3)."""
    for s in reversed(host.of_kind("oslevel")):
        lv = s.record
        if getattr(lv, "listed", False):
            continue
        parts = getattr(lv, "parts", None) or ()
        if lv.command == "oslevel" and parts and parts[0] >= 1000:
            rel = (parts[0] // 1000, parts[0] // 100 % 10)
            return (rel[0] * 10 + rel[1], (parts[1] if len(parts) > 1 else 0)), s.ev()
        m = re.match(r"^(\d)\.(\d)", getattr(lv, "release", None) or "")
        if lv.command == "oslevel" and m:
            return (int(m.group(1)) * 10 + int(m.group(2)), 0), s.ev()
        if lv.command == "ioslevel" and parts:
            base = {2: 61, 3: 72, 4: 73}.get(parts[0])
            if base:
                return (base, 0), s.ev()
    return None, None


def tunable(host: Host, name: str) -> Sourced | None:
    """The last tunables record read for ``name`` (its .record has current/default/boot/type)."""
    found = [s for s in host.of_kind("tunables", "Tunable") if s.record.name == name]
    return found[-1] if found else None


def tunable_int(host: Host, name: str) -> tuple[int | None, Sourced | None]:
    s = tunable(host, name)
    return (None, None) if s is None else (s.record.current_int, s)


def smt_threads(host: Host) -> tuple[int | None, Evidence | None]:
    """SMT threads per VP: lparstat -i Type, then the lparstat header smt=, then lsattr proc0 smt_threads."""
    p = host.partition
    if p is not None and p.type:
        m = re.search(r"smt-?(\d+)", p.type, re.I)
        if m:
            return int(m.group(1)), p.ev("type")[0] if p.ev("type") else None
        if "smt" not in p.type.lower():
            return 1, p.ev("type")[0] if p.ev("type") else None
    for s in host.of_kind("lparstat", "LparstatConfig"):
        smt = s.record.smt
        if smt and smt.isdigit():
            return int(smt), s.ev()
        if smt and smt.lower() == "off":
            return 1, s.ev()
    dev = host.devices.get("proc0")
    if dev is not None and dev.attr("smt_threads") and dev.attr("smt_threads").isdigit():  # type: ignore[union-attr]
        ev = dev.attr_ev("smt_threads")
        return int(dev.attr("smt_threads")), ev[0] if ev else None  # type: ignore[arg-type]
    return None, None


# --- rules -----------------------------------------------------------------------------------

@rule(
    id="CPU-UNCAPPED-WEIGHT-ZERO",
    title="Uncapped partition with uncapped weight 0",
    severity="warning",
    category="processor",
    source="000_31a80e54567cd02b.txt §3.1 (Table 3-1, Uncapped Weight); rules-catalogue CPU-14, S1",
    rationale="""Spare pool cycles go to uncapped partitions in proportion to their weight. With a weight
    of 0 the partition gets spare cycles only when no other uncapped partition wants them, so in a busy
    pool it behaves as if it were capped at its entitlement while still looking uncapped. The HMC default
    weight is 128; set the weight from the partition's importance. (A VIOS is left to the VIOS rules.)""",
)
def uncapped_weight_zero(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if p is None or host.is_vios or not p.shared or not p.uncapped or p.weight != 0:
        return
    fix, undo = weight_change(host.name, 0, 128)
    yield finding(uncapped_weight_zero, host, "partition",
                  f"{host.name} is uncapped with Variable Capacity Weight 0: it only gets spare pool cycles "
                  f"nobody else asks for.",
                  evidence=p.ev("mode", "weight"), fix=fix, rollback=undo, disruption=["dlpar"],
                  values={"current": "uncapped, weight 0", "suggested": "weight 128 (HMC default), higher for important LPARs"})


@rule(
    id="CPU-DEDICATED-NOT-DONATING",
    title="Dedicated-processor partition does not donate idle cycles",
    severity="info",
    category="processor",
    source="000_31a80e54567cd02b.txt §3.1 (Figure 3-2, dedicated LPAR sharing); rules-catalogue CPU-15",
    rationale="""A partition with dedicated processors can lend its idle cycles to the shared pool while it
    runs, but that is not the default: by default it only shares them while it is shut down. Unless
    licensing or latency forbids it, donating lets the shared-pool partitions use cycles that would
    otherwise be wasted. Advisory: the right choice depends on the workload.""",
)
def dedicated_not_donating(host: Host, cfg: Config) -> Iterator[Finding]:
    p = host.partition
    if p is None or not p.dedicated or not p.mode or p.mode.lower() == "donating":
        return
    gen, _what, _ev = power_generation(host)
    if gen is not None and gen < 6:  # donating mode came with POWER6 (rules-catalogue CPU-15)
        return
    fix = Commands(hmc=[
        f"lssyscfg -r prof -m {MS} --filter lpar_names={host.name} -F name,sharing_mode   # note the current value",
        f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},sharing_mode=share_idle_procs_active"',
        "# takes effect at the next activation from the profile",
    ])
    undo = Commands(hmc=[
        f'chsyscfg -r prof -m {MS} -i "name={PROFILE},lpar_name={host.name},sharing_mode=share_idle_procs"',
        "# or keep_idle_procs, whichever lssyscfg showed before the change",
    ])
    yield finding(dedicated_not_donating, host, "partition",
                  f"{host.name} has dedicated processors in mode {p.mode}: its idle cycles are not lent to the "
                  f"shared pool while it runs.",
                  evidence=p.ev("type", "mode"), fix=fix, rollback=undo, disruption=["restart-needed"],
                  values={"current": f"{p.type}, {p.mode}", "suggested": "Donating (share_idle_procs_active)"})


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
    gen, gen_what, gen_ev = power_generation(host)
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
        fix, undo = dlpar_units(host.name, ec, new_ec)
        fix.hmc.append(f"# or keep EC {ec:.2f} and remove {gone} VP: chhwres -m {MS} -r proc -o r -p {host.name} --procs {gone}")
        msg = (f"{host.name}: {vps} VPs on EC {ec:.2f} is {ec / vps:.3f} units per VP; at most {high} VPs "
               f"({basis}).")
        suggested = f"EC >= {new_ec:.2f} for {vps} VP, or <= {high} VP"
    else:
        fix, undo = dlpar_resize(host.name, "proc", "--procs", vps, low, "desired_procs", "{}")
        msg = f"{host.name}: {vps} VPs cannot consume EC {ec:.2f}; at least {low} are needed."
        suggested = f">= {low} VP"
    yield finding(vp_ec_limits, host, "partition", msg,
                  evidence=p.ev("entitled_capacity", "online_vps") + [gen_ev], fix=fix, rollback=undo,
                  disruption=["dlpar"],
                  values={"current": f"EC {ec:.2f}, {vps} VP", "suggested": suggested,
                          "allowed": f"{low}..{high} VP", "generation": gen_what or "unknown"})


def _smt_default(gen: float, level: tuple[int, int] | None) -> tuple[int | None, str]:
    """AIX default SMT mode (rules-catalogue CPU-01): P8 -> 4; P9 with AIX 7.2 TL3+ -> 8; P10 -> 8 (K)."""
    if gen >= 10:
        return 8, "POWER10 default SMT8 (catalogue CPU-01, K)"
    if gen >= 9:
        if level is None:
            return None, ""
        if level >= (72, 3):
            return 8, "POWER9 with AIX 7.2 TL3 or later defaults to SMT8"
        return 4, "POWER9 before AIX 7.2 TL3 defaults to SMT4"
    if gen >= 8:
        return 4, "POWER8 AIX default SMT4"
    return None, ""


@rule(
    id="CPU-SMT-NOT-DEFAULT",
    title="SMT mode differs from the platform default",
    severity="info",
    category="processor",
    source="rules-catalogue CPU-01",
    rationale="""AIX picks a default number of hardware threads per core for each generation: SMT4 on
    POWER8, SMT8 on POWER9 from AIX 7.2 TL3 on, and SMT8 on POWER10 (the last from domain knowledge only).
    A lower mode leaves throughput unused on multi-threaded work; SMT1 or SMT2 on a production partition is
    usually left over from a test or a migration. Advisory: some single-thread-bound software is run on
    fewer threads on purpose.""",
)
def smt_not_default(host: Host, cfg: Config) -> Iterator[Finding]:
    threads, t_ev = smt_threads(host)
    if threads is None:
        return
    gen, gen_what, gen_ev = power_generation(host)
    level, l_ev = aix_level(host)
    want, why = _smt_default(gen, level) if gen else (None, "")
    if want is None:
        if threads > 2:
            return
        want, why = 4, "generation unknown: SMT1/SMT2 flagged (catalogue CPU-01)"
    if threads == want:
        return
    sev = "warning" if threads <= 2 and gen is not None and gen >= 8 else None
    fix = Commands(root=[f"smtctl -t {want} -w now", f"smtctl -t {want} -w boot", "bosboot -a"])
    undo = Commands(root=[f"smtctl -t {threads} -w now", f"smtctl -t {threads} -w boot", "bosboot -a"])
    if host.is_vios:
        fix.padmin = ["oem_setup_env"] + fix.root + ["exit"]
        undo.padmin = ["oem_setup_env"] + undo.root + ["exit"]
    yield finding(smt_not_default, host, "smt",
                  f"{host.name} runs SMT{threads}; {why}" + (f" ({gen_what})" if gen_what else "") + ".",
                  evidence=[t_ev, gen_ev, l_ev], fix=fix, rollback=undo, severity=sev,
                  values={"current": f"SMT{threads}", "suggested": f"SMT{want}"})


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
                  fix=Commands(root=["schedo -p -o vpm_xvcpus=0"]),
                  rollback=Commands(root=[f"schedo -p -o vpm_xvcpus={value}"]),
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
                  fix=Commands(root=[f"schedo -p -o vpm_fold_policy={default}"]),
                  rollback=Commands(root=[f"schedo -p -o vpm_fold_policy={value}"]),
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
    yield finding(throughput_mode, host, "schedo vpm_throughput_mode",
                  f"{host.name}: vpm_throughput_mode = {value} (0 = raw, the default).",
                  evidence=[s.ev()],
                  fix=Commands(root=["schedo -p -o vpm_throughput_mode=0"]),
                  rollback=Commands(root=[f"schedo -p -o vpm_throughput_mode={value}"]),
                  values={"current": value, "suggested": 0})
