"""Generate a large, realistic AIX topas_nmon recording (deterministic for a given seed).

The file has what a real ``topas_nmon -f -s 60`` recording of a busy shared LPAR holds:
the AAA header, BBB* configuration (disks, adapters, LPAR, and a BBBP block with
``lparstat -i``, ``vmstat -v``, ``vmo -F -L`` and ``lsattr -El sys0``), one header line
per section, then per 1-minute snapshot a ZZZZ line and the rows of CPUnn, CPU_ALL,
PCPU/SCPU, LPAR, POOLS, MEM, MEMNEW, MEMUSE, PAGE, PAGING, PROC, FILE, NET*, SEA*,
FC*, IOADAPT, hundreds of disks split over DISK*, DISK*1, DISK*2 ... (``disks_per_line``),
VG*, JFSFILE/JFSINODE, TOP and UARG::

    python bench/nmon_gen.py /tmp/big.nmon --size-mb 220 --disks 400 --seed 1

Snapshots are written until the file reaches ``--size-mb`` (or ``--snapshots`` if given).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

import numpy as np

HOST = "aixprod01"
DISK_SECTIONS = [
    ("DISKBUSY", "Disk %Busy", 0, 1000),
    ("DISKREAD", "Disk Read KB/s", 0, 400000),
    ("DISKWRITE", "Disk Write KB/s", 0, 300000),
    ("DISKXFER", "Disk transfers per second", 0, 20000),
    ("DISKRXFER", "Transfers from disk (reads) per second", 0, 10000),
    ("DISKBSIZE", "Disk Block Size", 40, 2560),
    ("DISKRIO", "Disk IO Reads per second", 0, 10000),
    ("DISKWIO", "Disk IO Writes per second", 0, 10000),
    ("DISKAVGRIO", "Disk IO Average Reads per second", 0, 50000),
    ("DISKAVGWIO", "Disk IO Average Writes per second", 0, 50000),
    ("DISKSERV", "Disk Service Time msec/xfer", 0, 300),
    ("DISKREADSERV", "Disk Read Service Time msec/xfer", 0, 300),
    ("DISKWRITESERV", "Disk Write Service Time msec/xfer", 0, 300),
    ("DISKWAIT", "Disk Wait Queue Time msec/xfer", 0, 100),
]
PROCS = ["oracle", "db2sysc", "java", "sshd", "syncd", "j2pg", "lrud", "psmd", "xmgc", "gil",
         "topas_nmon", "rpc.lockd", "nfsd", "biod", "sendmail", "cron", "srcmstr", "tsm", "dsmc", "sapstart"]

LPARSTAT_I = """Node Name                                  : aixprod01
Partition Name                             : aixprod01
Partition Number                           : 12
Type                                       : Shared-SMT-4
Mode                                       : Uncapped
Entitled Capacity                          : 4.00
Partition Group-ID                         : 32780
Shared Pool ID                             : 0
Online Virtual CPUs                        : 8
Maximum Virtual CPUs                       : 16
Minimum Virtual CPUs                       : 1
Online Memory                              : 131072 MB
Maximum Memory                             : 262144 MB
Minimum Memory                             : 4096 MB
Variable Capacity Weight                   : 128
Minimum Capacity                           : 0.10
Maximum Capacity                           : 16.00
Capacity Increment                         : 0.01
Maximum Physical CPUs in system            : 64
Active Physical CPUs in system             : 64
Active CPUs in Pool                        : 48
Shared Physical CPUs in system             : 48
Maximum Capacity of Pool                   : 4800
Entitled Capacity of Pool                  : 3600
Unallocated Capacity                       : 0.00
Physical CPU Percentage                    : 50.00%
Unallocated Weight                         : 0
Memory Mode                                : Dedicated
Total I/O Memory Entitlement               : -
Variable Memory Capacity Weight            : -
Memory Pool ID                             : -
Physical Memory in the Pool                : -
Hypervisor Page Size                       : -
Unallocated Variable Memory Capacity Weight: -
Unallocated I/O Memory entitlement         : -
Memory Group ID of LPAR                    : -
Desired Virtual CPUs                       : 8
Desired Memory                             : 131072 MB
Desired Variable Capacity Weight           : 128
Desired Capacity                           : 4.00
Target Memory Expansion Factor             : -
Target Memory Expansion Size               : -
Power Saving Mode                          : Disabled"""

VMSTAT_V = """             33554432 memory pages
             32174080 lruable pages
              1203117 free pages
                    8 memory pools
              3092110 pinned pages
                 90.0 maxpin percentage
                  3.0 minperm percentage
                 90.0 maxperm percentage
                 61.2 numperm percentage
             19701733 file pages
                  0.0 compressed percentage
                    0 compressed pages
                 61.2 numclient percentage
                 90.0 maxclient percentage
             19701733 client pages
                    0 remote pageouts scheduled
                  112 pending disk I/Os blocked with no pbuf
                    0 paging space I/Os blocked with no psbuf
                 2228 filesystem I/Os blocked with no fsbuf
                    0 client filesystem I/Os blocked with no fsbuf
                 5214 external pager filesystem I/Os blocked with no fsbuf
                 62.0 percentage of memory used for computational pages"""

VMO_FL = """NAME                      CUR    DEF    BOOT   MIN    MAX    UNIT           TYPE
     DEPENDENCIES
--------------------------------------------------------------------------------
maxfree                   1088   1088   1088   16     32768K 4KB pages         D
     minfree
     memory_frames
--------------------------------------------------------------------------------
minfree                   960    960    960    8      32768K 4KB pages         D
     maxfree
     memory_frames
--------------------------------------------------------------------------------
minperm%                  3      3      3      1      100    % memory          D
     maxperm%
--------------------------------------------------------------------------------
maxperm%                  90     90     90     1      100    % memory          D
     minperm%
     maxclient%
--------------------------------------------------------------------------------
lru_file_repage           0      0      0      0      1      boolean           D
--------------------------------------------------------------------------------"""

LSATTR_SYS0 = """SW_dist_intr    false              Enable SW distribution of interrupts              True
autorestart     true               Automatically REBOOT OS after a crash             True
iostat          false              Continuously maintain DISK I/O history            True
maxpout         8193               HIGH water mark for pending write I/Os per file   True
maxuproc        16384              Maximum number of PROCESSES allowed per user      True
minpout         4096               LOW water mark for pending write I/Os per file    True
realmem         134217728          Amount of usable physical memory in Kbytes        False"""


def _fmt_table(decimals: int, top: int) -> list[str]:
    scale = 10 ** decimals
    return [f"{i / scale:.{decimals}f}" for i in range(top + 1)]


class Gen:
    def __init__(self, seed: int, disks: int, lcpus: int, per_line: int, procs: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.disks = [f"hdisk{i}" for i in range(disks)]
        self.lcpus = lcpus
        self.per_line = per_line
        self.procs = procs
        self.t1 = _fmt_table(1, 100000)  # "0.0" .. "10000.0"
        self.t2 = _fmt_table(2, 10000)   # "0.00" .. "100.00"
        self.nets = ["en0", "en1", "lo0"]
        self.fcs = ["fcs0", "fcs1", "fcs2", "fcs3"]
        self.fs = ["/", "/home", "/usr", "/var", "/tmp", "/admin", "/opt", "/oracle", "/oradata01", "/oradata02",
                   "/oraarch", "/backup"]
        self.vgs = ["rootvg", "oravg", "datavg01", "datavg02", "archvg"]
        self.pids = self.rng.integers(100000, 60000000, size=procs * 3)

    def vals(self, n: int, lo: float, hi: float, table: list[str], scale: int) -> str:
        v = self.rng.integers(int(lo * scale), int(hi * scale) + 1, size=n)
        # Mostly idle devices: a realistic share of zeros.
        v[self.rng.random(n) < 0.35] = 0
        v = np.minimum(v, len(table) - 1)
        return ",".join([table[i] for i in v.tolist()])

    def header(self, snapshots: int, start: dt.datetime) -> str:
        out: list[str] = []
        a = out.append
        a("AAA,progname,topas_nmon")
        a(f"AAA,command,/usr/bin/topas_nmon -f -d -s 60 -c {snapshots} -youtput_dir=/perf/nmon -ystart_time={start:%H:%M:%S},{start:%b%d},{start:%Y} ")
        a("AAA,version,TOPAS-NMON")
        a("AAA,build,AIX")
        a(f"AAA,disks_per_line,{self.per_line}")
        a(f"AAA,host,{HOST}")
        a("AAA,user,root")
        a("AAA,AIX,7.2.5.4")
        a("AAA,TL,05")
        a(f"AAA,runname,{HOST}")
        a(f"AAA,time,{start:%H:%M:%S}")
        a(f"AAA,date,{start:%d-%b-%Y}".upper().replace("AAA,DATE", "AAA,date"))
        a("AAA,interval,60")
        a(f"AAA,snapshots,{snapshots}")
        a("AAA,hardware,Architecture PowerPC Implementation POWER9 64 bit")
        a("AAA,SubprocessorMode , ST=1,SMT2=0,SMT4=1")
        a(f"AAA,cpus,64,{self.lcpus}")
        a("AAA,kernel, HW-type=CHRP=Common H/W Reference Platform Bus=PCI LPAR=Dynamic Multi-Processor 64 bit")
        a("AAA,SerialNumber,78A1B2C")
        a(f"AAA,LPARNumberName,12,{HOST}")
        a("AAA,MachineType,IBM,9009-42A")
        a(f"AAA,NodeName,{HOST}")
        a("AAA,timestampsize,0")
        a("AAA,note0, Warning - use the UNIX sort command to order this file before loading into a spreadsheet")
        a("AAA,note1, The First Column is simply to get the output sorted in the right order")
        a("AAA,note2, The T0001-T9999 column is a snapshot number. To work out the actual time; see the ZZZ section at the end")
        a("BBBB,0000,name,size(GB),disc attach type")
        for i, d in enumerate(self.disks):
            a(f"BBBB,{i + 1:04d},{d},{50 + (i % 7) * 50},MPIO IBM 2076 FC Disk")
        n = 0
        for cmd, text in (("lparstat -i", LPARSTAT_I), ("vmstat -v", VMSTAT_V), ("vmo -F -L", VMO_FL),
                          ("lsattr -El sys0", LSATTR_SYS0)):
            a(f"BBBP,{n:03d},{cmd}")
            n += 1
            for line in text.splitlines():
                if line.startswith("---"):
                    line = "n" + line[1:]  # how topas_nmon writes the -F -L separators
                a(f'BBBP,{n:03d},{cmd},"{line}"')
                n += 1
        for i in range(1, self.lcpus + 1):
            a(f"CPU{i:02d},CPU {i} {HOST},User%,Sys%,Wait%,Idle%")
        a(f"CPU_ALL,CPU Total {HOST},User%,Sys%,Wait%,Idle%,Busy,PhysicalCPUs")
        for p in ("PCPU", "SCPU"):
            for i in range(1, self.lcpus + 1):
                a(f"{p}{i:02d},{p} {i} {HOST},User ,Sys ,Wait ,Idle ")
            a(f"{p}_ALL,{p} Total {HOST},User  ,Sys  ,Wait  ,Idle  " + (",Entitled Capacity " if p == "PCPU" else ""))
        a(f"MEM,Memory {HOST},Real Free %,Virtual free %,Real free(MB),Virtual free(MB),Real total(MB),Virtual total(MB)")
        a(f"MEMNEW,Memory New {HOST},Process%,FScache%,System%,Free%,Pinned%,User%")
        a(f"MEMUSE,Memory Use {HOST},%numperm,%minperm,%maxperm,minfree,maxfree,%numclient,%maxclient, lruable pages")
        a(f"PAGE,Paging {HOST},faults,pgin,pgout,pgsin,pgsout,reclaims,scans,cycles")
        a(f"PAGING,PagingSpace MB Free {HOST},hd6")
        a(f"PROC,Processes {HOST},Runnable,Swap-in,pswitch,syscall,read,write,fork,exec,sem,msg,asleep_bufio,asleep_rawio,asleep_diocio")
        a(f"FILE,File I/O {HOST},iget,namei,dirblk,readch,writech,ttyrawch,ttycanch,ttyoutch")
        nets = self.nets
        a(f"NET,Network I/O {HOST}," + ",".join([f"{n}-read-KB/s" for n in nets] + [f"{n}-write-KB/s" for n in nets]))
        a(f"NETPACKET,Network Packets {HOST}," + ",".join([f"{n}-reads/s" for n in nets] + [f"{n}-writes/s" for n in nets]))
        a(f"NETSIZE,Network Size {HOST}," + ",".join([f"{n}-readsize" for n in nets] + [f"{n}-writesize" for n in nets]))
        a(f"NETERROR,Network Errors {HOST}," + ",".join([f"{n}-ierrs" for n in nets] + [f"{n}-oerrs" for n in nets] + [f"{n}-collisions" for n in nets]))
        for name, desc in (("FCREAD", "Fibre Channel Read KB/s"), ("FCWRITE", "Fibre Channel Write KB/s"),
                           ("FCXFERIN", "Fibre Channel Tranfers In/s"), ("FCXFEROUT", "Fibre Channel Tranfers Out/s")):
            a(f"{name},{desc}," + ",".join(self.fcs))
        for k in range(0, len(self.disks), self.per_line):
            suffix = "" if k == 0 else str(k // self.per_line)
            for name, desc, _, _ in DISK_SECTIONS:
                a(f"{name}{suffix},{desc} {HOST}," + ",".join(self.disks[k:k + self.per_line]))
        a(f"IOADAPT,Disk Adapter {HOST}," + ",".join(f"{f}_{m}" for f in self.fcs for m in ("read-KB/s", "write-KB/s", "xfer-tps")))
        for i in range(1, 22):
            a(f"BBBL,{i:02d},lparno,12" if i == 1 else f"BBBL,{i:02d},item{i},{i}")
        a(f"LPAR,Logical Partition {HOST},PhysicalCPU,virtualCPUs,logicalCPUs,poolCPUs,entitled,weight,PoolIdle,usedAllCPU%,usedPoolCPU%,SharedCPU,Capped,EC_User%,EC_Sys%,EC_Wait%,EC_Idle%,VP_User%,VP_Sys%,VP_Wait%,VP_Idle%,Folded,Pool_id")
        a(f"POOLS,Multiple CPU Pools {HOST},shcpus_in_sys,max_pool_capacity,entitled_pool_capacity,pool_max_time,pool_busy_time,shcpu_tot_time,shcpu_busy_time,Pool_id,entitled")
        for name, desc in (("VGBUSY", "Disk Busy Volume Group"), ("VGREAD", "Disk Read KB/s Volume Group"),
                           ("VGWRITE", "Disk Write KB/s Volume Group"), ("VGXFER", "Disk Xfer Volume Group"),
                           ("VGSIZE", "Disk Size KB Volume Group")):
            a(f"{name},{desc}," + ",".join(self.vgs))
        a(f"JFSFILE,JFS Filespace %Used {HOST}," + ",".join(self.fs))
        a(f"JFSINODE,JFS Inode %Used {HOST}," + ",".join(self.fs))
        a("TOP,%CPU Utilisation")
        a("TOP,+PID,Time,%CPU,%Usr,%Sys,Threads,Size,ResText,ResData,CharIO,%RAM,Paging,Command,WLMclass")
        a("UARG,+Time,PID,PPID,COMM,THCOUNT,USER,GROUP,FullCommand")
        return "\n".join(out) + "\n"

    def snapshot(self, n: int, when: dt.datetime) -> str:
        t = f"T{n:04d}"
        rng = self.rng
        t1, t2 = self.t1, self.t2
        out: list[str] = [f"ZZZZ,{t},{when:%H:%M:%S},{when:%d-%b-%Y}".upper().replace("ZZZZ,T", "ZZZZ,T")]
        a = out.append
        busy = rng.integers(0, 1000, size=self.lcpus)
        for i in range(1, self.lcpus + 1):
            u = int(busy[i - 1])
            s = u // 4
            w = u // 20
            idle = max(0, 1000 - u - s - w)
            a(f"CPU{i:02d},{t},{t1[u]},{t1[s]},{t1[w]},{t1[idle]}")
        a(f"CPU_ALL,{t},{t1[int(busy.mean())]},{t1[int(busy.mean()) // 4]},0.4,{t1[max(0, 1000 - int(busy.mean() * 1.3))]},,{self.lcpus}")
        for p in ("PCPU", "SCPU"):
            for i in range(1, self.lcpus + 1):
                a(f"{p}{i:02d},{t},{self.vals(4, 0, 0.5, t2, 100)}")
            a(f"{p}_ALL,{t},{self.vals(4, 0, 4, t2, 100)}" + (",4.00" if p == "PCPU" else ""))
        physc = rng.integers(50, 780) / 100.0
        a(f"LPAR,{t},{physc:.3f},8,{self.lcpus},48,4.00,128,{rng.integers(0, 3000) / 100:.2f},{physc / 64 * 100:.2f},"
          f"{physc / 48 * 100:.2f},1,0,{self.vals(8, 0, 100, t2, 100)},0,0")
        a(f"POOLS,{t},48,48.00,36.00,0.00,0.00,0.00,0.00,0,4.00")
        a(f"MEM,{t},{self.vals(4, 0, 9000, t1, 10)},131072.0,16384.0")
        a(f"MEMNEW,{t},{self.vals(6, 0, 100, t1, 10)}")
        a(f"MEMUSE,{t},{self.vals(3, 0, 100, t1, 10)},960,1088,{self.vals(2, 0, 100, t1, 10)}, 32174080.0")
        a(f"PAGE,{t},{self.vals(8, 0, 9000, t1, 10)}")
        a(f"PAGING,{t},16384")
        a(f"PROC,{t},{self.vals(2, 0, 60, t2, 100)},{','.join(str(x) for x in rng.integers(0, 900000, size=11))}")
        a(f"FILE,{t},{','.join(str(x) for x in rng.integers(0, 90000000, size=8))}")
        for name, k in (("NET", 6), ("NETPACKET", 6), ("NETSIZE", 6), ("NETERROR", 9)):
            a(f"{name},{t},{self.vals(k, 0, 9000, t1, 10)}")
        for name in ("FCREAD", "FCWRITE", "FCXFERIN", "FCXFEROUT"):
            a(f"{name},{t},{self.vals(len(self.fcs), 0, 9000, t1, 10)}")
        for k in range(0, len(self.disks), self.per_line):
            suffix = "" if k == 0 else str(k // self.per_line)
            width = len(self.disks[k:k + self.per_line])
            for name, _, lo, hi in DISK_SECTIONS:
                a(f"{name}{suffix},{t},{self.vals(width, lo / 10, hi / 10, t1, 10)}")
        a(f"IOADAPT,{t},{self.vals(3 * len(self.fcs), 0, 9000, t1, 10)}")
        for name in ("VGBUSY", "VGREAD", "VGWRITE", "VGXFER", "VGSIZE"):
            a(f"{name},{t},{self.vals(len(self.vgs), 0, 9000, t1, 10)}")
        a(f"JFSFILE,{t},{self.vals(len(self.fs), 0, 100, t1, 10)}")
        a(f"JFSINODE,{t},{self.vals(len(self.fs), 0, 100, t1, 10)}")
        if n > 1:
            idx = rng.choice(len(self.pids), size=self.procs, replace=False)
            cpu = np.sort(rng.integers(1, 40000, size=self.procs))[::-1]
            for j, c in zip(idx.tolist(), cpu.tolist()):
                pid = int(self.pids[j])
                cmd = PROCS[j % len(PROCS)]
                a(f"TOP,{pid},{t},{c / 100:.2f},{c * 0.8 / 100:.2f},{c * 0.2 / 100:.2f},{1 + j % 64},"
                  f"{1000 + j * 37},{j * 11},{500 + j * 29},{j * 1013},0.{j % 10},0,{cmd},Unclassified")
            if n % 30 == 0:
                j = int(idx[0])
                a(f"UARG,{t},{int(self.pids[j])}, 1,{PROCS[j % len(PROCS)]} , 1 , oracle,oinstall,"
                  f"{PROCS[j % len(PROCS)]} -p /u01/app/{j}")
        return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--size-mb", type=float, default=220.0, help="stop once the file reaches this size")
    ap.add_argument("--snapshots", type=int, default=0, help="exact number of snapshots (overrides --size-mb)")
    ap.add_argument("--disks", type=int, default=400)
    ap.add_argument("--lcpus", type=int, default=32)
    ap.add_argument("--disks-per-line", type=int, default=150)
    ap.add_argument("--procs", type=int, default=30, help="TOP rows per snapshot")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    g = Gen(args.seed, args.disks, args.lcpus, args.disks_per_line, args.procs)
    start = dt.datetime(2024, 3, 4, 0, 0, 0)
    target = int(args.size_mb * 1024 * 1024)
    planned = args.snapshots or 99999
    size = 0
    with open(args.out, "w", encoding="ascii", newline="\n") as fh:
        text = g.header(planned, start)
        fh.write(text)
        size += len(text)
        n = 0
        while True:
            n += 1
            text = g.snapshot(n, start + dt.timedelta(minutes=n - 1))
            fh.write(text)
            size += len(text)
            if (args.snapshots and n >= args.snapshots) or (not args.snapshots and size >= target):
                break
    print(f"{args.out}: {size / 1e6:.1f} MB, {n} snapshots, {args.disks} disks, {args.lcpus} lcpus", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
