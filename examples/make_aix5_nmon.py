"""Write examples/estate/aix5/aix5_day.nmon: one day of an invented AIX LPAR, as topas_nmon records it.

The shape follows 000_31a80e54567cd02b.txt §3.1 Figure 3-1 at a smaller scale: quiet at night,
a working day from 08:00 to 18:30 whose average use is 2.5 cores with a peak of 3.6. The LPAR
runs with EC 1.00 and 6 virtual processors in a 16-core pool, so lparscope's sizing has
something to say. Deterministic (fixed seed): run it again and the file is the same.

    python examples/make_aix5_nmon.py
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np

OUT = Path(__file__).parent / "estate" / "aix5" / "aix5_day.nmon"
HOST, EC, VPS, POOL, LCPU, MEM_MB = "aix5", 1.00, 6, 16, 24, 32768
INTERVAL, SNAPSHOTS = 300, 288
START = dt.datetime(2026, 11, 2, 0, 0, 1)
DISKS = ["hdisk0", "hdisk1", "hdisk2", "hdisk3"]

LPARSTAT_I = [
    ("Node Name", HOST), ("Partition Name", HOST), ("Partition Number", "8"), ("Type", "Shared-SMT-4"),
    ("Mode", "Uncapped"), ("Entitled Capacity", f"{EC:.2f}"), ("Partition Group-ID", "32776"),
    ("Shared Pool ID", "0"), ("Online Virtual CPUs", str(VPS)), ("Maximum Virtual CPUs", "8"),
    ("Minimum Virtual CPUs", "1"), ("Online Memory", f"{MEM_MB} MB"), ("Maximum Memory", "65536 MB"),
    ("Minimum Memory", "8192 MB"), ("Variable Capacity Weight", "128"), ("Minimum Capacity", "0.10"),
    ("Maximum Capacity", "6.00"), ("Capacity Increment", "0.01"), ("Maximum Physical CPUs in system", "24"),
    ("Active Physical CPUs in system", "20"), ("Active CPUs in Pool", str(POOL)),
    ("Shared Physical CPUs in system", "16"), ("Maximum Capacity of Pool", "1600"),
    ("Entitled Capacity of Pool", "750"), ("Unallocated Capacity", "0.00"), ("Physical CPU Percentage", "16.67%"),
    ("Unallocated Weight", "0"), ("Memory Mode", "Dedicated"), ("Total I/O Memory Entitlement", "-"),
    ("Desired Virtual CPUs", str(VPS)), ("Desired Memory", f"{MEM_MB} MB"),
    ("Desired Variable Capacity Weight", "128"), ("Desired Capacity", f"{EC:.2f}"),
]


def physc_day(rng: np.random.Generator) -> np.ndarray:
    """Physical cores used per 5-minute snapshot: night ~0.4, day average 2.5 with a peak of 3.6."""
    minutes = np.arange(SNAPSHOTS) * INTERVAL / 60
    day = (minutes >= 8 * 60) & (minutes < 18 * 60 + 30)
    values = np.where(day, 2.5 + 0.55 * np.sin(minutes / 47.0) + rng.normal(0, 0.12, SNAPSHOTS),
                      0.4 + rng.normal(0, 0.05, SNAPSHOTS))
    values = np.clip(values, 0.05, 3.5)
    idx = np.flatnonzero(day)
    values[idx] += 2.5 - values[idx].mean()  # the day's average is exactly 2.5
    values[idx[len(idx) // 2]] = 3.6  # and its peak 3.6
    return np.round(values, 3)


def main() -> None:
    rng = np.random.default_rng(5)
    physc = physc_day(rng)
    lines = [
        "AAA,progname,topas_nmon",
        f"AAA,command,/usr/bin/topas_nmon -f -d -s {INTERVAL} -c {SNAPSHOTS} -youtput_dir=/perf/nmon",
        "AAA,version,TOPAS-NMON", "AAA,build,AIX", "AAA,disks_per_line,150", f"AAA,host,{HOST}", "AAA,user,root",
        "AAA,AIX,7.2.5.6", "AAA,TL,05", f"AAA,runname,{HOST}", "AAA,time,00:00:01", "AAA,date,02-NOV-2026",
        f"AAA,interval,{INTERVAL}", f"AAA,snapshots,{SNAPSHOTS}",
        "AAA,hardware,Architecture PowerPC Implementation POWER9 64 bit", f"AAA,cpus,{LCPU},{LCPU}",
        "AAA,SerialNumber,784C1D0", f"AAA,LPARNumberName,8,{HOST}", "AAA,MachineType,IBM,9009-42A",
        f"AAA,NodeName,{HOST}", "AAA,timestampsize,0",
        "BBBB,0000,name,size(GB),disc attach type",
        *[f"BBBB,{i + 1:04d},{d},100,Virtual SCSI Disk Drive" for i, d in enumerate(DISKS)],
        "BBBP,000,lparstat -i",
        *[f'BBBP,{i + 1:03d},lparstat -i,"{k:<43}: {v}"' for i, (k, v) in enumerate(LPARSTAT_I)],
        f"CPU_ALL,CPU Total {HOST},User%,Sys%,Wait%,Idle%,Busy,PhysicalCPUs",
        f"LPAR,Logical Partition {HOST},PhysicalCPU,virtualCPUs,logicalCPUs,poolCPUs,entitled,weight,PoolIdle,"
        "usedAllCPU%,usedPoolCPU%,SharedCPU,Capped,EC_User%,EC_Sys%,EC_Wait%,EC_Idle%,VP_User%,VP_Sys%,VP_Wait%,"
        "VP_Idle%,Folded,Pool_id",
        f"MEM,Memory {HOST},Real Free %,Virtual free %,Real free(MB),Virtual free(MB),Real total(MB),Virtual total(MB)",
        f"MEMNEW,Memory New {HOST},Process%,FScache%,System%,Free%,Pinned%,User%",
        f"PAGE,Paging {HOST},faults,pgin,pgout,pgsin,pgsout,reclaims,scans,cycles",
        f"PROC,Processes {HOST},Runnable,Swap-in,pswitch,syscall,read,write,fork,exec,sem,msg",
        f"DISKBUSY,Disk %Busy {HOST}," + ",".join(DISKS),
        f"NET,Network I/O {HOST},en0-read-KB/s,en0-write-KB/s,lo0-read-KB/s,lo0-write-KB/s",
    ]
    for n in range(SNAPSHOTS):
        t = f"T{n + 1:04d}"
        when = START + dt.timedelta(seconds=n * INTERVAL)
        pc = float(physc[n])
        busy = min(pc / VPS * 100, 99.0)
        user, sys_ = round(busy * 0.8, 1), round(busy * 0.2, 1)
        pool_idle = round(max(POOL - 7.5 - pc - rng.uniform(0, 1.5), 0.0), 3)
        runq = max(1, int(pc * 2 + rng.integers(0, 3)))
        disk = [round(min(99.0, pc * k + rng.uniform(0, 4)), 1) for k in (3, 12, 8, 1)]
        free = round(22 - pc * 2 + rng.uniform(-0.5, 0.5), 1)
        lines += [
            f"ZZZZ,{t},{when:%H:%M:%S},{when.strftime('%d-%b-%Y').upper()}",
            f"CPU_ALL,{t},{user},{sys_},0.4,{round(100 - user - sys_ - 0.4, 1)},,{LCPU}",
            f"LPAR,{t},{pc:.3f},{VPS},{LCPU},{POOL},{EC:.2f},128,{pool_idle},{pc / POOL * 100:.2f},"
            f"{pc / POOL * 100:.2f},1,0,{user},{sys_},0.3,{max(0.0, 100 - user - sys_):.1f},"
            f"{user * EC / VPS:.2f},{sys_ * EC / VPS:.2f},0.1,{100 - busy:.1f},0,0",
            f"MEM,{t},{free},97.0,{free * MEM_MB / 100:.1f},8000.0,{MEM_MB}.0,8192.0",
            f"MEMNEW,{t},{round(48 + pc * 3, 1)},{round(100 - free - 48 - pc * 3 - 6, 1)},6.0,{free},9.5,{round(40 + pc * 3, 1)}",
            f"PAGE,{t},{int(2000 + pc * 900)},{int(pc * 40)},{int(pc * 60)},0.0,0.0,0,0,0",
            f"PROC,{t},{runq},0,{int(5000 + pc * 3000)},{int(20000 + pc * 9000)},{int(900 * pc)},{int(700 * pc)},2,2,0,0",
            f"DISKBUSY,{t}," + ",".join(str(d) for d in disk),
            f"NET,{t},{round(pc * 2200, 1)},{round(pc * 1800, 1)},1.2,1.2",
        ]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(lines)} lines, day average {physc[96:222].mean():.2f}, peak {physc.max():.2f}")


if __name__ == "__main__":
    main()
