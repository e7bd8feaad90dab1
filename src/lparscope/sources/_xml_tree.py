"""A small XML reader for the parsers of XML documents: elements with their 1-based lines.

expat reads the text line by line from a given line up to the end of the root element (what follows,
such as a saved dump's trailer, is not read). A document type declaration is refused, so no entity
is ever expanded, and the tree is walked without recursion by its users, so any depth is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from xml.parsers import expat


@dataclass
class Node:
    """One XML element: its local name (namespace dropped), 1-based line, attributes, text, children."""

    tag: str
    line: int
    attrs: dict[str, str]
    text: str = ""
    children: list[Node] = field(default_factory=list)

    def find(self, *path: str) -> Node | None:
        node: Node | None = self
        for tag in path:
            node = next((c for c in node.children if c.tag == tag), None) if node is not None else None
        return node

    def value(self, *path: str) -> tuple[str, int] | None:
        """(text, line) of the element at ``path`` when it has text."""
        node = self.find(*path)
        return (node.text, node.line) if node is not None and node.text else None


class _Refused(Exception):
    pass


def read_tree(lines: list[str], start: int) -> tuple[Node | None, str]:
    """The XML element that starts at line index ``start`` (lines after its end are not read), or
    (None, why not)."""
    p = expat.ParserCreate(namespace_separator="}")
    p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[Node] = []
    texts: list[list[str]] = []
    root: list[Node] = []

    def refuse(*_: Any) -> None:
        raise _Refused("a document type declaration (entities are never expanded)")

    def begin(name: str, attrs: dict[str, str]) -> None:
        node = Node(name.rsplit("}", 1)[-1], start + p.CurrentLineNumber, {k.rsplit("}", 1)[-1]: v for k, v in attrs.items()})
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)
        texts.append([])

    def end(_: str) -> None:
        node = stack.pop()
        node.text = "".join(texts.pop()).strip()

    def chars(data: str) -> None:
        if texts:
            texts[-1].append(data)

    p.StartDoctypeDeclHandler = refuse
    p.EntityDeclHandler = refuse
    p.StartElementHandler, p.EndElementHandler, p.CharacterDataHandler = begin, end, chars
    try:
        for ln in lines[start:]:
            p.Parse(ln + "\n", False)
            if root and not stack:
                break
        else:
            p.Parse("", True)
    except _Refused as exc:
        return None, str(exc)
    except expat.ExpatError as exc:
        return None, f"not well-formed XML at line {start + (exc.lineno or 1)}: {expat.ErrorString(exc.code)}"
    return (root[0], "") if root else (None, "no XML element")
