"""STO-READ-SERVICE-SLOW (rules/storage/service_time.py, rules-catalogue STO-03): a disk whose reads
average above 15 ms in some iostat -D report, with enough reads to be an average, is reported at its
worst report; a fast disk, a slow disk with a handful of reads, and a lower site threshold are checked."""

from __future__ import annotations

from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.rules.config import Config

_REPORT = """hdisk{n}          xfer:  %tm_act      bps      tps      bread      bwrtn
                          12.4     2.6M    160.2       1.1M       1.5M
                read:      rps  avgserv  minserv  maxserv   timeouts      fails
                          {rps}      {avg}      0.1     88.4           0          0
               write:      wps  avgserv  minserv  maxserv   timeouts      fails
                          90.1      0.9      0.2      1.2S          0          0
               queue:  avgtime  mintime  maxtime  avgwqsz    avgsqsz     sqfull
                           0.4      0.0    210.7      0.0        0.0       3.2K
"""


def _estate(tmp_path: Path) -> Path:
    host = tmp_path / "db1"
    host.mkdir()
    reports = [(2, "70.1", "2.8"), (3, "40.0", "18.5"), (4, "0.4", "95.0"),  # fast; slow; slow with 0.4 reads/s
               (3, "55.0", "27.3"), (2, "80.0", "3.1"), (4, "0.2", "80.0")]  # second report: hdisk3 worse
    body = "root@db1:/ # iostat -D hdisk2 hdisk3 hdisk4 5 2\n\nSystem configuration: lcpu=16 drives=4 paths=8 vdisks=0\n\n"
    for i, (n, rps, avg) in enumerate(reports):
        if i == 3:
            body += "-" * 70 + "\n"
        body += _REPORT.format(n=n, rps=rps, avg=avg) + "\n"
    (host / "iostat_D.txt").write_text(body)
    (host / "oslevel_s.txt").write_text("root@db1:/ # oslevel -s\n7300-02-01-2346\n")
    return tmp_path


def test_the_slow_disk_is_reported_at_its_worst_report(tmp_path):
    a = analyze([str(_estate(tmp_path))])
    found = [f for f in a.findings if f.rule.id == "STO-READ-SERVICE-SLOW"]
    assert [f.subject for f in found] == ["hdisk3"]
    f = found[0]
    assert "reads average 27.3 ms (55 reads/s, in report 2), above 15 ms" in f.message
    lines = (tmp_path / "db1" / "iostat_D.txt").read_text().splitlines()
    assert "27.3" in lines[f.evidence[0].line - 1]
    assert f.fix.root[0] == "iostat -DlT hdisk3 5 12   # service times now, every 5 s for a minute"


def test_a_site_threshold_for_flash(tmp_path):
    cfg = Config(thresholds={"read_service_ms_high": 2.0})
    a = analyze([str(_estate(tmp_path))], cfg)
    assert sorted(f.subject for f in a.findings if f.rule.id == "STO-READ-SERVICE-SLOW") == ["hdisk2", "hdisk3"]


def test_adapter_and_total_rows_are_not_disks(tmp_path):
    # vscsi0/vscsi1 (Vadapter rows) read 31 ms at 150 reads/s; the disks behind them are fast
    src = Path(__file__).resolve().parents[1] / "fixtures" / "iostat-D" / "aix72_Dsal_system_vadapter.txt"
    (tmp_path / "lpardb04").mkdir()
    (tmp_path / "lpardb04" / "iostat_Dsal.txt").write_text("# iostat -Dsal\n" + src.read_text())
    a = analyze([str(tmp_path)])
    assert not [f for f in a.findings if f.rule.id in ("STO-READ-SERVICE-SLOW", "STO-LUN-IOPS-CEILING")]
    assert [i.status for i in a.estate.inputs] == ["parsed"]
