"""Lines for the terminal whose words come from the data (file and folder names, host, partition
and frame names, exception texts naming a path): printed as they are, never read as Rich markup.

``vios1[old]/lsmap.txt`` or a folder ``a[/]b`` is a name an administrator may well have; given to
``Console.print`` inside an f-string, Rich would take ``[old]`` as a style (dropped from the line)
and ``[/]`` as a closing tag (``MarkupError``, the command ends with a traceback). Every message
whose text holds such a name goes through :func:`tagged` or is printed with ``markup=False``; a
table cell or a markup line of our own takes the name through :func:`rich.markup.escape`.
"""

from __future__ import annotations

from rich.markup import escape
from rich.text import Text

__all__ = ["escape", "tagged"]

# the label in front of a message and its colour
_STYLES = {"error": "red", "internal error": "red", "note": "yellow", "warning": "yellow",
           "did not fit": "yellow", "WPAR consolidation": "yellow"}


def tagged(label: str, text: str) -> Text:
    """``label:`` in its colour, then ``text`` exactly as given (no markup read in it)."""
    return Text.assemble((f"{label}:", _STYLES.get(label, "bold")), " ", text)
