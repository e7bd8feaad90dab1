"""HMC PCM processed metrics (sources/hmc_pcm.py, model/frame_pcm.py): processor units used per
sample by partitions, VIOS and shared pools, as the frames' measured use. Fixtures written here in
the HMC's JSON format (tests/fixtures/hmc-pcm), beside the REST configuration of the same frame
(tests/fixtures/hmc-rest)."""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

from lparscope.pipeline import analyze
from lparscope.sources import hmc_pcm

FIX = Path(__file__).resolve().parents[1] / "fixtures"
LPARS, SYSTEM = FIX / "hmc-pcm" / "p10frame7_lpars_pcm.json", FIX / "hmc-pcm" / "p10frame7_system_pcm.json"
T0 = datetime(2026, 11, 20, 10, 0)


def _stamp_lines(path: Path) -> list[int]:
    return [n for n, ln in enumerate(path.read_text().splitlines(), 1) if '"timeStamp"' in ln]


def test_partition_series_with_times_values_lines_and_settings():
    r = hmc_pcm.parse(LPARS.read_text())
    assert not r.warnings
    by = {s.name: s for s in r.records}
    db = by["dbprd5"]
    assert (db.what, db.id, db.system, db.system_uuid) == ("lpar", 5, "p10frame7", "7c2b9d40-31aa-3f0e-8d52-0e6f1a2b3c4d")
    assert db.times == [T0, T0.replace(second=30), T0.replace(minute=1)] and db.used == [2.1, 3.4, 2.75]
    assert db.lines == _stamp_lines(LPARS)
    assert db.config == {"entitled": 2.5, "vps": 6, "weight": 160, "pool_id": 1, "mem": 65536, "mode": "uncap"}


def test_system_file_gives_vios_and_pool_series():
    r = hmc_pcm.parse(SYSTEM.read_text())
    got = {(s.what, s.name, s.id): s.used for s in r.records}
    assert got == {("vios", "vios7a", 1): [0.4, 0.55, 0.5], ("pool", "DefaultPool", 0): [5.5, 6.25, 7.0],
                   ("pool", "SAPPool", 1): [2.5, 3.75, 3.0]}


def test_use_joins_the_configured_partitions_and_pools(tmp_path):
    hmc = tmp_path / "hmc7"
    shutil.copytree(FIX / "hmc-rest", hmc)
    for f in (LPARS, SYSTEM):
        shutil.copy(f, hmc)
    fr = analyze([str(tmp_path)]).estate.frames["p10frame7"]
    db = fr.partitions["dbprd5"]
    assert [(u.time, u.physc) for u in db.use] == [(T0, 2.1), (T0.replace(second=30), 3.4), (T0.replace(minute=1), 2.75)]
    ev = db.use[1].evidence
    assert (Path(ev.path).name, ev.line) == (LPARS.name, _stamp_lines(LPARS)[1])
    assert db.evidence["ec"].path.endswith("logical_partition_feed.xml")  # the configuration's, not the sample's
    assert "oldtest9" not in fr.partitions  # not in the configuration: its series is not attached
    assert [u.physc for u in fr.partitions["vios7a"].use] == [0.4, 0.55, 0.5]
    assert [u.physc for u in fr.pools[1].use] == [2.5, 3.75, 3.0] and fr.pools[1].name == "SAPPool"


def test_a_frame_known_from_pcm_only_gets_its_partitions_and_settings(tmp_path):
    (tmp_path / "hmc7").mkdir()
    shutil.copy(LPARS, tmp_path / "hmc7")
    shutil.copy(SYSTEM, tmp_path / "hmc7")
    fr = analyze([str(tmp_path)]).estate.frames["p10frame7"]
    assert set(fr.partitions) == {"dbprd5", "oldtest9", "vios7a"}
    db = fr.partitions["dbprd5"]
    assert (db.ec, db.vps, db.weight, db.pool_id, db.mem, db.proc_mode, db.sharing_mode) == (
        2.5, 6, 160, 1, 65536, "shared", "uncap")
    assert (Path(db.evidence["ec"].path).name, db.evidence["ec"].line) == (LPARS.name, _stamp_lines(LPARS)[-1])
    assert fr.partitions["vios7a"].env == "vioserver"


def test_files_that_overlap_in_time_give_each_time_once(tmp_path):
    later = json.loads(LPARS.read_text())
    samples = later["systemUtil"]["utilSamples"]
    samples[0]["sampleInfo"]["timeStamp"] = "2026-11-20T10:01:00+0100"  # the last time of the first file
    samples[1]["sampleInfo"]["timeStamp"] = "2026-11-20T10:01:30+0100"
    samples[2]["sampleInfo"]["timeStamp"] = "2026-11-20T10:02:00+0100"
    (tmp_path / "hmc7").mkdir()
    shutil.copy(LPARS, tmp_path / "hmc7" / "a.json")
    (tmp_path / "hmc7" / "b.json").write_text(json.dumps(later, indent=2))
    use = analyze([str(tmp_path)]).estate.frames["p10frame7"].partitions["dbprd5"].use
    assert [u.time.strftime("%H:%M:%S") for u in use] == ["10:00:00", "10:00:30", "10:01:00", "10:01:30", "10:02:00"]
    assert use[2].physc == 2.75 and Path(use[2].evidence.path).name == "a.json"  # the first file's sample kept


def test_damaged_json_is_reported_not_raised():
    text = LPARS.read_text()
    cut = hmc_pcm.parse(text[: len(text) // 2])
    assert cut.records == [] and cut.warnings[0].message.startswith("JSON not read")
    assert cut.warnings[0].line > 1  # where the JSON decoder stopped
    assert "2.1\n" in text
    huge = hmc_pcm.parse(text.replace("2.1\n", "9" * 5000 + "\n", 1))
    assert huge.records == [] and huge.warnings[0].message.startswith("JSON not read")
    odd = json.loads(text)
    odd["systemUtil"]["utilSamples"][0]["lparsUtil"][0]["processor"]["utilizedProcUnits"] = ["n/a"]
    odd["systemUtil"]["utilSamples"][1]["sampleInfo"] = "garbled"
    r = hmc_pcm.parse(json.dumps(odd, indent=2))
    assert [len(s.used) for s in r.records if s.name == "dbprd5"] == [1]
    assert r.warnings[0].message == "2 sample row(s) without a time, a name or a processor-units-used number not read"


def test_other_json_is_not_taken():
    assert hmc_pcm.detect('{"systemUtil": 1}') == 0
    assert hmc_pcm.detect('{"feed": {"utilSamples": [], "utilInfo": {}}}') == 0


def test_pcm_mtms_names_the_frame_model_and_serial_and_sample_errors_are_said(tmp_path):
    import json as _json

    from lparscope.pipeline import analyze

    doc = {"systemUtil": {"utilInfo": {"version": "1.3.0", "metricType": "Processed", "frequency": 30,
                                       "mtms": "9080-HEX*78AB12C", "name": "p10big", "metricArrayOrder": ["AVG"]},
                          "utilSamples": [{"sampleType": "LogicalPartition",
                                           "sampleInfo": {"timeStamp": f"2026-03-02T10:0{i}:00+0100", "status": 1,
                                                          "errorInfo": [{"errId": "3004", "errMsg": "port stats not fetched"}]},
                                           "lparsUtil": [{"id": 4, "name": "db4", "state": "Running",
                                                          "processor": {"poolId": 0, "mode": "uncap", "weight": 128,
                                                                        "currentVirtualProcessors": [4],
                                                                        "entitledProcUnits": [2.0],
                                                                        "utilizedProcUnits": [1.1 + i / 10]},
                                                          "memory": {"logicalMem": [32768]}}]} for i in range(3)]}}
    (tmp_path / "pcm.json").write_text(_json.dumps(doc, indent=1))
    a = analyze([str(tmp_path)])
    fr = a.estate.frames["p10big"]
    assert (fr.model, fr.serial) == ("9080-HEX", "78AB12C")
    [st] = a.estate.inputs
    assert st.status == "partly" and "3 sample(s) with error 3004" in st.warnings[0][1]
    assert fr.partitions["db4"].use.origin == "HMC PCM"
