"""Hand-worked cases of the pool replay (000_31a80e54567cd02b.txt §3.1): every expected number
below is worked out by hand in the comment above it."""

from __future__ import annotations

import numpy as np
import pytest

from lparscope.simulate import FrameSettings, PartitionSettings, PoolSettings, fill, simulate


def P(name: str, ec: float, vp: float, uncapped: bool = True, weight: float = 128, pool: int = 0,
      **kw: object) -> PartitionSettings:
    return PartitionSettings(name, ec, vp, uncapped, weight, pool, **kw)  # type: ignore[arg-type]


def run(settings: FrameSettings, *demand: float):
    r = simulate(np.array([[d] for d in demand], dtype=float), settings)
    return r.granted[:, 0], r.unmet[:, 0], float(r.idle[0])


def test_two_uncapped_weights_2_to_1_share_the_spare() -> None:
    # 4 cores; each gets its EC 1.0, the 2 spare cores go 2:1 -> +4/3 and +2/3
    s = FrameSettings(4.0, [P("a", 1.0, 4, weight=2), P("b", 1.0, 4, weight=1)])
    g, u, idle = run(s, 4.0, 4.0)
    assert g == pytest.approx([1 + 4 / 3, 1 + 2 / 3])
    assert u == pytest.approx([4 - (1 + 4 / 3), 4 - (1 + 2 / 3)])
    assert idle == pytest.approx(0.0)


def test_weight_share_left_by_a_satisfied_partition_goes_to_the_other() -> None:
    # a wants only 1.5 (its 2:1 share would be 2.33): b gets the rest, 4 - 1.5 = 2.5
    s = FrameSettings(4.0, [P("a", 1.0, 4, weight=2), P("b", 1.0, 4, weight=1)])
    g, u, idle = run(s, 1.5, 4.0)
    assert g == pytest.approx([1.5, 2.5])
    assert u == pytest.approx([0.0, 1.5])
    assert idle == pytest.approx(0.0)


def test_capped_partition_stops_at_its_entitlement() -> None:
    # capped EC 1.5 on an idle 8-core pool, wanting 3: gets 1.5, 1.5 unmet, 6.5 cores idle
    s = FrameSettings(8.0, [P("a", 1.5, 2, uncapped=False, weight=0)])
    g, u, idle = run(s, 3.0)
    assert g == pytest.approx([1.5]) and u == pytest.approx([1.5]) and idle == pytest.approx(6.5)


def test_uncapped_partition_stops_at_its_virtual_processors() -> None:
    # uncapped EC 0.5 with 2 VPs wanting 5 on an idle 8-core pool: 2 cores, 3 unmet
    s = FrameSettings(8.0, [P("a", 0.5, 2)])
    g, u, idle = run(s, 5.0)
    assert g == pytest.approx([2.0]) and u == pytest.approx([3.0]) and idle == pytest.approx(6.0)


def test_weight_zero_uncapped_gets_no_spare() -> None:
    s = FrameSettings(8.0, [P("a", 1.0, 4, weight=0)])
    g, _, idle = run(s, 3.0)
    assert g == pytest.approx([1.0]) and idle == pytest.approx(7.0)


def test_pool_maximum_bounds_its_partitions() -> None:
    # 10 cores. a in pool 1 (max 3), b in the default pool, equal weights, EC 1 each.
    # base 1 + 1; a may add 2 more (pool max 3), b 7; 8 free cores at equal level 4 each:
    # a stops at +2 (pool max), b takes +6 -> a 3, b 7, nothing idle.
    s = FrameSettings(10.0, [P("a", 1.0, 4, pool=1), P("b", 1.0, 8)], {1: PoolSettings(1, max_units=3.0)})
    g, u, idle = run(s, 4.0, 8.0)
    assert g == pytest.approx([3.0, 7.0]) and u == pytest.approx([1.0, 1.0]) and idle == pytest.approx(0.0)


def test_pool_maximum_shared_by_weight_inside_the_pool() -> None:
    # pool 1 (max 4) holds a (w 3) and b (w 1), EC 0.5 each, both want 4 on a 16-core frame.
    # The pool has 3 cores above their EC: a +2.25, b +0.75.
    s = FrameSettings(16.0, [P("a", 0.5, 4, weight=3, pool=1), P("b", 0.5, 4, weight=1, pool=1)],
                      {1: PoolSettings(1, max_units=4.0)})
    g, _, idle = run(s, 4.0, 4.0)
    assert g == pytest.approx([2.75, 1.25]) and idle == pytest.approx(12.0)


def test_reserved_capacity_goes_first_to_its_pool() -> None:
    # 6 cores. Pool 1 reserves 2 units for a (EC 1, weight 1); b (pool 0, EC 1, weight 255).
    # Pool 1's own entitlement: a's EC 1 + reserve 2 -> a gets 1 + 2 = 3 before any sharing.
    # The 2 cores still idle go by weight 1:255 -> a +2/256, b +2*255/256.
    s = FrameSettings(6.0, [P("a", 1.0, 4, weight=1, pool=1), P("b", 1.0, 8, weight=255)],
                      {1: PoolSettings(1, reserved_units=2.0)})
    g, _, idle = run(s, 4.0, 8.0)
    assert g == pytest.approx([3 + 2 / 256, 1 + 2 * 255 / 256]) and idle == pytest.approx(0.0)
    # without the reserve a would only get its weight's share of the 4 spare cores
    s.pools[1].reserved_units = 0.0
    g, _, _ = run(s, 4.0, 8.0)
    assert g == pytest.approx([1 + 4 / 256, 1 + 4 * 255 / 256])


def test_dedicated_donating_partition_lends_its_idle_processors() -> None:
    # 4 shared cores; dedicated d has 4 processors and uses 1. Donating: 3 more cores for a.
    def frame(donating: bool) -> FrameSettings:
        return FrameSettings(4.0, [P("d", 0.0, 4, uncapped=False, dedicated=True, donating=donating),
                                   P("a", 1.0, 8)])
    g, u, idle = run(frame(True), 1.0, 10.0)
    assert g == pytest.approx([1.0, 7.0]) and u == pytest.approx([0.0, 3.0]) and idle == pytest.approx(0.0)
    g, u, idle = run(frame(False), 1.0, 10.0)
    assert g == pytest.approx([1.0, 4.0]) and u == pytest.approx([0.0, 6.0])


def test_dedicated_partition_is_bounded_by_its_processors() -> None:
    s = FrameSettings(4.0, [P("d", 0.0, 2, uncapped=False, dedicated=True)])
    g, u, _ = run(s, 3.0)
    assert g == pytest.approx([2.0]) and u == pytest.approx([1.0])


def test_entitlement_is_guaranteed_before_weight() -> None:
    # 4 cores: a (EC 3, weight 1) and b (EC 1, weight 255) both want 4: a keeps its 3, b its 1
    s = FrameSettings(4.0, [P("a", 3.0, 4, weight=1), P("b", 1.0, 4, weight=255)])
    g, _, idle = run(s, 4.0, 4.0)
    assert g == pytest.approx([3.0, 1.0]) and idle == pytest.approx(0.0)


def test_chunks_give_the_same_answer() -> None:
    rng = np.random.default_rng(1)
    s = FrameSettings(6.0, [P("a", 1.0, 4, weight=3), P("b", 0.5, 3), P("c", 1.0, 2, uncapped=False)])
    d = rng.uniform(0, 5, (3, 1000))
    a, b = simulate(d, s, chunk=7), simulate(d, s)
    assert np.allclose(a.granted, b.granted) and np.allclose(a.idle, b.idle)


def test_fill_is_exact_progressive_filling() -> None:
    # cap 6 among wants 1, 10, 10 with weights 1, 1, 2: first gets 1, then 5 left at 1:2
    g = fill(np.array([[1.0, 10.0, 10.0]]), np.array([1.0, 1.0, 2.0]), np.array([6.0]))
    assert g[0] == pytest.approx([1.0, 5 / 3, 10 / 3])


def test_invalid_settings_are_reported() -> None:
    s = FrameSettings(2.0, [P("a", 1.5, 1), P("b", 1.0, 40)])
    probs = " ".join(s.problems())
    assert "exceeds" in probs and "above its 1 virtual" in probs and "below 0.05" in probs


def test_a_dedicated_partition_wanting_more_than_its_cores_is_not_starved_by_the_pool() -> None:
    from lparscope.simulate.replay import starved
    s = FrameSettings(4.0, [P("d", 0.0, 1, uncapped=False, dedicated=True), P("a", 1.0, 2)])
    demand = np.array([[3.0, 3.0], [1.0, 1.0]])
    r = simulate(demand, s)
    assert r.unmet[0] == pytest.approx([2.0, 2.0])  # beyond its one processor: kept as unmet demand
    assert not starved(r, demand)[0].any()  # but the pool refused it nothing
