"""The fields of ``lsmap -all -npiv -fmt :`` rows printed with a ``-field`` list of their own.

``-fmt :`` prints no header: with the default fields a row has 12 values in a known order
(name physloc clntid clntname clntos status fc fcphysloc ports flags vfcclient vfcclientdrc).
Scripts often ask for fewer, in their own order (``-field name physloc clntid clntname fc
fcphysloc vfcclient vfcclientdrc status``: 9 values). Every NPIV field has a shape of its own,
so the order is told from the values of all the rows together, and only when each place holds
one shape in every row and each shape names one field:

- ``vfchostN`` is the name; ``LOGGED_IN``/``NOT_LOGGED_IN`` the status; ``a<LOGGED_IN,...>`` the flags;
- a location code with ``-V<n>-C<n>`` is a virtual slot: the server adapter's (physloc, the same
  partition in every row) or the client's (vfcclientdrc, the client's partition id);
- a location code without ``-V`` is the physical port's (fcphysloc);
- ``fcsN`` is the physical port (fc, just before fcphysloc) or the client's adapter (vfcclient);
- a number is the client id (clntid; the one the client slot names when there are two);
- text is the client's OS when it reads like one (AIX, Linux, IBM i ...), else its name.

A place that is blank in every row holds nothing to read and is left unnamed. When any of this
does not hold, nothing is guessed: :func:`layout` returns None and the rows stay unread (warned).
"""

from __future__ import annotations

import re

_SHAPES = [
    ("name", re.compile(r"^vfchost\d+$")),
    ("status", re.compile(r"^(?:NOT_)?LOGGED_IN$")),
    ("flags", re.compile(r"^[0-9a-f]+<[A-Z_,]*>$")),
    ("vslot", re.compile(r"^U\S*-V(\d+)-C\d+$")),
    ("fcphysloc", re.compile(r"^U\S*-P\d+(?:-C\d+)?(?:-T\d+)?$")),
    ("fcs", re.compile(r"^fcs\d+$")),
    ("number", re.compile(r"^\d+$")),
]
_OS = re.compile(r"^(?:AIX|Linux|IBM i|VIOS|unknown)\b", re.I)
_DEFAULT = ["name", "physloc", "clntid", "clntname", "clntos", "status", "fc", "fcphysloc", "ports", "flags",
            "vfcclient", "vfcclientdrc"]


def _shape(value: str) -> str:
    return next((name for name, rx in _SHAPES if rx.match(value)), "text")


def _slot_partition(value: str) -> str:
    m = _SHAPES[3][1].match(value)
    return m.group(1) if m else ""


def layout(rows: list[list[str | None]]) -> list[str | None] | None:
    """The field of each place of ``rows`` (all of one length; None for a place blank in every row),
    or None when the values do not tell it for certain."""
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        return None
    shapes: list[str | None] = []
    for k in range(width):
        seen = {_shape(r[k]) for r in rows if r[k]}
        if len(seen) > 1:
            return None
        shapes.append(seen.pop() if seen else None)
    fields: list[str | None] = [None] * width
    places = {s: [k for k, x in enumerate(shapes) if x == s] for s in {x for x in shapes if x}}
    for one in ("name", "status", "flags", "fcphysloc"):
        found = places.get(one, [])
        if len(found) > 1:
            return None
        for k in found:
            fields[k] = one
    if "name" not in places:
        return None
    slots = places.get("vslot", [])
    if len(slots) > 2:
        return None
    if len(slots) == 1:
        fields[slots[0]] = "physloc"
    elif len(slots) == 2:  # the server adapter's slot is in one partition (the VIOS) on every row
        own = [k for k in slots if len({_slot_partition(r[k]) for r in rows if r[k]}) == 1]
        if len(own) != 1:
            return None
        fields[own[0]] = "physloc"
        fields[next(k for k in slots if k != own[0])] = "vfcclientdrc"
    numbers = places.get("number", [])
    drc = fields.index("vfcclientdrc") if "vfcclientdrc" in fields else None
    if len(numbers) == 1:
        fields[numbers[0]] = "clntid"
    elif len(numbers) == 2 and drc is not None:  # clntid is the partition the client slot names
        match = [k for k in numbers if all(not r[k] or not r[drc] or r[k] == _slot_partition(r[drc]) for r in rows)]
        if len(match) != 1:
            return None
        fields[match[0]] = "clntid"
        fields[next(k for k in numbers if k != match[0])] = "ports"
    elif numbers:
        return None
    fcs = places.get("fcs", [])
    phys = fields.index("fcphysloc") if "fcphysloc" in fields else None
    if len(fcs) > 2 or (fcs and phys is None):
        return None
    for k in fcs:  # the physical port is named just before its location code
        fields[k] = "fc" if k + 1 == phys else "vfcclient"
    if len(fcs) == 2 and fields.count("fc") != 1:
        return None
    if len(fcs) == 1 and fields[fcs[0]] == "vfcclient":
        return None  # a lone fcs away from the port's location: which adapter it is cannot be told
    texts = places.get("text", [])
    if len(texts) > 2:
        return None
    os_like = [k for k in texts if all(_OS.match(r[k]) for r in rows if r[k])]
    for k in texts:
        fields[k] = "clntos" if k in os_like and (len(texts) == 1 or len(os_like) == 1) else "clntname"
    if len(texts) == 2 and fields.count("clntname") != 1:
        return None
    return fields


def default_layout() -> list[str | None]:
    return list(_DEFAULT)
