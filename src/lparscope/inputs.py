"""Read what the user gave: files, folders and tar / zip bundles (plain, gzip, bzip2, xz or Unix
compress .Z: AIX snap -c writes snap.pax.Z), and single compressed files, without changing anything.

Bundles are read in place (never extracted to disk). Members that are links, devices or paths
climbing out of the bundle (``../``) are refused (an absolute name, as AIX tar keeps it, is read
as relative), and size limits guard against archive bombs. Archives are recognised by their
content (magic bytes), not by their file name. A file reached twice (overlapping paths given,
a link to a file read already, a hard link: one device and inode) is read once, and the name it
was met under again is kept with the name it was read under.
"""

from __future__ import annotations

import io
import os
import stat
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .bundles import read_tar, read_zip
from .compress_z import TooLargeZ, expand_z, is_z
from .decompress import codec_of, expand, expanded_size, inner_head
from .input_items import (DAMAGE, InputFile, InputProblem, Item, Limits, _mb, _member_folder,  # noqa: F401
                          _safe_member_name, is_nmon, looks_binary, read_text, text_name, utf16_as_utf8, utf16_codec)
from .recording_head import HEAD_BYTES as RECORDING_HEAD
from .pipeline_guard import describe


@dataclass
class Collected:
    files: list[InputFile] = field(default_factory=list)
    problems: list[InputProblem] = field(default_factory=list)
    repeated: list[tuple[str, str]] = field(default_factory=list)  # inputs not read again (iter_inputs' ``repeated``)


CHUNK = 1024 * 1024
# A .Z file is expanded in memory (its tar read from there): up to this many times the size of
# one text file (snap -gc gives a few MB; a snap with a system dump is refused, and said so).
Z_EXPANDED_FACTOR = 4


class TooLarge(Exception):
    """The run's decompression budget is spent: the input being read, and the rest of its bundle, are not read."""


class _Budget:
    """Bytes of text kept (``max_total_bytes``) and bytes decompressed (``max_expanded_bytes``) so far in this run."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.used = 0
        self.expanded = 0

    def take(self, n: int) -> bool:
        self.used += n
        return self.used <= self.limits.max_total_bytes

    def expand(self, n: int) -> None:
        """Count ``n`` decompressed bytes; TooLarge once the run has expanded more than its limit."""
        self.expanded += n
        if self.expanded > self.limits.max_expanded_bytes:
            raise TooLarge(f"more than {_mb(self.limits.max_expanded_bytes)} decompressed from the inputs of this run")


def _is_tar(data: bytes, inner: bytes | None = None) -> bool:
    """A tar bundle, plain or compressed: a gzip, bzip2 or xz file is one only when what it holds
    (``inner``: its first bytes, when known) is a tar (damaged at once: read as a damaged file)."""
    codec = codec_of(data)
    if codec is not None:
        data = inner_head(data, RECORDING_HEAD, codec) if inner is None else inner
    return len(data) > 262 and data[257:262] == b"ustar"


def _is_workbook(data: bytes) -> bool:
    """An HMC Scanner workbook: .xls (OLE2 compound file) or .xlsx (zip holding xl/workbook.xml)."""
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return True
    return data[:4] == b"PK\x03\x04" and b"xl/workbook.xml" in data[:65536]


def _is_zip(data: bytes) -> bool:
    return data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06"


def _workbook_too_large(data: bytes, limits: Limits) -> bool:
    """An .xlsx whose parts would expand beyond the limits (checked before the reader opens it)."""
    if not _is_zip(data):
        return len(data) > limits.max_file_bytes
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        infos = zf.infolist()
        total = sum(i.file_size for i in infos)
        return (len(infos) > limits.max_members or total > 4 * limits.max_file_bytes
                or any(i.compress_size and i.file_size / i.compress_size > limits.max_ratio for i in infos))


def _workbook(display: str, folder: str, data: bytes, limits: Limits, budget: _Budget) -> Iterator[Item]:
    try:
        from .sources.hmcscanner import workbook_sheets
    except ImportError:
        yield InputProblem(display, "spreadsheet workbook: HMC Scanner reading is not available")
        return
    try:
        if _workbook_too_large(data, limits):
            yield InputProblem(display, "workbook too large once expanded (possible archive bomb); not read")
            return
        sheets = workbook_sheets(data)
    except Exception as exc:  # a damaged workbook must not stop the run
        yield InputProblem(display, f"unreadable workbook: {describe(exc)}")
        return
    for name, text in sheets:
        if not budget.take(len(text)):
            yield InputProblem(display, f"too large: the run's inputs exceed {_mb(limits.max_total_bytes)} of text; rest not read")
            return
        # The marker line keeps the sheet's name for detection (CSV lines are then one further down).
        yield InputFile(f"{display}!{name}", f"# HMC Scanner sheet: {name}\n{text}", folder)


def _from_bytes(display: str, folder: str, data: bytes, limits: Limits, budget: _Budget, depth: int) -> Iterator[Item]:
    """What one file or bundle member holds, its bytes already read (at most the limits)."""
    codec = codec_of(data)
    if codec is not None:  # gzip, bzip2 or xz: a tar in it is read as a bundle below, other data expanded here
        inner = inner_head(data, RECORDING_HEAD, codec)
        if not _is_tar(data, inner):
            recording = is_nmon(inner)
            if recording and codec == "gzip":  # the nmon reader expands it to a temporary file, piece by piece
                if expanded_size(io.BytesIO(data), limits.max_nmon_bytes, budget.expand) is None:
                    yield InputProblem(display, f"too large: expands beyond {_mb(limits.max_nmon_bytes)}; not read")
                    return
                yield InputFile(display, "", folder, nmon=data)
                return
            # A bzip2 or xz recording is expanded in memory, as a .Z file is.
            cap = Z_EXPANDED_FACTOR * limits.max_file_bytes if recording else limits.max_file_bytes
            expanded = expand(data, cap, budget.expand, codec)
            if expanded is None:
                yield InputProblem(display, f"too large: expands beyond {_mb(cap)}; not read"
                                   + (" (uncompress it, and give what it holds)" if recording else ""))
                return
            data = expanded
            if codec_of(data) is not None:  # compressed twice (a .gz gzipped again): read as what it holds
                yield from (_from_bytes(display, folder, data, limits, budget, depth + 1) if depth < limits.max_depth
                            else iter([InputProblem(display, "compressed too many times over; not read")]))
                return
    if is_z(data):  # Unix compress (AIX snap -c writes snap.pax.Z)
        cap = Z_EXPANDED_FACTOR * limits.max_file_bytes
        try:
            data = expand_z(data, cap)
        except TooLargeZ:
            yield InputProblem(display, f"too large: expands beyond {_mb(cap)}; not read (uncompress it, "
                                        "and give what it holds)")
            return
        budget.expand(len(data))
    data = utf16_as_utf8(data)
    if is_nmon(data[:RECORDING_HEAD]):
        yield InputFile(display, "", folder, nmon=data)
        return
    if _is_workbook(data):
        yield from _workbook(display, folder, data, limits, budget)
        return
    if _is_zip(data) or _is_tar(data):
        if depth >= limits.max_depth:
            yield InputProblem(display, "bundle nested too deeply; not read")
        else:
            def member(mdisplay: str, folder: str, read: Callable[[], bytes]) -> Iterator[Item]:
                return _member(mdisplay, folder, read, limits, budget, depth + 1)
            yield from (read_zip if _is_zip(data) else read_tar)(display, data, limits, member)
        return
    got = read_text(data)
    if got.text is None:
        yield InputProblem(display, got.why)
        return
    if not budget.take(len(data)):
        yield InputProblem(display, f"too large: the run's inputs exceed {_mb(limits.max_total_bytes)} of text; not read")
        return
    yield InputFile(display, got.text, folder, notes=got.notes)


def _member(display: str, folder: str, read: Callable[[], bytes], limits: Limits, budget: _Budget,
            depth: int) -> Iterator[Item]:
    """One bundle member: damage and bugs in it are its own problem, the bundle goes on."""
    try:
        body = read()
        budget.expand(len(body))
        yield from _from_bytes(display, folder, body, limits, budget, depth)
    except TooLarge:
        raise  # the whole bundle stops here
    except MemoryError:
        yield InputProblem(display, "too large: not enough memory to read it")
    except DAMAGE as exc:
        yield InputProblem(display, f"damaged member: {describe(exc)}")
    except Exception as exc:
        yield InputProblem(display, f"internal error while reading it: {describe(exc)}", internal=True)


def _read_path(path: str, display: str, folder: str, limits: Limits, budget: _Budget) -> Iterator[Item]:
    # One open per file: the type is checked on the opened file (a FIFO would block for ever at
    # open without O_NONBLOCK, a device never ends), then its head, then (text) the whole of it.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            problem, body = "not a regular file (FIFO, socket or device); not read", None
        else:
            problem, body = _read_open(fd, st.st_size, limits, budget)
    finally:
        os.close(fd)
    if problem:
        yield InputProblem(display, problem)
    elif body is None:  # read later by the nmon reader straight from the file, whatever its size
        yield InputFile(display, "", folder, nmon=Path(path))
    elif isinstance(body, _Later):  # read by whoever parses it (a worker): counted now, as when read
        if not budget.take(st.st_size):
            yield InputProblem(display, f"too large: the run's inputs exceed {_mb(limits.max_total_bytes)} of text; not read")
        else:
            yield InputFile(display, "", folder, deferred=(Path(path), st.st_size))
    else:
        yield from _from_bytes(display, folder, body, limits, budget, 0)


HEAD_BYTES = 64 * 1024  # what is read of a file to tell its kind; a larger plain text file is read later


def _read_open(fd: int, size: int, limits: Limits, budget: _Budget) -> tuple[str, bytes | None | _Later]:
    """An opened regular file: (why it is not read, None) or ("", its bytes), or ("", None) for an
    nmon recording, or ("", LATER) for a large plain text file (read where it is parsed)."""
    head = _read_fd(fd, HEAD_BYTES)
    if head[:2] == b"\x1f\x8b":
        inner = inner_head(head, RECORDING_HEAD, "gzip")
        if is_nmon(inner[:RECORDING_HEAD]):  # count what it expands to first (the nmon reader expands it to a temporary file)
            os.lseek(fd, 0, os.SEEK_SET)
            with os.fdopen(os.dup(fd), "rb") as fh:
                if expanded_size(fh, limits.max_nmon_bytes, budget.expand) is None:
                    return f"too large: expands beyond {_mb(limits.max_nmon_bytes)}; not read", None
            head = inner[:RECORDING_HEAD]
    if is_nmon(head[:RECORDING_HEAD]):
        return "", None
    if size > limits.max_file_bytes:
        return f"too large: file larger than {_mb(limits.max_file_bytes)}; skipped", None
    if size > HEAD_BYTES and _plain_text(head):
        return "", LATER
    if len(head) < HEAD_BYTES:  # the whole file (a short read means the end)
        return "", head
    return "", head + _read_fd(fd, None)


def _read_fd(fd: int, n: int | None) -> bytes:
    """``n`` bytes from ``fd`` (fewer at the end of the file), or all that is left when ``n`` is None."""
    parts = []
    want = n if n is not None else -1
    while want != 0:
        part = os.read(fd, want if want > 0 else CHUNK)
        if not part:
            break
        parts.append(part)
        if want > 0:
            want -= len(part)
    return b"".join(parts)


class _Later:
    """A large plain text file: listed now, read where it is parsed (InputFile.deferred)."""


LATER = _Later()


def _plain_text(head: bytes) -> bool:
    """The head of a file that :func:`_from_bytes` would read as plain text, whatever follows: not
    compressed, a bundle, a workbook, UTF-16 or binary (each is told from the first 64 KB or less)."""
    return not (codec_of(head) is not None or is_z(head) or _is_zip(head) or _is_workbook(head) or _is_tar(head)
                or utf16_codec(head) is not None or looks_binary(head))


def _guarded(path: str, display: str, folder: str, limits: Limits, budget: _Budget) -> Iterator[Item]:
    """One given file: whatever goes wrong while reading it is its own problem."""
    try:
        yield from _read_path(path, display, folder, limits, budget)
    except TooLarge as exc:
        yield InputProblem(display, f"too large: {exc}; not read (or the rest of it)")
    except MemoryError:
        yield InputProblem(display, "too large: not enough memory to read it")
    except OSError as exc:
        yield InputProblem(display, f"cannot read: {exc.strerror or exc}")
    except DAMAGE as exc:
        yield InputProblem(display, f"damaged file: {describe(exc)}")
    except Exception as exc:
        yield InputProblem(display, f"internal error while reading it: {describe(exc)}", internal=True)


def iter_inputs(paths: list[str], limits: Limits | None = None,
                repeated: list[tuple[str, str]] | None = None) -> Iterator[Item]:
    """Everything readable under ``paths``, one file at a time, in a stable order, with what
    could not be read. Nothing is held beyond the item being handed out. Each file is read once:
    one reached again (overlapping paths given, a link to a file read already, a hard link of it)
    is not, and ``repeated`` gets (its name, the name it was read under). Names are shown as text
    (:func:`input_items.text_name`)."""
    limits = limits or Limits()
    budget = _Budget(limits)
    seen: dict[object, str] = {}  # each file read so far (device and inode) -> the name it was read under
    repeats = repeated if repeated is not None else []
    for given in paths:
        root = Path(given)
        if root.is_dir():
            real_root = root.resolve()
            base, real = os.fspath(root), str(real_root)
            links = []  # read after the folder's own files: a file is named as where it is, not as a link to it
            for fpath, display, folder, link in _files_under(root, text_name(real_root.name)):
                if link:
                    links.append((fpath, display, folder))
                    continue
                # below a resolved folder, a file that is not a link is where its path says (no realpath call)
                if _first_time(_identity(fpath, real + fpath[len(base):]), display, seen, repeats):
                    yield from _guarded(fpath, display, folder, limits, budget)
            for fpath, display, folder in links:
                try:
                    target = Path(fpath).resolve()
                except (OSError, RuntimeError):  # a loop of links (Python 3.11 raises RuntimeError)
                    yield InputProblem(display, LINK_LOOP)
                    continue
                if not target.is_relative_to(real_root):
                    yield InputProblem(display, "link pointing outside the folder; not followed")
                elif _first_time(_identity(fpath, str(target)), display, seen, repeats):
                    yield from _guarded(fpath, display, folder, limits, budget)
        elif root.exists():
            if _first_time(_identity(given, os.path.realpath(root)), text_name(str(root)), seen, repeats):
                yield from _guarded(str(root), text_name(str(root)), text_name(root.resolve().parent.name), limits, budget)
        elif os.path.islink(given):
            yield InputProblem(text_name(given), "link to a missing file, or a loop of links; not followed")
        else:
            yield InputProblem(text_name(given), "no such file or folder")


LINK_LOOP = "link that leads back to itself (a loop of links); not followed"


def _identity(path: str, real: str) -> object:
    """What makes a file the same file whatever its name: its device and inode (hard links share
    them; a link is followed), else (it cannot be stat'ed: it is then reported unreadable) its real path."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return real
    return (st.st_dev, st.st_ino)


def _first_time(key: object, display: str, seen: dict[object, str], repeats: list[tuple[str, str]]) -> bool:
    """Whether the file ``key`` (:func:`_identity`) is met for the first time in this run (else
    ``repeats`` gets its name with the name it was read under)."""
    first = seen.get(key)
    if first is not None:
        repeats.append((display, first))
        return False
    seen[key] = display
    return True


def _files_under(root: Path, root_name: str) -> Iterator[tuple[str, str, str, bool]]:
    """(path, display, folder, is a link) of each file under ``root`` in the order ``os.walk`` gives
    (names sorted, a folder's files before its subfolders, hidden names skipped, links to folders not
    followed, unreadable folders skipped), with one directory listing per folder and no system call
    or path object per file (a thousand hosts are 6,750 files)."""
    pending = [(os.fspath(root), text_name(str(root)), root_name)]
    while pending:
        where, shown, folder = pending.pop()
        try:
            with os.scandir(where) as listing:
                entries = sorted((e for e in listing if not e.name.startswith(".")), key=lambda e: e.name)
        except OSError:
            continue
        below = []
        for e in entries:
            try:
                is_dir = e.is_dir()
            except OSError:
                is_dir = False
            if not is_dir:
                yield e.path, _joined(shown, text_name(e.name)), folder, e.is_symlink()
            elif not e.is_symlink():
                name = text_name(e.name)
                below.append((e.path, _joined(shown, name), name))
        pending.extend(reversed(below))


def _joined(shown: str, name: str) -> str:
    """``str(Path(shown) / name)`` for a name without a slash."""
    if shown == ".":
        return name
    return shown + name if shown.endswith("/") else f"{shown}/{name}"


def collect(paths: list[str], limits: Limits | None = None) -> Collected:
    """Everything readable under ``paths`` at once (see :func:`iter_inputs` to read one by one)."""
    out = Collected()
    for item in iter_inputs(paths, limits, out.repeated):
        (out.files if isinstance(item, InputFile) else out.problems).append(item)  # type: ignore[arg-type]
    return out
