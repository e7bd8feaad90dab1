"""Routing of the text lines of an nmon file (everything that is not a data row).

AAA lines fill the header, BBB* lines the configuration (BBBP: command outputs), ZZZZ lines go
to the snapshot times (:mod:`.snapshots`), ERROR lines and lines that are not nmon records become
warnings, UARG lines are kept for their table, and the other lines are section headers (a new
header mid-file: new devices, columns merged) or rows that could not be read.
"""

from __future__ import annotations

import re

from .state import MAX_FIELDS, T_RE, TAG_RE, Header, ReaderState, Section


class Routing(ReaderState):
    """The text-line half of the reader."""

    def _text_line(self, line: int, text: str, last: bool) -> None:
        if not text.strip():
            return
        if last and not self._ends_clean:
            self.warn(line, "last line is truncated (no end of line): its last field was dropped")
            if "," not in text:
                return
            text = text.rsplit(",", 1)[0]
        parts = text.split(",")
        tag = parts[0].strip()
        if len(parts) < 2 or not TAG_RE.match(tag):
            self.warn(line, f"not an nmon record: {text[:60]!r}", kind="garbage")
            return
        if tag == "AAA":
            key = parts[1].strip()
            value = ",".join(parts[2:]).strip()
            if key in self.rec.header and len(parts) > 2:
                key, value = f"{key}:{parts[2].strip()}", ",".join(parts[3:]).strip()
            self.rec.header[key] = value
            self.rec.header_lines[key] = line
            if key == "host":
                self.rec.host = value or None
            return
        if tag.startswith("BBB"):
            self.rec.config.append((line, text))
            if tag == "BBBP":
                self.bbbp.append((line, text))
            return
        if tag == "ZZZZ":
            self.snapshots.add(line, parts)
            return
        if tag == "ERROR":
            self.warn(line, f"nmon ERROR line: {','.join(parts[1:])[:120]}", kind="ERROR")
            return
        if tag == "UARG":
            m = T_RE.match(parts[1].strip())
            if m:
                self.uarg.append((line, parts))
            elif self.uarg_header is None:
                self.uarg_header = Header(line, [p.strip() for p in parts])
            return
        if len(parts) > MAX_FIELDS:  # a header (or the cut last row) of a section: the rest is damage
            self.warn(line, f"{tag}: a line of {len(parts):,} fields: only the first {MAX_FIELDS:,} are read",
                      kind=f"wide:{tag}")
            parts = parts[:MAX_FIELDS]
        sec = self.section(tag)
        second = parts[1].strip()
        if T_RE.match(second) or re.match(r"^[-+]?[\d.]+$", second):
            if last:
                self._tail_row(sec, line, parts)
                return
            self.warn(line, f"{tag}: row not read ({text[:60]!r})", kind=f"badrow:{tag}")
            return
        if sec.top and not second.startswith("+") and len(parts) <= 2:
            sec.title = second
            if not sec.first_line:
                sec.first_line = line
            return
        if not sec.first_line:
            sec.first_line = line
        if not sec.title or not sec.top:
            sec.title = second if not sec.top else sec.title
        if sec.headers and sec.headers[-1].fields[2:] == [p.strip() for p in parts[2:]]:
            return  # the same header again
        if sec.headers:
            self.warn(line, f"{tag}: new header line mid-file ({len(parts) - 2} columns, "
                            f"was {len(sec.headers[-1].fields) - 2}): columns merged", kind=f"hdr:{tag}")
        sec.headers.append(Header(line, [p.strip() for p in parts]))

    def _tail_row(self, sec: Section, line: int, parts: list[str]) -> None:
        """The truncated last line of a file, read in Python."""
        if sec.top:
            m = T_RE.match(parts[2].strip()) if len(parts) > 2 else None
        else:
            m = T_RE.match(parts[1].strip())
        if not m:
            return
        self.tail_rows.append((sec.sid, line, int(m.group(1)), parts))
