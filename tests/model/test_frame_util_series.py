"""The HMC samples grouped into series by their columns' codes, and ordered by time, give what the
row-by-row reading gives (model/frame_util.py): the same keys in the same order, the same rows."""

import random
from datetime import datetime

from lparscope.model import frame_util as fu
from lparscope.model.estate import Host, Sourced
from lparscope.model.frame_records import HmcItem
from lparscope.sources import _hmc_util_table as ut


def _item(rows: list[dict[str, str]]) -> HmcItem:
    table = ut.table([(n + 1, r, None) for n, r in enumerate(rows)], "lpar", "f1")
    return HmcItem(table, Sourced(table, "u.txt", 0), Host("hmc1"))


def _by_row(items: list[HmcItem], monkeypatch) -> dict:
    """The reference: the row-by-row reading (each row's key made from its own values)."""
    with monkeypatch.context() as m:
        m.setattr(fu, "_coded_series", lambda t: None)
        return fu._series(items)


def _stable_by_time(it: HmcItem, rows: list[int]) -> list[int]:
    def when(r: int) -> datetime:
        t = it.rec.time[r]
        return t if isinstance(t, datetime) else datetime.min
    return sorted(rows, key=when)


def test_series_and_time_order_match_the_row_by_row_reading(monkeypatch):
    rng = random.Random(3)
    times = ["03/14/2024 10:05:00", "2024-03-14 10:05:00", "03/14/2024 10:00:00", "garbled", "", "03/14/2024 09:55"]
    for _ in range(300):
        items = []
        for _ in range(rng.randint(1, 3)):
            rows = []
            for _ in range(rng.randint(1, 25)):
                r = {"time": rng.choice(times), "event_type": rng.choice(["sample", "sample", "state_change", ""]),
                     "resource_type": rng.choice(["lpar", "lpar", "pool", "sys"]),
                     "lpar_name": rng.choice(["aix1", "vios1", ""]), "lpar_id": rng.choice(["1", "3", "x"]),
                     "capped_cycles": str(rng.randint(0, 99))}
                if rng.random() < 0.2:
                    del r[rng.choice(["event_type", "lpar_name", "lpar_id"])]
                rows.append(r)
            items.append(_item(rows))
        got = fu._series(items)
        want = _by_row(items, monkeypatch)
        assert list(got) == list(want)
        for key in want:
            assert [(id(it), rows) for it, rows in got[key]] == [(id(it), rows) for it, rows in want[key]]
            if len(want[key]) == 1:
                it, rows = want[key][0]
                assert fu._in_time_order(got[key]) == [(it, r) for r in _stable_by_time(it, rows)]
