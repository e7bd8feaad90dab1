from pathlib import Path

from lparscope.sources import lssrad
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures" / "lssrad"


def test_domains_memory_and_processor_lists():
    text = (FIX / "aix73_lssrad_av_two_domains.txt").read_text()
    assert lssrad.detect(text) == 90 and [s.kind for s in split_and_classify(text)] == ["lssrad"]
    r = lssrad.parse(text)
    a, b, c, d = r.records
    assert (a.ref1, a.srad, a.memory_mb, a.cpu_text, a.line) == (0, 0, 31682.06, "0-7 12-15 20-23", 3)
    assert a.cpus == list(range(0, 8)) + list(range(12, 16)) + list(range(20, 24))
    assert (b.ref1, len(b.cpus)) == (1, 12)
    assert (c.srad, c.memory_mb, c.cpus) == (2, 0.0, [])
    assert (d.srad, d.cpus) == (3, [])  # its list could not be read: warned, kept without processors
    assert [w.line for w in r.warnings] == [7, 8]
    assert "processor list not read" in r.warnings[1].message


def test_memory_without_processors_and_prompt():
    r = lssrad.parse((FIX / "aix72_lssrad_av_remote_memory.txt").read_text())
    assert r.hostname == "aixdb2" and r.warnings == []
    assert [(s.srad, s.memory_mb, s.cpus) for s in r.records][1] == (1, 8192.5, [])


def test_junk_never_raises():
    for junk in ("", "REF1 SRAD MEM CPU\n0\n 0 1e999 0-99999999\n", "\x00" * 20, "  1 2 3-1\n"):
        lssrad.parse(junk), lssrad.detect(junk)
    assert lssrad.cpu_list("0-99999999") is None and lssrad.cpu_list("5-3") is None
