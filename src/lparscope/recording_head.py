"""What the first bytes of a file say about a performance recording the nmon reader takes: an nmon
file (``AAA,`` lines) or an njmon one (JSON snapshots). A leaf both the input reading (which routes
recordings to the reader, whatever their size) and the reader itself use.
"""

from __future__ import annotations

import re

HEAD_BYTES = 4096  # what is looked at
_NJMON = re.compile(rb'^\s*(?:\{\s*)?(?:\[\s*)?\{\s*"(?:identity|timestamp|samples)"')


def is_njmon(head: bytes) -> bool:
    """An njmon recording: a JSON snapshot first (``{"identity": ...`` or ``{"timestamp": ...``, maybe
    inside the braces or the ``samples`` list older versions write), naming njmon or its interval."""
    head = head[:HEAD_BYTES].lstrip(b"\xef\xbb\xbf")
    return bool(_NJMON.match(head)) and (b"njmon" in head or b"snapshot_seconds" in head)


# An nmon line: an upper-case section tag, a comma (BBBP,12,vmstat -v,...; ZZZZ,T0001,...; CPU_ALL,...)
_NMON_ROW = re.compile(rb"[A-Z][A-Z0-9_]{2,15},[^\n]*$")
_NMON_TAGS = (b"BBBP,", b"ZZZZ,T", b"CPU_ALL,", b"MEM,", b"LPAR,", b"BBBL,", b"BBBC,", b"DISKBUSY,")


def _headless_nmon(head: bytes) -> bool:
    """nmon lines without the AAA header: the second half of a split recording, or a grep of one
    (its BBBP lines): nmon's own section tags begin the first lines, all of them nmon rows."""
    if not b"A" <= head[:HEAD_BYTES].lstrip()[:1] <= b"Z":  # the first line with text is no nmon row (most files: told at once)
        return False
    lines = [ln.rstrip(b"\r") for ln in head[:HEAD_BYTES].split(b"\n")[:-1] if ln.strip()][:8]
    return (len(lines) >= 3 and all(_NMON_ROW.match(ln) for ln in lines)
            and sum(ln.startswith(_NMON_TAGS) for ln in lines) >= 2)


def is_nmon_or_njmon(head: bytes) -> bool:
    """A recording the nmon reader reads: nmon (AAA lines, or nmon rows without them) or njmon."""
    head = head.lstrip(b"\xef\xbb\xbf")
    return head.startswith(b"AAA,") or is_njmon(head) or _headless_nmon(head)
