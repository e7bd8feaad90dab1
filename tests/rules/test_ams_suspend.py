"""AMS, AMD and suspend/resume rules (000 §3.3, §3.4, §3.10): a firing and a quiet case each."""

from __future__ import annotations

from types import SimpleNamespace

from lparscope.model.estate import Evidence, Series, Setting, Sourced
from lparscope.model.frame_memory import SharedMemoryPool, StorageDevice
from lparscope.rules.config import Config
from lparscope.rules.frame.ams import (ams_levels, ams_paging_device, ams_paging_vios_single, ams_pool_overcommit,
                                       amd_levels)
from lparscope.rules.frame.suspend import suspend_rs_device, suspend_vios
from lparscope.rules.memory.ams import ams_hypervisor_paging, ams_io_entitlement, ams_loan_off
from lparscope.sources.tunables import Tunable

from ._frame_builders import estate, ev, frame, part
from .conftest import host


def run(fn, target):
    return list(fn(target, Config()))


def dev(name, vios, size, lpar=None, lpar_id=None, redundant=None):
    return StorageDevice(name, vios, size, lpar, lpar_id, redundant, "Active" if lpar else "Inactive", ev(30))


def ams_frame(*parts, devices=(), size=65536, **kw):
    fr = frame(part("vios1", 1, env="vioserver"), part("vios2", 2, env="vioserver"), *parts, **kw)
    fr.mem_pool = SharedMemoryPool(size_mb=size, max_mb=131072, paging_vios=["vios1", "vios2"], devices=list(devices),
                                   evidence={"size_mb": ev(5), "dedup": ev(5), "paging_vios": ev(5)})
    return fr


def shared(name, id, **kw):
    base = dict(mem_mode="shared", paging_vios=["vios1", "vios2"], mem=16384, mem_max=32768)
    base.update(kw)
    return part(name, id, **base)


def oslevel(h, parts, command="oslevel"):
    rec = SimpleNamespace(command=command, parts=parts, listed=False, release=None, line=1)
    h.records.setdefault("oslevel", []).append(Sourced(rec, f"{h.name}/oslevel.txt", 0))
    return h


def memory_io(h, rows, **config):
    s = Series(config=dict(config))
    for i, r in enumerate(rows):
        s.samples.append(r)
        s.evidence.append(Evidence(f"{h.name}/lparstat_m.txt", 8 + i))
    h.memory_io = s
    return h


# --- FRAME-AMS-PAGING-DEVICE -----------------------------------------------------------------------

def test_paging_device_smaller_than_maximum_and_no_free_device_fires():
    fr = ams_frame(shared("aix3", 3, mem_max=32768), devices=[dev("hdisk12", "vios1", 16384, "aix3", 3),
                                                              dev("hdisk14", "vios1", 20480)])
    [f] = run(ams_paging_device, estate(fr))
    assert "32768 MB" in f.message and "hdisk12 on vios1 (16384 MB)" in f.message
    assert f.fix.hmc[0].startswith("chhwres -r mempool -m p9frame1 -o a --rsubtype pgdev -p vios1 --device")
    assert "-o r --rsubtype pgdev" in f.rollback.hmc[0]


def test_paging_device_large_enough_or_free_device_fits_is_quiet():
    fr = ams_frame(shared("aix3", 3), shared("aix4", 4, state="Not Activated"),
                   devices=[dev("hdisk12", "vios1", 40960, "aix3", 3), dev("hdisk14", "vios1", 32768)])
    assert not run(ams_paging_device, estate(fr))


# --- FRAME-AMS-POOL-OVERCOMMIT ---------------------------------------------------------------------

def test_pool_overcommit_is_a_warning_with_hypervisor_page_ins():
    h = memory_io(host("aix3"), [{"hpi": 12.0}, {"hpi": 0.0}], mpsz="32.00GB")
    fr = ams_frame(shared("aix3", 3, mem=49152, host="aix3"), shared("aix4", 4, mem=32768), size=65536,
                   mem_available=8192)
    [f] = run(ams_pool_overcommit, estate(fr, hosts=[h]))
    assert f.level == "warning" and "81920 MB of logical memory for a 65536 MB pool (1.25x)" in f.message
    assert f.fix.hmc[0] == 'chhwres -r mempool -m p9frame1 -o s -a "pool_mem=73728"'
    assert f.rollback.hmc == ['chhwres -r mempool -m p9frame1 -o s -a "pool_mem=65536"']


def test_pool_overcommit_info_without_measurements_and_quiet_when_pool_covers():
    fr = ams_frame(shared("aix3", 3, mem=49152), shared("aix4", 4, mem=32768), size=65536)
    [f] = run(ams_pool_overcommit, estate(fr))
    assert f.level == "info" and f.fix.hmc[-1].startswith("# the frame has no free memory")
    assert not run(ams_pool_overcommit, estate(ams_frame(shared("aix3", 3, mem=32768), size=65536)))


# --- FRAME-AMS-PAGING-VIOS-SINGLE ------------------------------------------------------------------

def test_single_paging_vios_with_two_vios_fires():
    fr = ams_frame(shared("aix4", 4, paging_vios=["vios1"]))
    [f] = run(ams_paging_vios_single, estate(fr))
    assert "secondary_paging_vios_name=vios2" in " ".join(f.fix.hmc)
    assert "secondary_paging_vios_name=none" in " ".join(f.rollback.hmc)


def test_two_paging_vios_or_one_vios_frame_is_quiet():
    assert not run(ams_paging_vios_single, estate(ams_frame(shared("aix3", 3))))
    fr = frame(part("vios1", 1, env="vioserver"), shared("aix4", 4, paging_vios=["vios1"]))
    assert not run(ams_paging_vios_single, estate(fr))


# --- FRAME-AMS-LEVELS --------------------------------------------------------------------------------

def test_ams_levels_client_and_paging_vios_below_requirement():
    old = oslevel(host("aix3"), (6100, 3))  # 6.1 TL3: enough on POWER6, not on POWER7
    vios = host("vios1", role="vios")
    vios.levels["ioslevel"] = Setting("2.1.2.10-FP-22", Evidence("vios1/ioslevel.txt", 1))
    fr = ams_frame(shared("aix3", 3, host="aix3"), model="8233-E8B")  # Power 750: POWER7
    fr.partitions["vios1"].host = "vios1"
    found = run(ams_levels, estate(fr, hosts=[old, vios]))
    assert sorted(f.subject for f in found) == ["AIX level", "ioslevel"]
    assert any("AIX 6.1 TL4" in f.message for f in found) and any("2.1.3.10" in f.message for f in found)


def test_ams_levels_quiet_at_the_required_levels():
    ok = oslevel(host("aix3"), (7100, 5))
    vios = host("vios1", role="vios")
    vios.levels["ioslevel"] = Setting("2.2.6.65", Evidence("vios1/ioslevel.txt", 1))
    fr = ams_frame(shared("aix3", 3, host="aix3"), model="8233-E8B")
    fr.partitions["vios1"].host = "vios1"
    assert not run(ams_levels, estate(fr, hosts=[ok, vios]))


# --- FRAME-AMD-LEVELS --------------------------------------------------------------------------------

def test_amd_on_with_old_aix_and_firmware_fires():
    h = oslevel(host("aix3"), (6100, 6))
    h.firmware["system"] = Setting("AL730_087", Evidence("aix3/lsmcode.txt", 1))
    fr = ams_frame(shared("aix3", 3, host="aix3"), model="8233-E8B")
    fr.mem_pool.dedup = True
    [f] = run(amd_levels, estate(fr, hosts=[h]))
    assert "AIX 6.1 TL6" in f.message and "FW740" in f.message


def test_amd_quiet_when_off_or_levels_met():
    h = oslevel(host("aix3"), (7100, 3))
    fr = ams_frame(shared("aix3", 3, host="aix3"), model="8233-E8B")
    fr.mem_pool.dedup = True
    assert not run(amd_levels, estate(fr, hosts=[h]))
    old = oslevel(host("aix3"), (6100, 6))
    fr.mem_pool.dedup = False
    assert not run(amd_levels, estate(fr, hosts=[old]))


# --- MEM-AMS-HYPERVISOR-PAGING / MEM-AMS-IO-ENTITLEMENT ----------------------------------------------

def test_hypervisor_paging_fires_on_page_ins_in_many_samples():
    h = memory_io(host("aix3"), [{"hpi": 14.0, "hpit": 22.0, "loan": 1.3}, {"hpi": 0.0, "hpit": 0.0, "loan": 1.3},
                                 {"hpi": 31.0, "hpit": 48.0, "loan": 1.4}], mmode="shared", mpsz="32.00GB")
    [f] = run(ams_hypervisor_paging, h)
    assert "2 of 3 samples" in f.message and "70 ms" in f.message and "1.40 GB" in f.message
    assert "mem_mode=ded" in " ".join(f.fix.hmc)


def test_hypervisor_paging_quiet_when_rare_or_dedicated():
    rare = memory_io(host("aix3"), [{"hpi": 3.0}] + [{"hpi": 0.0}] * 9, mpsz="32.00GB")
    assert not run(ams_hypervisor_paging, rare)
    ded = memory_io(host("aix4"), [{"hpi": 5.0}] * 3, mmode="Ded")
    assert not run(ams_hypervisor_paging, ded)


def test_io_entitlement_failures_fire_and_propose_auto():
    h = memory_io(host("aix3"), [{"iomaf": 0.0, "iohwm": 24.1}, {"iomaf": 3.0, "iohwm": 511.0}],
                  mpsz="32.00GB", iome="512.00MB")
    [f] = run(ams_io_entitlement, h)
    assert "3 times in 1 of 2 samples" in f.message and "desired_io_entitled_mem=auto" in " ".join(f.fix.hmc)
    assert "desired_io_entitled_mem=512" in " ".join(f.rollback.hmc)


def test_io_entitlement_quiet_without_failures():
    h = memory_io(host("aix3"), [{"iomaf": 0.0}, {"iomaf": 0.0}], mpsz="32.00GB", iome="512.00MB")
    assert not run(ams_io_entitlement, h)


# --- FRAME-SUSPEND-RS-DEVICE / FRAME-SUSPEND-VIOS ----------------------------------------------------

def test_suspend_capable_partition_without_a_large_enough_device_fires():
    fr = frame(part("vios1", 1, env="vioserver"), part("vios2", 2, env="vioserver"),
               part("aix5", 5, mem_max=65536, suspend_capable=True), part("aix6", 6, mem_max=16384, suspend_capable=True))
    fr.rs_devices = [dev("hdisk20", "vios1", 16384, redundant="vios2"), dev("hdisk21", "vios1", 32768, redundant="vios2")]
    [f] = run(suspend_rs_device, estate(fr))
    assert f.host == "aix5" and "65536 MB" in f.message
    assert f.fix.hmc[0].startswith("chhwres -r rspool -m p9frame1 -o a --rsubtype rsdev -p vios1 --device")


def test_suspend_devices_enough_is_quiet():
    fr = frame(part("vios1", 1, env="vioserver"), part("aix5", 5, mem_max=65536, suspend_capable=True),
               part("aix6", 6, mem_max=16384, suspend_capable=False))
    fr.rs_devices = [dev("hdisk21", "vios1", 65536, "aix5", 5), dev("hdisk20", "vios1", 8192)]
    assert not run(suspend_rs_device, estate(fr))


def test_suspend_vios_single_path_devices_and_old_level_fire():
    vios = host("vios1", role="vios")
    vios.levels["ioslevel"] = Setting("2.2.0.10-FP-24", Evidence("vios1/ioslevel.txt", 1))
    fr = frame(part("vios1", 1, env="vioserver", host="vios1"), part("vios2", 2, env="vioserver"))
    fr.rs_devices = [dev("hdisk20", "vios1", 16384)]
    found = run(suspend_vios, estate(fr, hosts=[vios]))
    assert sorted(f.subject for f in found) == ["ioslevel", "reserved storage devices"]


def test_suspend_vios_redundant_and_current_is_quiet():
    vios = host("vios1", role="vios")
    vios.levels["ioslevel"] = Setting("3.1.4.30", Evidence("vios1/ioslevel.txt", 1))
    fr = frame(part("vios1", 1, env="vioserver", host="vios1"), part("vios2", 2, env="vioserver"))
    fr.rs_devices = [dev("hdisk20", "vios1", 16384, redundant="vios2")]
    assert not run(suspend_vios, estate(fr, hosts=[vios]))


# --- MEM-AMS-LOAN-OFF --------------------------------------------------------------------------------

def vmo(h, name, current, default="1"):
    h.records.setdefault("tunables", []).append(Sourced(Tunable("vmo", name, current, default, line=4), f"{h.name}/vmo_L.txt", 0))
    return h


def test_loan_policy_off_in_shared_memory_fires():
    h = vmo(host("aix3", memory_mode="Shared"), "ams_loan_policy", "0")
    [f] = run(ams_loan_off, h)
    assert f.fix.root == ["vmo -p -o ams_loan_policy=1"] and f.rollback.root == ["vmo -p -o ams_loan_policy=0"]


def test_loan_policy_quiet_when_on_or_dedicated_memory():
    assert not run(ams_loan_off, vmo(host("aix3", memory_mode="Shared"), "ams_loan_policy", "1"))
    assert not run(ams_loan_off, vmo(host("aix4", memory_mode="Dedicated"), "ams_loan_policy", "0"))
