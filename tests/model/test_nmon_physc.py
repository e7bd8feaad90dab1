"""nmon PhysicalCPU values no partition can use (model/nmon_physc.py) are left out of the host's
series, sizing, the rules and the charts, with one warning per recording; the table keeps them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from lparscope.model.nmon_physc import host_physc
from lparscope.numbers import fmt_number, tame_figures
from lparscope.pipeline import analyze

HEADER = ["AAA,progname,topas_nmon", "AAA,host,aix9", "AAA,date,10-FEB-2024", "AAA,time,10:00:00",
          "LPAR,Logical Partition aix9,PhysicalCPU,virtualCPUs,logicalCPUs,poolCPUs,entitled,SharedCPU"]


def _nmon(values: list[str], vps: int = 6, pool: int = 16, shared: int = 1) -> str:
    lines = list(HEADER)
    for i, v in enumerate(values, start=1):
        lines += [f"ZZZZ,T{i:04d},{10 + 5 * i // 60:02d}:{5 * i % 60:02d}:00,10-FEB-2024",
                  f"LPAR,T{i:04d},{v},{vps},{vps * 4},{pool},1.00,{shared}"]
    return "\n".join(lines) + "\n"


def _run(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    (tmp_path / "aix9.nmon").write_text(text)
    a = analyze([str(tmp_path)], workers=1)
    assert not a.internal
    (status,) = [i for i in a.estate.inputs if i.kind == "nmon"]
    return a, a.estate.hosts["aix9"], status


def test_a_glitch_above_the_vps_is_left_out_with_one_warning(tmp_path: Path) -> None:
    values = ["1.50"] * 20
    values[7] = "60.000"
    a, host, status = _run(tmp_path, _nmon(values))
    assert host.sizing.overall.max == 1.5 and host.sizing.n_samples == 19
    assert host.sizing.recommended_vp <= 6
    assert max(host.cpu.values("physc")) == 1.5
    ((line, why),) = status.warnings
    assert line == len(HEADER) + 2 * 8  # the LPAR line of the eighth snapshot
    assert "1 snapshot(s)" in why and "first: 60" in why and "with 6 processors, a 16-core pool" in why
    assert status.status == "partly"
    lpar = host.nmon.tables["LPAR"]
    assert float(np.nanmax(lpar.column("PhysicalCPU"))) == 60.0  # the table keeps what was read
    assert not any("60.0" in f.message for f in a.findings)


def test_non_finite_negative_and_huge_values_are_counted_in_one_warning(tmp_path: Path) -> None:
    values = ["1.00"] * 20
    values[3], values[5], values[9] = "1e300", "-5.2", "inf"
    a, host, status = _run(tmp_path, _nmon(values))
    assert host.sizing.overall.max == 1.0 and host.sizing.n_samples == 17
    ((line, why),) = status.warnings
    assert line == len(HEADER) + 2 * 4 and "3 snapshot(s)" in why and "first: 1e+300" in why
    for f in a.findings:
        assert not any(len(tok) > 20 and tok.replace(".", "").isdigit() for tok in f.message.split())


def test_a_dedicated_partition_is_not_bound_by_the_pool(tmp_path: Path) -> None:
    # 4 dedicated cores, a 2-core shared pool on the frame: 3.5 cores used is possible
    a, host, status = _run(tmp_path, _nmon(["3.50"] * 9 + ["4.50"], vps=4, pool=2, shared=0))
    assert host.sizing.overall.max == 3.5
    ((_, why),) = status.warnings  # 4.5 is above its 4 cores
    assert "with 4 processors;" in why and "pool" not in why.split(";")[0]
    assert np.nanmax(host_physc(host, host.nmon.tables["LPAR"])) == 3.5


def test_a_value_a_little_above_the_vps_is_kept(tmp_path: Path) -> None:
    a, host, status = _run(tmp_path, _nmon(["6.02"] + ["5.00"] * 9))  # counters read a moment apart
    assert not status.warnings and host.sizing.overall.max == 6.02


def test_figures_for_messages() -> None:
    assert fmt_number(1.5) == "1.5" and fmt_number(60.0) == "60" and fmt_number(2.345, 2) == "2.35"
    assert fmt_number(1e300) == "1e+300" and fmt_number(float("inf")) == "inf" and fmt_number(None) == "n/a"
    long = f"{1e300:.2f}"
    assert tame_figures(f"average physc {long}, max 2.00") == "average physc 1e+300, max 2.00"
    assert tame_figures("pvid 00f6db0a8c5d4e21 lun 8100000000000000 serial 0123456789012345") == \
        "pvid 00f6db0a8c5d4e21 lun 8100000000000000 serial 0123456789012345"  # identifiers stay
