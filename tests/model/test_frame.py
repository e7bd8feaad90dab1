from pathlib import Path

import pytest

from lparscope.inputs import collect
from lparscope.model.frame import hpt_mb
from lparscope.model.frame_build import build_frames
from lparscope.pipeline import read_estate

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "estate"
CORPUS = ROOT.parent / "shared" / "corpus" / "hmc"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus/hmc not present (real HMC outputs)")


def _frames(*paths):
    est, _ = read_estate(collect([str(p) for p in paths]))
    return est, build_frames(est)


def test_example_frame_from_hmc_cli_outputs():
    est, frames = _frames(EXAMPLE)
    fr = frames["p9frame1"]
    assert (fr.model, fr.serial, fr.cores_configurable, fr.mem_installed, fr.mem_firmware) == ("9009-42A", "784C1D0", 20.0, 524288, 13568)
    assert fr.pools[0].max_units == 16.0 and fr.default_hpt_ratio == 128
    assert sorted(fr.pools[0].partitions) == ["aix1", "aix2", "aix3", "aix4", "vios1", "vios2"]
    assert {p.name: p.host for p in fr.partitions.values()} == {
        "vios1": "vios1", "vios2": "vios2", "aix1": "aix1", "aix2": "aix2", "aix3": "aix3", "aix4": "aix4", "db1": None}
    aix3 = fr.partitions["aix3"]
    assert (aix3.ec, aix3.vps, aix3.weight, aix3.mem_max, aix3.ame_factor) == (1.0, 24, 64, 32768, 1.8)
    assert aix3.profile["desired_procs"] == "24" and aix3.running["desired_procs"] == "24"
    v1 = fr.partitions["vios1"]
    assert [(t.slot, t.pvid, t.vlans, t.priority) for t in v1.veth if t.trunk] == [(11, 10, [20], 1)]
    assert [(s.slot, s.remote_name, s.remote_slot) for s in v1.vscsi][0] == (101, "aix1", 10)
    assert fr.vios_pairs == [("vios1", "vios2")]
    assert fr.hpt_total() == 8064
    ev = fr.partitions["db1"].evidence["mem_max"]
    assert ev.path.endswith("lshwres_mem.txt") and ev.line == 10


def test_join_by_number_and_serial_when_names_differ():
    est, frames = _frames(EXAMPLE)
    est.hosts["vios1"].partition.name = "renamed"
    est.hosts["renamed_host"] = est.hosts.pop("vios1")
    est.hosts["renamed_host"].name = "renamed_host"
    frames = build_frames(est)
    p = frames["p9frame1"].partitions["vios1"]
    assert p.host == "renamed_host" and p.join == "frame serial and partition id"


@needs_corpus
def test_hmc_scanner_sheets():
    _, frames = _frames(CORPUS / "hmcscanner" / "hmc172_csv")
    fr = frames["AABAS2A"]
    assert (fr.model, fr.serial, fr.cores_configurable, fr.mem_firmware) == ("9105-22A", "7887501", 24.0, 27904)
    v = fr.partitions["VIOS2A"]
    assert v.is_vios and v.ec == 2.0 and v.mem == 32768
    assert {s.port for s in v.vfc} == {"U78DA.ND0.WZS03ZL-P0-C7-T0", "U78DA.ND0.WZS03ZL-P0-C1-T0"}
    assert len(fr.seas) == 3 and fr.seas[0]["ha_mode"] == "disabled"


@needs_corpus
def test_corpus_hmc_files_load():
    _, frames = _frames(CORPUS)
    assert "9131-52A-6535CCG" in frames and "AABAS2B" in frames
    prof = [f for f in frames.values() if any(p.endswith("ziutus_9131-52A_lssyscfg_r_prof.txt") for p in f.sources)][0]
    assert prof.vios_pairs == [("vios1", "vios2")]
    # the lpar, proc, memory and profile outputs of that system (collected without -m) are one frame, merged
    # on their partitions' names and ids (model/frame_merge.py)
    assert any(p.endswith("ziutus_9131-52A_lshwres_r_proc_level_lpar.txt") for p in prof.sources) and prof.merged


def test_hpt_mb():
    assert hpt_mb(8192, 128) == 64 and hpt_mb(49152, 128) == 512 and hpt_mb(0, 64) == 0


def test_partitions_of_one_name_on_two_frames_with_no_host_are_labelled_with_their_frame(tmp_path):
    import re
    from pathlib import Path

    from lparscope.pipeline import analyze
    hmc = Path(__file__).resolve().parents[2] / "examples" / "estate" / "hmc1"
    for n, frame in enumerate(("p9frame1", "p9frame2")):
        out = tmp_path / f"hmc{n}"
        out.mkdir()
        for f in hmc.iterdir():  # the same HMC listings, the second of another frame (its name and serial)
            text = f.read_text().replace("p9frame1", frame)
            out.joinpath(f.name).write_text(re.sub(r"784C1D0", "784C1D9", text) if n else text)
    a = analyze([str(tmp_path)])
    one, two = a.estate.frames["p9frame1"].partitions["vios1"], a.estate.frames["p9frame2"].partitions["vios1"]
    assert (one.label, two.label) == ("vios1 (p9frame1)", "vios1 (p9frame2)")
    hosts = {f.host for f in a.findings}
    assert "vios1" not in hosts and {"vios1 (p9frame1)", "vios1 (p9frame2)"} & hosts
