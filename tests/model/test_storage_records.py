"""Volume group summaries (lsvg <vg>), MPIO adapters and remote ports (lsmpio -ar) and prtconf's
volume groups land on the host, with file lines a rule can cite."""

from pathlib import Path

from lparscope.pipeline import read_estate
from lparscope.inputs import collect

FIX = Path(__file__).parent.parent / "fixtures"


def test_vg_facts_mpio_ports_and_inactive_groups_reach_the_host(tmp_path):
    text = "\n".join([
        (FIX / "lsvg" / "aix72_lsvg_datavg_stale.txt").read_text(),
        (FIX / "lsmpio-a" / "aix73_lsmpio_ar_failed_paths.txt").read_text().replace("aixweb4", "aixora2"),
        "root@aixora2:/ # prtconf",
        (FIX / "prtconf" / "aix71_prtconf_inactive_vgs.txt").read_text().replace("dbnode2", "aixora2"),
    ])
    (tmp_path / "aixora2.txt").write_text(text)
    estate, _ = read_estate(collect([str(tmp_path)]))
    assert list(estate.hosts) == ["aixora2"]
    h = estate.hosts["aixora2"]
    (vg,) = h.of_kind("lsvg", "VolumeGroup")
    assert (vg.record.name, vg.record.stale_pps, vg.record.stale_pvs) == ("oradatavg", 41, 1)
    assert vg.ev("stale_pps").line == 9 and vg.ev("stale_pps").path.endswith("aixora2.txt")
    failed = [(p.record.adapter, p.record.wwpn, p.record.failed, p.record.missing) for p in h.of_kind("lsmpio-a", "MpioRemotePort")
              if p.record.failed or p.record.missing]
    assert failed == [("fscsi0", "5005076810113a4c", 2, 0), ("fscsi1", "5005076810213a4c", 0, 8)]
    down = [a.record.name for a in h.of_kind("lsmpio-a", "MpioAdapter") if a.record.link_state != "Up"]
    assert down == ["fscsi1"]
    groups = {g.record.name: g.record.active for g in h.of_kind("prtconf", "VolumeGroupEntry")}
    assert groups == {"arcvg": False, "exportvg": False, "rootvg": True}
    assert all(i.status == "parsed" for i in estate.inputs), [(i.kind, i.status, i.warnings) for i in estate.inputs]
