"""prtconf fragments: grep'd lines with resource lines anywhere, detection without the resource
list's heading, inactive volume groups kept."""

from pathlib import Path

from lparscope.sources import prtconf
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "prtconf"


def _read(name: str) -> str:
    return (FIX / name).read_text()


def _of(records, name):
    return [r for r in records if type(r).__name__ == name]


def test_grep_processor_reads_resource_lines_quietly():
    r = prtconf.parse(_read("aix72_prtconf_grep_processor.txt"))
    assert r.warnings == []
    (cfg,) = _of(r.records, "SystemConfig")
    assert (cfg.processor_type, cfg.implementation_mode, cfg.processors, cfg.clock_mhz) == ("PowerPC_POWER9", "POWER 9", 6, 3800)
    assert cfg.values["Model Implementation"] == "Multiple Processor, PCI bus"
    res = _of(r.records, "InstalledResource")
    assert [(x.name, x.location, x.description, x.marker, x.line) for x in res] == [
        ("proc0", "", "Processor", "+", 8), ("proc8", "", "Processor", "+", 9), ("proc16", "", "Processor", "+", 10)]


def test_fragment_without_prompt_or_heading_is_detected_and_read():
    text = _read("aix61_prtconf_processor_fragment.txt")
    assert prtconf.detect(text) >= 60
    assert [s.kind for s in split_and_classify(text)] == ["prtconf"]
    r = prtconf.parse(text)
    assert r.warnings == []
    res = _of(r.records, "InstalledResource")
    assert [(x.name, x.marker, x.location) for x in res] == [
        ("proc0", "+", ""), ("proc4", "+", ""), ("proc8", "*", "U8233.E8B.10F5C2P-V3-C0")]
    assert _of(r.records, "SystemConfig")[0].implementation_mode == "POWER 6"


def test_head_fragment_with_distinctive_labels_is_detected():
    text = _read("aix53_prtconf_head_only.txt")
    assert prtconf.detect(text) >= 60
    assert [s.kind for s in split_and_classify(text)] == ["prtconf"]
    (cfg,) = prtconf.parse(text).records
    assert (cfg.memory_mb, cfg.good_memory_mb, cfg.platform_firmware) == (8192, 8192, "EM350_149")


def test_one_distinctive_label_or_mostly_other_lines_is_not_prtconf():
    assert prtconf.detect("Memory Size: 8192 MB\n") == 0
    assert prtconf.detect("Processor Type: PowerPC_POWER9\nfoo bar baz\nqux quux\n") == 0
    other = "Name: x\nState: up\nMemory Size: 2 GB\nKernel Type: 64-bit\nOwner: me\nColour: red\nSize: 3\nVendor: v\n"
    assert prtconf.detect(other) == 0  # two distinctive labels among many foreign ones


def test_inactive_volume_groups_are_recorded():
    r = prtconf.parse(_read("aix71_prtconf_inactive_vgs.txt"))
    assert r.warnings == [] and r.hostname == "dbnode2"
    groups = _of(r.records, "VolumeGroupEntry")
    assert [(g.name, g.active, g.line) for g in groups] == [("arcvg", False, 21), ("exportvg", False, 22), ("rootvg", True, 26)]
    disks = _of(r.records, "VolumeGroupDisk")
    assert [(d.volume_group, d.physical_volume, d.active_vg) for d in disks] == [("rootvg", "hdisk0", True), ("rootvg", "hdisk1", True)]


def test_kvm_guest_virtio_locations_and_the_interface_line():
    text = ("System Model: IBM pSeries (emulated by qemu)\nMachine Serial Number: Not Available\n"
            "Processor Type: PowerPC_POWER9\nMemory Size: 8192 MB\n \nen0\nNetwork Information\n"
            "\tHost Name: kvmaix1\n\tIP Address: 10.1.2.3\n \nINSTALLED RESOURCE LIST\n\n"
            "* scsi0            qemu_virtio-scsi-pci:0000:00:03.0       Virtio SCSI Client Adapter (f41a0800)\n"
            "* hdisk0           qemu_virtio-scsi-pci:0000:00:03.0-LW_0  MPIO Other Virtio SCSI Disk Drive\n"
            "* vscsi0                                                   Virtual SCSI Client Adapter\n")
    r = prtconf.parse(text)
    assert r.warnings == []
    res = {x.name: x for x in r.records if type(x).__name__ == "InstalledResource"}
    assert res["scsi0"].location == "qemu_virtio-scsi-pci:0000:00:03.0"
    assert res["scsi0"].description == "Virtio SCSI Client Adapter (f41a0800)"
    assert res["hdisk0"].location.endswith("-LW_0") and res["vscsi0"].location == ""
    assert r.records[0].values["Network Interface"] == "en0"
