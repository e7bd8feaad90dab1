"""Health rules (issue 12 item 1): each with a firing and a non-firing case, from outputs written here
and read through the whole pipeline (parser -> model -> rule)."""

from __future__ import annotations

from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.rules.config import Config


def _run(tmp_path: Path, files: dict[str, str], cfg: Config | None = None) -> list:
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return analyze([str(tmp_path)], cfg).findings


def _of(findings: list, rule_id: str) -> list:
    return [f for f in findings if f.rule.id == rule_id]


LSPATH_BAD = """root@aixdb9:/ # lspath
Enabled hdisk0 fscsi0
Enabled hdisk0 fscsi1
Enabled hdisk1 fscsi0
Failed  hdisk1 fscsi1
Missing hdisk2 fscsi0
Defined hdisk2 fscsi1
Enabled hdisk3 fscsi0
"""

LSPATH_GOOD = """root@aixdb9:/ # lspath
Enabled hdisk0 fscsi0
Enabled hdisk0 fscsi1
Enabled hdisk1 fscsi0
Enabled hdisk1 fscsi1
"""


def test_disk_paths_fire(tmp_path: Path) -> None:
    found = {f.subject: f for f in _of(_run(tmp_path, {"aixdb9/lspath.txt": LSPATH_BAD}), "HEALTH-DISK-PATHS")}
    assert set(found) == {"hdisk1", "hdisk2", "hdisk3"}
    assert found["hdisk2"].level == "critical"  # no enabled path at all
    assert found["hdisk1"].level == "warning" and "1 Enabled of 2" in found["hdisk1"].message
    assert "chpath -l hdisk1 -p fscsi1 -s enable" in found["hdisk1"].fix.root
    assert "siblings have 2" in found["hdisk3"].message  # one path where the other disks have two
    assert found["hdisk1"].evidence and found["hdisk1"].evidence[0].line >= 2


def test_disk_paths_quiet_when_all_enabled(tmp_path: Path) -> None:
    assert not _of(_run(tmp_path, {"aixdb9/lspath.txt": LSPATH_GOOD}), "HEALTH-DISK-PATHS")


ERRPT = """root@aixdb9:/ # errpt
IDENTIFIER TIMESTAMP  T C RESOURCE_NAME  DESCRIPTION
DE3B8540   1102141525 P H hdisk7         PATH HAS FAILED
DE3B8540   1101101525 P H hdisk7         PATH HAS FAILED
A6DF45AA   1101093025 I O RMCdaemon      The daemon is started.
AA8AB241   1031080025 T O OPERATOR       OPERATOR NOTIFICATION
"""

ERRPT_QUIET = """root@aixdb9:/ # errpt
IDENTIFIER TIMESTAMP  T C RESOURCE_NAME  DESCRIPTION
A6DF45AA   1101093025 I O RMCdaemon      The daemon is started.
4B436A3D   1031080025 T H fscsi0         LINK ERROR
"""


def test_errpt_groups_permanent_errors_by_resource(tmp_path: Path) -> None:
    found = _of(_run(tmp_path, {"aixdb9/errpt.txt": ERRPT}), "HEALTH-ERRPT-PERMANENT")
    assert len(found) == 1
    f = found[0]
    assert f.subject == "hdisk7" and f.values["count"] == "2"
    assert f.values["first"] == "2025-11-01T10:15" and f.values["last"] == "2025-11-02T14:15"
    assert "2025-10-31T08:00" in f.values["window"]  # the window is the whole log, not only the PERM rows


def test_errpt_quiet_without_permanent_errors(tmp_path: Path) -> None:
    assert not _of(_run(tmp_path, {"aixdb9/errpt.txt": ERRPT_QUIET}), "HEALTH-ERRPT-PERMANENT")


def _lsps_s(pct: int) -> str:
    return f"""root@aixdb9:/ # lsps -s
Total Paging Space   Percent Used
      4096MB              {pct}%
"""


def test_paging_space_levels(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    warn = _of(_run(tmp_path / "a", {"aixdb9/lsps.txt": _lsps_s(62)}), "HEALTH-PAGING-SPACE-USED")
    assert len(warn) == 1 and warn[0].level == "warning"
    (tmp_path / "b").mkdir()
    crit = _of(_run(tmp_path / "b", {"aixdb9/lsps.txt": _lsps_s(91)}), "HEALTH-PAGING-SPACE-USED")
    assert len(crit) == 1 and crit[0].level == "critical"


def test_paging_space_quiet_and_configurable(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    assert not _of(_run(tmp_path / "a", {"aixdb9/lsps.txt": _lsps_s(12)}), "HEALTH-PAGING-SPACE-USED")
    (tmp_path / "b").mkdir()
    cfg = Config(thresholds={"paging_space_used_warning_pct": 70.0})
    assert not _of(_run(tmp_path / "b", {"aixdb9/lsps.txt": _lsps_s(62)}, cfg), "HEALTH-PAGING-SPACE-USED")


DF = """root@aixdb9:/ # df -m
Filesystem    MB blocks      Free %Used    Iused %Iused Mounted on
/dev/hd4         512.00    120.00   77%     4000     8% /
/dev/hd9var     1024.00     92.00   92%     2100     3% /var
/dev/hd2        4096.00    800.00   81%    40000    10% /usr
/dev/fslv00    10240.00    200.00   99%      900     1% /data
/dev/fslv01     2048.00   1800.00   13%    99000    95% /many
"""


def test_fs_full_levels(tmp_path: Path) -> None:
    found = {f.subject: f for f in _of(_run(tmp_path, {"aixdb9/df.txt": DF}), "HEALTH-FS-FULL")}
    # / at 77% is under the system threshold (80); /usr at 81% is under the general one (90).
    assert set(found) == {"/var", "/data", "/many"}
    assert found["/var"].level == "critical"  # a system file system above 90%
    assert found["/data"].level == "critical" and found["/many"].level == "warning"
    assert "inodes 95%" in found["/many"].message
    grow = [c for c in found["/data"].fix.root if c.startswith("chfs -a size=+")]
    # 10040 MB used brought back to 75%: 13387 MB, rounded up to 64 MB: 13440, so 3200 MB more
    assert grow and grow[0].startswith("chfs -a size=+3200M /data")
    assert found["/data"].rollback.root[0].startswith("chfs -a size=-3200M /data")


def test_fs_full_quiet(tmp_path: Path) -> None:
    quiet = DF.splitlines()[:3] + [DF.splitlines()[4]]
    assert not _of(_run(tmp_path, {"aixdb9/df.txt": "\n".join(quiet) + "\n"}), "HEALTH-FS-FULL")


LSMCODE_OLD = """root@aixdb9:/ # lsmcode -c
The current permanent system firmware image is SV860_240
The current temporary system firmware image is SV860_240
The system is currently booted from the temporary firmware image.
"""

LSMCODE_NEW = LSMCODE_OLD.replace("SV860_240", "MH1120_010")


def test_firmware_old_fires_and_prints_the_table_date(tmp_path: Path) -> None:
    found = _of(_run(tmp_path, {"aixdb9/lsmcode.txt": LSMCODE_OLD}), "HEALTH-FIRMWARE-OLD")
    assert len(found) == 1 and "FW860" in found[0].message and "2026-11-01" in found[0].message


def test_firmware_recent_is_quiet(tmp_path: Path) -> None:
    assert not _of(_run(tmp_path, {"aixdb9/lsmcode.txt": LSMCODE_NEW}), "HEALTH-FIRMWARE-OLD")


def test_vios_level_age(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    old = _of(_run(tmp_path / "a", {"vios9/ioslevel.txt": "$ ioslevel\n2.2.6.10\n"}), "HEALTH-VIOS-LEVEL-OLD")
    assert len(old) == 1 and "2.2.6" in old[0].message
    (tmp_path / "b").mkdir()
    assert not _of(_run(tmp_path / "b", {"vios9/ioslevel.txt": "$ ioslevel\n4.1.1.10\n"}), "HEALTH-VIOS-LEVEL-OLD")


LSMPIO_AR = """root@aixdb9:/ # lsmpio -ar
Adapter Driver: fscsi0 -> AIX PCM
    Adapter WWPN:  c050760b3a4e0020
    Link State:    Up
                          Paths      Paths      Paths      Paths
    Remote Ports        Enabled   Disabled     Failed    Missing         ID
    500507680b215c31          4          0          0          0   0x0b0400
    500507680b215c32          2          0          2          0   0x0b0500

Adapter Driver: fscsi1 -> AIX PCM
    Adapter WWPN:  c050760b3a4e0022
    Link State:    Down
                          Paths      Paths      Paths      Paths
    Remote Ports        Enabled   Disabled     Failed    Missing         ID
    500507680b225c31          0          0          0          4   0x0c0400
"""


def test_mpio_port_paths_from_lsmpio_ar(tmp_path: Path) -> None:
    found = {f.subject: f for f in _of(_run(tmp_path, {"aixdb9/lsmpio_ar.txt": LSMPIO_AR}), "HEALTH-MPIO-PORT-PATHS")}
    assert set(found) == {"fscsi0", "fscsi1"}
    f0, f1 = found["fscsi0"], found["fscsi1"]
    assert f0.level == "warning" and "2 failed and 0 missing path(s) to target port 500507680b215c32" in f0.message
    assert "6 path(s) still Enabled" in f0.message and f0.evidence[1].line == 8
    assert "cfgmgr -l fscsi0" in f0.fix.root
    assert f1.level == "critical" and "link Down" in f1.message and "4 missing" in f1.message
    # with lspath in the data, the disks' own finding says it (HEALTH-DISK-PATHS), not this one
    both = _run(tmp_path, {"aixdb9/lspath.txt": LSPATH_BAD})
    assert not _of(both, "HEALTH-MPIO-PORT-PATHS") and _of(both, "HEALTH-DISK-PATHS")


def test_mpio_port_paths_quiet_when_every_path_is_enabled(tmp_path: Path) -> None:
    good = LSMPIO_AR.split("\n\n")[0].replace("          2          0          2", "          4          0          0") + "\n"
    assert not _of(_run(tmp_path, {"aixdb9/lsmpio_ar.txt": good}), "HEALTH-MPIO-PORT-PATHS")


ERRPT_BURST = """root@aixdb9:/ # errpt
IDENTIFIER TIMESTAMP  T C RESOURCE_NAME  DESCRIPTION
A5E6DB96   1104083425 I S pmig           Client Partition Migration Completed
516A2BC4   1104083325 P H hdisk4         CONNECTION FAILURE
516A2BC4   1104083325 P H hdisk5         CONNECTION FAILURE
516A2BC4   1104083325 P H hdisk6         CONNECTION FAILURE
516A2BC4   1104083325 P H hdisk7         CONNECTION FAILURE
08917DC6   1104083325 I S pmig           Client Partition Migration Started
CAD234BE   1103160525 U H LVDD           QUORUM LOST, VOLUME GROUP CLOSING
F7DDA124   1103160525 U H LVDD           PHYSICAL VOLUME DECLARED MISSING
AA8AB241   1031080025 T O OPERATOR       OPERATOR NOTIFICATION
"""


def test_errpt_one_event_on_many_disks_is_one_finding_and_unknown_hardware_counts(tmp_path: Path) -> None:
    found = {f.subject: f for f in _of(_run(tmp_path, {"aixdb9/errpt.txt": ERRPT_BURST}), "HEALTH-ERRPT-PERMANENT")}
    assert set(found) == {"4 resources (516A2BC4)", "LVDD"}
    burst = found["4 resources (516A2BC4)"]
    assert "in the same minute" in burst.message and "hdisk4, hdisk5, hdisk6, hdisk7" in burst.message
    assert not any("errclear" in c for c in burst.fix.root)  # one cause: not a part per disk
    lvm = found["LVDD"]
    assert "2 permanent or unknown-severity hardware error(s)" in lvm.message and "QUORUM LOST" in lvm.message


ERRPT_A_NO_YEAR = """root@aixdb9:/ # errpt -a
---------------------------------------------------------------------------
LABEL:          SC_DISK_ERR4
IDENTIFIER:     DCB47997

Date/Time:       Sun Jan  9 03:44:04 BEIST
Sequence Number: 4411
Machine Id:      00C8D5E04C00
Node Id:         aixdb9
Class:           H
Type:            PERM
Resource Name:   hdisk6

Description
DISK OPERATION ERROR
---------------------------------------------------------------------------
LABEL:          SC_DISK_ERR4
IDENTIFIER:     DCB47997

Date/Time:       Sun Jan  9 03:51:10 BEIST
Sequence Number: 4412
Machine Id:      00C8D5E04C00
Node Id:         aixdb9
Class:           H
Type:            PERM
Resource Name:   hdisk6

Description
DISK OPERATION ERROR
"""


def test_errpt_a_dates_cut_before_the_year_are_not_sorted_as_dates(tmp_path: Path) -> None:
    (f,) = _of(_run(tmp_path, {"aixdb9/errpt_a.txt": ERRPT_A_NO_YEAR}), "HEALTH-ERRPT-PERMANENT")
    assert "2 permanent hardware error(s)" in f.message  # two entries: not merged for lack of a year
    assert "first ?, last ?" in f.message and "log window unknown" in f.message
