"""A text file that ends inside its last line: a row missing its last columns is not read, a line
its parser cannot read says the file may be cut there, and a complete file without a final end of
line is read without a word (sources/cut_line.py, applied in parse_pool for every kind)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lparscope.pipeline import analyze
from lparscope.sources.cut_line import open_last_line, stops_before_last_column

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _inputs(tmp_path: Path, files: dict[str, str]):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    analysis = analyze([str(tmp_path)], workers=1)
    return analysis, {Path(i.path).name: i for i in analysis.estate.inputs}


def _head(path: Path, lines: int) -> str:
    return "".join((path.read_text()).splitlines(keepends=True)[:lines])


def test_an_lsattr_row_cut_before_its_last_columns_is_not_read(tmp_path: Path) -> None:
    lsattr = _head(FIXTURES / "lsattr" / "aix72_hdisk_vscsi_client.txt", 9) + "queue_depth     2"  # was 3 ... True+
    analysis, status = _inputs(tmp_path, {"aix9/lsattr_hdisk1.txt": lsattr})
    st = status["lsattr_hdisk1.txt"]
    assert st.status == "partly"
    assert [(line, "the file ends inside this line" in m and "not read" in m) for line, m in st.warnings] == [(10, True)]
    assert "queue_depth" not in analysis.estate.hosts["aix9"].devices["hdisk1"].attrs


def test_a_vmstat_row_cut_short_is_not_read(tmp_path: Path) -> None:
    vmstat = _head(FIXTURES / "vmstat" / "aix72_shared_t_5_12.txt", 10) + "22  2 8392001  2301   0  39  44 3960 95"
    _, status = _inputs(tmp_path, {"vmstat.txt": vmstat})
    assert [line for line, m in status["vmstat.txt"].warnings if "the file ends inside this line" in m] == [11]


def test_an_lparstat_i_memory_value_cut_before_its_unit_is_not_read(tmp_path: Path) -> None:
    text = (FIXTURES / "lparstat-i" / "aix72_shared_smt8_ame.txt").read_text()
    cut = text[:text.index("Online Memory")] + "Online Memory                              : 16"  # 24576 MB
    analysis, status = _inputs(tmp_path, {"lparstat_i.txt": cut})
    (line, message), = status["lparstat_i.txt"].warnings
    assert line == 13 and "'16' has no unit" in message and "it may have been cut" in message
    assert analysis.estate.hosts["lpdb07"].partition.online_memory_mb is None


@pytest.mark.parametrize("name, text", [
    # complete outputs saved without a final end of line (as the corpus has them): read as they are
    ("fcstat_fcs0.txt", (FIXTURES / "fcstat").joinpath(sorted(p.name for p in (FIXTURES / "fcstat").iterdir())[0])
     .read_text().rstrip("\n")),
    ("svmon_G.txt", "# svmon -G -O unit=MB\nUnit: MB\n---------------------------------------------------------\n"
                    "               size       inuse        free         pin     virtual  available   mmode\n"
                    "memory      16384.00    14211.50     2172.50     2513.66    13028.41    2849.87     Ded\n"
                    "pg space     4096.00       70.28\n\n"
                    "               work        pers        clnt       other\n"
                    "pin         2112.66           0        8.23      465.62\n"
                    "in use     18433.31           0      271.55"),  # a row whose last cell is blank
    ("lsmap.txt", _head(FIXTURES / "lsmap" / "vios31_all_vscsi.txt", 17).rstrip("\n")),  # ends on an empty Physloc
])
def test_a_complete_file_without_a_final_end_of_line_is_read_without_a_warning(tmp_path: Path, name: str,
                                                                              text: str) -> None:
    assert not text.endswith("\n") and open_last_line(text) is not None
    _, status = _inputs(tmp_path, {name: text})
    assert [(i.status, i.warnings) for i in status.values()] in ([("parsed", [])], [("parsed", [])] * 2), status


def test_the_open_last_line_is_counted_as_parsers_count_lines() -> None:
    assert open_last_line("a\r\nb\rc\nd") == (4, 7)
    assert open_last_line("a\nb\n") is None and open_last_line("a\n   ") is None and open_last_line("") is None
    rows = "hdisk0  00c8d4a0a1b2c3d4  rootvg  active\nhdisk1  00c8d4a0a1b2c3d5  datavg  active\n"
    assert stops_before_last_column(rows + "hdisk2  00c8d4a0", len(rows))
    assert not stops_before_last_column(rows + "hdisk2  00c8d4a0a1b2c3d6  datavg  act", len(rows))
    ruled = "a  1\nb  2\n"
    assert not stops_before_last_column(ruled + "-", len(ruled))


def test_keys_without_values_are_no_table() -> None:
    keys = "Partition Name:\nPartition Number:\n"  # a damaged lparstat -i: no value column to stop before
    assert not stops_before_last_column(keys + "Type:\x1a", len(keys))
