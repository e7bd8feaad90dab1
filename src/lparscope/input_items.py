"""What reading the inputs yields, shared by ``inputs`` (files and folders) and ``bundles`` (tar / zip):
the limits, an input file or a problem with one, what damaged compressed data raises, and the small
helpers both halves use. It imports only a leaf of lparscope (recording_head), so neither half imports the other's types.
"""

from __future__ import annotations

import lzma
import posixpath
import re
import tarfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .recording_head import HEAD_BYTES, is_nmon_or_njmon
from .sources.prompt_line import HOST_NAME_RE


@dataclass(frozen=True)
class Limits:
    """Size limits. Bytes are counted after decompression, whatever the nesting (a gzip member
    of a zip inside a tar counts at its expanded size)."""

    max_file_bytes: int = 64 * 1024 * 1024  # one text file or bundle member
    max_nmon_bytes: int = 1024 * 1024 * 1024  # one compressed nmon recording, expanded
    max_total_bytes: int = 1024 * 1024 * 1024  # all text read in one run (held for evidence excerpts)
    max_expanded_bytes: int = 8 * 1024 * 1024 * 1024  # all bytes decompressed in one run, refused ones too
    max_members: int = 20_000  # members of one bundle (a bundle with more is not read at all)
    max_ratio: int = 200  # zip: uncompressed / compressed size above this is refused
    max_depth: int = 2  # bundles inside bundles


@dataclass
class InputFile:
    display: str  # how reports name it: a path, or "bundle.tgz!dir/member.txt"
    text: str
    folder: str  # name of the folder it sits in ("" at the top of what was given)
    # nmon recordings are large and have their own reader: they travel as a path or bytes, not text.
    nmon: Path | bytes | None = None
    # A large plain text file (its head checked: not compressed, a bundle, UTF-16 or binary) is listed
    # without being read: (path, bytes) read where it is parsed (a worker), by read_deferred.
    deferred: tuple[Path, int] | None = None
    # What reading it changed, as (file line, message): NUL bytes removed, NUL padding dropped.
    notes: list[tuple[int, str]] = field(default_factory=list)

    @property
    def size(self) -> int:
        """Characters of text (bytes of a deferred file)."""
        return self.deferred[1] if self.deferred is not None else len(self.text)


@dataclass
class InputProblem:
    display: str
    message: str
    internal: bool = False  # an unexpected error (a bug), not a damaged or refused input


Item = InputFile | InputProblem
# What damaged compressed data raises: a clear per-file message, not an internal error.
DAMAGE = (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError, tarfile.TarError, zipfile.BadZipFile,
          NotImplementedError, MemoryError)
def _mb(n: int) -> str:
    return f"{n / 1024 / 1024:g} MB"


def is_nmon(head: bytes) -> bool:
    """A recording for the nmon reader: nmon (AAA lines: AAA,progname,topas_nmon ...) or njmon (JSON),
    told from the first ``HEAD_BYTES`` bytes."""
    return is_nmon_or_njmon(head)


def _safe_member_name(name: str) -> str | None:
    """A member's path, normalised and relative, as text (:func:`text_name`); None when it climbs
    out of the bundle (``../``) or names a drive (``C:``). An absolute name (AIX ``tar cvf x.tar
    /tmp/perf`` keeps the leading ``/``) is read as relative: nothing is ever extracted."""
    path = posixpath.normpath(name.replace("\\", "/").lstrip("/"))
    if path in (".", "..") or path.startswith("../") or ":" in path.split("/")[0]:
        return None
    return text_name(path)


_ESCAPED = re.compile("[\udc80-\udcff]")


def text_name(name: str) -> str:
    """A file, folder or member name as text: bytes that are not UTF-8 (Python keeps them as
    surrogate escapes: a Latin-1 name from an AIX box, a GNU tar member) read as Latin-1, so
    'h\\udce9te1' shows as 'h\u00e9te1'; control characters shown as escapes ('a\\nb', '\\x1b[31m'):
    a name holding a line end or a terminal escape neither forges a report line nor drives the
    terminal. Only for showing: the real name still opens the file."""
    if name.isascii():
        return name if name.isprintable() else _visible(name)
    name = _ESCAPED.sub(lambda m: chr(ord(m.group()) - 0xDC00), name)
    return _visible(name.encode("utf-8", "replace").decode("utf-8"))  # any other lone surrogate: '?'


_CONTROL_CHAR = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # C0, DEL and C1 (0x9b is a CSI to some terminals)


def _visible(name: str) -> str:
    return _CONTROL_CHAR.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), name)


def _member_folder(member: str, bundle_display: str) -> str:
    parent = PurePosixPath(member).parent.name
    return parent or Path(bundle_display.split("!")[-1]).name.split(".")[0]


def short_host(name: str) -> str:
    """Host name without its DNS domain ("aix1.example.com" -> "aix1"); "" for what is no host name
    (``../../x``, ``web 01``: a damaged or hostile header), so that the file's or folder's name is used."""
    name = name.strip()
    name = name if not name or name[0].isdigit() else name.split(".")[0]
    return name if HOST_NAME_RE.match(name) else ""


# The folders AIX ``snap`` writes its outputs in (/tmp/ibmsupt/general, kernel, tcpip, lvm ...; the
# VIOS adds svCollect and lsvirt): a file there belongs to the host of the whole snap, never to a
# host named after the folder.
SNAP_FOLDERS = frozenset("""general kernel lvm filesys tcpip nfs printer sna async dump security ssa wlm
    XS25 lang pcixscsi sissas scraid testcase other client_collect svCollect lsvirt hacmp HACMP""".split())
_ARCHIVE_SUFFIX = re.compile(r"(?:\.(?:tar|pax|tgz|zip|gz|Z|bz2|xz))+$")


def snap_root(display: str) -> tuple[str, str] | None:
    """(the snap tree, its own folder's name) of a file in one of a snap's folders (the file's
    folder or that folder's parent: general/diagnostics), else None. The tree is the display
    path up to that folder (``/data/aix7`` or ``aix7.snap.pax.Z!.``); the name is its last folder
    or bundle (``aix7``), "" when there is none."""
    names = re.split(r"[/\\!]", display)
    for i in (len(names) - 2, len(names) - 3):
        if i >= 0 and names[i] in SNAP_FOLDERS:
            tree = display[:sum(len(n) + 1 for n in names[:i])].rstrip("/\\!")
            above = [n for n in names[:i] if n not in ("", ".")]
            return tree, _ARCHIVE_SUFFIX.sub("", above[-1]) if above else ""
    return None


# Magic numbers of binary files met beside command outputs: executables and core files (ELF, AIX
# XCOFF 32 and 64 bit), images, PDF, SQLite, 7-Zip, RPM packages, zstd.
_BINARY_MAGIC = (b"\x7fELF", b"\x01\xdf", b"\x01\xf7", b"\x89PNG", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"%PDF-",
                 b"SQLite format 3\x00", b"7z\xbc\xaf\x27\x1c", b"\xed\xab\xee\xdb", b"\x28\xb5\x2f\xfd")
# Control bytes text does not hold (tab, line ends, form feed, backspace and ESC of terminal captures
# are text); NULs are counted apart, a run of them once (a zeroed block in a copy is one glitch).
_CONTROL = bytes(sorted(set(range(32)) - set(b"\x00\t\n\r\x0b\x0c\x08\x1b") | {0x7F}))
_NUL_RUN = re.compile(rb"\x00+")
BINARY_SAMPLE = 8192  # the head looked at to tell binary data from text


def looks_binary(data: bytes) -> bool:
    """Binary data, not text with a few damaged bytes, told from the head (NUL padding at its end
    left out): a known binary magic number, more than 1 byte in 20 a control byte text never holds,
    or NUL runs by the dozen (fixed fields of records), more than 8 and 1 in 100 bytes. A few NULs
    (a glitch, a zeroed block) are text with damage, read by :func:`read_text`."""
    if data.startswith(_BINARY_MAGIC):
        return True
    head = data[:BINARY_SAMPLE].rstrip(b"\x00")
    control = len(head) - len(head.translate(None, _CONTROL))
    if control * 20 > len(head):
        return True
    # (the regex scan costs ~50 µs on 8 KB even without a NUL: looked for only when there is one)
    return b"\x00" in head and len(_NUL_RUN.findall(head)) > max(8, len(head) // 100)


@dataclass
class Text:
    """A file's bytes as text (None: not text, ``why`` says so), with what reading it changed."""

    text: str | None
    why: str = ""
    notes: list[tuple[int, str]] = field(default_factory=list)  # (file line, message)


BINARY = "binary file (not a command output); not read"


def read_text(data: bytes) -> Text:
    """Text of a file (UTF-8, else Latin-1), NUL bytes taken out and said so: a NUL inside the text
    (a glitch of a copy or transfer) is removed, NUL padding at the end (a file cut by a crash,
    its last block zeroed) is dropped. Binary data is not text."""
    if data and not data.strip(b"\x00"):
        return Text(None, "holds only NUL bytes (zeroed, e.g. by a crash while it was written); not read")
    if looks_binary(data):
        return Text(None, BINARY)
    notes = []
    body = data.rstrip(b"\x00")
    padding = len(data) - len(body)
    if b"\x00" in body:
        notes.append((line_at(body, body.index(b"\x00")), f"{_nuls(body.count(0))} removed (the first on this "
                                                          "line): damaged in a copy or transfer?"))
    if padding:  # a block's worth: what a crash or a cut copy leaves
        notes.append((line_at(body, max(len(body) - 1, 0)), f"{_nuls(padding)} after this line dropped"
                      + (" (padding a crash or a cut copy leaves): the output may end early" if padding >= 16 else "")))
    if b"\x00" in body:
        body = body.replace(b"\x00", b"")
    try:
        return Text(body.decode("utf-8-sig"), notes=notes)  # a UTF-8 byte order mark is not text
    except UnicodeDecodeError:
        return Text(body.decode("latin-1"), notes=notes)


def _nuls(n: int) -> str:
    return f"{n} NUL byte" + ("s" if n != 1 else "")


def line_at(data: bytes, pos: int) -> int:
    """The line (from 1) byte ``pos`` is on, line ends as the parsers count them (CRLF, CR or LF)."""
    part = data[:pos]
    return part.count(b"\n") + part.count(b"\r") - part.count(b"\r\n") + 1


def utf16_codec(data: bytes) -> str | None:
    """The codec of UTF-16 text (a Windows redirect, with or without a byte order mark), told from
    its first 4 KB; None for other data."""
    head = data[:4096]
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    if b"\x00" not in head:  # UTF-16 text has a NUL in every other byte (nearly): most files end here
        return None
    if len(head) >= 8 and head[1::2].count(0) > 0.9 * len(head[1::2]) and head[0::2].count(0) < 0.1 * len(head[0::2]):
        return "utf-16-le"
    if len(head) >= 8 and head[0::2].count(0) > 0.9 * len(head[0::2]) and head[1::2].count(0) < 0.1 * len(head[1::2]):
        return "utf-16-be"
    return None


def utf16_as_utf8(data: bytes) -> bytes:
    """UTF-16 text as UTF-8; other data (or UTF-16 that does not decode) unchanged."""
    codec = utf16_codec(data)
    if codec is None:
        return data
    try:
        return data.decode(codec).encode("utf-8")
    except UnicodeDecodeError:
        return data


def read_deferred(path: Path, size: int) -> Text:
    """A deferred file's text (at most ``size`` bytes, its size when it was listed), decoded as
    when read at once (its text None when it now looks binary). OSError when it cannot be read."""
    with open(path, "rb") as fh:
        return read_text(utf16_as_utf8(fh.read(size)))
