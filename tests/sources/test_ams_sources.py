"""Active Memory Sharing and suspend/resume inputs: lshwres -r mempool / pgdev / rspool rsdev,
the shared-memory fields of lshwres -r mem --level lpar, and vmstat -h."""

from pathlib import Path

from lparscope.sources import hmc_hwres as h
from lparscope.sources import vmstat_h
from lparscope.sources.detect import split_and_classify

FIX = Path(__file__).parent.parent / "fixtures"


def _hwres(name: str):
    text = (FIX / "lshwres" / name).read_text()
    assert h.detect(text) >= 95
    r = h.parse(text)
    assert r.warnings == []
    return r


def test_mempool_pool_size_paging_vios_and_dedup():
    (o,) = _hwres("hmc7_mempool.txt").records
    assert o.resource == "mempool" and o.system == "p7frame1"
    pool = h.mempool(o)
    assert (pool["pool_mem"], pool["max_pool_mem"], pool["firmware_mem"]) == (65536, 98304, 1536)
    assert pool["paging_vios"] == ["vios1", "vios2"] and pool["dedup"] is True


def test_paging_devices_sizes_owner_and_redundancy():
    a, b, free = _hwres("hmc7_mempool_pgdev.txt").records
    assert {o.resource for o in (a, b, free)} == {"mempool-pgdev"}
    da = h.paging_device(a)
    assert (da["device"], da["vios"], da["size_mb"], da["lpar"], da["redundant"], da["redundant_vios"]) == \
        ("hdisk12", "vios1", 40960, "aix3", True, "vios2")
    assert h.paging_device(b)["redundant_vios"] is None and h.paging_device(b)["size_mb"] == 8192
    assert h.paging_device(free)["lpar"] is None and h.paging_device(free)["lpar_id"] is None


def test_reserved_storage_devices():
    free, used = _hwres("hmc7_rspool_rsdev.txt").records
    assert free.resource == used.resource == "rspool-rsdev"
    assert h.rs_device(free)["lpar"] is None and h.rs_device(free)["size_mb"] == 16384
    assert (h.rs_device(used)["lpar"], h.rs_device(used)["redundant_vios"]) == ("aix5", "vios2")


def test_mem_lpar_shared_memory_fields():
    vios, aix3, aix4 = _hwres("hmc7_mem_lpar_ams.txt").records
    assert h.mem_lpar(vios)["mem_mode"] == "ded" and h.mem_lpar(vios)["paging_vios"] == []
    m3, m4 = h.mem_lpar(aix3), h.mem_lpar(aix4)
    assert m3["mem_mode"] == "shared" and m3["io_entitled_auto"] and m3["io_entitled_mem"] is None
    assert m3["paging_vios"] == ["vios1", "vios2"] and m3["mem_weight"] == 128
    assert (m4["io_entitled_auto"], m4["io_entitled_mem"], m4["paging_vios"]) == (False, 256, ["vios1"])


def test_resources_inferred_without_the_command_line():
    text = "\n".join(ln for ln in (FIX / "lshwres" / "hmc7_mempool_pgdev.txt").read_text().splitlines()[1:])
    r = h.parse(text)
    assert [o.resource for o in r.records] == ["mempool-pgdev"] * 3
    pool = "\n".join((FIX / "lshwres" / "hmc7_mempool.txt").read_text().splitlines()[1:])
    assert h.parse(pool).records[0].resource == "mempool"


def test_vmstat_h_samples_and_configuration():
    text = (FIX / "vmstat-h" / "vmstat_h_ams_aix71.txt").read_text()
    assert vmstat_h.detect(text) >= 90
    r = vmstat_h.parse(text)
    assert r.warnings == []
    cfg, *rows = r.records
    assert cfg.mmode == "shared" and cfg.values["mpsz"] == "32.00GB"
    assert [s.values["hpi"] for s in rows] == [14.0, 0.0, 31.0]
    assert rows[0].values["hpit"] == 22.0 and rows[2].values["loan"] == 1.4 and rows[0].line == 8
    assert (rows[0].values["sy"], rows[0].values["cpu_sy"]) == (380.0, 1.0)
    [seg] = [s for s in split_and_classify(text) if s.kind]
    assert seg.kind == "vmstat-h"


def test_vmstat_h_bad_rows_are_named_by_line():
    r = vmstat_h.parse((FIX / "vmstat-h" / "bad.txt").read_text())
    assert not [x for x in r.records if isinstance(x, vmstat_h.HypervisorPagingSample)]
    assert [w.line for w in r.warnings] == [5, 6]


def test_plain_vmstat_is_not_vmstat_h():
    text = ("# vmstat 2 1\n\nSystem configuration: lcpu=8 mem=16384MB ent=1.00\n\n"
            "kthr    memory              page              faults              cpu\n"
            " r  b   avm   fre  re  pi  po  fr   sr  cy  in   sy  cs us sy id wa    pc    ec\n"
            " 1  0 2103551 1602345   0   0   0   0    0   0  12  380 210  1  1 98  0  0.02   2.1\n")
    assert vmstat_h.detect(text) == 0
