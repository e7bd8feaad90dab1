"""Builders for the frame rule tests: frames, partitions and adapters made directly."""

from __future__ import annotations

from lparscope.model.estate import Estate, Evidence
from lparscope.model.frame import (
    Frame,
    FramePartition,
    SharedPool,
    UseSample,
    VirtualEth,
    VirtualSlot,
)


def ev(line: int = 1, path: str = "hmc1/lshwres.txt") -> Evidence:
    return Evidence(path, line)


def part(name: str, id: int, env: str = "aixlinux", **kw) -> FramePartition:
    base = dict(state="Running", proc_mode="shared", sharing_mode="uncap", ec=1.0, vps=2, weight=128, pool_id=0,
                mem=8192, mem_min=2048, mem_max=16384, hpt_ratio=128, profile_name="default_profile")
    base.update(kw)
    p = FramePartition(name, id=id, env=env, **base)
    for k in ("ec", "vps", "weight", "mem", "mem_min", "mem_max", "hpt_ratio", "lpar_env", "lpar"):
        p.evidence[k] = ev(10 + id)
    return p


def frame(*parts: FramePartition, name: str = "p9frame1", **kw) -> Frame:
    base = dict(model="9009-42A", serial="784C1D0", cores_installed=24.0, cores_configurable=20.0,
                mem_installed=524288, mem_configurable=524288, mem_firmware=13568, default_hpt_ratio=128)
    base.update(kw)
    fr = Frame(name, **base)
    for k in ("cores_configurable", "mem_configurable", "mem_firmware", "default_hpt_ratio"):
        fr.evidence[k] = ev(2)
    fr.pools[0] = SharedPool(0, "DefaultPool", max_units=16.0, evidence={"max_units": ev(3)})
    for p in parts:
        fr.partitions[p.name] = p
    return fr


def estate(*frames: Frame, hosts=()) -> Estate:
    e = Estate()
    for h in hosts:
        e.hosts[h.name] = h
    e.frames = {f.name: f for f in frames}
    return e


def trunk(slot: int, pvid: int, vlans=(), priority: int = 1, vswitch: str = "ETHERNET0") -> VirtualEth:
    return VirtualEth(slot, pvid, list(vlans), True, priority, vswitch, True, evidence=ev(40 + slot))


def slot(protocol: str, s: int, kind: str, remote_id: int, remote_name: str, remote_slot: int, port=None) -> VirtualSlot:
    return VirtualSlot(protocol, s, kind, remote_id, remote_name, remote_slot, port=port, evidence=ev(60 + s))


def use(*values: float) -> list[UseSample]:
    return [UseSample(i, v, ev(100 + i, "hmc1/lslparutil.txt")) for i, v in enumerate(values)]
