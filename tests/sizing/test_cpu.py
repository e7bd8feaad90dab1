"""EC/VP sizing from a physc series (000_31a80e54567cd02b.txt §3.1 Figure 3-1, §3.5.1 Table 3-9)."""

from __future__ import annotations

import warnings
from datetime import time

import numpy as np
import pytest

from lparscope.sizing.cpu import (VIOS_HEADROOM_VPS, Sizing, detect_peak, parse_peak, round_up,
                                  size_partition)

DAY = np.datetime64("2024-03-04T00:00")


def figure_3_1(days: int = 1, seed: int = 31) -> tuple[np.ndarray, np.ndarray]:
    """A trace shaped like 000 Figure 3-1: about 5 cores at night, 08:00-18:30 busy, varying
    around an average of exactly 25 with a highest point of exactly 36 (1-minute samples)."""
    rng = np.random.default_rng(seed)
    times = np.arange(DAY, DAY + np.timedelta64(days, "D"), np.timedelta64(1, "m"))
    minute = (times - DAY).astype(int) % 1440
    physc = 5 + rng.normal(0, 0.6, times.size).clip(-2, 2)
    busy = (minute >= 8 * 60) & (minute < 18 * 60 + 30)
    wave = 6 * np.sin(minute[busy] / 55.0) + rng.normal(0, 2.0, busy.sum())
    wave = wave - wave.mean()
    physc[busy] = 25 + wave * (11 / wave.max())  # mean exactly 25, max exactly 36
    return times, physc


def test_figure_3_1_gives_ec_25_vp_36() -> None:
    times, physc = figure_3_1()
    s = size_partition(times, physc, ec=20.0, vp=48, pool_cores=64, capped=False)
    assert s.peak_source == "detected"
    assert s.peak_window == (time(8, 0), time(18, 30))
    assert s.peak.n == 630 and s.n_samples == 1440
    assert s.peak.mean == pytest.approx(25.0) and s.peak.max == pytest.approx(36.0)
    assert s.recommended_ec == pytest.approx(25.0, abs=0.05)
    assert s.recommended_vp == 36
    assert s.recommended_uncapped is True
    assert (s.current_ec, s.current_vp, s.current_capped) == (20.0, 48, False)
    assert s.peak.p90 is not None and s.peak.p90 <= s.peak.p95 <= s.peak.p99 <= 36.0
    assert s.overall.mean < s.peak.mean
    assert s.peak_ranges == [(480, 1109)]
    assert any("§3.1" in r and r.startswith("EC 25") for r in s.reasons)
    assert any("§3.1" in r and r.startswith("VP 36") for r in s.reasons)


def test_several_days_vote_together_and_stay_at_36() -> None:
    times, physc = figure_3_1(days=3)
    s = size_partition(times, physc, ec=None, vp=None, pool_cores=None, capped=None)
    assert s.peak_window == (time(8, 0), time(18, 30))
    assert s.recommended_vp == 36
    assert len(s.peak_ranges) == 3


@pytest.mark.parametrize("missing", [slice(600, 640), slice(0, 300)])
def test_detection_survives_gaps_and_spikes(missing: slice) -> None:
    times, physc = figure_3_1()
    physc = physc.copy()
    physc[missing] = np.nan  # lost snapshots
    physc[200] = 30.0  # one night spike does not start a window
    s = size_partition(times, physc, ec=None, vp=None, pool_cores=None, capped=None)
    assert s.peak_window == (time(8, 0), time(18, 30))
    assert s.recommended_vp == 36


def test_window_wrapping_midnight() -> None:
    times, physc = figure_3_1()
    minute = (times - DAY).astype(int)
    night = (minute >= 22 * 60) | (minute < 4 * 60)
    physc = np.where(night, 12.0, 2.0) + 0.1 * np.sin(minute)
    window, source = detect_peak(times, physc)
    assert source == "detected" and window == (time(22, 0), time(4, 0))


def test_flat_series_uses_whole_recording() -> None:
    times, _ = figure_3_1()
    physc = 3.0 + 0.2 * np.sin(np.arange(times.size) / 10)
    s = size_partition(times, physc, ec=4.0, vp=4, pool_cores=16, capped=False)
    assert s.peak_source == "flat" and s.peak_window is None
    assert s.peak.n == times.size
    assert s.recommended_vp == 4
    assert s.recommended_ec == round_up(float(physc.mean()))


def test_given_peak_window() -> None:
    times, physc = figure_3_1()
    s = size_partition(times, physc, ec=None, vp=None, pool_cores=None, capped=None,
                       peak=parse_peak("09:00-12:00"))
    assert s.peak_source == "given" and s.peak_window == (time(9), time(12))
    assert s.peak.n == 180
    assert s.recommended_ec == round_up(float(physc[540:720].mean()))
    assert s.recommended_vp == int(np.ceil(physc[540:720].max()))


def test_given_window_without_samples_falls_back() -> None:
    times, physc = figure_3_1()
    times, physc = times[:600], physc[:600]  # 00:00-10:00
    s = size_partition(times, physc, ec=None, vp=None, pool_cores=None, capped=None,
                       peak=(time(20), time(22)))
    assert s.peak_source == "whole" and s.peak.n == 600
    assert any("holds no sample" in r for r in s.reasons)


def test_vios_gets_headroom_and_is_never_capped() -> None:
    times, physc = figure_3_1()
    small = physc / 10  # 0.5 at night, 2.5 average, 3.6 peak
    s = size_partition(times, small, ec=1.0, vp=2, pool_cores=64, capped=True, is_vios=True)
    assert s.recommended_vp == 4 + int(VIOS_HEADROOM_VPS)
    assert s.recommended_ec == pytest.approx(2.5, abs=0.05)
    assert s.recommended_uncapped is True
    assert any("Table 3-9" in r and "headroom" in r for r in s.reasons)
    assert any("never capped" in r for r in s.reasons)
    s2 = size_partition(times, small, ec=1.0, vp=2, pool_cores=64, capped=False, is_vios=True,
                        headroom=2)
    assert s2.recommended_vp == 6


def test_vps_never_above_the_pool() -> None:
    times, physc = figure_3_1()
    s = size_partition(times, physc, ec=25.0, vp=36, pool_cores=32, capped=False)
    assert s.recommended_vp == 32
    assert s.recommended_ec == pytest.approx(25.0, abs=0.05)
    assert any("pool" in r for r in s.reasons)
    tiny_pool = size_partition(times, physc, ec=None, vp=None, pool_cores=16, capped=None)
    assert tiny_pool.recommended_vp == 16 and tiny_pool.recommended_ec <= 16


def test_capped_partition_flat_at_ec() -> None:
    times, physc = figure_3_1()
    clipped = np.minimum(physc, 20.0)  # capped at EC 20: demand above is hidden
    s = size_partition(times, clipped, ec=20.0, vp=20, pool_cores=64, capped=True)
    assert s.recommended_vp == 21  # a VP above the EC: with 20, uncapping would leave it at 20 cores
    assert s.recommended_uncapped is True
    assert any("lower bound" in r for r in s.reasons)


def test_low_use_partition_keeps_minimum_ec_per_vp() -> None:
    times, _ = figure_3_1()
    physc = np.full(times.size, 0.01)
    physc[::100] = 1.5
    s = size_partition(times, physc, ec=0.5, vp=4, pool_cores=16, capped=False)
    assert s.recommended_vp == 2
    assert s.recommended_ec >= 0.10


def test_empty_and_tiny_series() -> None:
    empty = size_partition(np.array([], "datetime64[s]"), np.array([]), ec=1.0, vp=2,
                           pool_cores=None, capped=None)
    assert isinstance(empty, Sizing)
    assert empty.n_samples == 0 and empty.recommended_ec is None and empty.recommended_vp is None
    assert empty.peak_source == "none" and empty.reasons
    tiny = size_partition(np.array(["2024-01-01T10:00", "2024-01-01T10:01"], "datetime64[m]"),
                          np.array([1.0, np.nan]), ec=None, vp=None, pool_cores=None, capped=None)
    assert tiny.n_samples == 1 and tiny.recommended_vp is None
    assert tiny.overall.max == 1.0
    three = size_partition(np.array(["2024-01-01T10:00", "2024-01-01T10:01", "2024-01-01T10:02"],
                                    "datetime64[m]"), np.array([1.0, 2.0, 1.5]),
                           ec=None, vp=None, pool_cores=None, capped=None)
    assert three.recommended_vp == 2 and three.recommended_ec == 1.5


def test_shape_mismatch_is_an_error() -> None:
    with pytest.raises(ValueError):
        size_partition(np.array(["2024-01-01"], "datetime64[D]"), np.array([1.0, 2.0]),
                       ec=None, vp=None, pool_cores=None, capped=None)


def test_parse_peak_and_to_dict() -> None:
    assert parse_peak("08:00-18:30") == (time(8), time(18, 30))
    assert parse_peak("8:00 - 18:30") == (time(8), time(18, 30))
    for bad in ("8-18", "08:00", "10:00-10:00", "25:00-26:00"):
        with pytest.raises(ValueError):
            parse_peak(bad)
    times, physc = figure_3_1()
    d = size_partition(times, physc, ec=None, vp=None, pool_cores=None, capped=None).to_dict()
    import json
    json.dumps(d)
    assert d["peak_window"] == ["08:00", "18:30"] and d["recommended_vp"] == 36


def test_running_median3_is_nanmedian_of_each_point_and_its_neighbours() -> None:
    from lparscope.sizing.cpu import _running_median3

    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 4, 96, 288):
        for _ in range(100):
            v = rng.random(n) * 10
            v[rng.random(n) < rng.random()] = np.nan
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # all-NaN slices
                want = np.array([np.nanmedian([v[i - 1], v[i], v[(i + 1) % n]]) if not np.isnan(v[i]) else np.nan
                                 for i in range(n)])
            assert np.array_equal(_running_median3(v), want, equal_nan=True)


def test_a_capped_partition_pinned_at_its_ec_keeps_room_to_grow_once_uncapped() -> None:
    # capped at EC 1.0 with 2 VPs, physc at 0.97-1.00 all day: the demand above the cap is unknown.
    # Sizing it at its measured peak (1 VP) while uncapping it would leave it at 1 core all the same:
    # the numbers are a lower bound, so EC and VPs do not go down, and uncapped it keeps a VP above its EC
    times, _ = figure_3_1()
    physc = np.full(times.size, 1.0) - np.random.default_rng(3).uniform(0, 0.03, times.size)
    s = size_partition(times, physc, ec=1.0, vp=2, pool_cores=12, capped=True)
    assert s.recommended_uncapped is True
    assert s.recommended_ec == pytest.approx(1.0) and s.recommended_vp == 2
    same = size_partition(times, physc, ec=1.0, vp=1, pool_cores=12, capped=True)
    assert same.recommended_vp == 2  # one VP more than the EC: what uncapping gives it
