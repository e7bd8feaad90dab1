"""Outputs of a parallel shell that puts the host's name in front of every line.

xCAT's ``xdsh``, ``dsh`` and ``pdsh`` run one command on many partitions and print each line of
each output as ``<host>: <line>``::

    xdsh vios1,vios2 -l padmin "ioscli lspv"
    vios1: NAME             PVID                                 VG               STATUS
    vios1: hdisk0           00f6c1a2b3c4d5e6                     rootvg           active
    vios2: NAME             PVID                                 VG               STATUS
    vios2: hdisk0           00f6c1a2b3c4ffee                     rootvg           active

:func:`host_spans` tells such a file from one whose own lines start with a word and a colon
(``State: PRIMARY``, ``LABEL:``): nearly every non-blank line carries a prefix, and each host's
lines come in runs of several. It gives, per host, the stretch of the file from its first line to
its last with the prefix taken off its lines and every other line emptied (line numbers stay the
file's), and the lines no host prefix starts (the command lines above), read as any other text.
Hosts whose lines interleave one by one (a parallel run's outputs arriving line by line) cannot be
told from a keyed listing (seastat's ``MAC:``, ``VLAN:`` ...) and are read as the file is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PREFIX_RE = re.compile(r"([A-Za-z0-9][\w.-]{0,62}):(?: |$)")
MIN_SHARE = 0.8  # of the non-blank lines that carry a host prefix
MIN_RUN = 3.0  # lines of one host in a row, on average ("LABEL:" / "IDENTIFIER:" alternate: 1)
MIN_LINES = 3


@dataclass
class HostSpan:
    host: str
    first: int  # 0-based index in the file of the span's first line
    lines: list[str]  # the span's lines: this host's without their prefix, the others empty


def host_spans(lines: list[str]) -> tuple[list[HostSpan], list[str]] | None:
    """(the hosts' spans in the order their first lines come, the file's lines that carry no
    prefix with the others emptied), or None when the file is not a parallel shell's output."""
    # most files are not such output: the first 50 non-blank lines tell without a pass over all
    head = [ln for ln in lines[:400] if ln.strip()][:50]
    if len(head) < MIN_LINES or sum(1 for ln in head if _PREFIX_RE.match(ln)) < MIN_SHARE * len(head):
        return None
    prefixes: list[str | None] = []
    counted = hits = runs = 0
    last = None
    for ln in lines:
        if not ln.strip():
            prefixes.append(None)
            continue
        counted += 1
        m = _PREFIX_RE.match(ln)
        p = m.group(1) if m else None
        prefixes.append(p)
        if p is not None:
            hits += 1
            if p != last:
                runs += 1
            last = p
    if hits < MIN_LINES or hits < MIN_SHARE * counted or hits < MIN_RUN * runs:
        return None
    where: dict[str, list[int]] = {}
    for i, p in enumerate(prefixes):
        if p is not None:
            where.setdefault(p, []).append(i)
    spans = []
    for host, idx in where.items():
        first, last_i = idx[0], idx[-1]
        span = [""] * (last_i - first + 1)
        for i in idx:
            span[i - first] = lines[i][len(host) + 2:]  # past "host: "
        spans.append(HostSpan(host, first, span))
    rest = [ln if p is None else "" for ln, p in zip(lines, prefixes)]
    return spans, rest
