"""Numbers from inputs are finite and in range before the model or a rule uses them."""

from __future__ import annotations

from pathlib import Path

import pytest

from lparscope.numbers import LIMIT, check, finite_float, finite_int, safe_int
from lparscope.pipeline import analyze
from lparscope.sources import parsers
from lparscope.sources.base import number_problem, to_float, to_int


@pytest.mark.parametrize("text", ["inf", "-inf", "nan", "NaN", "Infinity", "1e308", "9" * 300, "-1e400", "1" * 41])
def test_hostile_numbers_are_refused(text: str) -> None:
    assert finite_float(text) is None and finite_int(text) is None
    assert to_int(text) is None and to_float(text) is None
    assert check(text)[1] or check(text) == (None, None)


def test_ordinary_numbers_pass() -> None:
    assert finite_float("4,5") == 4.5 and finite_int("0x10") == 16 and finite_int("12.6") == 13
    assert finite_float("2.5e3") == 2500.0 and finite_float(float("inf")) is None
    assert to_int("4096") == 4096 and to_float("87.5%") == 87.5
    assert finite_float(LIMIT * 2) is None and safe_int(float("nan")) is None and safe_int(2.6) == 3
    assert number_problem("1e308") and "refused" in number_problem("inf")  # type: ignore[operator]


def _analyze(tmp_path: Path, name: str, text: str | bytes):  # type: ignore[no-untyped-def]
    f = tmp_path / name
    f.write_bytes(text if isinstance(text, bytes) else text.encode())
    a = analyze([str(f)])
    assert not a.internal, a.internal
    return a


def test_lshwres_with_inf_and_nan_ids(tmp_path: Path) -> None:
    text = ("hscroot@hmc1:~> lshwres -r virtualio --rsubtype scsi -m sys1\n"
            "lpar_name=vios1,lpar_id=inf,slot_num=3,adapter_type=server,remote_lpar_id=nan,remote_slot_num=nan\n"
            "lpar_name=aix1,lpar_id=5,slot_num=2,adapter_type=client,remote_lpar_id=1,remote_slot_num=1e308\n")
    _analyze(tmp_path, "lshwres.txt", text)


def test_scanner_sheet_with_huge_memory(tmp_path: Path) -> None:
    text = ("Name,Mode,,Curr GB,,Max GB,,,,,,,,,,,Managed System Name\n"
            "lpar9,Dedicated,,1e308,,inf,,,,,,,,,,,frame1\n")
    _analyze(tmp_path, "LPAR_MEM.csv", text)


def test_lparstat_with_300_digit_memory_warns(tmp_path: Path) -> None:
    text = ("# lparstat -i\nNode Name : aix7\nPartition Name : aix7\nOnline Memory : " + "9" * 300 + " MB\n"
            "Entitled Capacity : inf\nOnline Virtual CPUs : 2\n")
    a = _analyze(tmp_path, "lparstat.txt", text)
    p = a.estate.hosts["aix7"].partition
    assert p is not None and p.online_memory_mb is None and p.entitled_capacity is None and p.online_vps == 2


def test_nmon_rows_with_invalid_utf8(tmp_path: Path) -> None:
    text = (b"AAA,progname,topas_nmon\nAAA,host,aix8\nZZZZ,T0001,00:00:01,01-JAN-2024\n"
            b"TOP,+PID,Time,%CPU,%Usr,%Sys,Threads,Size,ResText,ResData,CharIO,%RAM,Paging,Command,WLMclass\n"
            b"TOP,6,T0001,1.0,0.5,0.5,1,100,10,10,0,0.1,0,\xc3ed\xff,Unclassified\n"
            b"PROC,\xff\xfe,T0001\n")
    a = _analyze(tmp_path, "rec.nmon", text)
    assert a.estate.inputs[0].status in ("parsed", "partly")


def test_every_parser_survives_non_finite_values() -> None:
    hostile = "\n".join(f"{k} {v}" for k in ("Online Memory :", "queue_depth", "Packets:", "lpar_id=", "hdisk0")
                        for v in ("inf", "nan", "1e308", "9" * 300, "-0x" + "f" * 60))
    for kind, mod in parsers().items():
        mod.detect(hostile)
        mod.parse(hostile)  # must not raise
