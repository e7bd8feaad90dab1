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


def is_nmon_or_njmon(head: bytes) -> bool:
    """A recording the nmon reader reads: nmon (AAA lines) or njmon."""
    return head.lstrip(b"\xef\xbb\xbf").startswith(b"AAA,") or is_njmon(head)
