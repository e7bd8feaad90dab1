"""What the readers of HMC REST objects share (``hmc_rest.py``, ``_hmc_rest_sea.py``,
``_hmc_rest_vnic.py``): an element's text put under a command-line attribute name with its line,
REST booleans as the command line's 0/1, and the UUIDs the objects' links carry."""

from __future__ import annotations

import re
from typing import Any

from ._xml_tree import Node

FLAG = {"true": "1", "false": "0"}.get  # a REST boolean as the command line's 0/1


def put(out: dict[str, str], lines: dict[str, int], key: str, found: tuple[str, int] | None,
        conv: Any = None) -> None:
    """``out[key]`` = an element's text (``Node.value``), converted; nothing when absent or converted to None."""
    if found is None:
        return
    text, line = found
    value = conv(text) if conv else text
    if value is not None:
        out[key], lines[key] = value, line


def put_all(out: dict[str, str], lines: dict[str, int], node: Node, fields: tuple[tuple[Any, ...], ...]) -> None:
    """:func:`put` of each (key, element tag[, conversion]) of ``node``."""
    for key, tag, *conv in fields:
        put(out, lines, key, node.value(tag), *conv)


def children(node: Node | None, tag: str) -> list[Node]:
    """The child elements of ``node`` with this tag."""
    return [c for c in node.children if c.tag == tag] if node is not None else []


def link_match(pattern: re.Pattern[str], *nodes: Node | None) -> re.Match[str] | None:
    """The first match of ``pattern`` in the href of one of ``nodes`` or of their ``link`` children."""
    for node in nodes:
        if node is None:
            continue
        for link in [node, *children(node, "link")]:
            m = pattern.search(link.attrs.get("href", ""))
            if m:
                return m
    return None
