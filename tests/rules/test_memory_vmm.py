from lparscope.model.build import apply
from lparscope.rules.config import Config
from lparscope.rules.memory import maximum as memory_maximum
from lparscope.rules.memory import paging as memory_paging
from lparscope.rules.memory import pinned as memory_pinned
from lparscope.rules.memory import vmm as memory_vmm
from lparscope.sources import levels, lparstat_info, tunables, vmstat_s, vmstat_v

from .conftest import host, run_rule


def feed(h, module, text: str, path: str = "in.txt", offset: int = 0):
    apply(h, module.KIND, module.parse(text), path, offset)
    return h


VMO_L = """# vmo -L minperm% -L maxperm% -L maxclient% -L lru_file_repage -L page_steal_method -L minfree -L maxfree
NAME                      CUR    DEF    BOOT   MIN    MAX    UNIT           TYPE
     DEPENDENCIES
--------------------------------------------------------------------------------
maxclient%                {maxclient:<7}90     {maxclient:<7}1      100    % memory       D
--------------------------------------------------------------------------------
maxfree                   {maxfree:<7}1088   {maxfree:<7}16     838861 4KB pages      D
--------------------------------------------------------------------------------
maxperm%                  {maxperm:<7}90     {maxperm:<7}1      100    % memory       D
--------------------------------------------------------------------------------
minfree                   {minfree:<7}960    {minfree:<7}8      838861 4KB pages      D
--------------------------------------------------------------------------------
minperm%                  {minperm:<7}3      {minperm:<7}1      100    % memory       D
--------------------------------------------------------------------------------
page_steal_method         {psm:<7}1      {psm:<7}0      1      boolean        B
--------------------------------------------------------------------------------
"""


def vmo(h, minperm=3, maxperm=90, maxclient=90, psm=1, minfree=960, maxfree=1088):
    return feed(h, tunables, VMO_L.format(minperm=minperm, maxperm=maxperm, maxclient=maxclient, psm=psm,
                                          minfree=minfree, maxfree=maxfree), "vmo.txt")


def test_max_over_64x_initial_is_a_warning():
    # activated with 1024 MB (= min): DLPAR reaches 65536 MB, the maximum 131072 is out of reach
    h = host(min_memory_mb=1024, online_memory_mb=1024, max_memory_mb=131072)
    (f,) = run_rule(memory_maximum.max_over_64x_min, h)
    assert f.level == "warning" and "64x = 65536 MB" in f.message
    assert "max_mem=65536" in f.fix.hmc[0] and "max_mem=131072" in f.rollback.hmc[0]
    assert f.values["suggested"] == "max 65536 MB" and f.disruption == ["restart-needed"]
    assert run_rule(memory_maximum.max_over_64x_min, host(min_memory_mb=4096, online_memory_mb=16384, max_memory_mb=262144)) == []


def test_max_over_64x_min_only_is_advisory_and_reads_desired_memory():
    text = ("# lparstat -i\nNode Name : lp1\nType : Shared-SMT-8\nMode : Uncapped\nEntitled Capacity : 1.00\n"
            "Online Virtual CPUs : 2\nOnline Memory : 43008 MB\nMaximum Memory : 65536 MB\n"
            "Minimum Memory : 256 MB\nDesired Memory : 43008 MB\n")
    h = host("lp1", role="aix")
    apply(h, lparstat_info.KIND, lparstat_info.parse(text), "lparstat_i.txt", 0)
    (f,) = run_rule(memory_maximum.max_over_64x_min, h)
    # min 256 MB -> 64x = 16384 MB < online 43008: raise min to 65536 / 64 = 1024 MB
    assert f.level == "info" and "min_mem=1024" in f.fix.hmc[0] and "min_mem=256" in f.rollback.hmc[0]
    assert any(e.line == 10 for e in f.evidence)  # Desired Memory line


def test_max_over_16x_small_min():
    (f,) = run_rule(memory_maximum.max_over_64x_min, host(min_memory_mb=128, online_memory_mb=4096, max_memory_mb=8192))
    assert "16x = 2048 MB" in f.message and "min_mem=256" in f.fix.hmc[0] and f.level == "info"


def test_vmm_legacy_tunables_from_aix53():
    h = vmo(host(), minperm=20, maxperm=80, maxclient=80, psm=0)
    feed(h, levels, "# oslevel -s\n7100-05-10-2220\n", "oslevel.txt")
    (f,) = run_rule(memory_vmm.vmm_legacy, h)
    assert f.level == "warning" and "minperm%=20 (default 3)" in f.message
    assert "vmo -p -d minperm%" in f.fix.root and "vmo -r -d page_steal_method" in f.fix.root
    assert "bosboot -a" in f.fix.root and f.disruption == ["reboot"]
    assert "vmo -p -o maxperm%=80" in f.rollback.root and "vmo -r -o page_steal_method=0" in f.rollback.root
    v = vmo(host("vios1", "vios"), minperm=5)
    (g,) = run_rule(memory_vmm.vmm_legacy, v)
    assert g.level == "info" and g.fix.padmin[0] == "oem_setup_env" and g.disruption == []


def test_vmm_defaults_quiet_and_vmstat_v_fallback():
    assert run_rule(memory_vmm.vmm_legacy, vmo(host())) == []
    h = feed(host(), vmstat_v, "# vmstat -v\n 4194304 memory pages\n 20.0 minperm percentage\n"
                               " 50.0 maxperm percentage\n 50.0 maxclient percentage\n")
    (f,) = run_rule(memory_vmm.vmm_legacy, h)
    assert f.level == "warning" and "maxclient%=50" in f.message and f.evidence[0].line == 3


def test_free_gap_below_readahead():
    h = vmo(host(), minfree=960, maxfree=1024)
    feed(h, tunables, "# ioo -o j2_maxPageReadAhead\nj2_maxPageReadAhead = 256\n", "ioo.txt")
    (f,) = run_rule(memory_vmm.free_gap_below_readahead, h)
    assert "= 64 pages, below j2_maxPageReadAhead 256" in f.message
    assert f.fix.root == ["vmo -p -o maxfree=1216"] and f.rollback.root == ["vmo -p -o maxfree=1024"]
    assert run_rule(memory_vmm.free_gap_below_readahead, vmo(host())) == []  # 1088 - 960 = 128 = default read-ahead


VMSTAT_S = """# vmstat -s
           2811940375 total address trans. faults
             48212077 page ins
             21994310 page outs
              {pi:>7} paging space page ins
              {po:>7} paging space page outs
                    0 total reclaims
"""


def test_paging_growth_between_snapshots_is_a_warning():
    h = feed(host(online_memory_mb=16384), vmstat_s, VMSTAT_S.format(pi=100, po=200), "s1.txt")
    feed(h, vmstat_s, VMSTAT_S.format(pi=150, po=900), "s2.txt")
    (f,) = run_rule(memory_paging.paging_space_activity, h)
    assert "grew by 750" in f.message and f.level == "warning"
    assert "-o a -p aix1 -q 4096" in f.fix.hmc[0] and "desired_mem=20480" in f.fix.hmc[1]
    assert "-o r -p aix1 -q 4096" in f.rollback.hmc[0]
    assert {e.path for e in f.evidence} == {"s1.txt", "s2.txt"}


def test_paging_since_boot_info_or_quiet():
    h = feed(host(), vmstat_s, VMSTAT_S.format(pi=20000, po=30000))
    (f,) = run_rule(memory_paging.paging_space_activity, h)
    assert f.level == "info" and "50000" in f.message
    assert run_rule(memory_paging.paging_space_activity, feed(host(), vmstat_s, VMSTAT_S.format(pi=0, po=12))) == []
    h2 = feed(host(), vmstat_s, VMSTAT_S.format(pi=5, po=5), "s1.txt")
    feed(h2, vmstat_s, VMSTAT_S.format(pi=5, po=5), "s2.txt")
    assert run_rule(memory_paging.paging_space_activity, h2) == []


def test_pinned_near_maxpin():
    text = "# vmstat -v\n 1000000 memory pages\n 400000 lruable pages\n {pin} pinned pages\n 80.0 maxpin percentage\n"
    (f,) = run_rule(memory_pinned.pinned_near_maxpin, feed(host(), vmstat_v, text.format(pin=760000)))
    assert "76.0%" in f.message and f.level == "info" and "svmon -G -O unit=MB" in f.fix.root[0]
    assert run_rule(memory_pinned.pinned_near_maxpin, feed(host(), vmstat_v, text.format(pin=500000))) == []
    cfg = Config()
    cfg.thresholds[memory_pinned.PINNED_SHARE] = 0.5
    assert run_rule(memory_pinned.pinned_near_maxpin, feed(host(), vmstat_v, text.format(pin=500000)), cfg)
