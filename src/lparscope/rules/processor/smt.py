"""SMT mode against the default of the POWER generation and AIX level (rules-catalogue CPU-08).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Host
from ...model.generation import label as generation_label
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from ..host_facts import aix_level, power_generation, smt_threads


# Hardware threads per core the older generations offer (POWER4 and before: no SMT); POWER7 and later
# are covered by _smt_default (POWER7: SMT4).
_SMT_MOST = {3: 1, 4: 1, 5: 2, 6: 2}


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
    if host.role == "linux":
        return  # AIX's defaults and smtctl: a Linux partition sets SMT with ppc64_cpu, by its own defaults
    threads, t_ev = smt_threads(host)
    if threads is None:
        return
    gen, gen_what, gen_ev = power_generation(host)
    level, l_ev = aix_level(host)
    want, why = _smt_default(gen, level) if gen else (None, "")
    most = _SMT_MOST.get(int(gen)) if gen else None  # the processor can run no more threads than this
    if most is not None and threads >= most:
        return
    if want is None and most is not None:
        want, why = most, f"{generation_label(gen)} runs up to SMT{most}"
    if want is None:
        if threads > 2:
            return
        known = "generation unknown" if not gen else f"{generation_label(gen)}: the catalogue gives no default for it"
        want, why = 4, f"{known}; SMT1/SMT2 flagged (catalogue CPU-01)"
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
