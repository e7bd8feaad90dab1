"""vmstat interval reports (sources/vmstat_interval.py): the flags' column sets, times, interval."""

from __future__ import annotations

from pathlib import Path

from lparscope.sources import parsers, vmstat_interval as vi
from lparscope.sources.detect import split_and_classify
from lparscope.sources.vmstat_interval import VmstatHeader, VmstatInterval

FIX = Path(__file__).parent.parent / "fixtures" / "vmstat"


def split(parsed):  # type: ignore[no-untyped-def]
    return ([r for r in parsed.records if isinstance(r, VmstatHeader)],
            [r for r in parsed.records if isinstance(r, VmstatInterval)])


def test_shared_partition_with_time_column_past_midnight() -> None:
    text = (FIX / "aix72_shared_t_5_12.txt").read_text()
    assert vi.detect(text) >= 90
    r = vi.parse(text)
    assert r.warnings == [] and r.hostname == "dbprd3"
    (head,), rows = split(r)
    assert (head.lcpu, head.mem_mb, head.ent, head.interval_s, head.line) == (16, 32768, 2.0, 5.0, 3)
    assert len(rows) == 12 and rows[0].line == 8 and rows[-1].line == 19
    first = rows[0].values
    assert (first["r"], first["pi"], first["po"], first["sr"], first["pc"], first["ec"]) == (21, 48, 37, 9950, 2.41, 120.5)
    assert first["syscalls"] == 48211 and first["sy"] == 21  # faults sy, cpu sy
    assert rows[0].time == "23:59:41" and rows[4].time == "00:00:01"
    assert [x.elapsed_s for x in rows[:6]] == [0, 5, 10, 15, 20, 25]  # the day turns at midnight


def test_dedicated_io_view_wide() -> None:
    r = vi.parse((FIX / "aix71_dedicated_Iw_2_5.txt").read_text())
    assert r.warnings == []
    (head,), rows = split(r)
    assert (head.lcpu, head.mem_mb, head.ent, head.interval_s) == (8, 16384, None, 2.0)
    assert list(rows[1].values) == ["r", "b", "p", "avm", "fre", "fi", "fo", "pi", "po", "fr", "sr", "in", "syscalls",
                                    "cs", "us", "sy", "id", "wa"]
    assert rows[1].values["fi"] == 12 and [x.elapsed_s for x in rows] == [0, 2, 4, 6, 8]


def test_without_prompt_or_time_column_times_are_not_known() -> None:
    text = (FIX / "untimed_no_prompt_aix73.txt").read_text()
    assert vi.detect(text) >= 80
    r = vi.parse(text)
    (head,), rows = split(r)
    assert head.interval_s is None and head.ent == 0.5 and len(rows) == 6
    assert all(x.elapsed_s is None and x.time is None for x in rows)
    assert [(w.line, w.message) for w in r.warnings] == [(14, "not a report line: 'x  0 2102950  1180   0   0   0  100  "
                                                               "110   0  78 8650 1910 6'")]


def test_ame_columns() -> None:
    r = vi.parse((FIX / "aix72_ame_c_2_3.txt").read_text())
    assert r.warnings == []
    (head,), rows = split(r)
    assert head.values["tmem"] == "12288MB" and head.mem_mb == 20480
    assert [x.values["dxm"] for x in rows] == [0, 0, 24] and rows[2].values["ci"] == 55


def test_kind_is_told_from_content_and_command() -> None:
    reg = parsers()
    for name in ("aix72_shared_t_5_12.txt", "untimed_no_prompt_aix73.txt", "aix71_dedicated_Iw_2_5.txt"):
        kinds = [s.kind for s in split_and_classify((FIX / name).read_text(), reg) if s.kind]
        assert kinds == ["vmstat"], name
    vmstat_v = (Path(__file__).parent.parent / "fixtures" / "vmstat-v" / "aix71_vmstat_v.txt").read_text()
    assert vi.detect(vmstat_v) <= 5
    assert vi.detect("# vmstat -s\n      1234 total address trans. faults\n") <= 5
    linux = "procs -----------memory---------- ---swap--\n r  b   swpd   free   buff  cache   si   so\n 1  0 0 1 2 3 0 0\n"
    assert vi.detect(linux) == 0


def test_rows_that_do_not_fit_the_header_are_said() -> None:
    text = "# vmstat 1 2\n r  b   avm   fre  re  pi  po  fr   sr  cy  in   sy  cs us sy id wa\n 1 0 2 3\n 1  0 100 200 0 0 0 0 0 0 1 2 3 4 5 90 1\n"
    r = vi.parse(text)
    _, rows = split(r)
    assert len(rows) == 1 and rows[0].line == 4
    assert [(w.line, w.message) for w in r.warnings] == [(3, "4 values for 17 columns: not read")]


def test_a_pipe_or_redirection_after_the_command_is_not_its_interval() -> None:
    body = (FIX / "aix71_dedicated_Iw_2_5.txt").read_text().split("\n", 1)[1]
    for command in ("vmstat -Iw 2 5 | tee /tmp/vm.out", "vmstat -Iw 2 5 > /tmp/vm.out 2>&1"):
        text = f"# {command}\n{body}"
        assert vi.detect(text) >= 90, command
        (head,), rows = split(vi.parse(text))
        assert head.interval_s == 2.0 and len(rows) == 5
    assert vi.detect(f"# vmstat\n{body}") <= 5  # one report of averages since boot: not a series


def test_io_view_with_a_w_column_and_no_prompt() -> None:
    # vmstat -I on some AIX levels: r b p w (threads waiting on raw I/O) before avm
    text = ("System configuration: lcpu=32 mem=98304MB ent=4.00\n\n"
            "  kthr       memory              page              faults              cpu\n"
            "----------- ----------- ------------------------ ------------ -----------------------\n"
            "r  b  p  w   avm   fre  fi  fo  pi  po  fr   sr  in   sy  cs us sy id wa    pc    ec\n"
            "3  1  0  7 18250311 2210456   4   2   0   0   0    0 8120 90412 20117 31  9 57  3  1.71  42.8\n")
    (seg,) = split_and_classify(text, parsers())
    assert seg.kind == "vmstat"
    headers, reports = split(vi.parse(text))
    (r,) = reports
    assert (headers[0].lcpu, r.values["w"], r.values["p"], r.values["syscalls"], r.values["pc"]) == (32, 7.0, 0.0, 90412.0, 1.71)
    assert vi.parse(text).warnings == []
