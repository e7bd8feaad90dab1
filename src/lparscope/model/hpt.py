"""The hardware page table (HPT): one computation every rule and view reads.

The hypervisor reserves for each partition a page table of its MAXIMUM memory divided by the HPT
ratio (000 §3.1: 1:64 on POWER5/6/7; from POWER7+ 1:128 for AIX and Linux, 1:64 for IBM i and
partitions using Active Memory Sharing),
allocated in a power-of-two size (rules-catalogue S4, MEM-03). The ratio used is, in this order:
the partition's own (``curr_hpt_ratio`` / profile ``hpt_ratio``), the frame's default
(``default_hpt_ratios``), the one the POWER generation and operating system imply, else the
configured fallback (threshold ``hpt_ratio``, 64 by default).
"""

from __future__ import annotations

import math

FALLBACK_DIVISOR = 64  # 000 §3.1: POWER5, POWER6, POWER7


def hpt_mb(max_memory_mb: float, divisor: float) -> int:
    """HPT of one partition: max memory / divisor, rounded up to a power of two (rules-catalogue S4)."""
    raw = max_memory_mb / divisor
    if raw <= 0:
        return 0
    return 2 ** max(0, math.ceil(math.log2(raw) - 1e-12))


def divisor_by_generation(generation: float | None, env: str | None = None, shared_memory: bool = False) -> int | None:
    """The ratio a POWER generation gives: 128 for AIX/Linux from POWER7+, 64 for IBM i, for partitions
    using Active Memory Sharing and on older generations (000 §3.1)."""
    if generation is None:
        return None
    if generation >= 7.5 and (env or "").lower() != "os400" and not shared_memory:
        return 128
    return 64


def hpt_divisor(partition_ratio: int | None = None, frame_default: int | None = None,
                generation: float | None = None, env: str | None = None,
                fallback: float = FALLBACK_DIVISOR, shared_memory: bool = False) -> tuple[int, str]:
    """(divisor, what it was taken from)."""
    if partition_ratio:
        return int(partition_ratio), "the partition's HPT ratio"
    if frame_default:
        return int(frame_default), "the frame's default HPT ratio"
    by_gen = divisor_by_generation(generation, env, shared_memory)
    if by_gen:
        return by_gen, "the POWER generation's default"
    return int(fallback or FALLBACK_DIVISOR), "the configured default (hpt_ratio)"
