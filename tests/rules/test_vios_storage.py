from types import SimpleNamespace

from lparscope.model.estate import KernelQueueDepth, Series, Setting
from lparscope.rules.storage import disk_driver as storage_disk_driver
from lparscope.rules.storage import queue_depth as storage_queue_depth
from lparscope.rules.vios import memory as vios_memory
from lparscope.rules.vios import processor as vios_processor
from lparscope.rules.wpar import kernel_queue_depth as wpar_kernel_queue_depth
from lparscope.sizing.vios import vios_memory_estimate

from ._frame_builders import estate
from .conftest import device, ev, host, run_rule


def test_vios_capped_only_for_vios():
    assert len(run_rule(vios_processor.vios_capped, host("vios2", "vios", mode="Capped"))) == 1
    assert run_rule(vios_processor.vios_capped, host("vios1", "vios", mode="Uncapped")) == []
    assert run_rule(vios_processor.vios_capped, host("aix2", "aix", mode="Capped")) == []


def test_vios_folding_policy():
    h = host("vios2", "vios")
    h.tunables["vpm_fold_policy"] = Setting("3", ev(2))
    (f,) = run_rule(vios_processor.vios_folding, h)
    assert "schedo -p -o vpm_fold_policy=4" in f.fix.padmin and f.rollback.root == ["schedo -p -o vpm_fold_policy=3"]
    assert f.disruption == []  # dynamic (000 Example 3-22)
    h.tunables["vpm_fold_policy"] = Setting("4", ev(2))
    assert run_rule(vios_processor.vios_folding, h) == []


def _vios_with_adapters(memory_mb: int):
    h = host("vios1", "vios", online_memory_mb=memory_mb, system_cores=20)
    for i in range(4):
        device(h, f"ent{i}", "physical", "PCIe2 2-port 10GbE SR Adapter")
    for i in range(2):
        device(h, f"fcs{i}", "fc", "PCIe2 16Gb 2-Port Fibre Channel Adapter")
    for i in range(4, 8):
        device(h, f"ent{i}", "virtual", "Virtual I/O Ethernet Adapter (l-lan)")
    return h


def test_vios_memory_estimate_from_adapters():
    need, parts = vios_memory_estimate(_vios_with_adapters(3072))
    # 768 + 4 x 512 (10 Gb) + 2 x 512 (FC) + 4 x 16 (virtual Ethernet) = 3904; 20 cores -> 4096 by cores
    assert need == 4096 and "4 x 10 Gb Ethernet port x 512 MB" in parts
    (f,) = run_rule(vios_memory.vios_memory, estate(hosts=[_vios_with_adapters(3072)]))
    assert f.values["suggested"] == "4096 MB" and "maximum" not in f.values
    assert f.facts == {("vios1", "memory_estimate_mb"): 4096}
    assert run_rule(vios_memory.vios_memory, estate(hosts=[_vios_with_adapters(8192)])) == []


def test_vios_memory_maximum_blocks_the_dlpar_add():
    h = _vios_with_adapters(3072)
    h.partition.max_memory_mb = 3584
    (f,) = run_rule(vios_memory.vios_memory, estate(hosts=[h]))
    assert "maximum memory 3584 MB blocks a DLPAR add to 4096 MB" in f.message
    assert [(c.attribute, c.target) for c in f.changes] == [("max_mem", 4096), ("desired_mem", 4096)]
    assert "restart-needed" in f.disruption and f.values["maximum"].startswith("3584 MB")
    h.partition.max_memory_mb = 8192  # room to grow by DLPAR: no profile change, no restart
    (f,) = run_rule(vios_memory.vios_memory, estate(hosts=[h]))
    assert "blocks" not in f.message and [c.attribute for c in f.changes] == ["desired_mem"]
    assert f.disruption == ["dlpar"]


def test_generic_disk_driver():
    h = host("vios1", "vios")
    device(h, "hdisk2", "disk", "MPIO Other FC SCSI Disk Drive")
    device(h, "hdisk3", "disk", "MPIO FC 2145")
    (f,) = run_rule(storage_disk_driver.generic_disk_driver, h)
    assert f.subject == "hdisk2" and f.fix.padmin
    assert run_rule(storage_disk_driver.generic_disk_driver, host()) == []


def test_vscsi_client_queue_depth_default():
    h = host()
    device(h, "hdisk0", "disk", "Virtual SCSI Disk Drive", queue_depth=3)
    device(h, "hdisk1", "disk", "Virtual SCSI Disk Drive", queue_depth=32)
    device(h, "hdisk2", "disk", "MPIO FC 2145", queue_depth=3)
    (f,) = run_rule(storage_queue_depth.vscsi_queue_depth_default, h)
    assert f.subject == "hdisk0" and "queue_depth=32" in f.fix.root[0]


def _iostat(values):
    s = Series()
    for i, v in enumerate(values):
        s.samples.append({"sqfull": v, "interval": float(i + 1)})
        s.evidence.append(ev(20 + i, "iostat.txt"))
    return s


def test_sqfull_persistent():
    h = host()
    device(h, "hdisk3", "disk", "Virtual SCSI Disk Drive", queue_depth=20)
    h.disk_io["hdisk3"] = _iostat([1072.0, 1175.0, 1147.0, 1186.0, 779.0])  # 004 first run
    (f,) = run_rule(storage_queue_depth.sqfull_persistent, h)
    assert "5 of 5" in f.message and "queue_depth=40" in f.fix.root[1]
    h.disk_io["hdisk3"] = _iostat([0.0, 0.0, 5.0, 0.0])
    assert run_rule(storage_queue_depth.sqfull_persistent, h) == []
    since_boot = _iostat([48311290.0, 0.0, 0.0, 0.0])
    since_boot.samples[0]["interval"] = 0.0  # the first report counts since boot: not judged
    h.disk_io["hdisk3"] = since_boot
    assert run_rule(storage_queue_depth.sqfull_persistent, h) == []


def test_sqfull_with_nothing_to_raise_points_at_the_cause():
    h = host("aix4")
    device(h, "hdisk3", "disk", "Virtual SCSI Disk Drive", queue_depth=256)
    h.disk_io["hdisk3"] = _iostat([1072.0, 1175.0, 1147.0])
    h.disk_io["hdisk3"].field_lines = [{"sqfull": 30 + i} for i in range(3)]
    (f,) = run_rule(storage_queue_depth.sqfull_persistent, h)  # at the maximum: no chdev to the same value
    assert "at its maximum 256" in f.message and not f.fix.changes and not any("chdev" in x for x in f.fix.root)
    assert [e.line for e in f.evidence[:2]] == [30, 31]  # the queue line that holds sqfull
    h.wpar_devices.append(SimpleNamespace(wpar="legacy53", device="hdisk3", virtual_device="hdisk1", _evidence=ev(4)))
    h.kernel_queue_depth.append(KernelQueueDepth("hdisk1", "0xF1000A0150618000", 1, ev(8, "kdb.txt")))
    (f,) = run_rule(storage_queue_depth.sqfull_persistent, h)
    assert "kernel runs it with queue_depth 1" in f.message and "WPAR-KERNEL-QDEPTH-MISMATCH" in f.message


def test_wpar_kernel_queue_depth_mismatch_as_in_004():
    h = host("aix4")
    device(h, "hdisk3", "disk", "Virtual SCSI Disk Drive", queue_depth=256)
    h.wpar_devices.append(SimpleNamespace(wpar="legacy53", device="hdisk3", virtual_device="hdisk1", _evidence=ev(4)))
    device(h, "hdisk1", "disk", "Virtual SCSI Disk Drive", queue_depth=32)  # a global disk of the same name
    h.kernel_queue_depth.append(KernelQueueDepth("hdisk1", "0xF1000A0150618000", 32, ev(8, "kdb.txt")))
    h.kernel_queue_depth.append(KernelQueueDepth("hdisk1", "0xF1000A01C014C000", 1, ev(9, "kdb.txt")))
    (f,) = run_rule(wpar_kernel_queue_depth.wpar_kernel_queue_depth, h)
    assert "kernel queue_depth 1 (kernel address 0xF1000A01C014C000)" in f.message and "256" in f.message
    assert f.rule.severity == "critical" and "0x100" in f.fix.root[-1]
    h.kernel_queue_depth[1] = KernelQueueDepth("hdisk1", "0xF1000A01C014C000", 256, ev(9, "kdb.txt"))
    assert run_rule(wpar_kernel_queue_depth.wpar_kernel_queue_depth, h) == []


def test_vios_weight_must_beat_clients():
    from lparscope.model.estate import Estate

    e = Estate()
    e.hosts["vios1"] = host("vios1", "vios", weight=128)
    e.hosts["aix1"] = host("aix1", "aix", weight=200)
    (f,) = run_rule(vios_processor.vios_weight, e)
    assert "aix1 has weight 200" in f.message and "uncap_weight=255" in f.fix.hmc[0]
    assert "uncap_weight=128" in f.rollback.hmc[0]
    e.hosts["vios1"] = host("vios1", "vios", weight=255)
    assert run_rule(vios_processor.vios_weight, e) == []
    e.hosts["vios1"] = host("vios1", "vios", weight=64)
    e.hosts["aix1"] = host("aix1", "aix", weight=32)
    (g,) = run_rule(vios_processor.vios_weight, e)  # beats its clients but sits in the lower half of the range
    assert "upper half" in g.message
