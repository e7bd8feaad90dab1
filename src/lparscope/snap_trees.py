"""AIX snap trees read as one host each.

``snap`` writes a host's outputs in folders named after their area (general/general.snap,
kernel/kernel.snap, svCollect/VIOS.level ...; ``input_items.snap_root``). Those folder names
are no host: every file of one tree belongs to the host some file of the tree names.
"""

from __future__ import annotations

from collections.abc import Iterable

from .input_items import InputFile, short_host, snap_root
from .parse_pool import Prepared, prepare_input
from .sources import Registry
from .sources.filenames import base_name


class SnapTrees:
    """The files of AIX snap trees (``input_items.snap_root``): one host per tree.

    A tree is a snap's when it holds a ``*.snap`` file (general.snap, kernel.snap ...): folders
    named ``general`` or ``other`` alone prove nothing. The tree's host is the first one its
    ``.snap`` files name (inet0's hostname in general.snap); a file of the tree that names no host
    itself takes it. Such files wait until the end of the read when the tree is not known yet, and
    then take the tree's host, the name of the folder above the snap's folders, or (not a snap
    tree after all) their own folder's name as any file does."""

    def __init__(self) -> None:
        self.snaps: set[str] = set()  # trees holding a .snap file
        self.hosts: dict[str, str] = {}  # tree -> the first host its .snap files name
        self.waiting: dict[str, tuple[str, list[tuple[InputFile, Prepared]]]] = {}
        self.prepared: Prepared | None = None  # for the file just looked at: what to read it with
        self.host: str | None = None

    def holds(self, f: InputFile, pre: Prepared | None, registry: Registry, strings: dict[str, str]) -> bool:
        """Whether ``f`` waits (True), else sets ``prepared`` and ``host`` to read it with now."""
        self.prepared, self.host = pre, None
        root = snap_root(f.display)
        if root is None:
            return False
        tree, name = root
        pre = self.prepared = pre if pre is not None else prepare_input(f, registry.get(), strings)
        own = content_host(pre)
        if base_name(f.display).endswith(".snap"):
            self.snaps.add(tree)
            if own:
                self.hosts.setdefault(tree, own)
        if own or pre.hint is not None and pre.hint.host:
            return False  # the file names its host
        if tree in self.snaps and tree in self.hosts:
            self.host = self.hosts[tree]
            return False
        self.waiting.setdefault(tree, (name, []))[1].append((f, pre))
        return True

    def held(self) -> Iterable[tuple[InputFile, Prepared, str | None]]:
        """The files that waited, each with its host (None: its folder's name, as any file)."""
        for tree, (name, files) in self.waiting.items():
            host = (self.hosts.get(tree) or name or None) if tree in self.snaps else None
            for f, pre in files:
                yield f, pre, host
        self.waiting = {}


def content_host(pre: Prepared) -> str | None:
    """The host a prepared file's outputs name (their content or prompt)."""
    if pre.skip or pre.cut_error:
        return None
    for seg, parsed, _ in pre.results:
        own = (parsed.hostname if parsed else None) or (seg.prompt.host if seg.prompt else None)
        if own and short_host(own):
            return short_host(own)
    return None
