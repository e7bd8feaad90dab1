"""Properties of the pool replay on random frames (hypothesis): nothing is over-committed,
idle capacity is idle only when nobody who could use it wants it, and no partition exceeds
its ceiling (VPs, EC when capped, its pool's maximum) or its demand."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lparscope.simulate import FrameSettings, PartitionSettings, PoolSettings, simulate

TOL = 1e-6


@st.composite
def frames(draw: st.DrawFn) -> tuple[FrameSettings, np.ndarray]:
    n = draw(st.integers(1, 8))
    pools = draw(st.integers(1, 3))
    parts = []
    for i in range(n):
        dedicated = draw(st.booleans()) if i > 0 else False
        vp = draw(st.integers(1, 8))
        ec = round(draw(st.floats(0.05, 1.0)) * vp, 2)
        parts.append(PartitionSettings(
            f"p{i}", ec=ec, vp=float(vp), uncapped=draw(st.booleans()), weight=float(draw(st.integers(0, 255))),
            pool=draw(st.integers(0, pools - 1)), dedicated=dedicated,
            donating=dedicated and draw(st.booleans())))
    ents = sum(p.ec for p in parts if not p.dedicated)
    cores = ents + draw(st.floats(0.0, 12.0))
    pl = {}
    for k in range(1, pools):
        mine = sum(p.ec for p in parts if p.pool == k and not p.dedicated)
        reserved = draw(st.sampled_from([0.0, 0.5, 1.0]))
        cores += reserved
        mx = draw(st.one_of(st.none(), st.floats(0.0, 8.0)))
        pl[k] = PoolSettings(k, None if mx is None else mine + reserved + mx, reserved)
    t = draw(st.integers(1, 12))
    seed = draw(st.integers(0, 2**31))
    demand = np.random.default_rng(seed).uniform(0, 9, (n, t))
    demand[np.random.default_rng(seed + 1).uniform(0, 1, (n, t)) < 0.2] = 0.0
    return FrameSettings(cores, parts, pl), demand


@settings(max_examples=300, deadline=None)
@given(frames())
def test_conservation_ceilings_and_work_conservation(case: tuple[FrameSettings, np.ndarray]) -> None:
    s, d = case
    r = simulate(d, s)
    shared = np.array([not p.dedicated for p in s.partitions])
    # conservation: granted + idle = capacity, and idle is never negative (nothing over-committed)
    assert np.allclose(r.granted[shared].sum(axis=0) + r.idle, r.capacity)
    assert (r.idle >= -TOL).all()
    for i, p in enumerate(s.partitions):
        assert (r.granted[i] <= d[i] + TOL).all(), "more than its demand"
        assert (r.granted[i] <= p.ceiling + TOL).all(), "above its VPs / cap"
        assert (r.granted[i] + r.unmet[i] >= d[i] - TOL).all()
        if not p.dedicated:  # entitlement is guaranteed (the settings are valid by construction)
            assert (r.granted[i] >= np.minimum(d[i], min(p.ec, p.vp)) - TOL).all()
    for k, pl in s.pools.items():
        if pl.max_units is not None and k in r.pool_use:
            assert (r.pool_use[k] <= pl.max_units + TOL).all(), "pool above its maximum"
    # work conservation: idle capacity means every uncapped partition is served, at a ceiling,
    # or held by its pool's maximum
    for t in np.flatnonzero(r.idle > 1e-5):
        for i, p in enumerate(s.partitions):
            if p.dedicated or not p.uncapped or p.weight <= 0:
                continue
            if r.granted[i, t] >= min(d[i, t], p.ceiling) - 1e-5:
                continue
            pl = s.pools.get(p.pool)
            assert pl is not None and pl.max_units is not None and r.pool_use[p.pool][t] >= pl.max_units - 1e-5


@settings(max_examples=100, deadline=None)
@given(frames())
def test_more_entitlement_never_hurts_the_partition_itself(case: tuple[FrameSettings, np.ndarray]) -> None:
    """Raising one capped partition's EC (within its VPs) never lowers what it gets."""
    s, d = case
    before = simulate(d, s)
    for i, p in enumerate(s.partitions):
        if p.dedicated or p.uncapped:
            continue
        spare = s.cores - sum(q.ec for q in s.partitions if not q.dedicated) - sum(pl.reserved_units for pl in s.pools.values())
        p.ec = p.ec + max(0.0, min(p.vp - p.ec, spare))
        after = simulate(d, s)
        assert (after.granted[i] >= before.granted[i] - TOL).all()
        break
