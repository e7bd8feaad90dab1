"""Event counters since boot: AIX ``vmstat -s`` (and ``vmstat -sc`` with AME).

Input ("<number> <description>" lines, numbers right-aligned)::

    # vmstat -sc
             812220045 total address trans. faults
               3120877 page ins
                 20311 paging space page ins
                  1502 compressed pool page ins

Output: one :class:`~lparscope.sources.vmstat_v.VmstatCounter` per line::

    VmstatCounter(name="total_address_trans_faults", value=812220045,
                  description="total address trans. faults", line=2)
    VmstatCounter(name="paging_space_page_ins", value=20311, ...)
    VmstatCounter(name="compressed_pool_page_ins", value=1502, ...)

Same record shape and key rule as :mod:`.vmstat_v`; told apart from ``vmstat -v`` by
its descriptions (``page ins``, ``syscalls``, ``cpu context switches`` ...).
"""

from __future__ import annotations

import re

from .base import Parsed
from .vmstat_v import S_KEYS, V_KEYS, VmstatCounter, counter_score, counters, parse_counters

__all__ = ["KIND", "TITLE", "COMMANDS", "STARTS", "VmstatCounter", "counters", "detect", "parse"]

KIND = "vmstat-s"
TITLE = "vmstat -s / vmstat -sc"
COMMANDS = [r"^vmstat\b.*\s-[A-Za-z]*s"]
STARTS = re.compile(r"^\s*\d+\s+total address trans\. faults\s*$")


def detect(text: str) -> int:
    return counter_score(text, S_KEYS, V_KEYS, "s")


def parse(text: str) -> Parsed:
    return parse_counters(text, KIND)
