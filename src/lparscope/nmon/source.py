"""The input of the nmon reader: detection, plain or gzip bytes, chunks that end at a line end."""

from __future__ import annotations

import io
import os
import re
import tempfile
import weakref
import zlib
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator

CHUNK = 12 << 20  # bytes per chunk (at most: a small file gets a buffer of its own size)


def is_nmon(head: bytes) -> bool:
    """True when ``head`` (the first bytes of a file, plain or gzip) looks like an nmon recording."""
    if head[:2] == b"\x1f\x8b":
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 4096)
        except zlib.error:
            return False
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"AAA,"):
        return True
    return re.match(rb"ZZZZ,T\d+,\d\d:\d\d", text) is not None


class Source:
    """The file's bytes, delivered as chunks that end at a line end (twice: one per pass)."""

    def __init__(self, source: str | os.PathLike[str] | bytes, warn: list[tuple[int, str]]) -> None:
        self.path: Path | None = None
        self.data: bytes | None = None
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
            if data[:2] == b"\x1f\x8b":
                self.path = expand_to_temp(io.BytesIO(data), warn)
                weakref.finalize(self, _remove, self.path)
            else:
                self.data = data
        else:
            path = Path(source)
            with open(path, "rb") as fh:
                magic = fh.read(2)
            if magic == b"\x1f\x8b":
                # expanded to a temporary file in pieces, then read like a plain file: memory stays
                # bounded by the chunk size whatever the recording expands to (the input is untouched)
                with open(path, "rb") as fh:
                    self.path = expand_to_temp(fh, warn)
                weakref.finalize(self, _remove, self.path)
            else:
                self.path = path
        self.size = len(self.data) if self.data is not None else self.path.stat().st_size  # type: ignore[union-attr]

    def head(self, n: int) -> bytes:
        """The first ``n`` bytes (fewer in a shorter file)."""
        if self.data is not None:
            return self.data[:n]
        with open(self.path, "rb") as fh:  # type: ignore[arg-type]
            return fh.read(n)

    def chunks(self) -> Iterator[tuple[bytes | memoryview, bool, bool]]:
        """(chunk, last, has_cr) triples; every chunk ends with b'\\n' (added after a truncated last line)."""
        if self.data is not None:
            data = self.data
            mv = memoryview(data)
            pos = 0
            while pos < len(data):
                end = min(pos + CHUNK, len(data))
                if end < len(data):
                    cut = data.rfind(b"\n", pos, end)
                    end = cut + 1 if cut >= 0 else (data.find(b"\n", end) + 1 or len(data))
                has_cr = data.find(b"\r", pos, end) >= 0
                if data[end - 1:end] != b"\n":
                    yield bytes(mv[pos:end]) + b"\n", True, has_cr
                    return
                piece = mv[pos:end]
                pos = end
                yield piece, pos >= len(data), has_cr
            return
        with open(self.path, "rb") as fh:  # type: ignore[arg-type]
            tail = b""
            left = self.size
            while True:
                # a small file gets a buffer of its own size, not a whole chunk
                buf = bytearray(max(1, min(CHUNK, left + 1)) + len(tail))
                buf[: len(tail)] = tail
                got = fh.readinto(memoryview(buf)[len(tail):])
                left = max(0, left - got)
                filled = len(tail) + got
                if got == 0:
                    if tail:
                        yield tail + b"\n", True, b"\r" in tail
                    return
                cut = buf.rfind(b"\n", 0, filled)
                if cut < 0:
                    tail = bytes(buf[:filled])
                    continue
                tail = bytes(buf[cut + 1:filled])
                yield memoryview(buf)[: cut + 1], False, buf.find(b"\r", 0, cut + 1) >= 0


PIECE = 4 << 20  # compressed bytes read at a time when expanding a .nmon.gz


def _remove(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def expand_to_temp(fh: BinaryIO, warn: list[tuple[int, str]]) -> Path:
    """Expand a gzip stream (every member) into a temporary file, piece by piece; damage ends the
    expansion with a warning, and what was expanded before it is read."""
    out = tempfile.NamedTemporaryFile(prefix="lparscope-nmon-", suffix=".nmon", delete=False)
    path = Path(out.name)
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    fed = False  # the current member has received bytes
    try:
        with out:
            while True:
                piece = fh.read(PIECE)
                if not piece:
                    if fed and not d.eof:
                        warn.append((0, "gzip stream is truncated: read what could be decompressed"))
                    return path
                while piece:
                    fed = True
                    try:
                        out.write(d.decompress(piece, PIECE))
                        while d.unconsumed_tail:  # at most PIECE bytes out per call
                            out.write(d.decompress(d.unconsumed_tail, PIECE))
                    except zlib.error:
                        warn.append((0, "gzip stream is damaged: read what could be decompressed"))
                        return path
                    if not d.eof:
                        break
                    piece = d.unused_data  # another member may follow
                    d, fed = zlib.decompressobj(16 + zlib.MAX_WBITS), False
                    if piece and piece[:2] != b"\x1f\x8b":
                        return path  # trailing bytes that are not gzip: ignored
    except BaseException:
        _remove(path)
        raise


_LIBC = None  # glibc, once tame_malloc found it
_MALLOC_TAMED = False
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt parameters (glibc's malloc.h)
_TAME_MMAP = 256 * 1024
_DEFAULT_TRIM = 128 * 1024  # glibc's default M_TRIM_THRESHOLD
_ROOMY_MMAP, _ROOMY_TRIM = 8 << 20, 32 << 20


def tame_malloc() -> None:
    """Fix glibc's mmap threshold (256 KiB) so freed chunk buffers go back to the system.

    glibc raises the threshold after each large free, after which the reader's per-chunk
    buffers are kept in the heap: ~110 MB more peak memory on a 230 MB file. Linux/glibc only;
    a no-op elsewhere.
    """
    global _MALLOC_TAMED, _LIBC
    if _MALLOC_TAMED:
        return
    _MALLOC_TAMED = True
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(_M_MMAP_THRESHOLD, _TAME_MMAP)
        _LIBC = libc
    except (OSError, AttributeError):
        pass


@contextmanager
def roomy_malloc() -> Iterator[None]:
    """Within: glibc keeps freed blocks (up to 8 MiB each, 32 MiB at the heap's top) for reuse.

    The pure path's first pass makes many short-lived arrays of a few MiB per chunk; with
    tame_malloc's threshold each came from a fresh mapping, faulted in page by page (about half of
    the reader's 1.2 million minor faults on a 215 MB file). The first pass holds little memory
    and the peak comes later, with the tables, so the tame setting is back (and the kept
    blocks returned) before them. A no-op where tame_malloc found no glibc.
    """
    libc = _LIBC
    if libc is None:
        yield
        return
    libc.mallopt(_M_MMAP_THRESHOLD, _ROOMY_MMAP)
    libc.mallopt(_M_TRIM_THRESHOLD, _ROOMY_TRIM)
    try:
        yield
    finally:
        libc.mallopt(_M_MMAP_THRESHOLD, _TAME_MMAP)
        libc.mallopt(_M_TRIM_THRESHOLD, _DEFAULT_TRIM)
        libc.malloc_trim(0)


def ends_with_newline(src: Source) -> bool:
    if src.data is not None:
        return src.data.endswith(b"\n")
    with open(src.path, "rb") as fh:  # type: ignore[arg-type]
        fh.seek(max(0, src.size - 1))
        return fh.read(1) == b"\n"


def looks_like_records(head: bytes) -> bool:
    """An nmon excerpt without its AAA header still has TAG,Tnnnn rows."""
    return re.search(rb"(?m)^(?:[A-Z][A-Z0-9_]*,T\d{4,},|BBBP,\d+,)", head) is not None


def line_text(raw: bytes) -> str:
    """A text line of a recording (AAA, BBBP, ZZZZ, headers ...) as text files are read: UTF-8, else
    Latin-1, never a replacement character. A host name from an ISO8859-1 box (``AAA,host,s\\xe9rveur1``)
    reads as the same name its lparstat -i or hostname output gives, whichever encoding each file
    has. (Table cells keep the native core's reading, lossy UTF-8, the same on every path.)"""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")
