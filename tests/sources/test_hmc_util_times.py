"""lslparutil times in a form other than the HMC's MM/DD/YYYY (a spreadsheet round trip): read when the
whole listing agrees on one form, else one warning per listing naming its first unread time's line
(sources/_hmc_util_times.py)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from lparscope.inputs import collect
from lparscope.model.use_series import dated_use
from lparscope.pipeline import read_estate
from lparscope.sources import hmc_util
from lparscope.sources._hmc_util_times import time_reader

STEP = 300_000_000_000


def _rows(times: list[str]) -> list[str]:
    out = []
    for k, when in enumerate(times):
        out.append(f"time={when},event_type=sample,resource_type=lpar,time_cycles={10**15 + k * STEP},lpar_name=aix1,"
                   f"lpar_id=3,curr_proc_mode=shared,curr_procs=2,entitled_cycles={k * STEP // 2},"
                   f"capped_cycles={k * STEP // 2},uncapped_cycles=0")
    return out[::-1]  # newest first, as the HMC prints


def _times(date: str, n: int = 6) -> list[str]:
    return [f"{date} 10:{5 * k:02d}:00" for k in range(n)]


def _read(tmp_path: Path, rows: list[str], prompt: bool = True):
    f = tmp_path / "util.txt"
    f.write_text("\n".join((["hscroot@hmc1:~> lslparutil -r lpar -m f1"] if prompt else []) + rows) + "\n")
    estate, _ = read_estate(collect([str(f)]))
    (status,) = [i for i in estate.inputs if i.path == str(f)]
    fr = next(iter(estate.frames.values()), None)
    return status, (fr.partitions["aix1"].use if fr else [])


def test_day_first_with_dots_is_read_when_a_day_tells(tmp_path):
    status, use = _read(tmp_path, _rows(_times("19.11.2026")))
    assert status.kind == "lslparutil" and status.status == "parsed" and not status.warnings
    assert len(use) == 5 and use[0].time == datetime(2026, 11, 19, 10, 5)


def test_day_first_without_a_prompt_is_found_and_read(tmp_path):
    status, use = _read(tmp_path, _rows(_times("20/11/2026")), prompt=False)
    assert status.kind == "lslparutil" and not status.warnings and len(use) == 5


def test_two_digit_years_are_read(tmp_path):
    status, use = _read(tmp_path, _rows(_times("11/19/26")))
    assert not status.warnings and use[-1].time == datetime(2026, 11, 19, 10, 25)


def test_ambiguous_day_and_month_is_not_read_and_warned(tmp_path):
    status, use = _read(tmp_path, _rows(_times("05/11/26")))  # 5 Nov or 11 May: nothing tells
    assert status.status == "partly" and len(dated_use(use)[0]) == 0
    ((line, why),) = status.warnings
    assert line == 2 and "'05/11/26 10:25:00' not read" in why and "MM/DD/YY or DD/MM/YY" in why
    assert "6 of 6 events" in why


def test_one_garbled_time_is_warned_at_its_line(tmp_path):
    times = _times("03/14/2024")
    times[2] = "03/14/2024 10:1O:00"  # a letter O
    status, use = _read(tmp_path, _rows(times))
    ((line, why),) = status.warnings
    assert line == 1 + 4 and "1 of 6 events" in why and "MM/DD/YYYY" in why
    assert len(use) == 4 and max(use.physc) == 0.5  # the interval over it is ten minutes


def test_the_hmc_form_wins_when_it_reads_every_time():
    read, form = time_reader(["03/04/2024 10:00:00", "03/05/2024 10:00:00"])  # day first would read too
    assert form is None and read("03/04/2024 10:00:00") == datetime(2024, 3, 4, 10, 0)
    read, form = time_reader(["13-03-2024 10:00", "03-03-2024 10:05"])
    assert form == "DD/MM/YYYY" and read("03-03-2024 10:05") == datetime(2024, 3, 3, 10, 5)


def test_parser_keeps_the_form_on_the_table():
    text = "\n".join(_rows(_times("19.11.2026")))
    (table,) = [r for r in hmc_util.parse(text).records if isinstance(r, hmc_util.UtilTable)]
    assert table.time_form == "DD/MM/YYYY" and all(isinstance(t, datetime) for t in table.time)
