"""Read what the user gave: files, folders and tar / zip bundles, without changing anything.

Bundles are read in place (never extracted to disk). Members that are links, devices,
absolute paths or paths climbing out of the bundle (``../``) are refused, and size
limits guard against archive bombs. Archives are recognised by their content
(magic bytes), not by their file name.
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import tarfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 64 * 1024 * 1024  # one file or bundle member
    max_total_bytes: int = 1024 * 1024 * 1024  # everything read from one bundle
    max_members: int = 100_000
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


@dataclass
class Collected:
    files: list[InputFile] = field(default_factory=list)
    problems: list[InputProblem] = field(default_factory=list)


def _decode(data: bytes) -> str | None:
    """Text of a file, or None when it looks binary."""
    if b"\x00" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _is_tar(data: bytes) -> bool:
    if data[:3] == b"BZh" or data[:6] == b"\xfd7zXZ\x00":
        return True
    if data[:2] == b"\x1f\x8b":
        try:  # a gzip is a bundle only when what it holds is a tar
            inner = gzip.GzipFile(fileobj=io.BytesIO(data)).read(512)
        except (OSError, EOFError):
            return True  # let the tar reader report the damage
        return len(inner) > 262 and inner[257:262] == b"ustar"
    return len(data) > 262 and data[257:262] == b"ustar"


def _gunzip(data: bytes, limit: int) -> bytes | None:
    """The content of a gzip that is not a tar bundle, or None when it is damaged or too large."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as gz:
            out = gz.read(limit + 1)
    except (OSError, EOFError):
        return None
    return out if len(out) <= limit else None


def is_nmon(head: bytes) -> bool:
    """nmon recordings start with AAA lines (AAA,progname,topas_nmon ...)."""
    return head.lstrip(b"\xef\xbb\xbf").startswith(b"AAA,")


def _is_workbook(data: bytes) -> bool:
    """An HMC Scanner workbook: .xls (OLE2 compound file) or .xlsx (zip holding xl/workbook.xml)."""
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return True
    return data[:4] == b"PK\x03\x04" and b"xl/workbook.xml" in data[:65536]


def _is_zip(data: bytes) -> bool:
    return data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06"


def _safe_member_name(name: str) -> str | None:
    """Normalised relative member path, or None when it is absolute or climbs out."""
    p = PurePosixPath(name.replace("\\", "/"))
    if p.is_absolute() or ".." in p.parts or (p.parts and ":" in p.parts[0]):
        return None
    return str(p)


def _member_folder(member: str, bundle_display: str) -> str:
    parent = PurePosixPath(member).parent.name
    return parent or Path(bundle_display.split("!")[-1]).name.split(".")[0]


def _add_workbook(out: Collected, display: str, folder: str, data: bytes) -> None:
    try:
        from .sources.hmcscanner import workbook_sheets
    except ImportError:
        out.problems.append(InputProblem(display, "spreadsheet workbook: HMC Scanner reading is not available"))
        return
    try:
        sheets = workbook_sheets(data)
    except Exception as exc:  # a damaged workbook must not stop the run
        out.problems.append(InputProblem(display, f"unreadable workbook: {exc}"))
        return
    for name, text in sheets:
        # The marker line keeps the sheet's name for detection (CSV lines are then one further down).
        out.files.append(InputFile(f"{display}!{name}", f"# HMC Scanner sheet: {name}\n{text}", folder))


def _add_bytes(out: Collected, display: str, folder: str, data: bytes, limits: Limits, depth: int) -> None:
    if data[:2] == b"\x1f\x8b" and not _is_tar(data):
        inner = _gunzip(data, limits.max_file_bytes)
        if inner is None:
            out.problems.append(InputProblem(display, "damaged or too large gzip file; not read"))
            return
        data = inner
    if is_nmon(data[:16]):
        out.files.append(InputFile(display, "", folder, nmon=data))
        return
    if _is_workbook(data):
        _add_workbook(out, display, folder, data)
        return
    if _is_zip(data) or _is_tar(data):
        if depth >= limits.max_depth:
            out.problems.append(InputProblem(display, "bundle nested too deeply; not read"))
            return
        if _is_zip(data):
            _read_zip(out, display, data, limits, depth + 1)
        else:
            _read_tar(out, display, data, limits, depth + 1)
        return
    text = _decode(data)
    if text is None:
        out.problems.append(InputProblem(display, "binary file (not a command output); not read"))
        return
    out.files.append(InputFile(display, text, folder))


def _read_tar(out: Collected, display: str, data: bytes, limits: Limits, depth: int) -> None:
    try:
        tf = tarfile.open(fileobj=io.BytesIO(data), mode="r:*")
    except (tarfile.TarError, EOFError, OSError) as exc:
        out.problems.append(InputProblem(display, f"unreadable tar bundle: {exc}"))
        return
    total = 0
    count = 0
    with tf:
        while True:
            try:
                member = tf.next()
            except (tarfile.TarError, EOFError, OSError) as exc:
                out.problems.append(InputProblem(display, f"tar bundle is damaged after {count} members: {exc}"))
                break
            if member is None:
                break
            count += 1
            mdisplay = f"{display}!{member.name}"
            if count > limits.max_members:
                out.problems.append(InputProblem(display, f"more than {limits.max_members} members; rest not read"))
                break
            if member.isdir():
                continue
            name = _safe_member_name(member.name)
            if name is None:
                out.problems.append(InputProblem(mdisplay, "member path is absolute or leaves the bundle; refused"))
                continue
            if member.issym() or member.islnk():
                out.problems.append(InputProblem(mdisplay, "member is a link; not followed"))
                continue
            if not member.isfile():
                out.problems.append(InputProblem(mdisplay, "member is not a regular file; skipped"))
                continue
            if member.size > limits.max_file_bytes:
                out.problems.append(InputProblem(mdisplay, f"member larger than {limits.max_file_bytes} bytes; skipped"))
                continue
            total += member.size
            if total > limits.max_total_bytes:
                out.problems.append(InputProblem(display, f"bundle content exceeds {limits.max_total_bytes} bytes; rest not read"))
                break
            fh = tf.extractfile(member)
            if fh is None:
                continue
            body = fh.read(limits.max_file_bytes + 1)
            _add_bytes(out, f"{display}!{name}", _member_folder(name, display), body, limits, depth)


def _read_zip(out: Collected, display: str, data: bytes, limits: Limits, depth: int) -> None:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError) as exc:
        out.problems.append(InputProblem(display, f"unreadable zip bundle: {exc}"))
        return
    total = 0
    with zf:
        infos = zf.infolist()
        if len(infos) > limits.max_members:
            out.problems.append(InputProblem(display, f"more than {limits.max_members} members; only the first read"))
            infos = infos[: limits.max_members]
        for info in infos:
            if info.is_dir():
                continue
            mdisplay = f"{display}!{info.filename}"
            name = _safe_member_name(info.filename)
            if name is None:
                out.problems.append(InputProblem(mdisplay, "member path is absolute or leaves the bundle; refused"))
                continue
            mode = (info.external_attr >> 16) & 0o170000
            if mode == 0o120000:
                out.problems.append(InputProblem(mdisplay, "member is a link; not followed"))
                continue
            if info.file_size > limits.max_file_bytes:
                out.problems.append(InputProblem(mdisplay, f"member larger than {limits.max_file_bytes} bytes; skipped"))
                continue
            if info.compress_size and info.file_size / info.compress_size > limits.max_ratio:
                out.problems.append(InputProblem(mdisplay, "compression ratio too high (possible archive bomb); skipped"))
                continue
            total += info.file_size
            if total > limits.max_total_bytes:
                out.problems.append(InputProblem(display, f"bundle content exceeds {limits.max_total_bytes} bytes; rest not read"))
                break
            try:
                with zf.open(info) as fh:
                    body = fh.read(limits.max_file_bytes + 1)
            except (zipfile.BadZipFile, OSError, NotImplementedError) as exc:
                out.problems.append(InputProblem(mdisplay, f"unreadable member: {exc}"))
                continue
            if len(body) > limits.max_file_bytes:
                out.problems.append(InputProblem(mdisplay, "member larger than declared; skipped"))
                continue
            _add_bytes(out, f"{display}!{name}", _member_folder(name, display), body, limits, depth)


def _is_regular(path: Path) -> bool:
    """Whether ``path`` is a regular file, checked on the opened file (never blocks on a FIFO)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode)
    finally:
        os.close(fd)


def _read_path(out: Collected, path: Path, display: str, folder: str, limits: Limits) -> None:
    try:
        if not _is_regular(path):  # a FIFO would block for ever, a device never ends
            out.problems.append(InputProblem(display, "not a regular file (FIFO, socket or device); not read"))
            return
        with open(path, "rb") as fh:
            head = fh.read(16)
        if head[:2] == b"\x1f\x8b":
            try:
                with gzip.open(path, "rb") as gz:
                    head = gz.read(16)
            except (OSError, EOFError):
                pass
        if is_nmon(head):  # read later by the nmon reader straight from the file, whatever its size
            out.files.append(InputFile(display, "", folder, nmon=path))
            return
        size = path.stat().st_size
        if size > limits.max_file_bytes:
            out.problems.append(InputProblem(display, f"file larger than {limits.max_file_bytes} bytes; skipped"))
            return
        data = path.read_bytes()
    except OSError as exc:
        out.problems.append(InputProblem(display, f"cannot read: {exc.strerror or exc}"))
        return
    _add_bytes(out, display, folder, data, limits, 0)


def collect(paths: list[str], limits: Limits | None = None) -> Collected:
    """Everything readable under ``paths``, in a stable order, plus what could not be read."""
    limits = limits or Limits()
    out = Collected()
    for given in paths:
        root = Path(given)
        if root.is_dir():
            for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                for fname in sorted(filenames):
                    if fname.startswith("."):
                        continue
                    fpath = Path(dirpath) / fname
                    if fpath.is_symlink() and not fpath.resolve().is_relative_to(root.resolve()):
                        out.problems.append(InputProblem(str(fpath), "link pointing outside the folder; not followed"))
                        continue
                    folder = fpath.parent.name if fpath.parent != root else root.resolve().name
                    _read_path(out, fpath, str(fpath), folder, limits)
        elif root.exists():
            _read_path(out, root, str(root), root.resolve().parent.name, limits)
        else:
            out.problems.append(InputProblem(given, "no such file or folder"))
    return out
