from pathlib import Path

from lparscope.model.build import apply
from lparscope.model.estate import Host
from lparscope.rules.config import Config
from lparscope.rules.memory.affinity import srad_memory_without_cpu
from lparscope.sources import lssrad

FIX = Path(__file__).parent.parent / "fixtures" / "lssrad"


def host_with(name: str) -> Host:
    h = Host("aixdb2", role="aix")
    apply(h, "lssrad", lssrad.parse((FIX / name).read_text()), f"aixdb2/{name}", 0)
    return h


def test_fires_on_memory_in_an_srad_without_processors():
    (f,) = list(srad_memory_without_cpu(host_with("aix72_lssrad_av_remote_memory.txt"), Config()))
    assert f.rule.id == "MEM-SRAD-MEMORY-WITHOUT-CPU" and f.rule.severity == "info"
    assert "SRAD 1 (8192 MB) holds 8192 MB of memory (11.8% of 69632 MB)" in f.message
    assert [e.line for e in f.evidence] == [6, 4]
    assert any(c.startswith("optmem -m <managed-system> -o start -t affinity") for c in f.fix.hmc)
    assert f.rollback.hmc == ["optmem -m <managed-system> -o stop   # stops a DPO run; what it already moved stays where it is"]


def test_silent_when_every_srad_with_memory_has_processors_or_none_is_known():
    assert list(srad_memory_without_cpu(host_with("aix73_lssrad_av_two_domains.txt"), Config())) == []
    assert list(srad_memory_without_cpu(Host("aix9", role="aix"), Config())) == []
