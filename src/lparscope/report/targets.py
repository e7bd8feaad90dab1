"""The report files of ``analyze``: where they may go (never over an input, never two reports in one
file) and how each is written (beside its target, renamed into place)."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import Optional

from rich.console import Console

from ..pipeline_guard import describe
from .say import tagged


def write_report(path: Path, make, err: Console, internal: list[str] | None = None) -> bool:  # type: ignore[no-untyped-def]
    """Write one report file through ``make(path)``; say why when it cannot be written.

    The file is written beside its target and renamed into place, so a failure never leaves a
    half-written report that looks complete, and only files that exist are announced. A target that
    is not a regular file (``/dev/null``, a pipe) is written as it is, never replaced."""
    special = path.exists() and not path.is_file()
    tmp = path if special else path.with_name(f".{path.name}.lparscope-tmp")
    try:
        make(tmp)
        if not special:
            tmp.replace(path)
        return True
    except Exception as exc:  # any failure of one writer leaves the other reports to be written
        if isinstance(exc, (OSError, ImportError, RuntimeError)) or internal is None:
            err.print(tagged("error", f"cannot write {path}: {getattr(exc, 'strerror', None) or exc}"), highlight=False)
        else:
            internal.append(f"{path}: internal error while writing it: {describe(exc)}")
            err.print(tagged("internal error", f"cannot write {path}: {describe(exc)}"), highlight=False)
        try:
            if not special:
                tmp.unlink()
        except OSError:
            pass
        return False


def overwrites_input(target: Path, paths: list[str]) -> str | None:
    """Why writing ``target`` would change what was given (an input file or bundle, or a file in an
    input folder, which is read as input), else None."""
    where = _real(target)
    if where is None:  # an unresolvable path: the writer says what is wrong with it
        return None
    for given in paths:  # each input on its own: one that cannot be resolved (a loop of links) skips no other
        root = _real(Path(given))
        try:
            if where == root:
                return f"it is the input {given}"
            if root is not None and root.is_dir() and where.is_relative_to(root) and where.exists() and not _ours(where):
                return f"it is a file of the input folder {given}"
        except (OSError, ValueError):
            continue
    return None


def _real(path: Path) -> Path | None:
    """The path with its links followed (a loop of links left as it is: ``Path.resolve`` raises on
    it), None when it cannot be made absolute."""
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):
        return None


def _ours(path: Path) -> bool:
    """A report an earlier run wrote (JSON, HTML, fix script, workbook): a run over the folder it was
    written in may write it again (``lparscope analyze . --html report.html`` twice)."""
    try:
        if not path.is_file():
            return False
        with open(path, "rb") as f:
            head = f.read(4096)
        if head.startswith(b"PK"):  # a workbook: its creator is in docProps/core.xml
            with zipfile.ZipFile(path) as z:
                return b"<dc:creator>lparscope</dc:creator>" in z.read("docProps/core.xml")[:4096]
        return (b'"schema": "lparscope.' in head or b'name="generator" content="lparscope' in head
                or b"# lparscope" in head[:300])
    except (OSError, KeyError, ValueError, RuntimeError, zipfile.BadZipFile):
        return False


def check_targets(paths: list[str], targets: dict[str, Optional[Path]]) -> str | None:
    """Why the reports cannot be written where asked (a path that would overwrite an input, or that
    two reports share), else None: the caller stops before reading anything."""
    seen: dict[Path, str] = {}
    for option, target in targets.items():
        if target is None:
            continue
        why = overwrites_input(target, paths)
        if why:
            return f"{option} {target}: {why}; lparscope never writes over what it reads"
        key = (_real(target) or target) if str(target) != "-" else target
        if key in seen:
            return f"{seen[key]} and {option} name the same file {target}"
        seen[key] = option
    return None
