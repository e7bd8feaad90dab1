"""lsmpio -a / -ar: FC adapters as the AIX PCM sees them, and the paths through each remote port."""

from pathlib import Path

from lparscope.sources import lspath, parsers
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "lsmpio-a"


def _read(name: str) -> str:
    return (FIX / name).read_text()


def _mod():
    return parsers()["lsmpio-a"]


def _of(records, name):
    return [r for r in records if type(r).__name__ == name]


def test_adapters_and_remote_ports_with_failed_and_missing_paths():
    text = _read("aix73_lsmpio_ar_failed_paths.txt")
    mod = _mod()
    assert mod.detect(text) >= 90 and lspath.detect(text) == 0
    r = mod.parse(text)
    assert r.warnings == [] and r.hostname == "aixweb4"
    adapters = _of(r.records, "MpioAdapter")
    assert [(a.name, a.pcm, a.wwpn, a.link_state, a.line) for a in adapters] == [
        ("fscsi0", "AIX PCM", "c050760a1b2c0010", "Up", 2), ("fscsi1", "AIX PCM", "c050760a1b2c0012", "Down", 10)]
    assert adapters[1].lines == {"name": 10, "wwpn": 11, "link_state": 12}
    ports = _of(r.records, "MpioRemotePort")
    assert [(p.adapter, p.wwpn, p.enabled, p.disabled, p.failed, p.missing, p.port_id, p.line) for p in ports] == [
        ("fscsi0", "5005076810113a4c", 6, 0, 2, 0, "0x0a1b00", 7),
        ("fscsi0", "5005076810113a5d", 8, 0, 0, 0, "0x0a1c00", 8),
        ("fscsi1", "5005076810213a4c", 0, 0, 0, 8, "0x0b1b00", 15)]
    assert all(p.disk is None for p in ports)


def test_one_disks_paths_name_the_disk():
    r = _mod().parse(_read("aix72_lsmpio_ar_one_disk.txt"))
    assert r.warnings == []
    ports = _of(r.records, "MpioRemotePort")
    assert [(p.disk, p.adapter, p.enabled, p.disabled) for p in ports] == [("hdisk12", "fscsi2", 1, 1), ("hdisk12", "fscsi2", 1, 0)]
    assert _of(r.records, "MpioAdapter")[0].disk == "hdisk12"


def test_adapters_alone_and_routing_from_the_prompt():
    r = _mod().parse(_read("aix72_lsmpio_a.txt"))
    assert r.warnings == [] and [(a.name, a.wwpn) for a in r.records] == [
        ("fscsi0", "c050760c77d40044"), ("fscsi1", "c050760c77d40046")]
    for name in ("aix73_lsmpio_ar_failed_paths.txt", "aix72_lsmpio_ar_one_disk.txt", "aix72_lsmpio_a.txt"):
        assert [s.kind for s in split_and_classify(_read(name))] == ["lsmpio-a"], name
        body = _read(name).split("\n", 1)[1]
        assert [s.kind for s in split_and_classify(body)] == ["lsmpio-a"], name  # no prompt: by content
    lsmpio_table = "# lsmpio -l hdisk2\nname    path_id  status   path_status  parent  connection\nhdisk2  0  Enabled  Sel  fscsi0  5005,2000\n"
    assert [s.kind for s in split_and_classify(lsmpio_table)] == ["lspath"]


def test_bad_input_is_warned_never_raised():
    r = _mod().parse(_read("bad_input.txt"))
    assert [(a.name, a.link_state) for a in _of(r.records, "MpioAdapter")] == [("fscsi0", "Up")]
    assert _of(r.records, "MpioRemotePort") == []
    assert [w.line for w in r.warnings] == [2, 7, 8]
    for junk in ("", "Adapter Driver:\n", "Adapter Driver: " + "x" * 5000, "    Link State: Up\n", "0" * 4000):
        _mod().parse(junk)
        _mod().detect(junk)
