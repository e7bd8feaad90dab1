from lparscope.model.build import apply
from lparscope.rules.ame import amepat as ame_amepat
from lparscope.rules.ame import tunables as ame_tunables
from lparscope.rules.ame import workload as ame_workload
from lparscope.sources import amepat, tunables, vmstat_v

from .conftest import host, run_rule


def feed(h, module, text: str, path: str = "in.txt", offset: int = 0):
    apply(h, module.KIND, module.parse(text), path, offset)
    return h


def report(*, enabled: bool, true_gb: float, factor: float, avail_pct: int, inuse_mb: int, pinned_pct: int,
           file_pct: int, rec_gb: float, rec_factor: float, deficit: str = "") -> str:
    state = "Enabled" if enabled else "Disabled"
    return f"""root@lp7:/ # amepat 20

Command Invoked                : amepat 20

Date/Time of invocation        : Wed Jun  5 14:10:02 CEST 2024
Total Monitored time           : 20 mins 4 secs
Total Samples Collected        : 12

System Configuration:
---------------------
Partition Name                 : lp7
Processor Implementation Mode  : POWER8 Mode
Number Of Logical CPUs         : 32
Processor Entitled Capacity    : 2.00
Processor Max. Capacity        : 4.00
True Memory                    : {true_gb:.2f} GB
SMT Threads                    : 8
Shared Processor Mode          : Enabled-Uncapped
Active Memory Sharing          : Disabled
Active Memory Expansion        : {state}
Target Expanded Memory Size    : {true_gb * factor:.2f} GB
Target Memory Expansion factor : {factor:.2f}

System Resource Statistics:                 Average              Min              Max
---------------------------               -----------        -----------        -----------
CPU Util (Phys. Processors)               1.10 [ 28%]        0.90 [ 22%]        1.40 [ 35%]
Virtual Memory Size (MB)                  4100 [ 25%]        4000 [ 24%]        4210 [ 26%]
True Memory In-Use (MB)                  {inuse_mb:>5} [ 30%]       {inuse_mb - 100:>5} [ 29%]       {inuse_mb:>5} [ 30%]
Pinned Memory (MB)                        1800 [ {pinned_pct}%]        1790 [ {pinned_pct}%]        1810 [ {pinned_pct}%]
File Cache Size (MB)                      2200 [ {file_pct}%]        2100 [ {file_pct}%]        2300 [ {file_pct}%]
Available Memory (MB)                    11000 [ {avail_pct}%]       10800 [ {avail_pct}%]       11200 [ {avail_pct}%]

AME Statistics:                             Average              Min              Max
---------------                           -----------        -----------        -----------
AME CPU Usage  (Phy. Proc Units)          0.05 [  1%]        0.02 [  1%]        0.08 [  2%]
Compressed Memory (MB)                     900 [  5%]         800 [  5%]        1000 [  6%]
Compression Ratio                           2.40               2.30               2.50
{deficit}
Active Memory Expansion Modeled Statistics         :
-------------------------------------------
Modeled Implementation         : POWER8
Modeled Expanded Memory Size   : {true_gb * factor:.2f} GB
Achievable Compression ratio   : 2.40

Expansion    Modeled True      Modeled              CPU Usage
Factor       Memory Size       Memory Gain          Estimate
---------    -------------     ------------------   -----------
     {factor:.2f}         {true_gb:.2f} GB      0.00 KB [  0%]   0.00 [  0%] << CURRENT CONFIG
     {rec_factor:.2f}         {rec_gb:.2f} GB      2.00 GB [ 20%]   0.12 [  3%]

Active Memory Expansion Recommendation:
---------------------------------------
The recommended AME configuration for this workload is to configure the LPAR
with a memory size of {rec_gb:.2f} GB and to configure a memory expansion factor
of {rec_factor:.2f}. This will result in a memory gain of 20%. With this
configuration, the estimated CPU usage due to AME is approximately 0.12
physical processors, and the estimated overall peak CPU resource required for
the LPAR is 1.52 physical processors.
"""


def ame_host():
    return host("lp7", memory_mode="Dedicated-Expanded", ame_factor=1.25, online_memory_mb=16384)


def test_amepat_recommendation_with_ame_on_uses_dlpar():
    h = feed(ame_host(), amepat, report(enabled=True, true_gb=16, factor=1.25, avail_pct=20, inuse_mb=12000,
                                        pinned_pct=11, file_pct=13, rec_gb=14, rec_factor=1.43), "amepat.txt")
    (f,) = run_rule(ame_amepat.amepat_recommendation, h)
    assert f.values["current"] == "16384 MB x 1.25" and f.values["suggested"] == "14336 MB x 1.43"
    assert "1.43: true 14.00 GB" in f.values["modeled"] and "(current)" in f.values["modeled"]
    assert f.fix.hmc[0] == "chhwres -m <managed-system> -r mem -o r -p lp7 -q 2048"
    assert f.fix.hmc[1] == "chhwres -m <managed-system> -r mem -o s -p lp7 -a mem_expansion=1.43"
    assert f.rollback.hmc[1].endswith("mem_expansion=1.25") and f.disruption == ["dlpar"]
    assert f.level == "info" and f.evidence[0].path == "amepat.txt"
    assert run_rule(ame_workload.uncompressible_workload, h) == []  # 11% + 13%
    assert run_rule(ame_amepat.amepat_deficit, h) == [] and run_rule(ame_amepat.lpar_oversized, h) == []


def test_amepat_recommendation_without_ame_is_a_profile_change():
    h = feed(host("lp7", memory_mode="Dedicated", online_memory_mb=16384), amepat,
             report(enabled=False, true_gb=16, factor=1.0, avail_pct=20, inuse_mb=12000, pinned_pct=11,
                    file_pct=13, rec_gb=13, rec_factor=1.23))
    (f,) = run_rule(ame_amepat.amepat_recommendation, h)
    assert "desired_mem=13312,mem_expansion=1.23" in f.fix.hmc[0] and f.disruption == ["restart-needed"]
    assert "desired_mem=16384,mem_expansion=0" in f.rollback.hmc[0]


def test_amepat_deficit_warning():
    deficit = "Deficit Memory Size (MB)                  1500 [  7%]        1200 [  6%]        1800 [  9%]\n"
    h = feed(ame_host(), amepat, report(enabled=True, true_gb=16, factor=1.25, avail_pct=5, inuse_mb=16000,
                                        pinned_pct=11, file_pct=13, rec_gb=18, rec_factor=1.11, deficit=deficit))
    (f,) = run_rule(ame_amepat.amepat_deficit, h)
    assert "1500 MB" in f.message and f.level == "warning"
    assert f.fix.hmc[0] == "chhwres -m <managed-system> -r mem -o a -p lp7 -q 2048"


def test_oversized_lpar_is_sized_before_ame():
    # a 16 GB LPAR with 68% available and at most 4900 MB in use; amepat proposes 8.00
    h = feed(host("lp7", memory_mode="Dedicated", online_memory_mb=16384), amepat,
             report(enabled=False, true_gb=16, factor=1.0, avail_pct=68, inuse_mb=4900, pinned_pct=11,
                    file_pct=13, rec_gb=2, rec_factor=8.0))
    (f,) = run_rule(ame_amepat.lpar_oversized, h)
    # 4900 x 1.3 = 6370 -> 7168 MB (next whole GB)
    assert "about 7168 MB" in f.message and "desired_mem=7168,mem_expansion=0" in f.fix.hmc[0]
    assert run_rule(ame_amepat.amepat_recommendation, h) == []  # the unrealistic pick is not relayed


def test_uncompressible_workload_from_vmstat_v():
    h = feed(ame_host(), vmstat_v, "# vmstat -vc\n 4194304 memory pages\n 1258291 pinned pages\n"
                                   " 45.0 numperm percentage\n")
    (f,) = run_rule(ame_workload.uncompressible_workload, h)
    assert "file cache 45% + pinned 30% = 75%" in f.message and "mem_expansion=0" in f.fix.hmc[0]
    plain = feed(host("lp7", memory_mode="Dedicated"), vmstat_v, "# vmstat -v\n 4194304 memory pages\n"
                                                                 " 1258291 pinned pages\n 45.0 numperm percentage\n")
    assert run_rule(ame_workload.uncompressible_workload, plain) == []  # no AME, no amepat


VMO_AME = """# vmo -L vmm_mpsize_support -L ame_minfree_mem -L ame_maxfree_mem -L ame_cpus_per_pool
NAME                      CUR    DEF    BOOT   MIN    MAX    UNIT           TYPE
     DEPENDENCIES
--------------------------------------------------------------------------------
ame_cpus_per_pool         {cpp:<7}8      {cpp:<7}1      1K     processors     B
--------------------------------------------------------------------------------
ame_maxfree_mem           {maxf:<7}24M    {maxf:<7}320K   16G    bytes          D
     ame_minfree_mem
--------------------------------------------------------------------------------
ame_minfree_mem           {minf:<7}8M     {minf:<7}64K    16383M bytes          D
     ame_maxfree_mem
--------------------------------------------------------------------------------
vmm_mpsize_support        {mps:<7}-1     {mps:<7}-1     3      numeric        B
--------------------------------------------------------------------------------
"""


def vmo(h, cpp="8", maxf="24M", minf="8M", mps="-1"):
    return feed(h, tunables, VMO_AME.format(cpp=cpp, maxf=maxf, minf=minf, mps=mps), "vmo.txt")


def test_64k_compression_under_ame():
    (f,) = run_rule(ame_workload.ame_64k_compression, vmo(ame_host(), mps="1"))
    assert f.fix.root == ["vmo -r -o vmm_mpsize_support=-1", "bosboot -a", "shutdown -Fr"]
    assert f.rollback.root[0] == "vmo -r -o vmm_mpsize_support=1" and f.disruption == ["reboot"]
    assert run_rule(ame_workload.ame_64k_compression, vmo(ame_host())) == []
    assert run_rule(ame_workload.ame_64k_compression, vmo(host("lp7", memory_mode="Dedicated"), mps="1")) == []


def test_ame_tunables_off_default_and_inconsistent():
    (f,) = run_rule(ame_tunables.ame_tunables, vmo(ame_host(), cpp="4"))
    assert f.fix.root == ["vmo -r -d ame_cpus_per_pool", "bosboot -a", "shutdown -Fr"] and f.level == "info"
    assert f.rollback.root[0] == "vmo -r -o ame_cpus_per_pool=4"
    (g,) = run_rule(ame_tunables.ame_tunables, vmo(ame_host(), minf="24M"))
    assert g.level == "warning" and "257 KB" in g.message and "vmo -p -d ame_minfree_mem" in g.fix.root
    assert run_rule(ame_tunables.ame_tunables, vmo(ame_host())) == []
    assert run_rule(ame_tunables.ame_tunables, vmo(host("lp7"), cpp="n/a", maxf="n/a", minf="n/a")) == []
