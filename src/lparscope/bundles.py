"""tar and zip bundles read in place: members listed, refused or handed on one by one.

Members that are links, devices or paths climbing out of the bundle (``../``) are refused (an
absolute name is read as relative: AIX tar keeps the leading ``/``); names that are not UTF-8 are
shown as Latin-1 (:func:`lparscope.input_items.text_name`); sizes are checked against
:class:`lparscope.input_items.Limits` before anything is expanded. What a member holds is read by
the ``handle`` callback (lparscope.inputs), so nested bundles and compressed members count against
the same run budget.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Callable, Iterator

from .input_items import (DAMAGE, InputProblem, Item, Limits, _mb, _member_folder, _safe_member_name, is_nmon,
                          text_name)
from .pipeline_guard import describe
from .recording_head import HEAD_BYTES

Member = Callable[[str, str, Callable[[], bytes]], Iterator[Item]]


def _tar_too_many(data: bytes, limit: int) -> bool:
    """Whether a tar holds more than ``limit`` members (headers only are read; damage: False)."""
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r|*") as tf:
            for n, _ in enumerate(tf, start=1):
                if n > limit:
                    return True
    except DAMAGE:
        pass
    return False


def read_tar(display: str, data: bytes, limits: Limits, handle: Member) -> Iterator[Item]:
    """The members of a tar bundle (plain, gzip, bzip2 or xz), each handed to ``handle``."""
    try:
        if _tar_too_many(data, limits.max_members):
            yield InputProblem(display, f"too large: more than {limits.max_members} members; not read "
                                        "(give it as an extracted folder to read it)")
            return
        tf = tarfile.open(fileobj=io.BytesIO(data), mode="r:*")
    except DAMAGE as exc:
        yield InputProblem(display, f"unreadable tar bundle: {describe(exc)}")
        return
    count = 0
    with tf:
        while True:
            try:
                member = tf.next()
            except DAMAGE as exc:
                yield InputProblem(display, f"tar bundle is damaged after {count} members ({describe(exc)}); "
                                            "the members before were read")
                break
            if member is None:
                break
            count += 1
            mdisplay = f"{display}!{text_name(member.name)}"
            if count > limits.max_members:
                yield InputProblem(display, f"too large: more than {limits.max_members} members; rest not read")
                break
            if member.isdir():
                continue
            name = _safe_member_name(member.name)
            if name is None:
                yield InputProblem(mdisplay, "member path leaves the bundle (../) or names a drive; refused")
                continue
            if member.issym() or member.islnk():
                yield InputProblem(mdisplay, "member is a link; not followed")
                continue
            if not member.isfile():
                yield InputProblem(mdisplay, "member is not a regular file; skipped")
                continue
            cap = limits.max_file_bytes
            if member.size > cap:
                fh = tf.extractfile(member)
                if fh is not None and is_nmon(fh.read(HEAD_BYTES)):
                    cap = limits.max_nmon_bytes
            if member.size > cap:
                yield InputProblem(mdisplay, f"too large: member larger than {_mb(cap)}; skipped")
                continue

            def read(member: tarfile.TarInfo = member, cap: int = cap) -> bytes:
                fh = tf.extractfile(member)
                return fh.read(cap + 1) if fh is not None else b""
            yield from handle(f"{display}!{name}", _member_folder(name, display), read)


def read_zip(display: str, data: bytes, limits: Limits, handle: Member) -> Iterator[Item]:
    """The members of a zip bundle, each handed to ``handle``."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except DAMAGE as exc:
        yield InputProblem(display, f"unreadable zip bundle: {describe(exc)}")
        return
    with zf:
        if len(infos) > limits.max_members:
            yield InputProblem(display, f"too large: more than {limits.max_members} members; not read "
                                        "(give it as an extracted folder to read it)")
            return
        for info in infos:
            if info.is_dir():
                continue
            mdisplay = f"{display}!{text_name(info.filename)}"
            name = _safe_member_name(info.filename)
            if name is None:
                yield InputProblem(mdisplay, "member path leaves the bundle (../) or names a drive; refused")
                continue
            mode = (info.external_attr >> 16) & 0o170000
            if mode == 0o120000:
                yield InputProblem(mdisplay, "member is a link; not followed")
                continue
            cap = limits.max_nmon_bytes if info.file_size > limits.max_file_bytes and _zip_head_is_nmon(zf, info) \
                else limits.max_file_bytes
            if info.file_size > cap:
                yield InputProblem(mdisplay, f"too large: member larger than {_mb(cap)}; skipped")
                continue
            if info.compress_size and info.file_size / info.compress_size > limits.max_ratio:
                yield InputProblem(mdisplay, "too large: compression ratio too high (possible archive bomb); skipped")
                continue

            def read(info: zipfile.ZipInfo = info, cap: int = cap) -> bytes:
                with zf.open(info) as fh:
                    body = fh.read(cap + 1)
                if len(body) > cap:
                    raise ValueError("member larger than declared")
                return body
            yield from handle(f"{display}!{name}", _member_folder(name, display), read)


def _zip_head_is_nmon(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bool:
    try:
        with zf.open(info) as fh:
            return is_nmon(fh.read(HEAD_BYTES))
    except DAMAGE:
        return False
