"""nmon for Linux on Power: its LPAR section read under AIX's column names (nmon/linux_lpar.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from lparscope.nmon import read_nmon
from lparscope.pipeline import analyze

FIX = Path(__file__).parents[1] / "fixtures" / "nmon" / "linux_power_lpar.nmon"


def test_the_linux_lpar_section_gets_aix_names_beside_its_own() -> None:
    lpar = read_nmon(FIX).tables["LPAR"]
    assert lpar.columns[:3] == ["PhysicalCPU", "capped", "shared_processor_mode"]  # as read, first
    assert np.allclose(lpar.column("entitled"), 0.5) and np.allclose(lpar.column("virtualCPUs"), 4)
    assert np.allclose(lpar.column("poolCPUs"), 20)  # lparcfg's pool_capacity 2000 is in hundredths
    assert np.allclose(lpar.column("logicalCPUs"), 32) and np.allclose(lpar.column("weight"), 128)
    assert np.allclose(lpar.column("SharedCPU"), 1) and np.allclose(lpar.column("Capped"), 0)
    assert list(lpar.column("PhysicalCPU")) == [1.842113, 1.90587, 1.730442]


def test_an_aix_lpar_section_is_left_as_read() -> None:
    lpar = read_nmon(FIX.parent / "aix_small.nmon").tables["LPAR"]
    assert "partition_entitled_capacity" not in lpar.columns and lpar.columns.count("entitled") == 1


def test_a_linux_partition_is_sized_from_its_lpar_section_alone(tmp_path: Path) -> None:
    # without the BBBP lparstat -i, the entitlement and virtual processors come from the section
    text = "\n".join(ln for ln in FIX.read_text().splitlines() if "lparstat -i" not in ln) + "\n"
    (tmp_path / "lnx01_230818_1024.nmon").write_text(text)
    result = analyze([str(tmp_path)])
    host = result.estate.hosts["lnx01"]
    assert host.role == "linux" and host.partition is None
    (sized,) = [f for f in result.findings if f.rule.id == "CPU-SIZING-MEASURED"]
    assert "now EC 0.5, 4 VP" in sized.message and "average physc 1.83" in sized.message


def test_two_consecutive_linux_recordings_are_joined_and_still_a_linux_host(tmp_path: Path) -> None:
    text = FIX.read_text()
    (tmp_path / "lnx01_230818_1024.nmon").write_text(text)
    (tmp_path / "lnx01_230818_1124.nmon").write_text(text.replace(",10:2", ",11:2"))
    result = analyze([str(tmp_path)])
    assert not [s for s in result.estate.inputs if s.internal]
    host = result.estate.hosts["lnx01"]
    assert host.role == "linux" and len(host.cpu.samples) == 6


def test_the_lparcfg_copy_in_bbbp_gives_the_partition_and_its_frame(tmp_path: Path) -> None:
    # nmon for Linux on Power copies /proc/ppc64/lparcfg into BBBP under the file's path
    cfg = (FIX.parents[1] / "lparcfg" / "rhel9_shared_uncapped.txt").read_text().splitlines()[1:]
    out = []
    for line in FIX.read_text().splitlines():
        if "lparstat -i" in line:
            continue
        out.append(line)
        if line.startswith("BBBP,002,"):
            out.append("BBBP,100,/proc/ppc64/lparcfg")
            out += [f'BBBP,{101 + k},/proc/ppc64/lparcfg,"{text}"' for k, text in enumerate(cfg)]
    (tmp_path / "lnx01_230818_1024.nmon").write_text("\n".join(out) + "\n")
    result = analyze([str(tmp_path)])
    (status,) = result.estate.inputs
    assert not [m for _, m in status.warnings if "lparcfg" in m]
    p = result.estate.hosts["lnx01"].partition
    assert p is not None and p.source.startswith("lparcfg") and p.entitled_capacity == 0.75 and p.online_vps == 6
