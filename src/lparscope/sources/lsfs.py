"""File system definitions (/etc/filesystems): AIX ``lsfs``, ``lsfs -q`` and ``lsfs -c``.

Input (``lsfs -q``; Size is in 512-byte blocks, ``--`` for none)::

    # lsfs -q /oradata
    Name            Nodename   Mount Pt               VFS   Size    Options    Auto Accounting
    /dev/oradatalv  --         /oradata               jfs2  419430400 rw,cio   yes  no
      (lv size: 419430400, fs size: 419430400, block size: 4096, sparse files: yes, inline log: yes, ...)

Output: one :class:`FileSystemDef` per row; ``-q`` details land in ``details``::

    FileSystemDef(name="/dev/oradatalv", nodename=None, mount_point="/oradata", vfs="jfs2",
                  size_mb=204800.0, options="rw,cio", auto_mount=True, accounting=False,
                  details={"lv size": "419430400", "block size": "4096", "inline log": "yes", ...},
                  line=3, lines={..., "details": 4})

Also read: ``lsfs -c`` (``#MountPoint:Device:Vfs:Nodename:Type:Size:Options:AutoMount:Acct``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import preamble, Parsed, command_matches, is_bare_prompt, output_head, to_int

KIND = "lsfs"
TITLE = "lsfs / lsfs -q / lsfs -c"
COMMANDS = [r"^lsfs\b"]
STARTS = re.compile(r"^(?:Name\s+Nodename\s+Mount\s+Pt\s+VFS\s+Size|#MountPoint:Device:Vfs)")

_HEADER = re.compile(r"^Name\s+Nodename\s+Mount\s+Pt\s+VFS\s+Size\s+Options\s+Auto\s+Accounting\s*$")
_COLON_HEADER = re.compile(r"^#MountPoint:Device:Vfs:Nodename:Type:Size:Options:AutoMount:Acct\s*$")
_DETAILS = re.compile(r"^\((?P<body>.*)\)$")


@dataclass
class FileSystemDef:
    name: str  # device (or remote path for NFS)
    nodename: str | None
    mount_point: str
    vfs: str
    size_mb: float | None  # Size column is 512-byte blocks
    options: str
    auto_mount: bool | None
    accounting: bool | None
    details: dict[str, str] = field(default_factory=dict)
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


def detect(text: str) -> int:
    prompt, body = output_head(text, 40)
    if command_matches(prompt, COMMANDS):
        return 95
    return 90 if any(_HEADER.match(ln.strip()) or _COLON_HEADER.match(ln.strip()) for ln in body[:3]) else 0


def _mb(blocks: str) -> float | None:
    n = to_int(blocks)
    return None if n is None else round(n / 2048, 2)


def _yes(tok: str) -> bool | None:
    return {"yes": True, "no": False}.get(tok.lower())


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    if prompt and prompt.user:
        out.hostname = prompt.host
    colon = False
    last: FileSystemDef | None = None
    for idx in range(start, len(lines)):
        lineno = idx + 1
        s = lines[idx].strip()
        if not s or _HEADER.match(s) or is_bare_prompt(s):
            continue
        if _COLON_HEADER.match(s):
            colon = True
            continue
        dm = _DETAILS.match(s)
        if dm and last is not None:
            body = dm.group("body")
            # -q: "(lv size: 419430400, fs size: ...)"; -c -q: "(lv size 419430400:fs size ...)", the value last
            pairs = ([p.partition(":")[::2] for p in body.split(",")] if not colon or "," in body
                     else [p.strip().rpartition(" ")[::2] for p in body.split(":")])
            for key, value in pairs:
                if key.strip():
                    last.details[key.strip()] = value.strip()
            last.lines["details"] = lineno
            continue
        if colon and s.count(":") == 8:
            mp, dev, vfs, node, _type, size, opts, auto, acct = s.split(":")
            last = FileSystemDef(dev, node or None, mp, vfs, _mb(size), opts, _yes(auto), _yes(acct), line=lineno,
                                 lines={k: lineno for k in ("name", "mount_point", "vfs", "size_mb", "options", "auto_mount")})
            out.records.append(last)
            continue
        tok = s.split()
        if len(tok) == 8:
            name, node, mp, vfs, size, opts, auto, acct = tok
            last = FileSystemDef(name, None if node == "--" else node, mp, vfs, None if size == "--" else _mb(size),
                                 "" if opts == "--" else opts, _yes(auto), _yes(acct), line=lineno,
                                 lines={k: lineno for k in ("name", "mount_point", "vfs", "size_mb", "options", "auto_mount")})
            if size != "--" and last.size_mb is None:
                out.warn(lineno, f"size is not a number of blocks: {size!r}")
            out.records.append(last)
            continue
        last = None
        out.warn(lineno, f"not a file system row: {s[:60]!r}")
    return out
