"""gzip, bzip2 and xz data told from its first bytes and expanded piece by piece, up to a limit.

A single compressed file (``lparstat_i.txt.bz2``, ``aix5.nmon.xz``) is expanded here; a tar in
one is read by :mod:`tarfile` straight from the compressed bytes. Unix compress (.Z) has its own
module (compress_z.py): the standard library has no reader for it.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zlib
from collections.abc import Callable
from typing import BinaryIO

CHUNK = 1024 * 1024
# What damaged compressed data raises (a stream cut short: EOFError).
_DAMAGE = (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError)


def codec_of(data: bytes) -> str | None:
    """"gzip", "bzip2" or "xz" when ``data`` starts as that format does, else None."""
    if data[:2] == b"\x1f\x8b":
        return "gzip"
    # bzip2: "BZh", the block size (1-9), then a block's magic (pi) or the end of an empty stream (sqrt pi)
    if data[:3] == b"BZh" and data[3:4].isdigit() and data[3:4] != b"0" and data[4:10] in (b"1AY&SY", b"\x17rE8P\x90"):
        return "bzip2"
    if data[:6] == b"\xfd7zXZ\x00":
        return "xz"
    return None


def open_stream(fileobj: BinaryIO, codec: str) -> BinaryIO:
    """A reader of what ``fileobj`` (compressed with ``codec``) holds."""
    if codec == "gzip":
        return gzip.GzipFile(fileobj=fileobj)  # type: ignore[return-value]
    if codec == "bzip2":
        return bz2.BZ2File(fileobj)  # type: ignore[return-value]
    return lzma.LZMAFile(fileobj)  # type: ignore[return-value]


def inner_head(data: bytes, n: int, codec: str | None = None) -> bytes:
    """The first ``n`` bytes inside compressed ``data`` (b"" when damaged at once)."""
    codec = codec or codec_of(data)
    if codec is None:
        return b""
    try:
        with open_stream(io.BytesIO(data), codec) as fh:
            return fh.read(n)
    except _DAMAGE:
        return b""


def expand(data: bytes, limit: int, count: Callable[[int], None], codec: str | None = None) -> bytes | None:
    """What compressed ``data`` holds, or None when that is more than ``limit`` bytes (not all of it
    is expanded then). ``count`` is told each piece's size as it comes (the run's decompression
    budget: it may raise to stop). Damage raises (OSError, EOFError, lzma.LZMAError ...)."""
    codec = codec or codec_of(data)
    if codec is None:
        raise ValueError("not gzip, bzip2 or xz data")
    out = bytearray()
    with open_stream(io.BytesIO(data), codec) as fh:
        while len(out) <= limit:
            piece = fh.read(min(CHUNK, limit + 1 - len(out)))
            if not piece:
                break
            count(len(piece))
            out += piece
    return bytes(out) if len(out) <= limit else None


def expanded_size(fileobj: BinaryIO, limit: int, count: Callable[[int], None] | None = None,
                  codec: str = "gzip") -> int | None:
    """Expanded size of a compressed stream, counted without keeping it; None above ``limit``.
    Damage ends the count (a reader of what it holds then reads what it can, and says so)."""
    total = 0
    try:
        with open_stream(fileobj, codec) as fh:
            while True:
                got = len(fh.read(CHUNK))
                if not got:
                    return total
                total += got
                if count is not None:
                    count(got)
                if total > limit:
                    return None
    except _DAMAGE:
        return total
