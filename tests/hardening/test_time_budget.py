"""Inputs that made regular expressions run for seconds to hours now read in linear time.

Each input is built here (modelled on the hang repros in ../shared/hardening). Timings are not
asserted as performance figures: a guard fails the test only when an input takes longer than
20 s, which a linear reader never comes near even on a loaded machine (real figures: the note
of issue 11 and bench/regex_audit.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lparscope.inputs import collect
from lparscope.pipeline import read_estate
from lparscope.sources import Registry, base, parsers
from lparscope.sources._entstat_sections import multi_kv, read_pairs
from lparscope.sources.detect import MAX_LINE, split_and_classify

from .guard import timed

MB = 1024 * 1024

@pytest.fixture(params=["0", "1"], ids=["pure", "native"])
def nmon_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The nmon tests run on both reader paths: pure (numpy + Arrow) and the native core (when built)."""
    from lparscope.nmon import native as core

    if request.param == "1" and not core.available():
        pytest.skip("native core not built")
    monkeypatch.setenv("LPARSCOPE_NMON_NATIVE", request.param)
    assert core.enabled() == (request.param == "1")
    return request.param


HOSTILE_LINES = {
    "user at host then a long word": "a@b" + "c" * 20_000,
    "a long blank line": " " * 20_000 + "x",
    "one 1 MB line of words": "ab " * (MB // 3),
    "one 1 MB line without blanks": "x" * MB,
    "one 1 MB line of spaces": " " * MB,
    "one 1 MB prompt-like line": "root@aix1:/" + "a" * MB + " # lsattr",
    "glued key: value pairs": "Packets: 1Bytes: 2" * 300,
    "many colons": "a:" * 50_000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE_LINES))
def test_hostile_line_is_read_quickly(name: str) -> None:
    text = "lparstat -i\n" + HOSTILE_LINES[name] + "\n"
    registry = parsers()

    def run() -> None:
        for seg in split_and_classify(text, registry):
            for mod in registry.values():
                mod.detect(seg.text)
                mod.parse(seg.text)

    timed(run)


@pytest.mark.parametrize("name", sorted(HOSTILE_LINES))
def test_prompt_recognisers_are_linear(name: str) -> None:
    line = HOSTILE_LINES[name]
    timed(lambda: (base.parse_prompt(line), base.is_bare_prompt(line), base.parse_prompt(line[:4000])))


def test_glued_entstat_line() -> None:
    line = "Packets: 210 Bytes: 20296 " + "Interrupts: 0Transmit Errors: 0" * 40
    (pairs, rest), _ = timed(lambda: read_pairs(line))
    assert pairs == [("Packets", 210, 0), ("Bytes", 20296, 13)] and rest.startswith("Interrupts: 0Transmit")
    glued = "No mbuf Errors: 0 " + "Key: value " * 60 + "Bad:"
    assert timed(lambda: multi_kv(glued))[0] is None
    assert multi_kv("Enabled: 1  Queued: 0  Overflow: 0") == [("Enabled", "1"), ("Queued", "0"), ("Overflow", "0")]


def test_segments_separated_by_many_blank_lines() -> None:
    part = "# cat notes.txt\nsome text\n" + "\n" * 9000
    segments, _ = timed(lambda: split_and_classify(part * 20))
    assert len(segments) == 20


def test_long_line_is_cut_with_a_warning(tmp_path: Path) -> None:
    f = tmp_path / "lparstat.txt"
    f.write_text("# lparstat -i\nNode Name : aix1\nPartition Name : " + "x" * MB + "\n")
    (estate, _), _ = timed(lambda: read_estate(collect([str(f)])))
    [status] = estate.inputs
    assert any(f"cut to its first {MAX_LINE}" in msg and line == 3 for line, msg in status.warnings)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_fifo_in_a_folder_is_skipped(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.txt")
    (tmp_path / "lsattr.txt").write_text("# lsattr -El sys0\nmaxuproc 4096 Maximum number of PROCESSES True\n")
    got, _ = timed(lambda: collect([str(tmp_path)]))
    assert [p.message for p in got.problems] == ["not a regular file (FIFO, socket or device); not read"]
    assert [Path(f.display).name for f in got.files] == ["lsattr.txt"]


def test_prompts_still_recognised() -> None:
    p = base.parse_prompt("root@aix1:/home/root # lsattr -El hdisk4")
    assert (p.command, p.host, p.user) == ("lsattr -El hdisk4", "aix1", "root")
    p = base.parse_prompt("[root@gibopvc1]/ # lsdev -Cc disk")
    assert (p.command, p.host, p.user) == ("lsdev -Cc disk", "gibopvc1", "root")
    p = base.parse_prompt("aix1:/ # lspv")
    assert (p.command, p.host) == ("lspv", "aix1")
    assert base.parse_prompt("# Thread queue depth") is None
    assert base.parse_prompt("lsattr -El hdisk2").command == "lsattr -El hdisk2"
    assert base.parse_prompt("lspv").command == "lspv"
    assert base.parse_prompt("lsattr") is None
    assert base.is_bare_prompt("padmin@vios1:/home/padmin$")
    assert base.is_bare_prompt("  $ ")
    assert not base.is_bare_prompt("a b #")


def test_a_parser_that_never_ends_costs_one_input_not_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A parser stuck in a loop (a bug no fixture shows yet) is cut off by the per-file budget."""
    from lparscope import parse_pool
    from lparscope.sources import lsps

    def stuck(text: str):  # type: ignore[no-untyped-def]
        while True:
            pass

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "lsps.txt").write_text("# lsps -a\nPage Space  Physical Volume  Volume Group  Size  %Used  Active  Auto  Type  Chksum\n"
                                             "hd6  hdisk0  rootvg  512MB  3  yes  yes  lv  0\n")
    (tmp_path / "a" / "oslevel.txt").write_text("# oslevel -s\n7200-05-06-2320\n")
    monkeypatch.setenv("LPARSCOPE_FILE_SECONDS", "1")
    monkeypatch.setattr(lsps, "parse", stuck)
    monkeypatch.setattr(parse_pool, "_registry", Registry().get)  # a fresh cache of the parsers
    (estate, _texts), _seconds = timed(lambda: read_estate(collect([str(tmp_path)]), workers=1), 30.0)
    status = {i.path.split("/")[-1]: i for i in estate.inputs}
    assert "per-file budget of 1 s" in status["lsps.txt"].reason, status["lsps.txt"]
    assert status["oslevel.txt"].status == "parsed"


def test_an_nmon_recording_that_takes_too_long_costs_one_input_not_the_run(
        nmon_path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-file budget covers nmon recordings (a hostile one of 400,000 one-row sections took 25 s
    per 9 MB): checked in the reader's own loops (an alarm could land inside the native core and end
    the run), the recording is reported, the other inputs are read. Here each table takes 0.2 s."""
    import time

    from lparscope.nmon.tables import Tables

    slow_table = Tables._table

    def slow(self, *args):  # type: ignore[no-untyped-def]
        time.sleep(0.2)
        return slow_table(self, *args)

    monkeypatch.setattr(Tables, "_table", slow)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "aixbomb.nmon").write_bytes((Path(__file__).resolve().parents[1] / "fixtures" / "nmon"
                                                   / "aix_small.nmon").read_bytes())
    (tmp_path / "a" / "oslevel.txt").write_text("# oslevel -s\n7200-05-06-2320\n")
    monkeypatch.setenv("LPARSCOPE_FILE_SECONDS", "1")
    (estate, _texts), _seconds = timed(lambda: read_estate(collect([str(tmp_path)]), workers=1), 30.0)
    status = {i.path.split("/")[-1]: i for i in estate.inputs}
    assert "per-file budget of 1 s" in status["aixbomb.nmon"].reason, status["aixbomb.nmon"]
    assert status["oslevel.txt"].status == "parsed"


def test_nmon_read_stops_past_its_deadline(nmon_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from lparscope.nmon import ReadTooLong, read_nmon

    sections = "".join(f"S{i:06d},T0001,1.0,2.0\n" for i in range(5000))
    data = ("AAA,host,aixbomb\nZZZZ,T0001,00:00:01,04-MAR-2024\n" + sections).encode()
    with pytest.raises(ReadTooLong):
        read_nmon(data, seconds=1e-6)
    assert len(read_nmon(data, seconds=60).tables) == 5000  # within its budget: read whole


# Hostile lines placed inside a real input of every kind (the project's own fixtures), so the
# line reaches the regular expressions of that kind's deeper states (tables, nested blocks),
# not only detection. 100,000 characters: a quadratic pattern takes minutes there.
IN_CONTEXT = {
    "a label then a long blank run": "I/O Memory In" + " " * 100_000 + "x",
    "a label then many numbers": "Min Buffers" + " 1" * 50_000 + " x",
    "a key, a colon and a long blank run": "Receive Buffers:" + " " * 100_000 + "-",
    "many colons": ":" * 100_000,
    "tab separated words": "a\t" * 50_000,
    "a device name of many digits": "\ta" + "1" * 100_000 + "\tx",
    "a mount date then a long blank run": " /dev/hd4 / jfs2 Nov 02 10:00 rw" + " " * 100_000 + "x",
    "a long word before key=value pairs": "System configuration:" + "1" * 100_000 + " lcpu=8 ent=1.5 mode=Uncapped",
}


@pytest.mark.parametrize("name", sorted(IN_CONTEXT))
def test_hostile_line_inside_every_kind(name: str) -> None:
    from .fuzz_inputs import seeds

    registry = parsers()

    def run() -> None:
        for kind, pool in seeds().items():
            if not pool:
                continue
            lines = pool[0].split("\n")
            for at in (len(lines) // 2, len(lines)):
                text = "\n".join(lines[:at] + [IN_CONTEXT[name]] + lines[at:])
                registry[kind].detect(text)
                registry[kind].parse(text)

    timed(run)


NMON = Path(__file__).resolve().parents[1] / "fixtures" / "nmon" / "aix_small.nmon"
MB_LINES = {
    "a data row of a million commas": b"CPU_ALL,T0002" + b"," * 1_000_000,
    "a TOP row of half a million fields": b"TOP,4242,T0002" + b",x" * 500_000,
    "a header of half a million names": b"CPU_ALL,CPU Total" + b",name" * 200_000,
}


@pytest.mark.parametrize("name", sorted(MB_LINES))
def test_nmon_line_of_a_megabyte(name: str, nmon_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 1 MB line in an nmon recording is read quickly on both paths: a row over the field cap is
    not read, a header is cut, each with a warning naming the line (it took 27-44 s and 3-5 GB)."""
    from lparscope.nmon import read_nmon
    from lparscope.nmon.state import MAX_FIELDS

    lines = NMON.read_bytes().split(b"\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith(b"ZZZZ,T0003"))
    data = b"\n".join(lines[:at] + [MB_LINES[name]] + lines[at:])
    rec, _seconds = timed(lambda: read_nmon(data), 20.0)
    said = [m for line, m in rec.warnings if line == at + 1]
    assert said and (f"more than {MAX_FIELDS:,}): not read" in said[0] or f"only the first {MAX_FIELDS:,}" in said[0])
    assert rec.tables["CPU_ALL"].values.shape[1] <= MAX_FIELDS


def test_nmon_header_naming_more_columns_than_memory_allows(nmon_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A header naming thousands of columns over many rows that carry a few: only the carried columns
    are kept (else rows x names of NaN: 3.6 GB for 10,000 names over a long recording)."""
    from lparscope.nmon import read_nmon
    from lparscope.nmon import state

    monkeypatch.setattr(state, "CELL_BUDGET", 100_000)  # the same case, 300 times smaller
    rows = "".join(f"ZZZZ,T{t:04d},00:{t // 60 % 60:02d}:{t % 60:02d},04-MAR-2024\nCPU_ALL,T{t:04d},1.0,2.0,3.0\n"
                   for t in range(1, 501))
    text = "AAA,host,aixbomb\nCPU_ALL,CPU Total aixbomb," + ",".join(f"c{i}" for i in range(300)) + "\n" + rows
    rec = read_nmon(text.encode())
    assert rec.tables["CPU_ALL"].values.shape == (500, 3)
    assert any(line == 2 and "only the columns the rows carry are kept" in m for line, m in rec.warnings)


def test_nmon_header_changing_on_every_row(nmon_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A damaged recording whose header names new columns before every row: the merged table stays
    within the budget and the merge is linear (20,000 such rows took 37-42 s and 6.3 GB)."""
    from lparscope.nmon import read_nmon
    from lparscope.nmon import state

    monkeypatch.setattr(state, "CELL_BUDGET", 200_000)
    text = "AAA,host,aixbomb\n" + "".join(f"CPU_ALL,CPU Total,a{i},b{i}\nZZZZ,T{i:05d},00:00:01,04-MAR-2024\n"
                                          f"CPU_ALL,T{i:05d},1,2\n" for i in range(1, 2001))
    rec, _seconds = timed(lambda: read_nmon(text.encode()), 20.0)
    t = rec.tables["CPU_ALL"]
    assert t.values.shape == (2000, 100) and t.columns[:4] == ["a1", "b1", "a2", "b2"]
    assert t.values[0, :2].tolist() == [1.0, 2.0] and t.values[1, 2:4].tolist() == [1.0, 2.0]
    assert any("3,900 more columns named by header lines from here on are not kept" in m for _, m in rec.warnings)


def test_nmon_recording_of_too_many_sections_is_not_read(nmon_path: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """More distinct sections than a recording may have (400,000 one-row sections in 9 MB took 25 s
    and 1.2 GB): the recording is not read, with its reason; the same on both reader paths."""
    from lparscope.nmon import TooManySections, read_nmon
    from lparscope.nmon import state

    monkeypatch.setattr(state, "MAX_SECTIONS", 50)

    def recording(sections: int, headers: int = 0) -> bytes:
        return ("AAA,host,aixbomb\nZZZZ,T0001,00:00:01,04-MAR-2024\n"
                + "".join(f"H{i:06d},Header {i},a,b\n" for i in range(headers))
                + "".join(f"S{i:06d},T0001,1.0,2.0\n" for i in range(sections))).encode()

    assert len(read_nmon(recording(50)).tables) == 50
    for data in (recording(51), recording(30, headers=30)):  # rows' sections, or with header-only ones
        with pytest.raises(TooManySections):
            read_nmon(data)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "aixbomb.nmon").write_bytes(recording(400))
    (tmp_path / "a" / "oslevel.txt").write_text("# oslevel -s\n7200-05-06-2320\n")
    estate, _texts = read_estate(collect([str(tmp_path)]), workers=1)
    status = {i.path.split("/")[-1]: i for i in estate.inputs}
    assert status["aixbomb.nmon"].reason == ("not read: more than 50 sections (distinct tags): damaged, "
                                              "or not an nmon recording")
    assert status["oslevel.txt"].status == "parsed"


def test_nmon_wide_section_whose_devices_change_stays_whole(nmon_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The merge bound never cuts a real case: a wide section over many rows whose header gains a few
    devices mid-file keeps every column, even past the values budget (up to twice its width)."""
    from lparscope.nmon import read_nmon
    from lparscope.nmon import state

    monkeypatch.setattr(state, "CELL_BUDGET", 200_000)  # 2,000 rows: 100 columns by the budget alone
    first = ",".join(f"hdisk{i}" for i in range(300))
    later = first + ",hdisk300,hdisk301"
    rows = [f"ZZZZ,T{t:04d},00:00:01,04-MAR-2024\nDISKBUSY,T{t:04d}," + ",".join(["1.0"] * (300 if t <= 1000 else 302))
            + "\n" + (f"DISKBUSY,Disk %Busy aixbig,{later}\n" if t == 1000 else "") for t in range(1, 2001)]
    text = f"AAA,host,aixbig\nDISKBUSY,Disk %Busy aixbig,{first}\n" + "".join(rows)
    t = read_nmon(text.encode()).tables["DISKBUSY"]
    assert t.values.shape == (2000, 302) and t.columns[-1] == "hdisk301"


def test_nmon_many_sections_naming_columns_no_row_fills(nmon_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget of unfilled values is the recording's, not each section's: 50 sections, each a header
    of 9,000 names over 3,000 one-value rows (5 MB), would hold 11 GB of NaN (5 of them took 1.1 GB).
    Here 300 times smaller."""
    from lparscope.nmon import read_nmon
    from lparscope.nmon import state

    monkeypatch.setattr(state, "CELL_BUDGET", 100_000)
    names = ",".join(f"c{i}" for i in range(300))
    text = ("AAA,host,aixbomb\n" + "".join(f"S{s},Header {s},{names}\n" for s in range(5))
            + "".join(f"ZZZZ,T{t:04d},00:00:01,04-MAR-2024\n" + "".join(f"S{s},T{t:04d},1\n" for s in range(5))
                      for t in range(1, 201)))
    rec = read_nmon(text.encode())
    # the first header's 200 x 299 unfilled values fit the budget; the others do not, each said on its line
    assert [rec.tables[f"S{s}"].values.shape for s in range(5)] == [(200, 300)] + [(200, 1)] * 4
    cut = [line for line, m in rec.warnings if "only the columns the rows carry are kept" in m]
    assert cut == [3, 4, 5, 6]
