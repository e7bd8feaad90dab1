"""HMC corpus conformance: every HMC CLI file and HMC Scanner sheet in ../shared/corpus/hmc.

Each file must split, classify and parse without an exception and contribute the
records listed below (by record type and resource / sheet); the REST XML files give the objects
the command line gives for the same data, the PCM processed-metrics JSON files their series. Run with ``pytest -s`` to see what each file gave.
Skipped when the corpus folder is absent.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from lparscope.sources import hmcscanner, parsers
from lparscope.sources.detect import split_and_classify

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
HMC = CORPUS / "hmc"
pytestmark = pytest.mark.skipif(not HMC.is_dir(), reason="../shared/corpus/hmc not present")

OURS = {"lssyscfg", "lshwres", "lslparutil", "lshmc", "hmcscanner"}

# file -> (kind, {"Type:resource": count}); None = must stay unrecognised
CLI: dict[str, tuple[str, dict[str, int]] | None] = {
    "ziutus_9131-52A_lshwres_r_io_rsubtype_slot.txt": ("lshwres", {"HmcObject:io-slot": 10}),
    "ziutus_9131-52A_lshwres_r_mem_level_lpar.txt": ("lshwres", {"HmcObject:mem-lpar": 4}),
    "ziutus_9131-52A_lshwres_r_mem_level_sys.txt": ("lshwres", {"HmcObject:mem-sys": 1}),
    "ziutus_9131-52A_lshwres_r_proc_level_lpar.txt": ("lshwres", {"HmcObject:proc-lpar": 4}),
    "ziutus_9131-52A_lshwres_r_proc_level_sys.txt": ("lshwres", {"HmcObject:proc-sys": 1}),
    "ziutus_9131-52A_lshwres_r_virtualio_eth.txt": ("lshwres", {"HmcObject:veth": 8}),
    "ziutus_9131-52A_lshwres_r_virtualio_fc.txt": ("lssyscfg", {"HmcMessage:HSCLA4C0": 1}),  # no prompt: any HMC kind
    "ziutus_9131-52A_lshwres_r_virtualio_scsi.txt": ("lshwres", {"HmcObject:vscsi": 4}),
    "ziutus_9131-52A_lshwres_r_virtualio_serial.txt": ("lshwres", {"HmcObject:vserial": 8}),
    "ziutus_9131-52A_lshwres_r_virtualio_slot.txt": ("lshwres", {"HmcObject:vslot": 4}),
    "ziutus_9131-52A_lssyscfg_r_lpar.txt": ("lssyscfg", {"HmcObject:lpar": 4}),
    "ziutus_9131-52A_lssyscfg_r_prof.txt": ("lssyscfg", {"HmcObject:prof": 6}),
    "ziutus_hmc_collect_dump_20170910.txt": ("lssyscfg", {
        "HmcInfo:version": 1, "HmcInfo:vpd": 1, "HmcInfo:remote": 1, "HmcInfo:network": 1,
        "HmcObject:lsaccfg": 5, "HmcObject:lshmcusr": 3, "HmcObject:svcevent": 2}),
    "ziutus_lshmc_V.txt": ("lshmc", {"HmcInfo:version": 1}),
    "ziutus_lshmc_n.txt": ("lshmc", {"HmcInfo:network": 1}),
    "ziutus_lshwres_proc_lpar_aix61_8.txt": ("lshwres", {"HmcObject:proc-lpar": 1}),
    "ziutus_lshwres_r_io_slots_test.txt": ("lshwres", {"HmcObject:io-slot": 10}),
    "ziutus_lshwres_virtualio_eth_p72vio.txt": ("lshwres", {"HmcObject:veth": 2}),
    "ziutus_lshwres_virtualio_eth_vswitch.txt": ("lshwres", {"HmcObject:veth": 4}),
    "ziutus_lssvcevents_t_hardware.txt": ("lssyscfg", {"HmcObject:svcevent": 32}),
    "ziutus_lssyscfg_r_lpar_samples.txt": ("lssyscfg", {"HmcObject:lpar": 2}),
    "ziutus_lssyscfg_r_prof_various_systems.txt": ("lssyscfg", {"HmcObject:prof": 6}),
    "ziutus_lssyscfg_r_sys_9123-710_2006.txt": ("lssyscfg", {"HmcObject:sys": 1}),
    "ziutus_lssyscfg_r_sys_9131-52A.txt": ("lssyscfg", {"HmcObject:sys": 1}),
    "ziutus_lssyscfg_r_sys_F.txt": None,  # a Polish error text without an HSCL code: nothing to read
    "ziutus_lssysconn_r_all.txt": ("lssyscfg", {"HmcObject:sysconn": 1}),
}

# sheet CSV -> (sheet, data rows, table headers)
SHEETS = {
    "CoD_Events.csv": ("CoD_Events", 0, 1), "FC.csv": ("FC", 12, 1), "HMC.csv": ("HMC", 26, 0),
    "Header.csv": ("Header", 10, 0), "IO_slot_children.csv": ("IO_slot_children", 84, 1),
    "LPAR_CPU.csv": ("LPAR_CPU", 7, 1), "LPAR_MEM.csv": ("LPAR_MEM", 7, 1), "LPAR_Profiles.csv": ("LPAR_Profiles", 9, 1),
    "LPAR_Summary.csv": ("LPAR_Summary", 7, 1), "OnOff_CoD.csv": ("OnOff_CoD", 6, 1),
    "Physical_Slots.csv": ("Physical_Slots", 57, 1), "SEA.csv": ("SEA", 14, 3),
    "SRIOV_Logical_Ports.csv": ("SRIOV_Logical_Ports", 0, 1), "SRIOV_Phys_Ports.csv": ("SRIOV_Phys_Ports", 0, 1),
    "SW_cores.csv": ("SW_cores", 37, 3), "System_Summary.csv": ("System_Summary", 3, 1),
    "VIOS_disks.csv": ("VIOS_disks", 18, 1), "VSCSI_Map.csv": ("VSCSI_Map", 8, 1),
    "Virtual_Ethernet.csv": ("Virtual_Ethernet", 20, 3), "Virtual_Fibre.csv": ("Virtual_Fibre", 32, 1),
    "Virtual_SCSI.csv": ("Virtual_SCSI", 8, 1), "vNIC.csv": ("vNIC", 0, 1),
}


def _label(rec: object) -> str:
    what = getattr(rec, "resource", None) or getattr(rec, "what", None) or getattr(rec, "code", None) \
        or getattr(rec, "sheet", "")
    return f"{type(rec).__name__}:{what}"


def _contrib(path: Path) -> tuple[list[str | None], Counter, int]:
    registry = parsers()
    text = path.read_text(encoding="utf-8", errors="replace")
    kinds: list[str | None] = []
    got: Counter = Counter()
    warnings = 0
    for seg in split_and_classify(text, registry):
        kinds.append(seg.kind)
        if seg.kind is None:
            continue
        parsed = registry[seg.kind].parse(seg.text)
        got.update(_label(r) for r in parsed.records)
        warnings += len(parsed.warnings)
    return kinds, got, warnings


def test_every_cli_file_is_listed() -> None:
    assert sorted(p.name for p in HMC.glob("*.txt")) == sorted(CLI)


@pytest.mark.parametrize("name", sorted(CLI))
def test_cli_file(name: str) -> None:
    kinds, got, warnings = _contrib(HMC / name)
    print(f"\n{name}: {kinds} {dict(got)} warnings={warnings}")
    expected = CLI[name]
    if expected is None:
        assert not (set(kinds) & OURS) and not got
        return
    kind, records = expected
    assert kinds == [kind]
    assert dict(got) == records
    # an HMC message printed instead of data is said as a warning (the command gave no data)
    assert warnings == sum(n for k, n in records.items() if k.startswith("HmcMessage:"))


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_scanner_csv(name: str) -> None:
    kinds, got, warnings = _contrib(HMC / "hmcscanner" / "hmc172_csv" / name)
    print(f"\n{name}: {kinds} {dict(got)}")
    sheet, rows, tables = SHEETS[name]
    assert kinds == ["hmcscanner"]
    assert got[f"ScannerRow:{sheet}"] == rows and got[f"ScannerTable:{sheet}"] == tables
    assert warnings == 0


def test_every_scanner_csv_is_listed() -> None:
    assert sorted(p.name for p in (HMC / "hmcscanner" / "hmc172_csv").glob("*.csv")) == sorted(SHEETS)


def test_scanner_workbook_matches_its_csv_export() -> None:
    pytest.importorskip("xlrd")
    (xls,) = (HMC / "hmcscanner").glob("*.xls")
    sheets = hmcscanner.workbook_sheets(xls.read_bytes())
    exported = {p.stem: p.read_text() for p in (HMC / "hmcscanner" / "hmc172_csv").glob("*.csv")}
    for name, text in sheets:
        key = name.replace(" ", "_")
        if key in exported:
            assert text.strip() == exported[key].strip(), name
    p = hmcscanner.parse_workbook(xls.read_bytes())
    got = Counter(_label(r) for r in p.records)
    print(f"\n{xls.name}: {len(sheets)} sheets, {dict(got)}")
    assert got["ScannerRow:LPAR_CPU"] == 7 and len(hmcscanner.systems(p.records)) == 3
    assert {c.system for c in hmcscanner.lpar_cpu(p.records)} == {"AABAS2A", "AABAS2B", "Server-9105-22B-7887521"}


# REST XML file -> objects of each resource (hmc_rest.py), PCM processed-metrics JSON -> series of each
# kind (hmc_pcm.py); the LTM raw ("phyp") JSON is not read
REST = {
    "hmci_logical-partitions.xml": {"lpar": 12, "proc-lpar": 12, "mem-lpar": 12},
    "hmci_managed-systems.xml": {"sys": 2, "proc-sys": 2, "mem-sys": 2},
    "hmci_vios.xml": {"lpar": 1, "proc-lpar": 1, "mem-lpar": 1, "veth": 1, "sea": 1, "vscsi": 4, "vfc": 34},
    "pypowervm_lpar_feed.txt": {"lpar": 21, "proc-lpar": 21, "mem-lpar": 21},
    "pypowervm_managedsystem.txt": {"sys": 3, "proc-sys": 3, "mem-sys": 3},
    "pypowervm_managedsystem_sriov.txt": {"sys": 1, "proc-sys": 1, "mem-sys": 1},
    "pypowervm_network_bridge_failover.txt": {"sea": 2},
    "pypowervm_network_bridge_peer.txt": {"sea": 2},
    "pypowervm_shared_proc_pool.txt": {"procpool": 64},
    "pypowervm_vios_feed.txt": {"lpar": 2, "proc-lpar": 2, "mem-lpar": 2, "veth": 6, "sea": 2, "vscsi": 58, "vfc": 114},
    "pypowervm_vios_mappings.txt": {"lpar": 1, "proc-lpar": 1, "mem-lpar": 1, "veth": 2, "sea": 1, "vscsi": 28, "vfc": 31},
    "pypowervm_vnic_feed.txt": {"vnic": 2, "vnicbkdev": 3},
    "pypowervm_vios_ssp_npiv.txt": {"lpar": 1, "proc-lpar": 1, "mem-lpar": 1, "veth": 3, "sea": 1, "vscsi": 9, "vfc": 2},
}
PCM = {
    "hmci_logical-partition-pcm-perf-data.json": {"lpar": 1},
    "hmci_managed-system-pcm-perf-data.json": {"vios": 2, "pool": 4},
    "hmci_managed-system-pcm-perf-data2.json": {"vios": 2, "pool": 4},
    "hmci_pcm-lpar-sriov.json": {"lpar": 1},
    "hmci_pcm-managed-system.json": {"vios": 2, "pool": 1},
}


def test_rest_xml_and_pcm_json_files_are_read_and_the_rest_stays_unrecognised() -> None:
    registry = parsers()
    for path in sorted((HMC / "rest").glob("*")):
        text = path.read_text(encoding="utf-8", errors="replace")
        segments = split_and_classify(text, registry)
        kinds = {s.kind for s in segments}
        assert not kinds & OURS, path.name
        if path.name in PCM:
            assert kinds == {"hmc-pcm"}, path.name
            got = Counter(r.what for s in segments for r in registry["hmc-pcm"].parse(s.text).records)
            assert dict(got) == PCM[path.name], path.name
            continue
        want = REST.get(path.name)
        if want is None:
            assert not kinds & {"hmc-rest", "hmc-pcm"}, path.name
            continue
        assert "hmc-rest" in kinds and kinds <= {"hmc-rest", None}, path.name  # None: a dump's header lines
        got = Counter(r.resource for s in segments for r in registry["hmc-rest"].parse(s.text).records)
        assert dict(got) == want, path.name


def test_hmc_scanner_workbook_is_read_through_inputs():
    """The .xls workbook itself (not its CSV export) goes through inputs.py to the sheet parser."""
    from lparscope.pipeline import analyze

    xls = next((CORPUS / "hmc" / "hmcscanner").glob("*.xls"))
    a = analyze([str(xls)])
    parsed = [i for i in a.estate.inputs if i.kind == "hmcscanner" and i.status == "parsed"]
    assert len(parsed) >= 20
