"""Changes proposed by the measured sizing (000 §3.1: EC = average at peak, VP = peak), as a
scenario to replay when the user gives no changes of their own and no plan is available."""

from __future__ import annotations


from ..sizing.cpu import size_partition
from .changes import Change
from .traces import CENSORED_EXTRA, FrameTrace


def sizing_changes(tr: FrameTrace, censored_extra: float = CENSORED_EXTRA) -> list[Change]:
    """EC / VP / sharing mode from each measured shared partition's demand on the grid."""
    demand = tr.demand(censored_extra)
    out: list[Change] = []
    for i, (p, src) in enumerate(zip(tr.settings.partitions, tr.source)):
        if p.dedicated or src.startswith("assumed"):
            continue
        sz = size_partition(tr.times, demand[i], ec=p.ec, vp=int(p.vp), pool_cores=tr.settings.cores,
                            capped=not p.uncapped, is_vios=bool(tr.vios[i]) if tr.vios else False)
        if sz.recommended_ec is None or sz.recommended_vp is None:
            continue
        origin = f"measured sizing ({sz.peak_source} peak)"
        if abs(sz.recommended_ec - p.ec) > 1e-9:
            out.append(Change(p.name, "desired_proc_units", f"{sz.recommended_ec:g}", origin))
        if abs(sz.recommended_vp - p.vp) > 1e-9:
            out.append(Change(p.name, "desired_procs", str(sz.recommended_vp), origin))
        if sz.recommended_uncapped is not None and sz.recommended_uncapped != p.uncapped:
            out.append(Change(p.name, "sharing_mode", "uncap" if sz.recommended_uncapped else "cap", origin))
    return out


__all__ = ["sizing_changes"]
