"""Virtual memory counters: AIX ``vmstat -v`` (and ``vmstat -vc`` with AME).

Input ("<number> <description>" lines, numbers right-aligned)::

    # vmstat -v
                 4194304 memory pages
                 4012560 lruable pages
                  210344 free pages
                    90.0 maxpin percentage
                    12.5 numperm percentage
                    1417 pending disk I/Os blocked with no pbuf
                  640121 Compressed Pool Size

Output: one :class:`VmstatCounter` per line, named by a snake_case key::

    VmstatCounter(name="memory_pages", value=4194304, description="memory pages", line=2)
    VmstatCounter(name="maxpin_percentage", value=90.0, description="maxpin percentage", line=5)
    VmstatCounter(name="pending_disk_ios_blocked_with_no_pbuf", value=1417, ...)
    VmstatCounter(name="compressed_pool_size", value=640121, ...)

Integers stay ``int``; numbers with a decimal point are ``float``. Key rule: lower case,
``I/O`` -> ``io`` (``I/Os`` -> ``ios``), every other run of non-alphanumerics -> ``_`` (so
``free pages in compressed pool (4K pages)`` -> ``free_pages_in_compressed_pool_4k_pages``).
``vmstat -s`` has the same shape and its own module (:mod:`.vmstat_s`); the two are told
apart by their descriptions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import preamble, Parsed, is_prompt_left_over, leading_prompt, split_lines, to_float, to_int

KIND = "vmstat-v"
TITLE = "vmstat -v / vmstat -vc"
COMMANDS = [r"^vmstat\b.*\s-[A-Za-z]*v"]
STARTS = re.compile(r"^\s*\d+\s+memory pages\s*$")

_COUNTER_RE = re.compile(r"^\s*(?P<num>[-+]?\d+(?:[.,]\d+)?)\s+(?P<desc>[A-Za-z](?:.*\S)?)\s*$")
_SEPARATOR_RE = re.compile(r"^\s*n?-{5,}\s*$")  # nmon's "n-----" separator, dashes

# descriptions only vmstat -v prints (snake keys)
V_KEYS = frozenset(
    """memory_pages lruable_pages free_pages memory_pools pinned_pages maxpin_percentage
    minperm_percentage maxperm_percentage numperm_percentage file_pages compressed_percentage
    compressed_pages numclient_percentage maxclient_percentage client_pages
    remote_pageouts_scheduled pending_disk_ios_blocked_with_no_pbuf
    paging_space_ios_blocked_with_no_psbuf filesystem_ios_blocked_with_no_fsbuf
    client_filesystem_ios_blocked_with_no_fsbuf external_pager_filesystem_ios_blocked_with_no_fsbuf
    percentage_of_memory_used_for_computational_pages compressed_pool_size
    percentage_of_true_memory_used_for_compressed_pool free_pages_in_compressed_pool_4k_pages
    target_memory_expansion_factor achieved_memory_expansion_factor""".split()
)
# descriptions only vmstat -s prints
S_KEYS = frozenset(
    """total_address_trans_faults page_ins page_outs paging_space_page_ins paging_space_page_outs
    total_reclaims zero_filled_pages_faults executable_filled_pages_faults pages_examined_by_clock
    revolutions_of_the_clock_hand pages_freed_by_the_clock backtracks free_frame_waits
    extend_xpt_waits pending_io_waits start_ios iodones cpu_context_switches device_interrupts
    software_interrupts decrementer_interrupts mpc_sent_interrupts mpc_receive_interrupts
    phantom_interrupts traps syscalls compressed_pool_page_ins compressed_pool_page_outs""".split()
)


@dataclass(slots=True)  # many instances: no per-instance dict
class VmstatCounter:
    name: str  # snake_case key, e.g. "pending_disk_ios_blocked_with_no_pbuf"
    value: int | float
    description: str  # as printed
    line: int


def counter_key(description: str) -> str:
    """``"pending disk I/Os blocked with no pbuf"`` -> ``"pending_disk_ios_blocked_with_no_pbuf"``."""
    d = re.sub(r"i/o", "io", description.strip().lower())
    return re.sub(r"[^a-z0-9]+", "_", d).strip("_")


def counter_score(text: str, own: frozenset[str], other: frozenset[str], program_flag: str) -> int:
    """Detect score shared by vmstat -v and -s: share of known descriptions of ``own`` kind."""
    lines = [ln for ln in split_lines(text)[:80] if ln.strip()]
    if not lines:
        return 0
    prompt, start = leading_prompt(lines)
    if prompt and prompt.program == "vmstat":
        flags = "".join(t[1:] for t in prompt.command.split()[1:] if t.startswith("-"))
        return 95 if program_flag in flags else 5
    body = lines[start:]
    keys = [counter_key(m.group("desc")) for m in map(_COUNTER_RE.match, body) if m]
    mine = sum(k in own for k in keys)
    theirs = sum(k in other for k in keys)
    if mine < 3 or mine <= theirs:
        return 0
    share = len(keys) / len(body)
    return 90 if share >= 0.8 and mine >= 6 else 70 if share >= 0.5 else 40


def parse_counters(text: str, kind: str) -> Parsed:
    """Read "<number> <description>" lines into :class:`VmstatCounter` records."""
    out = Parsed(kind=kind)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.host:
        out.hostname = prompt.host
    for idx in range(start, len(lines)):
        lineno = idx + 1
        line = lines[idx].strip()
        if not line or _SEPARATOR_RE.match(line):
            continue
        m = _COUNTER_RE.match(line)
        if not m:
            if is_prompt_left_over(line) or line in ("#", "$"):
                continue  # trailing shell prompt
            out.warn(lineno, f"not a '<number> <description>' line: {line[:60]!r}")
            continue
        num = m.group("num")
        value: int | float | None = to_int(num) if re.fullmatch(r"[-+]?\d+", num) else to_float(num)
        if value is None:
            out.warn(lineno, f"cannot read number {num!r}")
            continue
        out.records.append(VmstatCounter(counter_key(m.group("desc")), value, m.group("desc"), lineno))
    return out


def counters(parsed: Parsed) -> dict[str, int | float]:
    """The counters of a parse result as ``{name: value}``."""
    return {c.name: c.value for c in parsed.records if isinstance(c, VmstatCounter)}


def detect(text: str) -> int:
    return counter_score(text, V_KEYS, S_KEYS, "v")


def parse(text: str) -> Parsed:
    return parse_counters(text, KIND)
