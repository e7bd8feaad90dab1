"""sources.shared_strings.share: one copy of each repeated short string, values unchanged."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field

import numpy as np

from lparscope.parse_pool import prepare
from lparscope.sources.shared_strings import LONGEST, share


@dataclass(frozen=True, slots=True)
class _Frozen:
    name: str
    pair: tuple[str, int]


@dataclass
class _Record:
    label: str
    counters: dict[str, int] = field(default_factory=dict)
    items: list[object] = field(default_factory=list)
    series: object = None


def _fresh(text: str) -> str:
    return "".join(list(text))  # a new object equal to ``text`` (literals are interned already)


def test_equal_strings_become_one_object_and_values_stay() -> None:
    a = _Record(_fresh("Available"), {_fresh("Packets"): 3}, [_Frozen(_fresh("ent0"), (_fresh("Enabled"), 1))])
    b = _Record(_fresh("Available"), {_fresh("Packets"): 4}, [_Frozen(_fresh("ent0"), (_fresh("Enabled"), 2))])
    assert a.label is not b.label
    before = (repr(a), repr(b))
    table: dict[str, str] = {}
    a, b = share(a, table), share(b, table)
    assert (repr(a), repr(b)) == before
    assert a.label is b.label
    assert next(iter(a.counters)) is next(iter(b.counters))
    assert a.items[0].name is b.items[0].name  # a frozen, slotted record inside a list
    assert a.items[0].pair[0] is b.items[0].pair[0]  # inside a tuple


def test_long_strings_numbers_arrays_and_other_objects_are_left_alone() -> None:
    long_text = _fresh("x" * (LONGEST + 1))
    arr = np.arange(3.0)
    other = object()
    r = share(_Record(long_text, {"n": 1}, [1, 2.5, None, True, other], arr), {})
    assert r.label is long_text
    assert r.series is arr and r.items[4] is other and r.items[:4] == [1, 2.5, None, True]


def test_a_workers_result_names_each_repeated_string_once_in_its_pickle() -> None:
    # the same attribute listing for two disks: after share, each name and description is pickled
    # once and referred to the second time, so the result is smaller and unpickles to shared strings
    out = "".join(f"# lsattr -El hdisk{n}\n"
                  "algorithm       fail_over          Algorithm                        True\n"
                  "queue_depth     20                 Queue DEPTH                      True\n"
                  "reserve_policy  single_path        Reserve Policy                   True\n" for n in (0, 1))
    pre = prepare("host1/lsattr.txt", out)
    records = [r for _, parsed, _ in pre.results for r in parsed.records]
    assert len(records) >= 2
    back = pickle.loads(pickle.dumps(pre))
    recs = [r for _, parsed, _ in back.results for r in parsed.records]
    assert [repr(r) for r in recs] == [repr(r) for r in records]
    by_name: dict[str, list] = {}
    for r in recs:
        by_name.setdefault(r.name, []).append(r)
    assert set(by_name) == {"algorithm", "queue_depth", "reserve_policy"}
    for first, second in by_name.values():
        assert first.name is second.name and first.description is second.description
        assert first.value is second.value


def test_the_table_is_the_callers_not_the_process_intern_table() -> None:
    # Python 3.12 before 3.12.6 keeps every interned string for the life of the process
    import sys

    first, second = _fresh("lparscope-shared-strings-probe"), _fresh("lparscope-shared-strings-probe")
    table: dict[str, str] = {}
    assert share(first, table) is first and share(second, table) is first  # the first copy is kept
    assert table == {first: first}
    assert sys.intern(_fresh("lparscope-shared-strings-probe")) is not first  # never interned


def test_files_read_in_one_run_share_their_strings(tmp_path) -> None:
    from lparscope.inputs import iter_inputs
    from lparscope.pipeline import read_estate

    for host in ("aix1", "aix2"):
        (tmp_path / host).mkdir()
        (tmp_path / host / "lsattr_hdisk0.txt").write_text(
            "# lsattr -El hdisk0\n"
            "queue_depth     20                 Queue DEPTH                      True\n"
            "reserve_policy  single_path        Reserve Policy                   True\n")
    estate, _ = read_estate(iter_inputs([str(tmp_path)]), workers=1)
    one, two = (estate.hosts[h].devices["hdisk0"].attrs for h in ("aix1", "aix2"))
    assert one["queue_depth"].value == two["queue_depth"].value == "20"
    assert one["queue_depth"].value is two["queue_depth"].value
    assert next(k for k in one if k == "reserve_policy") is next(k for k in two if k == "reserve_policy")


def test_the_bbbp_outputs_of_recordings_read_in_one_run_share_their_strings(tmp_path) -> None:
    from pathlib import Path

    from lparscope.inputs import iter_inputs
    from lparscope.pipeline import read_estate

    recording = (Path(__file__).resolve().parents[1] / "fixtures" / "nmon" / "aix_small.nmon").read_text()
    for host in ("aixtest1", "aixtest2"):
        (tmp_path / f"{host}.nmon").write_text(recording.replace("aixtest1", host))
    estate, _ = read_estate(iter_inputs([str(tmp_path)]), workers=1)
    one, two = (estate.hosts[h].records["lparstat-i"][0].record for h in ("aixtest1", "aixtest2"))
    assert one.mode == two.mode == "Uncapped" and one.mode is two.mode
    assert one.type == two.type and one.type is two.type
