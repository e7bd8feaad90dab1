"""The run queue and paging rules read vmstat interval outputs (rules/measured/_streams.py)."""

from __future__ import annotations

from pathlib import Path

from lparscope.pipeline import analyze

FIX = Path(__file__).parent.parent / "fixtures" / "vmstat"


def _estate(tmp_path: Path, files: dict[str, str]):  # type: ignore[no-untyped-def]
    for rel, fixture in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text((FIX / fixture).read_text())
    a = analyze([str(tmp_path)], workers=1)
    assert not a.internal
    return {(f.rule.id, f.host): f for f in a.findings}, a


def test_paging_and_run_queue_from_a_timed_vmstat(tmp_path: Path) -> None:
    found, a = _estate(tmp_path, {"dbprd3/vmstat_t.txt": "aix72_shared_t_5_12.txt"})
    assert len(a.estate.hosts["dbprd3"].vmstat_runs) == 1
    paging = found[("MEM-PAGING-SPACE-SERIES", "dbprd3")]
    assert paging.message == ("dbprd3: paging-space pages in+out per second > 0 in 11 of 12 vmstat reports "
                              "(worst 136/s, longest run 30 s).")
    assert [(Path(e.path).name, e.line) for e in paging.evidence] == [("vmstat_t.txt", 8), ("vmstat_t.txt", 9)]
    runq = found[("CPU-RUNQ-PER-LCPU", "dbprd3")]
    assert "(16 lcpu) in 12 of 12 vmstat reports; worst 1.5 per lcpu" in runq.message
    assert [(Path(e.path).name, e.line) for e in runq.evidence] == [("vmstat_t.txt", 9)]  # r = 24, the worst


def test_an_untimed_vmstat_is_judged_on_its_share_of_reports(tmp_path: Path) -> None:
    found, _ = _estate(tmp_path, {"web1/vmstat.txt": "untimed_no_prompt_aix73.txt"})
    host = next(h for (_, h) in found)
    paging = found[("MEM-PAGING-SPACE-SERIES", host)]
    assert paging.message.endswith("in 4 of 6 vmstat reports (worst 51/s).")  # no duration: the spacing is unknown
    assert ("CPU-RUNQ-PER-LCPU", host) in found


def test_a_quiet_vmstat_gives_nothing(tmp_path: Path) -> None:
    found, a = _estate(tmp_path, {"app2/vmstat_Iw.txt": "aix71_dedicated_Iw_2_5.txt"})
    assert len(a.estate.hosts["app2"].vmstat_runs) == 1
    assert not [k for k in found if k[0] in ("MEM-PAGING-SPACE-SERIES", "CPU-RUNQ-PER-LCPU")]


def test_an_nmon_section_is_read_before_vmstat(tmp_path: Path) -> None:
    nmon = ["AAA,progname,topas_nmon", "AAA,host,dbprd3", "AAA,date,10-FEB-2024",
            "PAGE,Paging dbprd3,faults,pgin,pgout,pgsin,pgsout,reclaims,scans,cycles"]
    for i in range(1, 13):
        nmon += [f"ZZZZ,T{i:04d},10:{5 * i:02d}:00,10-FEB-2024", f"PAGE,T{i:04d},10,1,1,0,0,0,0,0"]
    (tmp_path / "dbprd3").mkdir()
    (tmp_path / "dbprd3" / "dbprd3.nmon").write_text("\n".join(nmon) + "\n")
    found, _ = _estate(tmp_path, {"dbprd3/vmstat_t.txt": "aix72_shared_t_5_12.txt"})
    assert ("MEM-PAGING-SPACE-SERIES", "dbprd3") not in found  # the recording (no paging) is the longer series
