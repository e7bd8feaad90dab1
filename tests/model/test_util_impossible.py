"""lslparutil intervals that are not samples (model/frame_util_checks.py): counters that go back (a
partition re-activated) restart the series, a use above what the partition can have (a garbled or
wrapped counter) is left out; each is a warning naming the file and line of the sample."""

from pathlib import Path

from lparscope.inputs import collect
from lparscope.pipeline import read_estate

STEP = 300_000_000_000  # time_cycles of five minutes


def _listing(samples: list[tuple[str, int, int, int]], procs: int = 2) -> str:
    """Rows newest first, as lslparutil prints them: (time, time_cycles, used cycles, entitled cycles)."""
    lines = ["hscroot@hmc1:~> lslparutil -r lpar -m f1 -n 10"]
    for when, clock, used, ent in reversed(samples):
        lines.append(f"time={when},event_type=sample,resource_type=lpar,sys_time={when},time_cycles={clock},"
                     f"lpar_name=aix1,lpar_id=3,curr_proc_mode=shared,curr_proc_units=0.5,curr_procs={procs},"
                     f"curr_sharing_mode=uncap,curr_uncap_weight=128,curr_shared_proc_pool_id=0,"
                     f"entitled_cycles={ent},capped_cycles={used},uncapped_cycles=0,idle_cycles=0")
    return "\n".join(lines) + "\n"


def _day(n: int, physc: float = 1.0) -> list[tuple[str, int, int, int]]:
    base = 10**15
    return [(f"03/14/2024 {10 + 5 * k // 60:02d}:{5 * k % 60:02d}:00", base + k * STEP, 10**12 + int(k * STEP * physc), 10**12 + k * STEP // 2)
            for k in range(n)]


def _read(tmp_path: Path, text: str):
    f = tmp_path / "lslparutil.txt"
    f.write_text(text)
    estate, _ = read_estate(collect([str(f)]))
    (status,) = [i for i in estate.inputs if i.kind == "lslparutil"]
    (fr,) = estate.frames.values()
    return fr.partitions["aix1"], status


def test_clean_listing_gives_every_interval_and_no_warning(tmp_path):
    p, status = _read(tmp_path, _listing(_day(6)))
    assert list(p.use.physc) == [1.0] * 5
    assert status.status == "parsed" and not status.warnings


def test_counters_that_restart_lower_are_no_sample_and_the_series_goes_on(tmp_path):
    rows = _day(8)
    reset = rows[4][1:]  # re-activated at the fifth sample: used and entitled cycles start again near 0
    rows = rows[:4] + [(w, c, u - reset[1] + 1000, e - reset[2] + 1000) for w, c, u, e in rows[4:]]
    p, status = _read(tmp_path, _listing(rows))
    assert len(p.use) == 6 and max(p.use.physc) == 1.0  # 7 intervals, the one over the restart left out
    assert status.status == "partly"
    ((line, why),) = status.warnings
    assert line == 2 + 3  # newest first: the 10:20 row (the interval over the restart ends there)
    assert "go back" in why and "aix1" in why


def test_a_wrapped_counter_is_no_sample(tmp_path):
    rows = _day(6)
    w, c, _, e = rows[3]
    rows[3] = (w, c, 2**64 - 1, e)
    p, status = _read(tmp_path, _listing(rows))
    assert max(p.use.physc) == 1.0 and len(p.use) == 3  # into and out of the garbled row
    lines = [line for line, _ in status.warnings]
    assert 2 + 2 in lines  # the 10:15 row, where the impossible use was computed
    high = next(m for line, m in status.warnings if line == 4)
    assert "above the 2 it can use" in high and "curr_procs" in high
    assert "61489141.58 processor units" in high


def test_a_use_above_the_frames_cores_without_curr_procs_is_dropped(tmp_path):
    text = _listing(_day(5, physc=30.0)).replace("curr_procs=2,", "")
    sys = ("hscroot@hmc1:~> lssyscfg -r sys -m f1\n"
           "name=f1,type_model=9009-42A,serial_num=1234567,state=Operating\n"
           "hscroot@hmc1:~> lshwres -r proc --level sys -m f1\n"
           "configurable_sys_proc_units=20.0,curr_avail_sys_proc_units=4.0,installed_sys_proc_units=20.0\n")
    p, status = _read(tmp_path, sys + text)
    assert len(p.use) == 0
    assert len(status.warnings) == 4 and all("frame's 20 cores" in m for _, m in status.warnings)


def test_many_drops_are_counted_past_the_cap(tmp_path):
    p, status = _read(tmp_path, _listing(_day(40, physc=9.0)))
    assert len(p.use) == 0
    assert len(status.warnings) == 21 and "19 more" in status.warnings[-1][1]
