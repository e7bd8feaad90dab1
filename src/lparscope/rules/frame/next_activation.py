"""What the next activation asks for: the partitions' profiles judged against the pool and the frame,
beside the running values the other frame rules judge (000 §3.1; rules-catalogue S3, S4, MEM-04).

A profile is what a partition gets when it is next activated from the HMC (after a shutdown, a frame
power-on, or "activate with profile"). DLPAR changes that were never saved leave running values that
fit while the profiles do not: the frame then over-commits on its next restart.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.estate import Estate, Evidence
from ...model.frame import Frame, FramePartition, hpt_mb
from ..changes import hmc_word, partition_change
from ..config import Config
from ..engine import Commands, Finding, finding, rule
from .hmc import S000, frames, ms


def _num(v: str | None) -> float | None:
    try:
        x = float(str(v).strip())
    except (TypeError, ValueError):
        return None
    return x if x == x and abs(x) != float("inf") else None


def _prof(p: FramePartition, key: str) -> float | None:
    return _num(p.profile.get(key))


def _pool_of(fr: Frame, p: FramePartition) -> int:
    """The pool the profile asks for (shared_proc_pool_id / _name), else the running one."""
    pid = _num(p.profile.get("shared_proc_pool_id"))
    if pid is not None:
        return int(pid)
    name = p.profile.get("shared_proc_pool_name")
    if name:
        for pool in fr.pools.values():
            if pool.name == name:
                return pool.id
    return p.pool_id or 0


def _pev(p: FramePartition, key: str) -> list[Evidence]:
    e = p.profile_evidence.get(key)
    return [e] if e is not None else []


@rule(
    id="FRAME-PROFILE-EC-ABOVE-POOL",
    title="Profiles ask for more entitled capacity or virtual processors than the pool holds (next activation)",
    severity="warning",
    category="processor",
    source=f"{S000} §3.1; rules-catalogue S3",
    rationale="""Entitlement is a guarantee the hypervisor checks at activation: when the profiles of a pool's
    partitions ask for more desired processing units than the pool has, the last partitions to start get
    their minimum or do not start at all, even though the running values (changed by DLPAR and never saved)
    fit today. Virtual processors above the pool's cores add nothing but dispatch overhead. This rule judges
    the profiles, what the next activation asks, where the running values fit (FRAME-EC-ABOVE-POOL and the
    VP rules judge the running values).""",
    scope="estate",
)
def profile_ec_above_pool(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        members: dict[int, list[FramePartition]] = {}
        for p in fr.partitions.values():
            if (p.profile.get("proc_mode") or p.proc_mode or "").lower() != "shared":
                continue
            if _prof(p, "desired_proc_units") is None:
                continue
            members.setdefault(_pool_of(fr, p), []).append(p)
        for pid, parts in sorted(members.items()):
            size, size_ev = fr.pool_size(pid)
            if not size:
                continue
            pool = fr.pools.get(pid)
            pname = pool.name if pool and pool.name else ("DefaultPool" if pid == 0 else f"pool {pid}")
            want = round(sum(_prof(p, "desired_proc_units") or 0 for p in parts), 2)
            running = round(sum(p.ec or 0 for p in parts if p.running_now), 2)
            # Only what the running values do not already show: FRAME-EC-ABOVE-POOL judges those.
            if want > size + 1e-9 and running <= size + 1e-9:
                big = sorted(parts, key=lambda p: -(_prof(p, "desired_proc_units") or 0))[:5]
                drift = [p for p in parts if p.ec is not None and _prof(p, "desired_proc_units") is not None
                         and abs((_prof(p, "desired_proc_units") or 0) - p.ec) > 1e-9]
                largest = ", ".join(f"{p.name} {_prof(p, 'desired_proc_units') or 0:g}" for p in big)
                fix = Commands(hmc=["# save the running values into the profiles where they are the intended ones:"]
                               + [f"mksyscfg -r prof -m {ms(fr)} -o save -p {hmc_word(p.name)} -n {hmc_word(p.profile_name)} --force"
                                  for p in drift[:3] if p.profile_name]
                               + ["# or lower desired_proc_units in the largest profiles (EC = average use at peak, 000 §3.1)"])
                yield finding(profile_ec_above_pool, fr.name, f"{pname} (pool {pid}) profiles",
                              f"{fr.name}: the profiles of {pname} ask for EC {want:g} at the next activation but the pool "
                              f"has {size:g} cores (judged: profiles; running EC {running:g} fits; largest: "
                              f"{largest}).",
                              evidence=[size_ev, *(e for p in big for e in _pev(p, "desired_proc_units"))],
                              fix=fix, rollback=Commands(hmc=["# profile saves and edits: keep the lssyscfg -r prof output from before to restore them"]),
                              disruption=["restart-needed"],
                              values={"judged": "profiles", "current": f"{want:g}", "suggested": f"<= {size:g}",
                                      "running": f"{running:g}"},
                              facts={(f"{fr.name} pool {pid}", "pool_size_units"): size})
            for p in sorted(parts, key=lambda x: x.name):
                vps = _prof(p, "desired_procs")
                running_over = p.running_now and p.vps is not None and p.vps > size  # the host/frame VP rules say it
                if vps is not None and vps > size and not running_over:
                    fix = Commands(hmc=[f'chsyscfg -r prof -m {ms(fr)} -i "name={p.profile_name},'
                                        f'lpar_name={p.name},desired_procs={int(size)}"'])
                    # a limit on the profile's VPs: the plan keeps a lower target another rule sets (the
                    # running VPs FRAME-PROFILE-DRIFT saves), one value for the setting in every report
                    fix.changes = [partition_change(p.label, "desired_procs", int(vps), int(size), method="profile",
                                                    basis="limit", bound="max", lpar=p.name,
                                                    frame=fr.name if fr.named else None, vios=p.is_vios,
                                                    note=f"VPs within the {size:g} cores of pool {pname}")]
                    yield finding(profile_ec_above_pool, p.label, "profile",
                                  f"{p.name}'s profile {p.profile_name or ''} asks for {int(vps)} virtual processors at the "
                                  f"next activation; pool {pname} has {size:g} cores (judged: profile).",
                                  evidence=[*_pev(p, "desired_procs"), size_ev], fix=fix,
                                  rollback=Commands(hmc=[f'chsyscfg -r prof -m {ms(fr)} -i "name={p.profile_name},'
                                                         f'lpar_name={p.name},desired_procs={int(vps)}"']),
                                  disruption=["restart-needed"],
                                  values={"judged": "profile", "current": int(vps), "suggested": f"<= {int(size)}"},
                                  facts={(f"{fr.name} pool {pid}", "pool_size_units"): size})


@rule(
    id="FRAME-PROFILE-MEM-ABOVE-FRAME",
    title="Profiles ask for more memory (with their page tables) than the frame has (next activation)",
    severity="warning",
    category="memory",
    source=f"{S000} §3.1 (Table 3-2); rules-catalogue S4, MEM-04",
    rationale="""At activation each partition needs its desired memory plus a hardware page table sized from
    its maximum memory (a power of two of max memory / the HPT ratio), and the hypervisor keeps its own
    firmware memory. The firmware memory the HMC shows (sys_firmware_mem) already holds the page tables
    of the running partitions (rules-catalogue SZ-08), so those are taken out of it before the profiles'
    page tables are added: a partition counts its page table once. When the profiles' sum exceeds the
    frame's configurable memory less the firmware reservation, some partitions will not start with their
    profile after the next frame restart, although the running values fit. The HPT ratio is the
    profile's, else the frame's default.""",
    scope="estate",
)
def profile_mem_above_frame(estate: Estate, cfg: Config) -> Iterator[Finding]:
    for fr in frames(estate):
        usable = fr.mem_configurable or fr.mem_installed
        if not usable:
            continue
        firmware = fr.mem_firmware or 0
        want = 0.0
        hpt = 0
        parts = []
        for p in fr.partitions.values():
            mem = _prof(p, "desired_mem")
            if mem is None:
                continue
            mx = _prof(p, "max_mem") or mem
            ratio = p.profile.get("hpt_ratio", "")
            prof_div = _num(ratio.split(":")[-1]) if ":" in ratio else None
            div = fr.hpt_divisor(p, cfg.t("hpt_ratio"), int(prof_div) if prof_div else None)
            want += mem
            hpt += hpt_mb(mx, div)
            parts.append(p)
        # sys_firmware_mem holds the running partitions' page tables: the rest is the firmware's own
        running_hpt = sum(p.hpt(fr.hpt_divisor(p, cfg.t("hpt_ratio"))) or 0
                          for p in fr.partitions.values() if p.running_now)
        own = max(0, firmware - running_hpt)
        if not parts or want + hpt + own <= usable:
            continue
        running = sum(p.mem or 0 for p in parts if p.running_now)
        big = sorted(parts, key=lambda p: -(_prof(p, "desired_mem") or 0))[:4]
        yield finding(profile_mem_above_frame, fr.name, "profiles memory",
                      f"{fr.name}: the profiles ask for {int(want)} MB of memory plus {hpt} MB of page tables, with "
                      f"{own} MB of firmware memory besides the running partitions' page tables ({firmware} MB in all, "
                      f"{running_hpt} MB of them page tables): {int(want + hpt + own)} MB against {usable} MB configurable "
                      f"(judged: profiles; running partitions hold {int(running)} MB).",
                      evidence=[*fr.ev("mem_configurable", "mem_firmware"),
                                *(e for p in big for e in _pev(p, "desired_mem"))],
                      fix=Commands(hmc=["# lower desired_mem or max_mem (the page table follows max_mem) in the largest profiles, e.g.:"]
                                   + [f'chsyscfg -r prof -m {ms(fr)} -i "name={p.profile_name},lpar_name={p.name},'
                                      f'max_mem={int(_prof(p, "desired_mem") or 0)}"' for p in big[:2] if p.profile_name]),
                      rollback=Commands(hmc=[f'chsyscfg -r prof -m {ms(fr)} -i "name={p.profile_name},lpar_name={p.name},'
                                             f'max_mem={int(_prof(p, "max_mem") or 0)}"' for p in big[:2] if p.profile_name]),
                      disruption=["restart-needed"],
                      values={"judged": "profiles", "current": f"{int(want + hpt + own)} MB",
                              "suggested": f"<= {usable} MB"},
                      facts={(fr.name, "profile_hpt_total_mb"): hpt})
