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


class SnapTrees:
    """The files of AIX snap trees (``input_items.snap_root``): one host per tree. A file that names
    no host itself takes the host another file of its tree names (inet0's hostname in general.snap,
    lparstat -i's node name ...); such files wait until the end of the read when none has yet, and
    take the tree's folder name when none ever does."""

    def __init__(self) -> None:
        self.hosts: dict[str, str] = {}  # tree -> the first host its files name
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
        own = named_host(pre)
        if own:
            self.hosts.setdefault(tree, own)
        self.host = self.hosts.get(tree)
        if own or self.host:
            return False
        self.waiting.setdefault(tree, (name, []))[1].append((f, pre))
        return True

    def held(self) -> Iterable[tuple[InputFile, Prepared, str]]:
        for tree, (name, files) in self.waiting.items():
            host = self.hosts.get(tree) or name
            for f, pre in files:
                yield f, pre, host
        self.waiting = {}


def named_host(pre: Prepared) -> str | None:
    """The host a prepared file names itself (an output's content or prompt, else its file name)."""
    if pre.skip or pre.cut_error:
        return None
    for seg, parsed, _ in pre.results:
        own = (parsed.hostname if parsed else None) or (seg.prompt.host if seg.prompt else None)
        if own:
            return short_host(own)
    return short_host(pre.hint.host) if pre.hint is not None and pre.hint.host else None
