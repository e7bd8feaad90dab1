"""A text file that ends inside its last line (no end of line after it): was that line cut?

AIX commands end every line they print, so an output redirected to a file ends with an end of
line; a copy cut short (a full disk, a transfer stopped, a paste cut off) ends inside a line, and
a value on that line may be only its first digits (``queue_depth 20`` read as ``2``). But many
complete files end without one too: pasted into an editor, saved by a tool, or by a script that
strips it (in the project's corpus 6 of 194 text files, each complete: ``Output Bytes: 209883136``,
a full ``svmon -G`` row). "No end of line" alone is no sign of damage, and a value cut inside its
last digits looks whole. Two rules tell a cut line where one can be told, the same for every kind
(``parse_pool`` applies them):

- the line stops before the last column of the table right above it (the two lines above are
  rows of one table: as many fields, at least two, their last fields starting in one column,
  two characters' play for right-aligned numbers; not rulers, nor keys without a value): a field is missing, so the line is
  not read (:func:`stops_before_last_column`). Tried on the corpus: no complete file's last line
  is taken for a cut one;
- the line's parser could not read it (fewer fields than its header, a value without its unit):
  its warning says that the file ends inside this line (:data:`MAY_BE_CUT`).

Any other cut (inside the last field of a row or of a ``Key : value`` line) cannot be told from
a whole value, and is read as it is.
"""

from __future__ import annotations

MAY_BE_CUT = "the file ends inside this line (no end of line after it): it may have been cut"
CUT_ROW = ("the file ends inside this line (no end of line after it), and the line stops before the last "
           "column of the table above it: it was cut; not read")


def open_last_line(text: str) -> tuple[int, int] | None:
    """(line number, offset of its first character) of the last line of ``text`` when the text
    ends inside it (no end of line after it) and it holds more than blanks; else None. Lines are
    counted as parsers count them (CRLF, CR or LF)."""
    if not text or text[-1] in "\r\n":
        return None
    start = max(text.rfind("\n"), text.rfind("\r")) + 1
    if not text[start:].strip():
        return None
    head = text[:start]
    return head.count("\n") + head.count("\r") - head.count("\r\n") + 1, start


def _last_field_start(line: str) -> int:
    body = line.rstrip()
    return len(body) - len(body.split()[-1])


def _ruler(line: str) -> bool:
    body = line.strip()
    return sum(c in "-=_+*." for c in body) >= 0.8 * len(body)


def stops_before_last_column(text: str, start: int) -> bool:
    """Whether the open last line (from ``start``, :func:`open_last_line`) is a row of the table
    right above it that stops before that table's last column."""
    above = text[max(0, start - 40_000):start].splitlines()[-2:]  # two lines of at most 16,384 characters
    if len(above) < 2 or any(not line.strip() or _ruler(line) for line in above):
        return False
    if any(line.rstrip().endswith(":") for line in above):  # "Key:" lines with no value: no value column
        return False
    fields = [len(line.split()) for line in above]
    if fields[0] != fields[1] or fields[0] < 2:
        return False
    columns = [_last_field_start(line) for line in above]
    last = text[start:].rstrip()
    return abs(columns[0] - columns[1]) <= 2 and len(last) < min(columns) and not _ruler(last)
