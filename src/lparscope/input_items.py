"""What reading the inputs yields, shared by ``inputs`` (files and folders) and ``bundles`` (tar / zip):
the limits, an input file or a problem with one, what damaged compressed data raises, and the small
helpers both halves use. It imports nothing else of lparscope, so neither half imports the other's types.
"""

from __future__ import annotations

import lzma
import tarfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath


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
    """nmon recordings start with AAA lines (AAA,progname,topas_nmon ...)."""
    return head.lstrip(b"\xef\xbb\xbf").startswith(b"AAA,")


def _safe_member_name(name: str) -> str | None:
    """Normalised relative member path, or None when it is absolute or climbs out."""
    p = PurePosixPath(name.replace("\\", "/"))
    if p.is_absolute() or ".." in p.parts or (p.parts and ":" in p.parts[0]):
        return None
    return str(p)


def _member_folder(member: str, bundle_display: str) -> str:
    parent = PurePosixPath(member).parent.name
    return parent or Path(bundle_display.split("!")[-1]).name.split(".")[0]
