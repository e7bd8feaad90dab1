from lparscope.model.frame import hpt_mb
from lparscope.rules.config import Config
from lparscope.rules.frame.memory import (
    frame_firmware_memory,
    frame_hpt_total,
    frame_mem_max_above_need,
)

from ._frame_builders import estate, frame, part
from .conftest import host


def run(fn, e):
    return list(fn(e, Config()))


def test_hpt_rounds_up_to_a_power_of_two():
    assert hpt_mb(10752, 64) == 256  # rules-catalogue S4: 168 MB -> 256 MB
    assert hpt_mb(393216, 128) == 4096
    assert hpt_mb(49152, 128) == 512


def test_hpt_total_fires_when_max_memory_wastes_a_gigabyte():
    fr = frame(part("a", 2, mem=16384, mem_max=262144), part("b", 3, mem=65536, mem_max=393216))
    [f] = run(frame_hpt_total, estate(fr))
    assert f.values["current"] == "6144 MB" and f.values["suggested"] == "1280 MB"
    assert any("lpar_name=b,max_mem=131072" in c for c in f.fix.hmc)


def test_hpt_total_quiet_when_max_close_to_desired():
    fr = frame(part("a", 2, mem=16384, mem_max=32768), part("b", 3, mem=65536, mem_max=98304))
    assert not run(frame_hpt_total, estate(fr))


def test_max_memory_above_need_for_hmc_only_partitions():
    fr = frame(part("db1", 7, mem=65536, mem_max=393216, mem_min=32768))
    [f] = run(frame_mem_max_above_need, estate(fr))
    assert "6.0x" in f.message and "HPT is 4096 MB" in f.message and "max_mem=131072" in f.fix.hmc[0]


def test_max_memory_left_to_host_rule_and_quiet_when_close():
    h = host("db1", max_memory_mb=393216, online_memory_mb=65536)
    fr = frame(part("db1", 7, mem=65536, mem_max=393216, host="db1"))
    assert not run(frame_mem_max_above_need, estate(fr, hosts=[h]))
    assert not run(frame_mem_max_above_need, estate(frame(part("x", 7, mem=65536, mem_max=131072))))


def test_max_memory_above_64x_min_mem02():
    fr = frame(part("x", 7, mem=8192, mem_max=32768, mem_min=256))
    [f] = run(frame_mem_max_above_need, estate(fr))
    assert "MEM-02" in f.message


def test_firmware_memory_budget():
    fr = frame(part("a", 2, mem=262144), part("b", 3, mem=262144, state="Not Activated"),
               mem_configurable=524288, mem_firmware=13568)
    [f] = run(frame_firmware_memory, estate(fr))
    assert "537856 MB for 524288 MB" in f.message
    fr.partitions["b"].mem = 131072
    assert not run(frame_firmware_memory, estate(fr))
