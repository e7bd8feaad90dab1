"""Device attributes: AIX ``lsattr -El`` / ``-Pl`` and VIOS ``lsdev -dev X -attr``.

Input (AIX, columns padded with spaces; a long description may touch the flag)::

    # lsattr -El hdisk4
    algorithm       load_balance   Algorithm                                True
    location                       Location Label                           True
    qfull_dly       2              delay in seconds for SCSI TASK SET FULL True
    queue_depth     20             Queue DEPTH                              True

Output: one :class:`DeviceAttribute` per row::

    DeviceAttribute(device="hdisk4", name="queue_depth", value="20",
                    description="Queue DEPTH", user_settable=True, line=5)

Also read: the VIOS form (header ``attribute value description user_settable``),
``-F name:value`` colon rows, the ``-O`` form (``#name1:name2`` header then one
colon row of values) and text whose column padding was collapsed to single spaces.
The device name comes from the command line when one is present; otherwise it is
``None`` and the caller may supply it (for example from the file name). ``lsattr -El inet0``
names the host (its ``hostname`` attribute) when no prompt does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import HOST_NAME_RE, preamble, Parsed, leading_prompt, split_lines

KIND = "lsattr"
TITLE = "lsattr -El / lsdev -dev -attr"
COMMANDS = [r"^lsattr\b.*\s-[A-Za-z]*[EPD]", r"^lsdev\b.*-dev\s+\S+.*-attr", r"^lsdev\b.*-attr.*-dev\s+\S+"]  # -El, -HEl, -EHl ...
STARTS = re.compile(r"^attribute\s+value\s+description\s+user_settable\s*$")

_NAME_RE = re.compile(r"[A-Za-z_][\w.-]*(?=\s)")


class _Row:
    """``name  value  description  flag`` found without a backtracking pattern (the former one,
    name, blanks, a lazy rest, blanks and the flag, took seconds on a line with a long run of blanks)."""

    def __init__(self, line: str, name_end: int, flag_start: int, flag: str) -> None:
        self.line, self.spans = line, {"name": (0, name_end), "flag": (flag_start, flag_start + len(flag))}
        rest_start = len(line) - len(line[name_end:].lstrip()) if line[name_end:].strip() else name_end
        rest_start = min(rest_start, flag_start)
        self.spans["rest"] = (rest_start, rest_start + len(line[rest_start:flag_start].rstrip()))

    def group(self, name: str) -> str:
        a, b = self.spans[name]
        return self.line[a:b]

    def start(self, name: str) -> int:
        return self.spans[name][0]

    def end(self, name: str) -> int:
        return self.spans[name][1]


class _RowPattern:
    @staticmethod
    def match(line: str) -> _Row | None:
        m = _NAME_RE.match(line)
        if m is None:
            return None
        body = line.rstrip()
        for flag in ("True+", "True", "False"):
            if body.endswith(flag) and len(body) - len(flag) > m.end():
                return _Row(line, m.end(), len(body) - len(flag), flag)
        return None


_ROW_RE = _RowPattern()
_VIOS_HEADER = STARTS
_DEVICE_IN_CMD = re.compile(r"(?:-[A-Za-z]*l\s*|-dev\s+)(?P<dev>[A-Za-z][\w.-]*)")


@dataclass(slots=True)  # many instances: no per-instance dict
class DeviceAttribute:
    device: str | None
    name: str
    value: str
    description: str
    user_settable: bool | None
    line: int


def detect(text: str) -> int:
    lines = [ln for ln in split_lines(text)[:60] if ln.strip()]
    if not lines:
        return 0
    prompt, start = leading_prompt(lines)
    if prompt and any(re.search(p, prompt.command) for p in COMMANDS):
        return 95
    body = lines[start:] if prompt else lines
    if any(_VIOS_HEADER.match(ln) for ln in body[:3]):
        return 90
    if body and body[0].startswith("#") and ":" in body[0] and len(body) >= 2 and body[1].count(":") == body[0].count(":"):
        return 60  # lsattr -O: "#name1:name2" header then one colon row
    rows = sum(1 for ln in body if _ROW_RE.match(ln))
    if rows and rows >= 0.8 * len(body):
        return 70 if rows >= 2 else 40
    return 0


def _looks_like_value(token: str) -> bool:
    """Values are numbers, paths, lists or lower-case words; descriptions start capitalised."""
    return bool(re.search(r"[\d.,/:_]", token)) or token.islower()


def _split_row(line: str, start: int, end: int, desc_col: int | None) -> tuple[str, str]:
    """Split line[start:end] (between the name and the flag) into value and description.

    ``desc_col`` is where descriptions start in this output's other rows; it tells an
    empty value ("location   <spaces>   Location Label") from a value that touches
    its description ("alias4  10.1.1.1,255.0.0.0 IPv4 Alias ...").
    """
    rest = line[start:end]
    parts = re.split(r"\s{2,}", rest.strip()) if rest.strip() else []
    if not parts:
        return "", ""
    if len(parts) > 1:
        return parts[0], " ".join(parts[1:])
    block_col = start + (len(rest) - len(rest.lstrip()))
    tokens = parts[0].split(" ", 1)
    if desc_col is not None:
        if block_col >= desc_col - 1 or len(tokens) == 1 and block_col > desc_col - 3:
            return "", parts[0]
        return (tokens[0], tokens[1]) if len(tokens) == 2 else (tokens[0], "")
    if len(tokens) == 2 and _looks_like_value(tokens[0]):
        return tokens[0], tokens[1]
    return "", parts[0]


def _description_column(lines: list[str]) -> int | None:
    """Most common start column of descriptions among rows with a distinct value column."""
    cols: dict[int, int] = {}
    for line in lines:
        m = _ROW_RE.match(line.rstrip())
        if not m:
            continue
        rest = line[m.end("name"):m.start("flag")]
        gaps = list(re.finditer(r"\S\s{2,}(?=\S)", rest))
        if rest.strip() and gaps:
            col = m.end("name") + gaps[0].end()
            cols[col] = cols.get(col, 0) + 1
    return max(cols, key=cols.get) if cols else None


def parse(text: str) -> Parsed:
    out = Parsed(kind=KIND)
    pre = preamble(text)
    lines, prompt, start = pre.lines, pre.prompt, pre.body
    device = None
    if prompt:
        m = _DEVICE_IN_CMD.search(prompt.command)
        device = m.group("dev") if m else None
        out.hostname = prompt.host
    colon_header: list[str] | None = None
    desc_col = _description_column(lines[start:])
    for idx in range(start, len(lines)):
        raw = lines[idx]
        lineno = idx + 1
        line = raw.rstrip()
        if not line.strip():
            continue
        if _VIOS_HEADER.match(line.strip()) or line.strip() == "value":
            continue
        if line.startswith("#") and ":" in line:
            colon_header = line[1:].split(":")
            continue
        if colon_header is not None:
            values = line.split(":")
            if len(values) != len(colon_header):
                out.warn(lineno, f"expected {len(colon_header)} colon-separated values, found {len(values)}")
            for name, value in zip(colon_header, values):
                out.records.append(DeviceAttribute(device, name.strip(), value.strip(), "", None, lineno))
            colon_header = None
            continue
        m = _ROW_RE.match(line)
        if m:
            value, desc = _split_row(line, m.end("name"), m.start("flag"), desc_col)
            out.records.append(
                DeviceAttribute(device, m.group("name"), value, desc, m.group("flag").startswith("True"), lineno)
            )
            continue
        cm = re.match(r"^(?P<name>[A-Za-z_][\w.-]*):(?P<value>[^:]*)(?::(?P<desc>[^:]*))?(?::(?P<flag>True|False))?\s*$", line)
        if cm:
            flag = cm.group("flag")
            out.records.append(
                DeviceAttribute(device, cm.group("name"), cm.group("value").strip(), (cm.group("desc") or "").strip(),
                                None if flag is None else flag == "True", lineno)
            )
            continue
        out.warn(lineno, f"not an attribute row: {line.strip()[:60]!r}")
    if out.hostname is None and device == "inet0":
        # inet0's hostname attribute is the host's own name (a snap's general.snap has it)
        out.hostname = next((r.value for r in out.records if r.name == "hostname" and HOST_NAME_RE.match(r.value)), None)
    return out
