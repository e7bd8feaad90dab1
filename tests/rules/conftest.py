"""Small model builders for rule tests: rules read only the model, so tests build it directly."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from lparscope.model.estate import Device, Evidence, Host, Partition, Series, Setting
from lparscope.rules.config import Config


def ev(line: int = 1, path: str = "t.txt") -> Evidence:
    return Evidence(path, line)


def partition(**kw) -> Partition:
    base = dict(type="Shared-SMT-4", mode="Uncapped", entitled_capacity=1.0, online_vps=2, weight=128,
                online_memory_mb=8192, max_memory_mb=16384, pool_cores=16, system_cores=20)
    base.update(kw)
    p = Partition(**base)
    for name in base:
        p.evidence[name] = ev(3)
    return p


def host(name: str = "aix1", role: str = "aix", **kw) -> Host:
    h = Host(name, role=role)
    h.partition = partition(**kw) if kw or role else None
    return h


def device(h: Host, name: str, cls: str, description: str = "", stats=None, **attrs) -> Device:
    d = h.device(name)
    d.cls, d.description, d.stats = cls, description, stats
    d.evidence = ev(5)
    if stats is not None:
        d.stats_origin = ("s.txt", 0)
    for k, v in attrs.items():
        d.attrs[k] = Setting(str(v), ev(7))
    return d


def cpu(column: str, values: list[float], **more: list[float]) -> Series:
    s = Series()
    for i, v in enumerate(values):
        row = {column: v}
        for k, vs in more.items():
            row[k] = vs[i]
        s.samples.append(row)
        s.evidence.append(ev(10 + i, "lparstat.txt"))
    return s


def stats(**kw) -> SimpleNamespace:
    kw.setdefault("lines", {})
    kw.setdefault("line", 1)
    return SimpleNamespace(**kw)


def run_rule(fn, target, cfg: Config | None = None):
    return list(fn(target, cfg or Config()))


@pytest.fixture
def cfg() -> Config:
    return Config()
