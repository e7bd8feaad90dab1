"""Mounted file systems: AIX ``mount`` (the mount table) and ``nfsstat -m``.

Input (``mount``; local rows leave the node column empty, NFS rows name the server)::

    # mount
      node       mounted        mounted over    vfs       date        options
    -------- ---------------  ---------------  ------ ------------ ---------------
             /dev/hd4         /                jfs2   Jul 17 13:22 rw,log=/dev/hd8
    nas01    /vol/rman        /backup          nfs3   Jul 17 13:24 rw,bg,hard,intr,dio,biods=16,sec=sys

Output: one :class:`Mount` per row::

    Mount(node=None, device="/dev/hd4", mounted_over="/", vfs="jfs2", date="Jul 17 13:22",
          options={"rw": "", "log": "/dev/hd8"}, options_raw="rw,log=/dev/hd8", line=4,
          lines={"options": 4, ...})
    Mount(node="nas01", device="/vol/rman", mounted_over="/backup", vfs="nfs3", ...,
          options={"rw": "", "bg": "", "hard": "", "intr": "", "dio": "", "biods": "16", "sec": "sys"})

Input (``nfsstat -m``, one stanza per NFS mount)::

    /backup from nas01:/vol/rman
     Flags:   vers=3,proto=tcp,auth=unix,hard,intr,dio,rsize=65536,wsize=65536,biods=16,retrans=5
     All:     srtt=0 (0ms), dev=0 (0ms), cur=0 (0ms)

Output: one :class:`NfsMountInfo` per stanza::

    NfsMountInfo(mounted_over="/backup", server="nas01", remote="/vol/rman",
                 flags={"vers": "3", "proto": "tcp", ..., "dio": "", "biods": "16"}, line=1,
                 lines={"mounted_over": 1, "flags": 2})

Option values are kept as text (a flag without ``=`` has the value ``""``). A row whose
options wrapped onto the next line (long NFS option lists) is joined, and rows whose
column padding was collapsed to single spaces are read too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head

KIND = "mount"
TITLE = "mount / nfsstat -m"
COMMANDS = [r"^mount\s*(?:\|.*)?$", r"^nfsstat\b.*\s-[A-Za-z]*m"]
STARTS = re.compile(r"^\s*node\s+mounted\s+mounted\s+over\s+vfs\s+date\s+options\s*$")

_HEADER = STARTS
_RULE = re.compile(r"^\s*----[\s-]*$")
_DATE = re.compile(r"\s(?P<date>[A-Z][a-z]{2}\s+\d{1,2}\s+\d{1,2}:\d{2})(?:\s+(?P<opts>\S(?:.*\S)?))?\s*$")
_NFSSTAT_HEAD = re.compile(r"^(?P<over>/\S*)\s+from\s+(?P<src>\S+)\s*$")
_FLAGS = re.compile(r"^\s*Flags:\s*(?P<flags>\S(?:.*\S)?)\s*$")
_NFSSTAT_OTHER = re.compile(r"^\s*(?:All|Lookups|Reads|Writes|Read|Write):\s")
_TYPED_PROMPT = re.compile(r"^\s*\S*[#$>]\s*(?:mount|nfsstat)\b")  # "# nfsstat -m": not a known prompt


@dataclass
class Mount:
    node: str | None
    device: str  # the "mounted" column: a device, a local path (namefs) or the server's path (NFS)
    mounted_over: str
    vfs: str
    date: str | None
    options: dict[str, str] = field(default_factory=dict)
    options_raw: str = ""
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def nfs(self) -> bool:
        return self.vfs.lower().startswith("nfs")


@dataclass
class NfsMountInfo:
    mounted_over: str
    server: str | None
    remote: str | None
    flags: dict[str, str] = field(default_factory=dict)
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


def split_options(text: str) -> dict[str, str]:
    """``rw,bg,biods=16`` -> {"rw": "", "bg": "", "biods": "16"}."""
    out: dict[str, str] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        key, _, value = part.partition("=")
        out[key.strip()] = value.strip()
    return out


def _row(line: str) -> tuple[str | None, str, str, str, str, str] | None:
    """(node, device, over, vfs, date, options) of a mount table row, or None."""
    m = _DATE.search(line)
    if not m:
        return None
    head = line[: m.start()].split()
    if len(head) == 4:
        node, dev, over, vfs = head
    elif len(head) == 3:
        node, (dev, over, vfs) = None, head
    else:
        return None
    return node, dev, over, vfs, m.group("date"), m.group("opts") or ""


def detect(text: str) -> int:
    prompt, body = output_head(text, 80)
    if prompt is None and not body:
        return 0
    if command_matches(prompt, COMMANDS):
        return 95
    if any(_HEADER.match(ln) for ln in body[:4]):
        return 90
    if any(_NFSSTAT_HEAD.match(ln.strip()) and i + 1 < len(body) and _FLAGS.match(body[i + 1])
           for i, ln in enumerate(body[:40])):
        return 85
    rows = sum(1 for ln in body if _row(ln) is not None)
    if rows >= 2 and rows >= 0.6 * len(body):
        return 50
    return 0


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.user:
        out.hostname = prompt.host
    last: Mount | None = None
    stanza: NfsMountInfo | None = None
    for idx in range(start, len(lines)):
        lineno = idx + 1
        raw = lines[idx].rstrip()
        s = raw.strip()
        if not s:
            last = None
            continue
        if _HEADER.match(s) or _RULE.match(s) or _TYPED_PROMPT.match(s) or is_bare_prompt(s):
            last = stanza = None
            continue
        head = _NFSSTAT_HEAD.match(s)
        if head:
            src = head.group("src")
            server, remote = (src.split(":", 1) if ":" in src else (None, src))
            stanza = NfsMountInfo(head.group("over"), server or None, remote, line=lineno,
                                  lines={"mounted_over": lineno})
            out.records.append(stanza)
            last = None
            continue
        fm = _FLAGS.match(raw)
        if fm and stanza is not None:
            stanza.flags.update(split_options(fm.group("flags")))
            stanza.lines["flags"] = lineno
            continue
        if _NFSSTAT_OTHER.match(raw) and stanza is not None:
            continue
        row = _row(raw)
        if row is not None:
            node, dev, over, vfs, date, opts = row
            last = Mount(node, dev, over, vfs, date, split_options(opts), opts, lineno,
                         {k: lineno for k in ("node", "device", "mounted_over", "vfs", "options")})
            out.records.append(last)
            stanza = None
            continue
        if last is not None and len(s.split()) == 1 and ("," in s or "=" in s):
            # options wrapped onto their own line
            joined = (last.options_raw + "," + s) if last.options_raw and not last.options_raw.endswith(",") else last.options_raw + s
            last.options_raw = joined
            last.options = split_options(joined)
            last.lines["options"] = lineno
            continue
        out.warn(lineno, f"not a mount row: {s[:60]!r}")
    return out
