"""Hand-built estates and findings for the plan tests (no rules involved)."""

from __future__ import annotations

from lparscope.model.change import ProposedChange
from lparscope.model.estate import Estate, Host, Partition
from lparscope.model.frame import Frame, FramePartition, SharedPool
from lparscope.rules.engine import Finding, Rule


def rule(rid: str) -> Rule:
    return Rule(rid, rid.lower(), "warning", "processor", "test", "test", lambda *a: [])


def finding(rid: str, host: str, *changes: ProposedChange, subject: str = "partition") -> Finding:
    f = Finding(rule(rid), host, subject, f"{rid} on {host}")
    f.changes = list(changes)  # type: ignore[attr-defined]
    return f


def part(host: str, attr: str, cur, target, method: str = "dlpar", basis: str = "heuristic", bound: str = "set",
         kind: str = "partition", **kw) -> ProposedChange:
    return ProposedChange(kind, host, attr, cur, target, method, host=host, basis=basis, bound=bound, **kw)


def estate(avail: float = 8.5, model: str = "9009-42A", pool: float = 16.0) -> Estate:
    """One frame, DefaultPool of ``pool`` units; lpars a (EC 0.5, 12 VP), b (EC 2, 2 VP, capped),
    c (EC 1, 24 VP), vios1/vios2 (a pair); hosts joined by name."""
    e = Estate()
    fr = Frame("p9frame1", model=model, cores_configurable=20.0, cores_available=avail, mem_available=8192,
               mem_configurable=524288)
    fr.pools[0] = SharedPool(0, "DefaultPool", max_units=pool)
    spec = {"a": (0.5, 12, 16, 12.0, 65536, 131072, "uncap"), "b": (2.0, 2, 4, 4.0, 16384, 262144, "cap"),
            "c": (1.0, 24, 32, 24.0, 16384, 32768, "uncap"), "vios1": (1.0, 3, 4, 4.0, 4096, 8192, "uncap"),
            "vios2": (1.0, 2, 4, 2.0, 4096, 8192, "cap")}
    for i, (name, (ec, vps, mvp, mec, mem, mmax, mode)) in enumerate(spec.items(), start=1):
        fp = FramePartition(name, id=i, env="vioserver" if name.startswith("vios") else "aixlinux", state="Running",
                            proc_mode="shared", sharing_mode=mode, ec=ec, vps=vps, min_ec=0.1, max_ec=mec, min_vps=1,
                            max_vps=mvp, pool_id=0, mem=mem, mem_min=1024, mem_max=mmax,
                            profile_name="default_profile", host=name)
        fp.profile = {"desired_proc_units": str(ec), "desired_procs": str(vps), "desired_mem": str(mem),
                      "max_mem": str(mmax), "sharing_mode": mode}
        fr.partitions[name] = fp
        h = Host(name, role="vios" if name.startswith("vios") else "aix")
        h.partition = Partition(name=name, number=i, type="Shared-SMT-8", mode="Uncapped" if mode == "uncap" else "Capped",
                                entitled_capacity=ec, online_vps=vps, max_vps=mvp, online_memory_mb=mem,
                                max_memory_mb=mmax, pool_cores=16)
        e.hosts[name] = h
    fr.vios_pairs = [("vios1", "vios2")]
    e.frames[fr.name] = fr
    return e
