"""A shared-memory partition seen from inside: hypervisor page-ins and I/O entitled memory
allocation failures in its lparstat -m / vmstat -h samples, and page loaning switched off
(vmo ams_loan_policy) (000 §3.3; rules-catalogue AMS-01).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...model.estate import Host, Series
from ..changes import partition_change, propose, tunable_change
from ..config import Config, threshold
from ..engine import Finding, finding, rule
from ..host_facts import tunable_int

HPI_SHARE = threshold("ams_hpi_sample_share", 0.2,
                      "share of lparstat -m / vmstat -h samples with hypervisor page-ins from which a shared-memory "
                      "partition is reported (AMS-01: AMS is for workloads that tolerate such waits)")
SOURCE = "000_31a80e54567cd02b.txt §3.3 (AMS); rules-catalogue AMS-01"


def shared_series(host: Host) -> Series | None:
    """The host's AMS samples, when the partition runs in shared memory mode (header mmode=shared,
    or the pool size mpsz printed) and the samples carry the hypervisor columns."""
    s = host.memory_io
    if s is None or not s.samples:
        return None
    mode = (s.config.get("mmode") or "").lower()
    if mode.startswith("ded") or (not mode.startswith("shar") and "mpsz" not in s.config):
        return None
    return s


def _mb(text: str | None) -> int | None:
    """'512.00MB' / '1.50GB' -> MB."""
    m = re.match(r"^\s*([\d.]+)\s*([MG])B?\s*$", text or "", re.I)
    if not m:
        return None
    return int(round(float(m.group(1)) * (1024 if m.group(2).upper() == "G" else 1)))


@rule(
    id="MEM-AMS-HYPERVISOR-PAGING",
    title="Shared-memory partition waiting on hypervisor page-ins",
    severity="warning",
    category="memory",
    source=SOURCE,
    rationale="""In a shared memory pool the hypervisor pages logical memory it cannot back with real memory
    to the paging VIOS's device; the partition then waits for each page to come back (hpi page-ins,
    hpit milliseconds in lparstat -m and vmstat -h). Page-ins in many intervals mean the pool, the
    partition's memory weight or the operating system's loaning does not keep its working set in real
    memory. AMS-01: workloads that need predictable response times belong in dedicated memory.""",
)
def ams_hypervisor_paging(host: Host, cfg: Config) -> Iterator[Finding]:
    s = shared_series(host)
    if s is None:
        return
    rows = [(r, ev) for r, ev in zip(s.samples, s.evidence) if r.get("hpi") is not None]
    hits = [(r, ev) for r, ev in rows if (r.get("hpi") or 0) > 0]
    if not rows or len(hits) / len(rows) < cfg.t(HPI_SHARE):
        return
    wait = sum(r.get("hpit") or 0 for r, _ in hits)
    peak_row, peak_ev = max(hits, key=lambda x: x[0].get("hpi") or 0)
    loan = [r["loan"] for r, _ in rows if r.get("loan") is not None]
    loaned = f"; it loaned {loan[-1]:.2f} GB to the hypervisor at the end" if loan else ""
    pool = f" of a {s.config['mpsz']} pool" if s.config.get("mpsz") else ""
    change = partition_change(host, "mem_mode", "shared", "ded", method="profile",
                              note="dedicated memory needs the partition's desired memory free on the frame")
    fix, undo = propose(change, fix_notes=["# or: raise its memory weight (mem_weight) or the pool size, see FRAME-AMS-POOL-OVERCOMMIT"])
    yield finding(ams_hypervisor_paging, host, "hypervisor paging",
                  f"{host.name} runs in shared memory{pool} and had hypervisor page-ins in {len(hits)} of {len(rows)} "
                  f"samples (up to {peak_row.get('hpi'):.0f} in one interval, {wait:.0f} ms waiting in all){loaned}.",
                  evidence=[peak_ev, *(ev for _, ev in hits[:3])], fix=fix, rollback=undo, disruption=["restart-needed"],
                  values={"current": f"{len(hits)}/{len(rows)} samples with page-ins", "suggested": "none"})


@rule(
    id="MEM-AMS-IO-ENTITLEMENT",
    title="I/O entitled memory allocation failures in a shared-memory partition",
    severity="warning",
    category="memory",
    source=SOURCE,
    rationale="""A shared-memory partition gets I/O entitled memory that the hypervisor keeps in real memory
    for the partition's I/O buffers (DMA). lparstat -m counts the times an I/O mapping could not be
    allocated from it (iomaf); each failure delays or retries an I/O. The entitlement set by hand is
    too small for the partition's adapters; automatic mode sizes it from them.""",
)
def ams_io_entitlement(host: Host, cfg: Config) -> Iterator[Finding]:
    s = shared_series(host)
    if s is None:
        return
    rows = [(r, ev) for r, ev in zip(s.samples, s.evidence) if r.get("iomaf") is not None]
    fails = [(r, ev) for r, ev in rows if (r.get("iomaf") or 0) > 0]
    if not fails:
        return
    ent = s.config.get("iome")
    ent_mb = _mb(ent)
    hwm = max((r.get("iohwm") or 0 for r, _ in rows), default=0)
    change = partition_change(host, "desired_io_entitled_mem", ent_mb, "auto", method="profile")
    fix, undo = propose(change)
    yield finding(ams_io_entitlement, host, "I/O entitled memory",
                  f"{host.name} could not allocate I/O entitled memory {sum(r.get('iomaf') or 0 for r, _ in fails):.0f} "
                  f"times in {len(fails)} of {len(rows)} samples (entitlement {ent or 'unknown'}, high-water mark {hwm:.1f} MB).",
                  evidence=[ev for _, ev in fails[:3]], fix=fix, rollback=undo, disruption=["restart-needed"],
                  values={"current": ent or "unknown", "suggested": "auto"})


def shared_memory_mode(host: Host) -> bool:
    """lparstat -i Memory Mode Shared, or AMS samples (lparstat -m / vmstat -h) of a shared partition."""
    p = host.partition
    if p is not None and p.memory_mode:
        return p.memory_mode.lower().startswith("shared")
    return shared_series(host) is not None


@rule(
    id="MEM-AMS-LOAN-OFF",
    title="Shared-memory partition that does not loan pages to the hypervisor",
    severity="warning",
    category="memory",
    source=SOURCE,
    rationale="""The hypervisor distributes the shared memory pool by demand (§3.3); when it needs real
    memory back from a partition, the partition's AIX can loan it pages it can spare (file cache first,
    vmo ams_loan_policy=1, the default; also working storage with 2). With loaning off (0) AIX gives
    nothing back and the hypervisor must page the partition's memory out to the paging VIOS instead,
    the slowest way to shrink it.""",
)
def ams_loan_off(host: Host, cfg: Config) -> Iterator[Finding]:
    value, s = tunable_int(host, "ams_loan_policy")
    if value is None or s is None or value != 0 or not shared_memory_mode(host):
        return
    default = s.record.default_int if s.record.default_int is not None else 1
    p = host.partition
    ev = [s.ev(), *(p.ev("memory_mode") if p is not None else [])]
    yield finding(ams_loan_off, host, "vmo ams_loan_policy",
                  f"{host.name} runs in shared memory with ams_loan_policy = 0: it loans no pages, so the hypervisor "
                  "pages its memory out when the pool runs short.",
                  evidence=ev, changes=[tunable_change(host, "vmo", "ams_loan_policy", value, default)],
                  values={"current": value, "suggested": default})
